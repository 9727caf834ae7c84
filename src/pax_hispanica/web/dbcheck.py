"""`paxh db check`: replay every stored game and check its hash chain (integrity.check).

Read-only and synchronous (one connection, games read one at a time in id order, so memory
stays flat on a big database)."""
from __future__ import annotations

from collections.abc import Callable

from pathlib import Path

import sqlalchemy as sa

from . import db, integrity

PROGRESS_EVERY = 100
COLS = [db.games.c[k] for k in ("id", "version", "config", "seed", "ruleset_version", "record_format")]


def check_game(conn: sa.Connection, g: sa.RowMapping) -> str | None:
    """What is wrong with one game's record, or None. A server may store actions meanwhile:
    the version is read again after the actions, and the game re-read when it moved."""
    for _attempt in range(5):
        rows = conn.execute(sa.select(db.actions.c.n, db.actions.c.action, db.actions.c.state_hash)
                            .where(db.actions.c.game_id == g["id"]).order_by(db.actions.c.n)).all()
        again = conn.execute(sa.select(*COLS).where(db.games.c.id == g["id"])).mappings().first()
        if again is None or again["version"] == g["version"]:
            break
        g = again
    try:
        integrity.check(g["id"], g["version"], g["config"], g["seed"], g["ruleset_version"],
                        [tuple(r) for r in rows], g["record_format"])
    except integrity.Damage as d:
        return str(d)
    return None


class NoSchema(Exception):
    """The URL holds no Pax Hispanica database of this version."""


def check_database(url: str, progress: Callable[[int, int], None] | None = None,
                   by_version: dict[str, list[int]] | None = None) -> tuple[list[tuple[str, str]], int]:
    """([(game id, what is wrong)], number of games checked). Raises NoSchema when the URL
    holds no database of this version (nothing is created or migrated: the check is read-only).
    `by_version`, if given, is filled with ruleset version -> [games, of them damaged] (PRJ-50:
    a game replays under the version its row names)."""
    u = sa.engine.make_url(db.sync_url(url))
    if u.get_backend_name() == "sqlite" and not (u.database and Path(u.database).is_file()):
        raise NoSchema(f"no database file at {u.database}")
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
                    reason = check_game(conn, g)
                    if reason is not None:
                        damaged.append((gid, reason))
                    if by_version is not None:
                        counts = by_version.setdefault(str(g["ruleset_version"] or "(none)")[:64], [0, 0])
                        counts[0] += 1
                        counts[1] += reason is not None
                if progress is not None and (i % PROGRESS_EVERY == 0 or i == len(ids)):
                    progress(i, len(ids))
    finally:
        engine.dispose()
    return damaged, len(ids)
