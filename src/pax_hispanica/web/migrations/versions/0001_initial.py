"""initial schema: users, games, seats, actions

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False, server_default=""),
        sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("ruleset_version", sa.String(64), nullable=False, server_default=""),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False, server_default="online"),
        sa.Column("status", sa.String(16), nullable=False, server_default="active"),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("host_user", sa.String(64), nullable=True),
        sa.Column("host_token", sa.String(64), nullable=False, unique=True),
        sa.Column("spectator_token", sa.String(64), nullable=False, unique=True),
        sa.Column("result", sa.Text, nullable=True),
    )
    op.create_index("ix_games_host_user", "games", ["host_user"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("bot_kind", sa.String(32), nullable=True),
        sa.Column("bot_strength", sa.Integer, nullable=True),
        sa.Column("name", sa.String(80), nullable=False, server_default=""),
        sa.Column("token", sa.String(64), nullable=False, unique=True),
        sa.Column("user_id", sa.String(64), nullable=True),
    )
    op.create_index("ix_seats_user", "seats", ["user_id"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_seats_user", table_name="seats")
    op.drop_table("seats")
    op.drop_index("ix_games_host_user", table_name="games")
    op.drop_table("games")
    op.drop_table("users")
