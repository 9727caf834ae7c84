"""What a game list says of each game (issue 38): the opponents, the nations, the date, the
status, the result and the player's place, never the game's hex id. One read for a page of
games: their seats (with the account names sitting there) and their results."""
from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from pax_hispanica.web.accounts import schema as adb
from pax_hispanica.web.db import schema as db
from pax_hispanica.web.db.store import Storage


def _day(when: Any) -> str:
    """YYYY-MM-DD of a stored timestamp (a datetime on PostgreSQL, text or a number on SQLite)."""
    if isinstance(when, datetime):
        return when.strftime("%Y-%m-%d")
    if isinstance(when, (int, float)):
        return datetime.utcfromtimestamp(when).strftime("%Y-%m-%d")
    return str(when or "")[:10]


async def _read(storage: Storage, ids: list[str]) -> tuple[dict[str, list[dict[str, Any]]], dict[str, Any]]:
    """The games' seats (with the account names sitting there), by game, and their results."""
    s, a = db.seats, adb.accounts
    async with storage.read() as conn:
        seats = (await conn.execute(
            sa.select(s.c.game_id, s.c.seat, s.c.kind, s.c.name, s.c.user_id, s.c.bot_kind, a.c.user_name)
            .select_from(s.outerjoin(a, a.c.user_id == s.c.user_id))
            .where(s.c.game_id.in_(ids)).order_by(s.c.game_id, s.c.seat))).mappings().all()
        results = {r.id: json.loads(r.result) for r in (await conn.execute(
            sa.select(db.games.c.id, db.games.c.result).where(db.games.c.id.in_(ids)))).all() if r.result}
    by_game: dict[str, list[dict[str, Any]]] = {}
    for r in seats:
        by_game.setdefault(r["game_id"], []).append(dict(r))
    return by_game, results


def _players(g: dict[str, Any], seats: list[dict[str, Any]], uid: str) -> list[dict[str, Any]]:
    """The game's players in seat order; "me": the seat is the account's, by the seat's user
    (never by a name: two players may share one, and a name is no account)."""
    nations = list((g.get("config") or {}).get("nations") or [])
    return [{"seat": r["seat"], "nation": nations[r["seat"]] if r["seat"] < len(nations) else None,
             "bot": r["kind"] == "bot", "name": r["user_name"] or r["name"] or "",
             "me": r["user_id"] is not None and r["user_id"] == uid}
            for r in seats]


def _result(g: dict[str, Any], result: dict[str, Any] | None) -> None:
    ranking = list(result.get("ranking") or []) if result else []
    g["ranking"] = ranking
    if result:
        mine = sorted(p["seat"] for p in g["mine"])
        g["place"] = next((ranking.index(x) + 1 for x in mine if x in ranking), None)
        g["winner"] = next((p for p in g["players"] if p["seat"] == result.get("winner")), None)


async def describe(storage: Storage, uid: str, games: list[dict[str, Any]]) -> None:
    """Add to each game dict (as the lists read them: id, config, status, created_at, my_seats)
    "players" ([{seat, nation, name, bot, me}] in seat order), "opponents" (the others),
    "mine" (the viewer's own), "day", "ranking" and, once over, "place" and "winner"."""
    if not games:
        return
    by_game, results = await _read(storage, [g["id"] for g in games])
    for g in games:
        g["players"] = _players(g, by_game.get(g["id"], []), uid)
        g["mine"] = [p for p in g["players"] if p["me"]]
        g["opponents"] = [p for p in g["players"] if not p["me"]]
        over = g.get("status") == "over" and g.get("updated_at")
        g["day"] = _day(g.get("updated_at") if over else g.get("created_at"))
        _result(g, results.get(g["id"]))


async def of_results(storage: Storage, uid: str, recent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A player's recent results (social.ratings.record: game, replay, place, delta) as the rows
    of a game list, for their profile: each game described as the other lists describe it, seen
    from that player's seats, with the result's rating change and replay token, newest first."""
    ids = [r["game"] for r in recent]
    if not ids:
        return []
    g = db.games
    async with storage.read() as conn:
        rows = {r["id"]: dict(r) for r in (await conn.execute(
            sa.select(g.c.id, g.c.config, g.c.status, g.c.created_at, g.c.updated_at).where(g.c.id.in_(ids))
        )).mappings().all()}
    games = []
    for r in recent:
        row = rows.get(r["game"])
        if row is not None:
            games.append({**row, "config": json.loads(row["config"]) if isinstance(row["config"], str) else row["config"],
                          "delta": r.get("delta"), "replay": r.get("replay")})
    await describe(storage, uid, games)
    return games
