"""The tables of turn-based play, clocks and notifications (migration 0005_outbox; its chat
tables are social/schema.py's).

They hang off `games` (ON DELETE CASCADE) and are declared on `db.metadata`, so Alembic
and the schema tests see one schema; nothing in the older tables changed.

- `table_rules`: a game's pace (live | turn), its clock (base + increment per decision, or a
  deadline per move), how many timeouts in a row hand a seat to a bot, and its chat setting;
- `clocks`: one row per seat: time left (live), the running deadline (epoch seconds, NULL when
  the seat is not asked), since when it is asked, the timeouts in a row, and the waiting
  period its notification belongs to;
- `seat_contacts`: where a seat's player wants to hear of their move (email, webhook) until
  accounts hold that (`outbox.recipient_for` is the seam);
- `outbox`: every message to send, durable, one row per message (SELECT ... FOR UPDATE SKIP
  LOCKED on PostgreSQL);
"""
from __future__ import annotations

import sqlalchemy as sa

from pax_hispanica.web.db.schema import game_column, metadata

table_rules = sa.Table(
    "table_rules", metadata,
    game_column(primary_key=True),
    sa.Column("pace", sa.String(8), nullable=False, server_default="live"),        # live | turn | year
    sa.Column("base_seconds", sa.Float, nullable=True),       # live: the clock's start (None: no clock)
    sa.Column("increment_seconds", sa.Float, nullable=False, server_default="0"),
    sa.Column("move_seconds", sa.Float, nullable=True),       # turn: the time for each move
    sa.Column("year_seconds", sa.Float, nullable=True),       # year: a seat's time for one Year (PRJ-39, 0006)
    sa.Column("timeouts_to_bot", sa.Integer, nullable=False, server_default="3"),
    sa.Column("chat", sa.String(8), nullable=False, server_default="all"),        # all | players | off
)

clocks = sa.Table(
    "clocks", metadata,
    game_column(primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("remaining", sa.Float, nullable=False, server_default="0"),   # live: seconds left
    sa.Column("deadline", sa.Float, nullable=True),     # epoch seconds; NULL: not asked now
    sa.Column("asked_at", sa.Float, nullable=True),
    sa.Column("timeouts", sa.Integer, nullable=False, server_default="0"),  # in a row
    sa.Column("period", sa.Integer, nullable=True),     # version at which this waiting period began
    sa.Column("notified", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("year_key", sa.String(16), nullable=True),   # year pace: the Year `remaining` is of (0006)
)

seat_contacts = sa.Table(
    "seat_contacts", metadata,
    game_column(primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("webhook", sa.String(500), nullable=True),
    sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
    sa.Column("unsubscribed", sa.Boolean, nullable=False, server_default=sa.false()),
)

outbox = sa.Table(
    "outbox", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("channel", sa.String(8), nullable=False),            # email | webhook
    sa.Column("dedupe", sa.String(200), nullable=False, unique=True),
    game_column(nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("period", sa.Integer, nullable=True),
    sa.Column("payload", sa.Text, nullable=False),                 # JSON: what to send, as rendered
    sa.Column("status", sa.String(8), nullable=False, server_default="pending"),  # pending|sending|sent|dropped|dead
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("next_attempt", sa.Float, nullable=False),           # epoch seconds
    sa.Column("lease_until", sa.Float, nullable=True),             # SQLite: a claimed row's lease
    sa.Column("last_error", sa.Text, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("sent", sa.Float, nullable=True),
)

sa.Index("ix_clocks_deadline", clocks.c.deadline)
sa.Index("ix_outbox_due", outbox.c.status, outbox.c.next_attempt)
