"""Static facts of a ruleset the page needs for words and the map: names of
zones, colonies, sites and cards, which zones touch, the nations, and how the
board is drawn (zone positions, nation colours: `api.board_layout`). Read once
per ruleset through the engine's API (api.load_ruleset, api.board_layout), so a
ruleset with another map or other nations draws itself."""
from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pax_hispanica.web.engine_port import api


@dataclass(frozen=True)
class Zone:
    id: str
    name: str
    kind: str  # land | sea | europe
    adjacent: tuple[str, ...]


@dataclass(frozen=True)
class Info:
    zones: tuple[Zone, ...]
    names: dict[str, Any]  # any id (zone, colony, site, card) -> display name
    card_cost: dict[str, Any]
    card_deck: dict[str, Any]
    nations: tuple[str, ...] = ()     # nation ids, in the ruleset's order
    positions: dict[str, Any] = field(default_factory=dict)   # zone id -> (x, y) on the board picture
    size: tuple[int, int] | None = None              # the board picture's (width, height)
    colors: dict[str, Any] = field(default_factory=dict)      # nation id -> "#rrggbb"


@lru_cache(maxsize=32)
def ruleset_info(name: str = "reference", version: str | None = None, params: tuple[Any, ...] = ()) -> Info:
    """The facts of ruleset `name`, at a game's `version` (PRJ-50) and with its variant `params`
    (PRJ-31), whose card costs may differ (PRJ-67); the names and map are the folder's."""
    try:
        rs = api.load_ruleset(name)
    except Exception:  # an unknown ruleset: the page still works, with ids as names
        return Info((), {}, {}, {})
    if version is not None or params:
        # a version or variant this engine does not build: the folder's
        with contextlib.suppress(Exception):
            rs = api.load_ruleset(name, dict(params) or None, version=version)
    zones = []
    for i, zid in enumerate(rs.zone_ids):
        kind = "europe" if i == rs.europe else ("land" if i < rs.n_land else "sea")
        zones.append(Zone(zid, rs.zone_names[i], kind, tuple(rs.zone_ids[j] for j in rs.adjacent[i])))
    names: dict[str, Any] = {z.id: z.name for z in zones}
    names.update(zip(rs.col_ids, rs.col_names))
    names.update(zip(rs.site_ids, rs.site_names))
    names.update({cid: c.name for cid, c in rs.cards.items()})
    for nid, n in rs.nations.items():
        names.setdefault(nid, n.get("name", nid))
    layout = api.board_layout(name)
    return Info(tuple(zones), names, {cid: c.cost for cid, c in rs.cards.items()},
                {cid: c.deck for cid, c in rs.cards.items()}, nations=tuple(rs.nation_order),
                positions={z: tuple(p) for z, p in layout["zones"].items()},
                size=tuple(layout["size"]) if layout.get("size") else None,
                colors={n: d["color"] for n, d in layout["nations"].items() if d.get("color")})


def nation_ids(ruleset: str = "reference") -> tuple[str, ...]:
    """The ruleset's nations, in its order (nations.toml's `order`)."""
    return ruleset_info(ruleset).nations


def rule_titles() -> dict[str, Any]:
    """Rule id -> (page, title), as the engine lists them."""
    rules = getattr(api, "RULES", {}) or {}
    out = {}
    for rid, val in rules.items():
        if isinstance(val, (tuple, list)) and len(val) >= 2:
            out[rid] = (str(val[0]), str(val[1]))
    return out


@lru_cache(maxsize=32)
def win_condition(ruleset: str = "reference", version: str | None = None,
                  params: tuple[tuple[str, object], ...] = ()) -> dict[str, Any]:
    """The numbers of the win condition (CYC-2, CYC-3) as the ruleset's data has them, at
    `version` (PRJ-50: an earlier version's numbers; None: the current one) and with a game's
    variant `params` (PRJ-31), plus the version they are of."""
    p = api.parameters(ruleset, dict(params) or None, version=version)
    shown = version or api.load_ruleset(ruleset).version
    return {"cycles": p["cycles"]["value"], "prestige": p["prestige_to_win"]["value"],
            "money": p["money_per_prestige"]["value"], "colony": p["prestige_per_colony"]["value"],
            "start_money": p["start_money"]["value"], "version": shown,
            "plunder_loading": p.get("plunder_loading", {}).get("value", "sack"),
            "crown": crown_by_count(ruleset, version, params),
            "bribes": treasure_by_count(ruleset, version, params, "smuggler_bribe"),
            "kings_shares": treasure_by_count(ruleset, version, params, "kings_crown_share")}


def treasure_by_count(ruleset: str, version: str | None, params: tuple[tuple[str, object], ...],
                      name: str) -> list[dict[str, Any]]:
    """PRJ-68, PRJ-78: the player counts at which a [treasure] number (the SMUGGLER's bribe, the
    King's share) is not its value at every other count, grouped by value: [{"players": [2],
    "value": 2, "base": 1}]."""
    p = api.parameters(ruleset, dict(params) or None, version=version, extended=True)
    base = p[name]["value"]
    groups: dict[int, dict[str, Any]] = {}
    for n in range(2, 6):
        value = p[f"{name}.{n}"]["value"]
        if value != base:
            groups.setdefault(value, {"players": [], "value": value, "base": base})["players"].append(n)
    return list(groups.values())


def crown_by_count(ruleset: str, version: str | None, params: tuple[tuple[str, object], ...]) -> list[dict[str, Any]]:
    """PRJ-75: the player counts at which the Spanish own fewer than all the Crown colonies,
    grouped by the colonies that start empty: [{"players": [2, 3], "kept": 6, "total": 8,
    "vacated": [the ruleset's colony name, ...]}]."""
    groups: dict[tuple[str, ...], dict[str, Any]] = {}
    for n, c in api.crown_colonies(ruleset, dict(params) or None, version=version).items():
        if c["vacated"]:
            g = groups.setdefault(tuple(c["vacated"]), {"players": [], "kept": len(c["kept"]),
                                                         "total": len(c["kept"]) + len(c["vacated"]),
                                                         "vacated": [c["names"][v] for v in c["vacated"]]})
            g["players"].append(n)
    return list(groups.values())


def playable_version(version: str | None) -> tuple[str, str] | None:
    """(data folder, version) for a version this engine plays (PRJ-50), else None."""
    known = api.ruleset_versions().get(version) if isinstance(version, str) else None
    if not known or known["refused"] or not known["folder"]:
        return None
    return str(known["folder"]), str(version)
