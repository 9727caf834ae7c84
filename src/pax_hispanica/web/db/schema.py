"""Database schema, URL handling and migrations for the web game.

The schema is plain SQLAlchemy Core so that SQLite (default, one file in the
data directory) and PostgreSQL (production, several servers) share one code
path. The record of a game is `games.config` + `games.seed` + the rows of
`actions` in order: that is the truth; everything else is derived.
"""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import make_url

metadata = sa.MetaData()


def game_column(**kw: Any) -> sa.Column[str]:
    """A table's `game_id`: the game it belongs to, its rows deleted with the game (ON DELETE
    CASCADE); `kw`: primary_key=True or nullable=... (every feature's schema.py uses it)."""
    return sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), **kw)


def seat_columns() -> list[sa.Column[Any]]:
    """Who plays a seat, of a game (`seats`) or of an open table (social/schema.py's
    `table_seats`): its number (part of the primary key), human or bot, and the bot's kind and
    strength."""
    return [sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("kind", sa.String(16), nullable=False),        # human | bot
            sa.Column("bot_kind", sa.String(32), nullable=True),    # one of pax_hispanica.bots.KINDS
            sa.Column("bot_strength", sa.Integer, nullable=True)]


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
    # api.RECORD_FORMAT when the game was made: an older format is refused, never replayed
    sa.Column("record_format", sa.String(32), nullable=False, server_default="paxh-record-1"),
    sa.Column("config", sa.Text, nullable=False),          # JSON of api.Config fields
    # the secret seed as a decimal int: 128 bits from `secrets` do not fit a BIGINT (0004)
    sa.Column("seed", sa.Text, nullable=False),
    sa.Column("mode", sa.String(16), nullable=False, server_default="online"),  # online | hotseat
    sa.Column("status", sa.String(16), nullable=False, server_default="active"),  # active | over | damaged
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),  # number of stored actions
    sa.Column("host_user", sa.String(64), nullable=True),
    sa.Column("host_token", sa.String(64), nullable=False, unique=True),
    sa.Column("spectator_token", sa.String(64), nullable=False, unique=True),
    sa.Column("result", sa.Text, nullable=True),
    # a bot must act now: a starting server resumes these games only (set with every action)
    sa.Column("bot_turn", sa.Boolean, nullable=False, server_default=sa.true()),
    # the lease on the bot turn (0004): the server that moves this game's bots, and until when
    # (epoch seconds); another server takes the game over once the lease has run out
    sa.Column("bot_owner", sa.String(32), nullable=True),
    sa.Column("bot_lease_until", sa.Float, nullable=True),
    # why the stored record cannot be trusted (status 'damaged', 0004): "action 12: ..."
    sa.Column("damage", sa.Text, nullable=True),
)

seats = sa.Table(
    "seats", metadata,
    game_column(primary_key=True),
    *seat_columns(),
    sa.Column("name", sa.String(80), nullable=False, server_default=""),
    sa.Column("token", sa.String(64), nullable=False, unique=True),
    sa.Column("user_id", sa.String(64), nullable=True),
    # refreshed while a connection for the seat is open on some server (presence)
    sa.Column("last_seen", sa.Float, nullable=True),  # epoch seconds
)

actions = sa.Table(
    "actions", metadata,
    game_column(primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True),            # 0-based index in the record
    sa.Column("action", sa.Text, nullable=False),           # JSON
    # sha256 chain over the record (play/integrity.py, 0004); server-side only: it covers secrets
    sa.Column("state_hash", sa.String(64), nullable=True),
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


# pg_advisory_xact_lock key held while migrating ("paxh" in ASCII): servers that start at
# once on one database upgrade one after the other instead of racing to CREATE TABLE
MIGRATION_LOCK = 0x70617868


def use_wal(cur: Any, tries: int = 200) -> None:
    """Put a SQLite file in WAL mode (persistent: readers and the one writer stop blocking
    each other). The switch is refused at once, not waited for, while another connection
    holds a lock, so it is retried for up to about 10 s."""
    for attempt in range(tries):
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or attempt == tries - 1:
                raise
            time.sleep(0.05)


def migrate(url: str) -> None:
    """Bring the schema to the newest Alembic revision (idempotent).

    On PostgreSQL the upgrade runs in one transaction that first takes an advisory lock,
    on the connection Alembic then uses (migrations/env.py): a second server starting at
    the same time waits, then finds the schema at head and does nothing."""
    from alembic import command
    from alembic.config import Config

    here = Path(__file__).parent.parent   # web/: migrations/ and alembic.ini
    cfg = Config()
    cfg.set_main_option("script_location", str(here / "migrations"))
    cfg.set_main_option("sqlalchemy.url", sync_url(url).replace("%", "%%"))
    cfg.attributes["quiet"] = True
    if not is_postgres(url):
        command.upgrade(cfg, "head")
        conn = sqlite3.connect(make_url(sync_url(url)).database or ":memory:", timeout=30)
        try:
            use_wal(conn.cursor())
        finally:
            conn.close()
        return
    engine = sa.create_engine(sync_url(url), poolclass=sa.pool.NullPool)
    try:
        with engine.begin() as pg:  # the lock ends with this transaction (commit or rollback)
            pg.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
            cfg.attributes["connection"] = pg
            command.upgrade(cfg, "head")
    finally:
        engine.dispose()
