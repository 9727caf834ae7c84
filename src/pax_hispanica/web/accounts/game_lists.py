"""An account's games, a page at a time (issue 16): to move, waiting for others, finished.

Each list is read with keyset pagination, newest first: a page's "older" link carries the
cursor of its last game, `<timestamp>~<game id>`, and the next page is the games strictly
older than that (`(t, id) < (cursor t, cursor id)`), so a page costs the same however far back
it is, and a game that starts or ends meanwhile never makes one appear twice or not at all.

- finished: `status = 'over'`, by when it ended (`games.updated_at`), PAGE at a time;
- to move and waiting: the games not over, by when they began (`games.created_at`). Whose move
  it is comes from the game itself (`api.acting`: every sealed bid or Battle Card owed counts;
  the live cache, else a replay of its record), so a page of either list scans at most SCAN
  games not over from its cursor and keeps those of its kind (PAGE at most); the cursor is the
  last game it looked at, so the next page goes on from there. One request classifies each game
  once, for both lists.

The games of an account are found as `Storage.games_of` finds them, a UNION of two index
lookups (`ix_games_host_user`, `ix_seats_user`); then the page's own seats by `ix_seats_user`.
"""
from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import sqlalchemy as sa

from pax_hispanica.web.db import schema as db
from pax_hispanica.web.db.store import Storage
from pax_hispanica.web.engine_port import api
from pax_hispanica.web.play.model import ServerError

if TYPE_CHECKING:
    from pax_hispanica.web.play.service import Service

PAGE = 20
SCAN = 60
LISTS = ("to_move", "waiting", "finished")


Cursor = tuple[Any, str]


def cursor_of(g: dict[str, Any]) -> str:
    """A game's place in its list: its sort key (as the database keeps it) and its id."""
    when = g["k"]
    return f"{when.isoformat() if isinstance(when, datetime) else when}~{g['id']}"


def parse_cursor(text: str | None, pg: bool = True) -> Cursor | None:
    """A cursor from a query string; None (the first page) when there is none or it is not one."""
    if not text or len(text) > 100 or "~" not in text:
        return None
    when, _, gid = text.rpartition("~")
    if not gid or len(gid) > 32 or not gid.isalnum():
        return None
    try:
        stamp = datetime.fromisoformat(when)
    except ValueError:
        return None
    # SQLite keeps a timestamp as text ("2026-12-01 17:00:00"): the key is that text, compared as
    # text, exactly as the database orders it (a bound datetime would be rendered otherwise)
    return (stamp if pg else when), gid


def _key(col: Any, pg: bool) -> Any:
    return col if pg else sa.type_coerce(col, sa.String)


def _older(key: Any, games_id: Any, cursor: Cursor | None) -> Any:
    if cursor is None:
        return sa.true()
    when, gid = cursor
    return sa.or_(key < when, sa.and_(key == when, games_id < gid))


def _mine(uid: str) -> Any:
    g, s = db.games, db.seats
    return sa.union(sa.select(g.c.id.label("gid")).where(g.c.host_user == uid),
                    sa.select(s.c.game_id.label("gid")).where(s.c.user_id == uid)).subquery()


def statement(uid: str, finished: bool, cursor: Cursor | None, limit: int, pg: bool = True) -> Any:
    """The page's games (benchmarks/accounts.py shows its plan)."""
    g = db.games
    mine = _mine(uid)
    key = _key(g.c.updated_at if finished else g.c.created_at, pg)
    status = g.c.status == "over" if finished else g.c.status != "over"
    return (sa.select(g.c.id, g.c.created_at, g.c.updated_at, g.c.status, g.c.version, g.c.mode, g.c.config,
                      g.c.host_token, g.c.host_user, g.c.spectator_token, key.label("k"))
            .select_from(g.join(mine, mine.c.gid == g.c.id))
            .where(sa.and_(status, _older(key, g.c.id, cursor)))
            .order_by(key.desc(), g.c.id.desc()).limit(limit))


