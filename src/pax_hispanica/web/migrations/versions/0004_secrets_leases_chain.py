"""128-bit secret seeds as text; bot-turn lease; hash chain over actions; damaged games

- games.seed BIGINT -> TEXT (the decimal int; existing seeds are converted as they are)
- games.bot_owner, games.bot_lease_until: which server moves the game's bots, until when
- games.record_format: the engine's record format the game was made with (existing games:
  paxh-record-1, whose SplitMix64 generator this engine no longer has: reported, not replayed)
- games.damage: why a game's stored record cannot be trusted (with status 'damaged')
- actions.state_hash: sha256 chain over the record (NULL for actions stored before this
  revision: accepted and filled in when the game is next loaded, see integrity.py)

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.alter_column("seed", existing_type=sa.BigInteger, type_=sa.Text, existing_nullable=False,
                           postgresql_using="seed::text")
        batch.add_column(sa.Column("bot_owner", sa.String(32), nullable=True))
        batch.add_column(sa.Column("bot_lease_until", sa.Float, nullable=True))
        batch.add_column(sa.Column("damage", sa.Text, nullable=True))
        batch.add_column(sa.Column("record_format", sa.String(32), nullable=False,
                                   server_default="paxh-record-1"))
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("state_hash", sa.String(64), nullable=True))
    # SQLite's batch copy keeps an int stored as an int in a TEXT column: make it text
    op.execute("UPDATE games SET seed = CAST(seed AS TEXT)")


def downgrade() -> None:
    # only seeds that fit a BIGINT convert back (games made after 0004 have 128-bit seeds)
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("state_hash")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("record_format")
        batch.drop_column("damage")
        batch.drop_column("bot_lease_until")
        batch.drop_column("bot_owner")
        batch.alter_column("seed", existing_type=sa.Text, type_=sa.BigInteger, existing_nullable=False,
                           postgresql_using="seed::bigint")
