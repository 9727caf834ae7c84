"""Online play's remaining gaps (issue 16): days per Year, chat limits across servers

- table_rules.year_seconds: a "days per Year" table's time for each seat's decisions of one
  Year (PRJ-39), NULL for the other paces
- clocks.year_key: which Year ("<cycle>:<year>") the seat's `remaining` belongs to
- ix_chat_rate (chat_messages: game_id, seat, created): the chat's rate limit counts a seat's
  recent messages in the database, so it holds across servers

Only adds nullable columns and an index: nothing older changes. (accounts.is_admin, the
moderator flag, came with 0005_accounts.)

Revision ID: 0006_online
Revises: 0005_outbox
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0006_online"
down_revision = "0005_outbox"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("table_rules") as b:
        b.add_column(sa.Column("year_seconds", sa.Float, nullable=True))
    with op.batch_alter_table("clocks") as b:
        b.add_column(sa.Column("year_key", sa.String(16), nullable=True))
    op.create_index("ix_chat_rate", "chat_messages", ["game_id", "seat", "created"])


def downgrade() -> None:
    op.drop_index("ix_chat_rate", "chat_messages")
    with op.batch_alter_table("clocks") as b:
        b.drop_column("year_key")
    with op.batch_alter_table("table_rules") as b:
        b.drop_column("year_seconds")
