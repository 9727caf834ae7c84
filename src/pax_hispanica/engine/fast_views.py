"""The fast view: `view` read from the state's fields, not from a masked copy of the whole
state; the parts of a view only the ruleset decides (colonies' names, zones and goods; the
sites) built once per ruleset, and the last board's filled dicts kept and refilled only where
values differ; `model_view` and `bid_facts`, the facts of a bid model without a view.

engine/view.py names them (HID-1's projection); the plain construction they equal (the
masked state projected) is tests/engine/reference_view.py, compared byte for byte by
tests/engine/test_fast_views.py on positions of random and heuristic games. Why they look as
they do: docs/benchmarks.md, "Fast paths".
"""

from __future__ import annotations

from itertools import compress
from operator import ne
from typing import Any

from .decisions import committed_hashes
from .end import colony_prestige_all
from .errors import short
from .flow import YEAR_STEPS, YEARS, acting
from .information import information_state
from .jsontypes import JsonDict
from .ruleset import Ruleset
from .state import CROWN, State

__all__ = ["bid_facts", "model_view", "public_decision", "view"]


class _Static:
    """What a view shows that only the ruleset decides, computed once per ruleset: each
    colony's dict with its printed parts (id, name, zone, goods) in the view's key order,
    which a view copies and fills in (a copy of a dict is cheaper than building one); and
    the same for the sites, from the last site lists seen (cards may add sites in play).
    Besides, the last board seen: the colonies' and the sites' dicts filled from
    the last state's lists, kept with copies of those lists; a view of a state whose lists
    are equal to them (compared by value, so a list changed in place can never fool it)
    copies those dicts instead of filling new ones. States of one game share their lists
    until a rule changes one (State.copy), so consecutive views mostly hit. When they do not,
    only the colonies and sites whose values differ get new dicts: a
    transition changes a few of them."""

    __slots__ = ("colonies", "filled_colonies", "filled_sites", "rs", "sites", "zone_ids")

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs                      # kept so that a ruleset's id is never reused while cached
        self.zone_ids: list[str] = rs.zone_ids
        self.colonies: list[JsonDict] = [
            {"id": rs.col_ids[c], "name": rs.col_names[c], "zone": rs.zone_ids[rs.col_zone[c]],
             "goods": rs.col_goods[c], "owner": None, "labour": None, "chests": 0, "fort": False}
            for c in range(len(rs.col_ids))]
        # (copies of the site lists they were built from, the sites' dicts without their count)
        self.sites: tuple[tuple[list[Any], ...], list[JsonDict]] = ((), [])
        # (copies of the lists they were filled from, the filled dicts): the last board seen
        self.filled_colonies: tuple[tuple[list[Any], ...], list[JsonDict]] = ((), [])
        self.filled_sites: tuple[tuple[list[Any], ...], list[JsonDict]] = ((), [])

    def site_dicts(self, st: State) -> list[JsonDict]:
        """The sites' dicts of `st` with everything but the count (which changes often) filled
        in; rebuilt when the state's site lists are not those of the last call (compared by
        value: copies are kept, so a list changed in place could never fool it)."""
        seen, dicts = self.sites
        lists = (st.site_ids, st.site_names, st.site_zone, st.site_kind, st.site_wild, st.site_cap)
        if seen != lists:
            zone_ids = self.zone_ids
            dicts = [{"id": sid, "name": name, "zone": zone_ids[z], "kind": kind, "wilderness": wild, "count": 0,
                      "capacity": cap}
                     for sid, name, z, kind, wild, cap in zip(*lists)]
            self.sites = (tuple(x[:] for x in lists), dicts)      # one assignment: never half updated
        return dicts

    def colony_dicts(self, st: State) -> list[JsonDict]:
        """The colonies' dicts of `st`, filled: to be copied, never handed out. When the board
        differs from the last one seen, only the colonies whose owner, labour, chests or fort
        differ (by value) get a new dict; the others keep theirs."""
        seen, dicts = self.filled_colonies
        lists: tuple[list[Any], ...] = (st.col_owner, st.col_labour, st.col_chests, st.col_fort)
        if seen != lists:
            blank = self.colonies
            n = len(blank)
            if seen and len(lists[0]) == len(lists[1]) == len(lists[2]) == len(lists[3]) == n:
                dicts = dicts[:]
                copies = []
                for new, old in zip(lists, seen):
                    if new == old:
                        copies.append(old)           # equal by value, and never changed: kept
                        continue
                    copies.append(new[:])
                    for i in compress(range(n), map(ne, new, old)):     # the differing ones, in C
                        dicts[i] = _colony(blank[i], lists, i)
                self.filled_colonies = (tuple(copies), dicts)
            else:
                dicts = list(map(dict.copy, blank))        # map: the copies in one C loop
                for d, o, labour, chests, fort in zip(dicts, *lists):
                    d["owner"] = "crown" if o == CROWN else o
                    d["labour"] = labour
                    d["chests"] = chests
                    d["fort"] = fort
                self.filled_colonies = (tuple(x[:] for x in lists), dicts)
        return dicts

    def filled_site_dicts(self, st: State) -> list[JsonDict]:
        """The sites' dicts of `st` with their counts: to be copied, never handed out; as with
        the colonies, when only counts differ from the last sites seen, only those sites' dicts
        are made anew."""
        seen, dicts = self.filled_sites
        counts = st.site_count
        lists = (counts, st.site_ids, st.site_names, st.site_zone, st.site_kind, st.site_wild, st.site_cap)
        if seen != lists:
            blank = self.site_dicts(st)
            if seen and seen[1:] == lists[1:] and len(counts) == len(blank):
                dicts = dicts[:]
                for i in compress(range(len(counts)), map(ne, counts, seen[0])):
                    d = dicts[i] = blank[i].copy()
                    d["count"] = counts[i]
                self.filled_sites = ((counts[:], *seen[1:]), dicts)
            else:
                dicts = list(map(dict.copy, blank))
                for d, count in zip(dicts, counts):
                    d["count"] = count
                self.filled_sites = (tuple(x[:] for x in lists), dicts)
        return dicts


