"""`paxh db check`: replay every stored game and check its hash chain (integrity.check).

On SQLite the file itself is checked first with SQLite's own `PRAGMA integrity_check` (issue 37,
N8): a damaged file (a page overwritten, the file cut short, not a database at all) is reported
as such, in a sentence (`Unreadable`), before any game is read, and never as "0 damaged" or a
traceback. Reading errors met later, game by game, are reported the same way.

Read-only and synchronous (one connection, games read one at a time in id order, so memory
stays flat on a big database)."""
from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import sqlalchemy as sa

from pax_hispanica.web.db import schema as db
from pax_hispanica.web.play import integrity

PROGRESS_EVERY = 100
COLS = [db.games.c[k] for k in ("id", "version", "config", "seed", "ruleset_version", "record_format")]
# how many of SQLite's integrity-check messages are read (the first one is shown)
MAX_SQLITE_ERRORS = 20


def fingerprint(head: str) -> str:
    """A short digest of a game's chain head: two databases holding the same record (a backup
    and its restore) print the same one. The head itself covers the secrets and stays on the
    server (play/integrity.py), so only a keyed-by-tag digest of it is printed."""
    return hashlib.sha256(f"paxh-fingerprint-1|{head}".encode()).hexdigest()[:24]


def check_game_chain(conn: sa.Connection, g: sa.RowMapping) -> tuple[str | None, str | None]:
    """(what is wrong with one game's record or None, "<n> actions, chain <fingerprint>" or None).
    A server may store actions meanwhile: the version is read again after the actions, and the
    game re-read when it moved."""
    for _attempt in range(5):
        rows = conn.execute(sa.select(db.actions.c.n, db.actions.c.action, db.actions.c.state_hash)
                            .where(db.actions.c.game_id == g["id"]).order_by(db.actions.c.n)).all()
        again = conn.execute(sa.select(*COLS).where(db.games.c.id == g["id"])).mappings().first()
        if again is None or again["version"] == g["version"]:
            break
        g = again
    try:
        chain = integrity.check(g["id"], g["version"], g["config"], g["seed"], g["ruleset_version"],
                                [tuple(r) for r in rows], g["record_format"])
    except integrity.Damage as d:
        return str(d), None
    except Exception as e:  # a row no replay can read (a damaged file's garbage) is damage
        return f"unreadable ({type(e).__name__}: {str(e)[:200]})", None
    return None, f"{chain.version} actions, chain {fingerprint(chain.head)}"


def check_game(conn: sa.Connection, g: sa.RowMapping) -> str | None:
    """What is wrong with one game's record, or None."""
    return check_game_chain(conn, g)[0]


class NoSchema(Exception):
    """The URL holds no Pax Hispanica database of this version."""


class Unreadable(Exception):
    """The database cannot be read as a whole: a damaged SQLite file (`damaged` True), or a
    database that cannot be reached (`damaged` False). The message is a sentence for the operator."""

    def __init__(self, message: str, damaged: bool = True) -> None:
        super().__init__(message)
        self.damaged = damaged


def sqlite_file_problem(path: str | Path, quick: bool = False) -> str | None:
    """What SQLite's own check (`PRAGMA integrity_check`, or `quick_check`) finds wrong with a
    database file, in a sentence; None when it finds nothing. Nothing is written or created."""
    pragma = "quick_check" if quick else "integrity_check"
    try:
        conn = sqlite3.connect(f"file:{quote(str(Path(path).resolve()))}?mode=rw", uri=True, timeout=30)
    except sqlite3.Error as e:
        return f"SQLite cannot open it ({e})"
    try:
        messages = [str(r[0]) for r in conn.execute(f"PRAGMA {pragma}({MAX_SQLITE_ERRORS})").fetchall()]
    except sqlite3.Error as e:       # "file is not a database", "database disk image is malformed"
        return f"SQLite cannot read it ({e})"
    finally:
        conn.close()
    if messages == ["ok"]:
        return None
    more = "+" if len(messages) >= MAX_SQLITE_ERRORS else ""
    first = " ".join(messages[0].split())[:300] if messages else "no answer"
    return f"SQLite's {pragma} found {len(messages)}{more} problem(s), the first: {first}"


def damaged_file_sentence(path: str | Path, problem: str) -> str:
    return (f"the SQLite file {path} is damaged: {problem}. No game was checked. Restore it from a "
            f"backup (`paxh db restore`), or salvage what SQLite can still read with "
            f"`sqlite3 {path} .recover` into a new file; keep the damaged file as it is.")


def check_database(url: str, progress: Callable[[int, int], None] | None = None,
                   by_version: dict[str, list[int]] | None = None,
                   fingerprints: dict[str, str] | None = None,
                   quick: bool = False) -> tuple[list[tuple[str, str]], int]:
    """([(game id, what is wrong)], number of games checked). Raises NoSchema when the URL
    holds no database of this version (nothing is created or migrated: the check is read-only),
    and Unreadable when SQLite finds the file damaged (checked first, `quick` for its quicker
    check) or reading it fails later. `by_version`, if given, is filled with ruleset version ->
    [games, of them damaged] (PRJ-50: a game replays under the version its row names);
    `fingerprints` with game id -> "<n> actions, chain <fingerprint>" for each sound game."""
    u = sa.engine.make_url(db.sync_url(url))
    sqlite = u.get_backend_name() == "sqlite"
    if sqlite:
        if not (u.database and Path(u.database).is_file()):
            raise NoSchema(f"no database file at {u.database}")
        problem = sqlite_file_problem(u.database, quick)
        if problem is not None:
            raise Unreadable(damaged_file_sentence(u.database, problem))
    engine = sa.create_engine(db.sync_url(url), poolclass=sa.pool.NullPool)
    damaged: list[tuple[str, str]] = []
    try:
        with engine.connect() as conn:
            have = {c["name"] for c in sa.inspect(conn).get_columns("games")} if \
                sa.inspect(conn).has_table("games") else set()
            if not {c.name for c in db.games.columns} <= have:
                raise NoSchema("the database has no games table of this version: start `paxh serve` "
                               "on it once to migrate it")
            ids = conn.execute(sa.select(db.games.c.id).order_by(db.games.c.id)).scalars().all()
            for i, gid in enumerate(ids, 1):
                g = conn.execute(sa.select(*COLS).where(db.games.c.id == gid)).mappings().first()
                if g is not None:
                    reason, fp = check_game_chain(conn, g)
                    if reason is not None:
                        damaged.append((gid, reason))
                    elif fingerprints is not None and fp is not None:
                        fingerprints[gid] = fp
                    if by_version is not None:
                        counts = by_version.setdefault(str(g["ruleset_version"] or "(none)")[:64], [0, 0])
                        counts[0] += 1
                        counts[1] += reason is not None
                if progress is not None and (i % PROGRESS_EVERY == 0 or i == len(ids)):
                    progress(i, len(ids))
    except sa.exc.DBAPIError as e:
        # SQLite passed its own check but a read still failed (the file changed meanwhile, or
        # damage the check does not see); or PostgreSQL could not be reached or read
        what = " ".join(str(getattr(e, "orig", None) or e).split())[:300]
        if sqlite:
            raise Unreadable(damaged_file_sentence(str(u.database), f"reading it failed ({what})")) from None
        raise Unreadable(f"cannot read the database at {u.render_as_string(hide_password=True)}: {what}",
                         damaged=False) from None
    finally:
        engine.dispose()
    return damaged, len(ids)
