"""The table of the rate limits every server on the database shares (migration 0007), on
`db.metadata`."""
from __future__ import annotations

import sqlalchemy as sa

from pax_hispanica.web.db.schema import metadata

# the accounts' rate limits, shared by every server on the database (http/ratelimit.py,
# migration 0007): one row per (limit, key, window) with the window's count; a row lives two
# windows, then the periodic cleanup deletes it
rate_hits = sa.Table(
    "rate_hits", metadata,
    sa.Column("scope", sa.String(48), primary_key=True),      # "<kind>:<window seconds>"
    sa.Column("key", sa.String(32), primary_key=True),        # sha256 of the address or name (hex, cut)
    sa.Column("bucket", sa.BigInteger, primary_key=True),     # floor(epoch seconds / window)
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),           # epoch seconds: end of the next window
)
sa.Index("ix_rate_hits_expires", rate_hits.c.expires)