def _colony(blank: JsonDict, lists: tuple[list[Any], ...], i: int) -> JsonDict:
    """Colony `i`'s dict filled from the state's lists (owner, labour, chests, fort)."""
    d = blank.copy()
    o = lists[0][i]
    d["owner"] = "crown" if o == CROWN else o
    d["labour"] = lists[1][i]
    d["chests"] = lists[2][i]
    d["fort"] = lists[3][i]
    return d


_STATIC: dict[int, _Static] = {}


def _static(rs: Ruleset) -> _Static:
    s = _STATIC.get(id(rs))
    if s is None or s.rs is not rs:
        if len(_STATIC) > 256:            # rulesets are few (the loader caches them); never grow unbounded
            _STATIC.clear()
        s = _STATIC[id(rs)] = _Static(rs)
    return s


_STEP_NAMES: dict[int, tuple[tuple[Any, ...], tuple[str, ...]]] = {}


def _step_names(year: int) -> tuple[tuple[Any, ...], tuple[str, ...]]:
    """The year's steps and their names (flow.step_name's), kept with the steps they were read
    from (so a view reads a name without a call, and never an outdated one)."""
    steps = YEAR_STEPS[year]
    known = _STEP_NAMES[year] = (steps, tuple(f.__name__ for f in steps))
    return known


_SEAT_KEYS = tuple(str(s) for s in range(16))     # a seat's key in "hashes", without a str() call


