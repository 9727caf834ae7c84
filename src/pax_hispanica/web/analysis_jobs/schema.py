"""The analysis jobs' table (migration 0008_analysis_jobs), on `db.metadata`.

    analysis_jobs   one row per finished game and seat to review: queued, running (claimed by a
                    server until `lease_until`), done (the analysis as JSON) or failed

A job is claimed with an atomic conditional UPDATE (PostgreSQL: after SELECT ... FOR UPDATE SKIP
LOCKED), so two servers never run the same one; a job whose server died is taken again once its
lease has run out (store.py).
"""
from __future__ import annotations

import sqlalchemy as sa

from pax_hispanica.web.db.schema import game_column, metadata

analysis_jobs = sa.Table(
    "analysis_jobs", metadata,
    game_column(primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("status", sa.String(8), nullable=False, server_default="queued"),  # queued|running|done|failed
    sa.Column("claimed_by", sa.String(32), nullable=True),      # the server (Service.node) working on it
    sa.Column("lease_until", sa.Float, nullable=True),          # epoch seconds
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("budget", sa.Integer, nullable=True),             # the bot's iterations per decision
    sa.Column("result", sa.Text, nullable=True),                # GameAnalysis.to_json() (both languages)
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("seconds", sa.Float, nullable=True),              # CPU seconds the analysis took
)

sa.Index("ix_analysis_jobs_status", analysis_jobs.c.status, analysis_jobs.c.lease_until)
