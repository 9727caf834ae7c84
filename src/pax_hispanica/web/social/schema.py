"""The tables of open tables, ratings (migration 0005_accounts) and chat (migration
0005_outbox), on `db.metadata`.

    open_tables       a table waiting for players (public: listed in the lobby), then its game
    table_seats       who sits where at a table (a joined account, or a bot), kept after the start
    ratings           one openskill rating per subject: "user:<users.id>" or "bot:<kind>[:<strength>]"
    rating_games      each finished table game, once: rated or unrated (and why, PRJ-35)
    rating_changes    a rated game's rating change per seat
    chat_messages, chat_mutes, chat_reports: a game's chat, kept with the game (ON DELETE CASCADE)
"""
from __future__ import annotations

import sqlalchemy as sa

from pax_hispanica.web.db.schema import game_column, metadata, seat_columns


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
    *seat_columns(),
    sa.Column("user_id", sa.String(64), nullable=True),
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

chat_messages = sa.Table(
    "chat_messages", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    game_column(nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),                  # None: the server (a timeout)
    sa.Column("kind", sa.String(8), nullable=False),               # player | system
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("rule", sa.String(16), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
)

chat_mutes = sa.Table(
    "chat_mutes", metadata,
    game_column(primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),               # who mutes
    sa.Column("muted", sa.Integer, primary_key=True),              # whom
)

chat_reports = sa.Table(
    "chat_reports", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    game_column(nullable=False),
    sa.Column("message_id", sa.Integer, nullable=False),
    sa.Column("reporter_seat", sa.Integer, nullable=True),
    sa.Column("reason", sa.String(300), nullable=False, server_default=""),
    sa.Column("text", sa.Text, nullable=False),                    # the message as it was
    sa.Column("created", sa.Float, nullable=False),
)

sa.Index("ix_open_tables_lobby", open_tables.c.status, open_tables.c.public, open_tables.c.created_at)
sa.Index("ix_open_tables_game", open_tables.c.game_id)
sa.Index("ix_table_seats_user", table_seats.c.user_id)
sa.Index("ix_rating_changes_subject", rating_changes.c.subject, rating_changes.c.at)
sa.Index("ix_chat_game", chat_messages.c.game_id, chat_messages.c.id)
sa.Index("ix_chat_rate", chat_messages.c.game_id, chat_messages.c.seat, chat_messages.c.created)   # 0006
