"""Accounts, sessions, password resets and their mail; open tables; ratings (issue 16)

Self-contained: it only adds tables (see accounts_db.py for what each holds), so it can be
chained after any other 0005 revision.

Revision ID: 0005_accounts
Revises: 0004
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0005_accounts"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("user_id", sa.String(64), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_name", sa.String(32), nullable=False),
        sa.Column("user_name_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password", sa.Text, nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("settings", sa.Text, nullable=False, server_default="{}"),
        sa.Column("is_admin", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.String(64), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_account_sessions_user", "account_sessions", ["user_id"])
    op.create_table(
        "password_resets",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.String(64), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("used", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "open_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("host_user", sa.String(64), nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("params", sa.Text, nullable=False, server_default="{}"),
        sa.Column("time_control", sa.String(32), nullable=False, server_default=""),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("rematch_of", sa.String(32), nullable=True, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_open_tables_lobby", "open_tables", ["status", "public", "created_at"])
    op.create_index("ix_open_tables_game", "open_tables", ["game_id"])
    op.create_table(
        "table_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("open_tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=True),
        sa.Column("bot_kind", sa.String(32), nullable=True),
        sa.Column("bot_strength", sa.Integer, nullable=True),
        sa.UniqueConstraint("table_id", "user_id", name="uq_table_seats_user"),
    )
    op.create_index("ix_table_seats_user", "table_seats", ["user_id"])
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(80), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("reason", sa.String(32), nullable=False, server_default=""),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("subject", sa.String(80), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_changes_subject", "rating_changes", ["subject", "at"])


def downgrade() -> None:
    for name in ("rating_changes", "rating_games", "ratings", "table_seats", "open_tables",
                 "password_resets", "account_sessions", "accounts"):
        op.drop_table(name)