def public_decision(st: State) -> JsonDict | None:
    """The pending decision as everyone may see it: sealed choices show who has committed
    and their hashes (PRJ-1), never what; board indices become ids."""
    stack = st.stack
    if not stack:
        return None
    dec = stack[-1]
    pub = dec.copy()
    if "committed" in pub:                       # taken out, and put back last for a sealed choice
        committed = pub.pop("committed")
        if dec.get("sealed"):
            seats: list[int] = []
            hashes: dict[str, str] = {}
            for s, h in committed:
                if h is None:                    # apply_trusted left it unmade: make them all
                    seats, hashes = [], {}
                    for s2, h2 in committed_hashes(dec, st.seed, st.secrets):
                        seats.append(s2)
                        hashes[_SEAT_KEYS[s2] if 0 <= s2 < 16 else str(s2)] = h2
                    break
                seats.append(s)
                hashes[_SEAT_KEYS[s] if 0 <= s < 16 else str(s)] = h
            pub["committed"] = seats
            pub["hashes"] = hashes
    if "zone" in pub and isinstance(pub["zone"], int):
        pub["zone"] = st.rs.zone_ids[pub["zone"]]
    if "battled" in pub:
        battled = pub["battled"]
        if battled:
            zone_ids = st.rs.zone_ids
            pub["battled"] = [zone_ids[z] for z in battled]
        else:
            pub["battled"] = []
    if "sacked" in pub and isinstance(pub["sacked"], int):
        pub["sacked"] = st.rs.col_ids[pub["sacked"]]
    pub["seats"] = [*dec["seats"]]
    return pub


def _own_result(result: Any) -> Any:
    """A finished game's result with its lists copied (the view's own; the state keeps its own)."""
    if result is None:
        return None
    return {k: [*v] if type(v) is list else v for k, v in result.items()}


