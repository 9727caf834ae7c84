"""The accounts' rate limits in the database (rate_hits), so they hold across servers

Login, login per user name, registration and password-reset mail were counted in each
server's memory: with N servers on one database a client got N times the limit. Only adds
a table (see accounts_db.rate_hits).

Revision ID: 0007_rate_hits
Revises: 0006_online
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0007_rate_hits"
down_revision = "0006_online"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_hits",
        sa.Column("scope", sa.String(48), primary_key=True),
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("bucket", sa.BigInteger, primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_rate_hits_expires", "rate_hits", ["expires"])


def downgrade() -> None:
    op.drop_index("ix_rate_hits_expires", "rate_hits")
    op.drop_table("rate_hits")
