"""Game analysis jobs (issue 40): one row per finished game and seat, claimed with a lease

Only adds a table (see web/analysis_jobs/schema.py).

Revision ID: 0008_analysis_jobs
Revises: 0007_rate_hits
Create Date: 2026-12-06
"""
import sqlalchemy as sa
from alembic import op

revision = "0008_analysis_jobs"
down_revision = "0007_rate_hits"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analysis_jobs",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("status", sa.String(8), nullable=False, server_default="queued"),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("lease_until", sa.Float, nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("budget", sa.Integer, nullable=True),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("seconds", sa.Float, nullable=True),
    )
    op.create_index("ix_analysis_jobs_status", "analysis_jobs", ["status", "lease_until"])


def downgrade() -> None:
    op.drop_index("ix_analysis_jobs_status", "analysis_jobs")
    op.drop_table("analysis_jobs")
