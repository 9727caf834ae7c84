"""Secrecy as a projection (HID-1, HID-2): views and redacted events.

`view` reads the state's fields directly (issue 13): no masked copy of the whole state
is built unless asked for (`include_state=True`, or `api.information_state` alone:
engine/information.py), and the parts
of a view that only the ruleset decides (colony names, zones, goods) are built once per
ruleset. tests/engine/test_fast_views.py checks the result against the old construction,
byte for byte, on positions of random and heuristic games.
"""

from __future__ import annotations

from typing import Any

from .end import colony_prestige_all
from .flow import YEARS, acting, step_name
from .information import HIDDEN, determinize, information_state
from .jsontypes import Event, JsonDict
from .ruleset import Ruleset
from .state import CROWN, State

__all__ = ["HIDDEN", "determinize", "information_state", "masked_state", "model_view", "redact", "summary", "view"]

masked_state = information_state          # the name it had before issue 13


class _Static:
    """What a view shows that only the ruleset decides, computed once per ruleset."""

    __slots__ = ("colonies", "rs", "zone_ids")

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs                      # kept so that a ruleset's id is never reused while cached
        self.zone_ids: list[str] = rs.zone_ids
        # (id, name, zone id, goods) of each colony space, in colony order
        self.colonies: list[tuple[str, str, str, str]] = [
            (rs.col_ids[c], rs.col_names[c], rs.zone_ids[rs.col_zone[c]], rs.col_goods[c])
            for c in range(len(rs.col_ids))]


_STATIC: dict[int, _Static] = {}


def _static(rs: Ruleset) -> _Static:
    s = _STATIC.get(id(rs))
    if s is None or s.rs is not rs:
        if len(_STATIC) > 256:            # rulesets are few (load_ruleset caches them); never grow unbounded
            _STATIC.clear()
        s = _STATIC[id(rs)] = _Static(rs)
    return s


def _owner(o: int | None) -> int | str | None:
    return "crown" if o == CROWN else o


def public_decision(st: State) -> JsonDict | None:
    """The pending decision as everyone may see it: sealed choices show who has committed
    and their hashes (PRJ-1), never what; board indices become ids."""
    if not st.stack:
        return None
    rs = st.rs
    dec = st.stack[-1]
    pub = {k: v for k, v in dec.items() if k != "committed"}
    if dec.get("sealed"):
        pub["committed"] = [s for s, _ in dec["committed"]]
        pub["hashes"] = {str(s): h for s, h in dec["committed"]}
    zone, colony = pub.get("zone"), pub.get("colony")
    if isinstance(zone, int):
        pub["zone"] = rs.zone_ids[zone]
    if isinstance(colony, int):
        pub["colony"] = rs.col_ids[colony]
    if "battled" in pub:
        pub["battled"] = [rs.zone_ids[z] for z in pub["battled"]]
    if isinstance(pub.get("sacked"), int):
        pub["sacked"] = rs.col_ids[pub["sacked"]]
    pub["seats"] = list(dec["seats"])
    return pub


