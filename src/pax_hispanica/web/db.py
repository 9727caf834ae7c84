"""Database schema, URL handling and migrations for the web game.

The schema is plain SQLAlchemy Core so that SQLite (default, one file in the
data directory) and PostgreSQL (production, several servers) share one code
path. The record of a game is `games.config` + `games.seed` + the rows of
`actions` in order: that is the truth; everything else is derived.
"""
from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import make_url

metadata = sa.MetaData()

users = sa.Table(
    "users", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False, server_default=""),
    sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
)

games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    sa.Column("ruleset_version", sa.String(64), nullable=False, server_default=""),
    sa.Column("config", sa.Text, nullable=False),          # JSON of api.Config fields
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("mode", sa.String(16), nullable=False, server_default="online"),  # online | hotseat
    sa.Column("status", sa.String(16), nullable=False, server_default="active"),  # active | over
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),  # number of stored actions
    sa.Column("host_user", sa.String(64), nullable=True),
    sa.Column("host_token", sa.String(64), nullable=False, unique=True),
    sa.Column("spectator_token", sa.String(64), nullable=False, unique=True),
    sa.Column("result", sa.Text, nullable=True),
    # a bot must act now: a starting server resumes these games only (set with every action)
    sa.Column("bot_turn", sa.Boolean, nullable=False, server_default=sa.true()),
)

seats = sa.Table(
    "seats", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),       # human | bot
    sa.Column("bot_kind", sa.String(32), nullable=True),   # random | heuristic | ismcts
    sa.Column("bot_strength", sa.Integer, nullable=True),
    sa.Column("name", sa.String(80), nullable=False, server_default=""),
    sa.Column("token", sa.String(64), nullable=False, unique=True),
    sa.Column("user_id", sa.String(64), nullable=True),
    # refreshed while a connection for the seat is open on some server (presence)
    sa.Column("last_seen", sa.Float, nullable=True),  # epoch seconds
)

actions = sa.Table(
    "actions", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True),            # 0-based index in the record
    sa.Column("action", sa.Text, nullable=False),           # JSON
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
)

sa.Index("ix_seats_user", seats.c.user_id)
sa.Index("ix_games_host_user", games.c.host_user)
sa.Index("ix_games_bot_turn", games.c.status, games.c.bot_turn)


def default_url(data_dir: str | Path) -> str:
    path = Path(data_dir).resolve()
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'paxh.sqlite3'}"


def sync_url(url: str) -> str:
    """The URL for synchronous use (Alembic)."""
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        return str(u.set(drivername="sqlite")) if u.drivername != "sqlite" else url
    if u.get_backend_name() == "postgresql":
        return u.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    raise ValueError(f"unsupported database URL {u.drivername!r}: use sqlite:/// or postgresql+psycopg://")


def async_url(url: str) -> str:
    """The URL for the server's async engine."""
    u = make_url(sync_url(url))
    if u.get_backend_name() == "sqlite":
        return u.set(drivername="sqlite+aiosqlite").render_as_string(hide_password=False)
    return u.render_as_string(hide_password=False)  # psycopg 3 is async-capable under one name


def is_postgres(url: str) -> bool:
    return make_url(url).get_backend_name() == "postgresql"


def migrate(url: str) -> None:
    """Bring the schema to the newest Alembic revision (idempotent)."""
    from alembic import command
    from alembic.config import Config

    here = Path(__file__).parent
    cfg = Config()
    cfg.set_main_option("script_location", str(here / "migrations"))
    cfg.set_main_option("sqlalchemy.url", sync_url(url).replace("%", "%%"))
    cfg.attributes["quiet"] = True
    command.upgrade(cfg, "head")