def view(st: State, viewer: object, include_state: bool = False, board: bool = True, copy: bool = True) -> JsonDict:
    """What one seat (or a spectator, viewer=None) sees: its readable parts, and with
    `include_state=True` also the masked state as "state" (`api.information_state`), which
    only `determinize` reads (the default leaves it out, the cheaper view every
    page and non-search bot reads). `board=False` also leaves out the map ("colonies",
    "sites", "rebels"): for a model that reads only the players and the decision (ISMCTS's
    bid model). Every list and dict in it is its own (a caller may change them). `viewer` is
    the caller's (declared `object`): ValueError unless None or a seat number of this game.
    Built with dict displays in the view's key order, lists copied with `[*x]`, no inner
    function (a comprehension is one in Python 3.11) on the common paths (docs/benchmarks.md).

    `copy=False` (PRJ-65) is the same view (equal, the same JSON) for a trusted caller that only
    reads it, such as a bot inside a search: its hands, cargo, order, discards, supply, gone
    and result are the state's own objects and its colonies' and sites' dicts the view cache's,
    so changing it would change the state or later views. Never for a view that leaves the
    process or reaches a caller's code (the web server and the command line never ask for it)."""
    if viewer is not None and (type(viewer) is not int or not 0 <= viewer < st.n):
        raise ValueError(f"a view is of a seat 0..{st.n - 1} or None (a spectator), not {short(viewer)}")
    rs = st.rs
    static = _STATIC.get(id(rs))
    if static is None or static.rs is not rs:
        static = _static(rs)
    zone_ids = static.zone_ids
    over = st.over
    hand_limit = rs.hand_limit
    players: list[JsonDict] = []
    add = players.append
    nation, money, prestige, from_colonies, hands, bonus, income, tableaus, fzone, ships, legality, cargo, havens = \
        st.nation, st.money, st.prestige, colony_prestige_all(st), st.hands, st.hand_bonus, st.income, st.tableaus, \
        st.fzone, st.fships, st.legality, st.cargo, st.havens
    for s in range(st.n):             # indexing: cheaper than one zip of the 14 lists
        tableau = tableaus[s]
        if tableau:
            tab = []
            for c, t in tableau:
                tab.append({"card": c, "target": t})
        else:
            tab = []
        hv = havens[s]
        k = len(hv)
        hand = hands[s]
        add({"seat": s, "nation": nation[s], "money": money[s], "prestige": prestige[s],
             "colony_prestige": from_colonies[s],
             "hand": (([*hand] if copy else hand) if (s == viewer or over) else None),
             "hand_count": len(hand), "hand_limit": hand_limit + bonus[s], "income": income[s], "tableau": tab,
             "fleet": {"zone": zone_ids[fzone[s]], "ships": ships[s], "legality": legality[s],
                       "cargo": [*cargo[s]] if copy else cargo[s]},
             "havens": [] if not k else [zone_ids[hv[0]]] if k == 1 else
                       [zone_ids[hv[0]], zone_ids[hv[1]]] if k == 2 else [zone_ids[z] for z in hv]})
    market, haven = st.market, st.haven
    overrides = rs.overrides
    try:
        seats = st.acting_now
    except AttributeError:              # a State built field by field elsewhere (tests' reference code)
        seats = None
    if seats is None:
        seats = acting(st)
    year, step = st.year, st.step
    known = _STEP_NAMES.get(year)
    if known is None or known[0] is not YEAR_STEPS[year]:
        known = _step_names(year)
    names = known[1]
    rebels: JsonDict = {}
    if board and any(st.rebels):
        for z, k in enumerate(st.rebels):
            if k:
                rebels[zone_ids[z]] = k
    if copy:
        discard, supply, gone = [*st.market_discard], st.supply.copy(), st.gone.copy()
        result = _own_result(st.result) if over else st.result
        if board:
            colonies = [*map(dict.copy, static.colony_dicts(st))]     # the view's own dicts
            sites = [*map(dict.copy, static.filled_site_dicts(st))]
    else:
        discard, supply, gone, result = st.market_discard, st.supply, st.gone, st.result
        if board:
            colonies, sites = static.colony_dicts(st), static.filled_site_dicts(st)
    decks = {"market": {"top": market[0] if market else None, "count": len(market)},
             "haven": {"top": haven[0] if haven else None, "count": len(haven)}, "market_discard": discard}
    if board:
        out: JsonDict = {
            "viewer": viewer, "ruleset": rs.name, "ruleset_version": rs.version,
            "ruleset_params": {**overrides} if overrides else {}, "version": st.version, "cycle": st.cycle,
            "year": YEARS[year], "step": names[step] if step < len(names) else "end",
            "order": [*st.order] if copy else st.order, "acting": [*seats],
            "decision": public_decision(st) if st.stack else None, "players": players,
            "colonies": colonies, "sites": sites, "rebels": rebels, "decks": decks, "supply": supply, "gone": gone,
            "my_sealed_choice": st.secrets.get(viewer) if viewer is not None else None,
            "seed_hash": st.seed_hash, "seed": st.seed if over else None, "over": over, "result": result}
    else:
        out = {
            "viewer": viewer, "ruleset": rs.name, "ruleset_version": rs.version,
            "ruleset_params": {**overrides} if overrides else {}, "version": st.version, "cycle": st.cycle,
            "year": YEARS[year], "step": names[step] if step < len(names) else "end",
            "order": [*st.order] if copy else st.order, "acting": [*seats],
            "decision": public_decision(st) if st.stack else None, "players": players,
            "decks": decks, "supply": supply, "gone": gone,
            "my_sealed_choice": st.secrets.get(viewer) if viewer is not None else None,
            "seed_hash": st.seed_hash, "seed": st.seed if over else None, "over": over, "result": result}
    if include_state:
        out["state"] = information_state(st, viewer)
    return out


def model_view(st: State, viewer: int | None) -> JsonDict:
    """The public facts an opponent model reads (ISMCTS's bid model), without
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


def bid_facts(st: State, seat: int) -> tuple[Any, ...]:
    """The public facts a bid model reads, without building anything (ISMCTS's memo of the
    heuristic's bids): the pending decision's card, deck and initiator, `seat`'s
    money, legality and ships, and the cycle; each is the value `model_view(st, seat)` shows
    (tests/engine/test_fast_views.py)."""
    dec = st.stack[-1] if st.stack else {}
    return (dec.get("card"), dec.get("deck"), dec.get("initiator"), st.money[seat], st.legality[seat],
            st.fships[seat], st.cycle)