def view(st: State, viewer: int | None, include_state: bool = False, board: bool = True) -> JsonDict:
    """What one seat (or a spectator, viewer=None) sees: its readable parts, and with
    `include_state=True` also the masked state as "state" (`api.information_state`), which
    only `determinize` reads (issue 13: the default leaves it out, the cheaper view every
    page and non-search bot reads). `board=False` also leaves out the map ("colonies",
    "sites", "rebels"): for a model that reads only the players and the decision (ISMCTS's
    bid model)."""
    rs = st.rs
    static = _static(rs)
    zone_ids = static.zone_ids
    over = st.over
    from_colonies = colony_prestige_all(st)
    hand_limit = rs.hand_limit
    players = [{
        "seat": s, "nation": st.nation[s], "money": st.money[s], "prestige": st.prestige[s],
        "colony_prestige": from_colonies[s],
        "hand": list(st.hands[s]) if (s == viewer or over) else None, "hand_count": len(st.hands[s]),
        "hand_limit": hand_limit + st.hand_bonus[s], "income": st.income[s],
        "tableau": [{"card": c, "target": t} for c, t in st.tableaus[s]],
        "fleet": {"zone": zone_ids[st.fzone[s]], "ships": st.fships[s], "legality": st.legality[s],
                  "cargo": list(st.cargo[s])},
        "havens": [zone_ids[z] for z in st.havens[s]],
    } for s in range(st.n)]
    out: JsonDict = {
        "viewer": viewer, "ruleset": rs.name, "ruleset_version": rs.version, "ruleset_params": dict(rs.overrides),
        "version": st.version, "cycle": st.cycle, "year": YEARS[st.year], "step": step_name(st),
        "order": list(st.order), "acting": list(acting(st)), "decision": public_decision(st), "players": players,
    }
    if board:
        owner, labour, chests, fort = st.col_owner, st.col_labour, st.col_chests, st.col_fort
        out["colonies"] = [{"id": cid, "name": name, "zone": zone, "goods": goods, "owner": _owner(owner[c]),
                            "labour": labour[c], "chests": chests[c], "fort": fort[c]}
                           for c, (cid, name, zone, goods) in enumerate(static.colonies)]
        out["sites"] = [{"id": sid, "name": name, "zone": zone_ids[z], "kind": kind, "wilderness": wild,
                         "count": count, "capacity": cap}
                        for sid, name, z, kind, wild, count, cap in zip(st.site_ids, st.site_names, st.site_zone,
                                                                        st.site_kind, st.site_wild, st.site_count,
                                                                        st.site_cap)]
        out["rebels"] = {zone_ids[z]: n for z, n in enumerate(st.rebels) if n}
    market, haven = st.market, st.haven
    out.update({
        "decks": {"market": {"top": market[0] if market else None, "count": len(market)},
                  "haven": {"top": haven[0] if haven else None, "count": len(haven)},
                  "market_discard": list(st.market_discard)},
        "supply": dict(st.supply), "gone": dict(st.gone),
        "my_sealed_choice": st.secrets.get(viewer) if viewer is not None else None,
        "seed_hash": st.seed_hash, "seed": st.seed if over else None,
        "over": over, "result": st.result,
    })
    if include_state:
        out["state"] = information_state(st, viewer)
    return out


def model_view(st: State, viewer: int | None) -> JsonDict:
    """The public facts an opponent model reads (ISMCTS's bid model, issue 13), without
    building a view: the ruleset, the round and the pending decision, and per player its
    seat, nation, money, Prestige, income, hand size and fleet (zone, ships, legality).
    Every key it has is the view's, with the view's value (tests/engine/test_fast_views.py);
    the heuristic bot bids from these alone (HeuristicAgent._bid)."""
    rs = st.rs
    zone_ids = rs.zone_ids
    return {
        "viewer": viewer, "ruleset": rs.name, "ruleset_version": rs.version, "ruleset_params": dict(rs.overrides),
        "version": st.version, "cycle": st.cycle, "year": YEARS[st.year], "order": list(st.order),
        "acting": list(acting(st)), "decision": public_decision(st), "over": st.over,
        "players": [{"seat": s, "nation": st.nation[s], "money": st.money[s], "prestige": st.prestige[s],
                     "income": st.income[s], "hand_count": len(st.hands[s]),
                     "fleet": {"zone": zone_ids[st.fzone[s]], "ships": st.fships[s], "legality": st.legality[s]}}
                    for s in range(st.n)],
    }


def redact(events: list[Event], viewer: int | None, reveal_all: bool = False) -> list[Event]:
    """HID-2: the log as `viewer` may see it; events addressed to other seats are dropped."""
    if reveal_all:
        return list(events)
    return [e for e in events if "to" not in e or (viewer is not None and viewer in e["to"])]


def summary(st: State) -> JsonDict:
    """A short public summary: where the game is, and each player's standing."""
    rs = st.rs
    from_colonies = colony_prestige_all(st)
    return {
        "cycle": st.cycle, "year": YEARS[st.year], "step": step_name(st), "version": st.version,
        "acting": list(acting(st)), "decision": st.stack[-1]["d"] if st.stack else None, "over": st.over,
        "order": list(st.order),
        "players": [{"seat": s, "nation": st.nation[s], "money": st.money[s], "prestige": st.prestige[s],
                     "colony_prestige": from_colonies[s], "hand": len(st.hands[s]), "income": st.income[s],
                     "tableau": [c for c, _ in st.tableaus[s]],
                     "colonies": [rs.col_ids[c] for c in st.colonies_of(s)],
                     "fleet": {"zone": rs.zone_ids[st.fzone[s]], "ships": st.fships[s],
                               "legality": st.legality[s], "cargo": list(st.cargo[s])}}
                    for s in range(st.n)],
        "result": st.result,
    }
