"""The tables of accounts, open tables and ratings (migration 0005_accounts), on `db.metadata`.

    accounts          a user (users.id) with a user name and a password: user_name_key is the
                      lower-cased name (unique), password an argon2 hash, settings JSON
                      (notifications per channel, default time control)
    account_sessions  a logged-in browser: sha256 of the session cookie, whose user, until when
    password_resets   a one-time reset link: sha256 of its token, whose user, until when, used
    open_tables       a table waiting for players (public: listed in the lobby), then its game
    table_seats       who sits where at a table (a joined account, or a bot), kept after the start
    ratings           one openskill rating per subject: "user:<users.id>" or "bot:<kind>[:<strength>]"
    rating_games      each finished table game, once: rated or unrated (and why, PRJ-35)
    rating_changes    a rated game's rating change per seat
"""
from __future__ import annotations

import sqlalchemy as sa

from pax_hispanica.web.db.schema import metadata

accounts = sa.Table(
    "accounts", metadata,
    sa.Column("user_id", sa.String(64), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("user_name", sa.String(32), nullable=False),
    sa.Column("user_name_key", sa.String(32), nullable=False, unique=True),
    sa.Column("password", sa.Text, nullable=False),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("settings", sa.Text, nullable=False, server_default="{}"),
    sa.Column("is_admin", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("created_at", sa.Float, nullable=False),
)

account_sessions = sa.Table(
    "account_sessions", metadata,
    sa.Column("id", sa.String(64), primary_key=True),        # sha256 hex of the cookie's value
    sa.Column("user_id", sa.String(64), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

password_resets = sa.Table(
    "password_resets", metadata,
    sa.Column("id", sa.String(64), primary_key=True),        # sha256 hex of the link's token
    sa.Column("user_id", sa.String(64), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Column("used", sa.Boolean, nullable=False, server_default=sa.false()),
)

open_tables = sa.Table(
    "open_tables", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("host_user", sa.String(64), nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("params", sa.Text, nullable=False, server_default="{}"),   # a variant (PRJ-31)
    sa.Column("time_control", sa.String(32), nullable=False, server_default=""),
    sa.Column("status", sa.String(16), nullable=False),     # open | started | expired
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("rematch_of", sa.String(32), nullable=True, unique=True),  # the finished game it replays
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

table_seats = sa.Table(
    "table_seats", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("open_tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),        # human | bot
    sa.Column("user_id", sa.String(64), nullable=True),
    sa.Column("bot_kind", sa.String(32), nullable=True),
    sa.Column("bot_strength", sa.Integer, nullable=True),
    sa.UniqueConstraint("table_id", "user_id", name="uq_table_seats_user"),
)

ratings = sa.Table(
    "ratings", metadata,
    sa.Column("subject", sa.String(80), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False, server_default="0"),
    sa.Column("updated_at", sa.Float, nullable=False),
)

rating_games = sa.Table(
    "rating_games", metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("reason", sa.String(32), nullable=False, server_default=""),
    sa.Column("at", sa.Float, nullable=False),
)

rating_changes = sa.Table(
    "rating_changes", metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("subject", sa.String(80), nullable=False),
    sa.Column("place", sa.Integer, nullable=False),           # 1 = winner
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu_after", sa.Float, nullable=False),
    sa.Column("sigma_after", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

sa.Index("ix_account_sessions_user", account_sessions.c.user_id)
sa.Index("ix_open_tables_lobby", open_tables.c.status, open_tables.c.public, open_tables.c.created_at)
sa.Index("ix_open_tables_game", open_tables.c.game_id)
sa.Index("ix_table_seats_user", table_seats.c.user_id)
sa.Index("ix_rating_changes_subject", rating_changes.c.subject, rating_changes.c.at)

# the accounts' rate limits, shared by every server on the database (ratelimit.py, 0007): one
# row per (limit, key, window) with the window's count; a row lives two windows, then the
# periodic cleanup deletes it
rate_hits = sa.Table(
    "rate_hits", metadata,
    sa.Column("scope", sa.String(48), primary_key=True),      # "<kind>:<window seconds>"
    sa.Column("key", sa.String(32), primary_key=True),        # sha256 of the address or name (hex, cut)
    sa.Column("bucket", sa.BigInteger, primary_key=True),     # floor(epoch seconds / window)
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),           # epoch seconds: end of the next window
)
sa.Index("ix_rate_hits_expires", rate_hits.c.expires)
