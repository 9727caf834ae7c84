"""Turn-based play, clocks, a durable outbox for notifications, and chat

- table_rules: a game's pace (live | turn), clock, timeouts-to-bot and chat setting
- clocks: per seat, time left, running deadline, timeouts in a row, waiting period
- seat_contacts: a seat's email and webhook (until accounts hold them), unsubscribed
- outbox: every notification to send (SELECT ... FOR UPDATE SKIP LOCKED on PostgreSQL)
- chat_messages, chat_mutes, chat_reports

Self-contained: only new tables (see play_db.py); nothing older changes.

Revision ID: 0005_outbox
Revises: 0005_accounts
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0005_outbox"
down_revision = "0005_accounts"   # after the accounts tables (both only add tables)
branch_labels = None
depends_on = None


def _game() -> sa.ForeignKey:
    return sa.ForeignKey("games.id", ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "table_rules",
        sa.Column("game_id", sa.String(32), _game(), primary_key=True),
        sa.Column("pace", sa.String(8), nullable=False, server_default="live"),
        sa.Column("base_seconds", sa.Float, nullable=True),
        sa.Column("increment_seconds", sa.Float, nullable=False, server_default="0"),
        sa.Column("move_seconds", sa.Float, nullable=True),
        sa.Column("timeouts_to_bot", sa.Integer, nullable=False, server_default="3"),
        sa.Column("chat", sa.String(8), nullable=False, server_default="all"))
    op.create_table(
        "clocks",
        sa.Column("game_id", sa.String(32), _game(), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("remaining", sa.Float, nullable=False, server_default="0"),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("asked_at", sa.Float, nullable=True),
        sa.Column("timeouts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("period", sa.Integer, nullable=True),
        sa.Column("notified", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_clocks_deadline", "clocks", ["deadline"])
    op.create_table(
        "seat_contacts",
        sa.Column("game_id", sa.String(32), _game(), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("webhook", sa.String(500), nullable=True),
        sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
        sa.Column("unsubscribed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("channel", sa.String(8), nullable=False),
        sa.Column("dedupe", sa.String(200), nullable=False, unique=True),
        sa.Column("game_id", sa.String(32), _game(), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("period", sa.Integer, nullable=True),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("status", sa.String(8), nullable=False, server_default="pending"),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("next_attempt", sa.Float, nullable=False),
        sa.Column("lease_until", sa.Float, nullable=True),
        sa.Column("last_error", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("sent", sa.Float, nullable=True))
    op.create_index("ix_outbox_due", "outbox", ["status", "next_attempt"])
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), _game(), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("rule", sa.String(16), nullable=True),
        sa.Column("created", sa.Float, nullable=False))
    op.create_index("ix_chat_game", "chat_messages", ["game_id", "id"])
    op.create_table(
        "chat_mutes",
        sa.Column("game_id", sa.String(32), _game(), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("muted", sa.Integer, primary_key=True))
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), _game(), nullable=False),
        sa.Column("message_id", sa.Integer, nullable=False),
        sa.Column("reporter_seat", sa.Integer, nullable=True),
        sa.Column("reason", sa.String(300), nullable=False, server_default=""),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False))


def downgrade() -> None:
    for name in ("chat_reports", "chat_mutes"):
        op.drop_table(name)
    op.drop_index("ix_chat_game", "chat_messages")
    op.drop_table("chat_messages")
    op.drop_index("ix_outbox_due", "outbox")
    op.drop_table("outbox")
    op.drop_table("seat_contacts")
    op.drop_index("ix_clocks_deadline", "clocks")
    op.drop_table("clocks")
    op.drop_table("table_rules")
