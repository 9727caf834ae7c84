"""games.bot_turn: a bot must act, so a starting server resumes only those games

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("bot_turn", sa.Boolean, nullable=False, server_default=sa.true()))
    op.create_index("ix_games_bot_turn", "games", ["status", "bot_turn"])


def downgrade() -> None:
    op.drop_index("ix_games_bot_turn", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("bot_turn")