async def _read(svc: Service, uid: str, finished: bool, cursor: Cursor | None, limit: int) -> list[dict[str, Any]]:
    s = db.seats
    async with svc.storage.read() as conn:
        rows = [dict(r) for r in (await conn.execute(statement(uid, finished, cursor, limit, svc.storage.pg))
                                  ).mappings().all()]
        seats = (await conn.execute(sa.select(s.c.game_id, s.c.seat, s.c.token).where(sa.and_(
            s.c.user_id == uid, s.c.game_id.in_([r["id"] for r in rows]))).order_by(s.c.seat))).all() if rows else []
    by_game: dict[str, list[dict[str, Any]]] = {}
    for gid, seat, token in seats:
        by_game.setdefault(gid, []).append({"seat": seat, "token": token})
    for r in rows:
        r["config"] = json.loads(r["config"])
        r["my_seats"] = by_game.get(r["id"], [])
        if r["host_user"] != uid:   # a seated player never learns the host's (or table's) link
            r["host_token"] = None
    return rows


class _Acting:
    """Whether each game not over waits for one of the account's seats (once per request)."""

    def __init__(self, svc: Service) -> None:
        self.svc = svc
        self.known: dict[str, bool] = {}

    async def __call__(self, g: dict[str, Any]) -> bool:
        if g["id"] not in self.known:
            acting: set[int] = set()
            if g["status"] == "active":
                try:
                    live = await self.svc.get(g["id"])
                    acting = set(api.acting(live.state))
                except ServerError:
                    pass
            self.known[g["id"]] = bool(acting & {x["seat"] for x in g["my_seats"]})
        g["acting"] = self.known[g["id"]]
        ret: bool = g["acting"]
        return ret


async def _active_page(svc: Service, uid: str, cursor: Cursor | None, want: bool,
                       acting: _Acting, page: int, scan: int, read: dict[Any, Any]) -> tuple[list[dict[str, Any]], str | None]:
    if cursor not in read:   # both lists' first pages are the same scan: read it once
        read[cursor] = await _read(svc, uid, False, cursor, scan)
    rows = read[cursor]
    out: list[dict[str, Any]] = []
    for _i, g in enumerate(rows):
        if await acting(g) != want:
            continue
        if len(out) == page:     # one more of this kind: the page is full and there is an older one
            return out, cursor_of(out[-1])
        out.append(g)
    if len(rows) == scan:        # looked at SCAN games: the next page goes on after the last one
        return out, cursor_of(rows[-1])
    return out, None


async def lists(svc: Service, uid: str, query: Any, page: int | None = None, scan: int | None = None) -> dict[str, Any]:
    """The account page's three lists from the query's cursors (?to_move=, ?waiting=,
    ?finished=): {list: [game, ...]} and "older": {list: the next page's cursor or None},
    "at": {list: this page's cursor (None: the newest)}."""
    page, scan = page or PAGE, scan or SCAN
    pg = svc.storage.pg
    at = {k: query.get(k) if parse_cursor(query.get(k), pg) else None for k in LISTS}
    acting, read = _Acting(svc), dict[Any, Any]()
    out: dict[str, Any] = {"older": {}, "at": at, "links": {}}
    for name, want in (("to_move", True), ("waiting", False)):
        out[name], out["older"][name] = await _active_page(svc, uid, parse_cursor(at[name], pg), want, acting,
                                                           page, scan, read)
    finished = await _read(svc, uid, True, parse_cursor(at["finished"], pg), page + 1)
    out["older"]["finished"] = cursor_of(finished[page - 1]) if len(finished) > page else None
    out["finished"] = finished[:page]
    for name in LISTS:   # the "older" link of a list keeps the other lists where they are
        if out["older"][name]:
            out["links"][name] = "?" + urlencode({**{k: v for k, v in at.items() if v}, name: out["older"][name]})
    return out


async def results_of(storage: Storage, gids: list[str]) -> dict[str, dict[str, Any]]:
    """The results of finished games, in one statement."""
    if not gids:
        return {}
    async with storage.read() as conn:
        rows = (await conn.execute(sa.select(db.games.c.id, db.games.c.result).where(db.games.c.id.in_(gids)))).all()
    return {r.id: json.loads(r.result) for r in rows if r.result}
