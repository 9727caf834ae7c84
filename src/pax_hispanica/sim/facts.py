"""Public facts about a game that a balance study groups by: each seat's
nation, its Flagship's legality, and who was first in Player Order.
Read from the spectator view (public information only); a fact the engine's
view does not carry is simply left out of the result."""
from __future__ import annotations

from typing import Any

from ..contract import Engine


def _players(view: dict[str, Any]) -> list[dict[str, Any]] | None:
    ps = view.get("players") if isinstance(view, dict) else None
    if isinstance(ps, list) and ps and isinstance(ps[0], dict):
        return ps
    return None


def _legality(p: dict[str, Any]) -> Any:
    if "legality" in p:
        return p["legality"]
    fleet = p.get("fleet")
    if isinstance(fleet, dict):
        return fleet.get("legality")
    return None


def _order(view: dict[str, Any]) -> list[int] | None:
    for key in ("player_order", "order", "turn_order"):
        v = view.get(key)
        if isinstance(v, list) and v and all(isinstance(x, int) for x in v):
            return v
    return None


def at_start(api: Engine[Any], state: Any, n: int) -> dict[str, Any]:
    view = api.view(state, None)
    out: dict[str, Any] = {}
    ps = _players(view)
    if ps:
        nations = [p.get("nation") for p in ps]
        if any(x is not None for x in nations):
            out["nations"] = nations
        legs = [_legality(p) for p in ps]
        if any(x is not None for x in legs):
            out["start_legalities"] = legs
    order = _order(view)
    if order:
        out["first_seat"] = order[0]
        out["start_order"] = order
    return out


def at_end(api: Engine[Any], state: Any, n: int, result: dict[str, Any]) -> dict[str, Any]:
    view = api.view(state, None)
    out: dict[str, Any] = {}
    ps = _players(view)
    if ps:
        legs = [_legality(p) for p in ps]
        if any(x is not None for x in legs):
            out["legalities"] = legs
    for key in ("cycles", "cycle", "years"):
        if isinstance(result.get(key), int):
            out["cycles"] = result[key]
            break
        if isinstance(view.get(key), int):
            out["cycles"] = view[key]
            break
    return out
