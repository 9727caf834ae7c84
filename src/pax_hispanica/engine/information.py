"""A seat's information state (HID-1) and sampling full states consistent with it (for
search bots): the masked state of `api.view(..., include_state=True)`.

Built from the state's fields directly (issue 13): the big regular fields are copied by
slicing, and only the small irregular ones (config, result, cursor, decisions) go
through the generic `_plain` walk. It equals `State.to_dict()` masked, byte for byte
(tests/engine/test_fast_views.py keeps the old construction as its reference).
"""

from __future__ import annotations

from typing import Any

from .flow import seats_to_act
from .rng import below, seed_state, shuffle
from .ruleset import load_ruleset
from .state import DICTS, FLAT, NESTED, SCALARS, State, _plain

HIDDEN = "?"

# Scalar fields whose values are JSON trees (dicts or lists), not single numbers or strings.
_TREES = frozenset({"config", "result"})
# information_state writes these fields one by one, in this order (to_dict's key order).
assert NESTED == ("hands", "tableaus", "havens", "cargo") and DICTS == ("supply", "gone", "secrets", "cursor")


def information_state(st: State, viewer: int | None) -> dict[str, Any]:
    """The state as `viewer` may know it: hidden cards are '?', no seed, no PRNG, others'
    sealed choices gone; once the game is over everything is shown but the PRNG.
    The keys come in `State.to_dict`'s order (SAVED, then "ruleset"), so the JSON is the same."""
    over = st.over
    d: dict[str, Any] = {}
    for f in SCALARS:
        v = getattr(st, f)
        d[f] = _plain(v) if f in _TREES else v
    d["seed"] = st.seed if over else None
    d["rng"] = None
    for f in FLAT:
        d[f] = list(getattr(st, f))          # flat lists of numbers, strings and None
    if not over:
        for deck in ("market", "haven"):
            cards = d[deck]
            d[deck] = cards[:1] + [HIDDEN] * (len(cards) - 1)
    d["hands"] = [list(h) if over or s == viewer else [HIDDEN] * len(h) for s, h in enumerate(st.hands)]
    d["tableaus"] = [[list(t) for t in tab] for tab in st.tableaus]
    for f in NESTED[2:]:                     # havens, cargo: lists of lists of numbers or strings
        d[f] = [list(x) for x in getattr(st, f)]
    d["supply"] = dict(st.supply)
    d["gone"] = dict(st.gone)
    if over:
        d["secrets"] = _plain(st.secrets)
    else:                                    # one's own sealed choice only, as the old view had it
        d["secrets"] = {str(viewer): st.secrets[viewer]} if viewer in st.secrets else {}
    d["cursor"] = _plain(st.cursor)
    d["stack"] = [_plain(x) for x in st.stack]
    d["ruleset"] = st.config.get("ruleset", st.rs.name)     # a folder path stays a path
    return d


def determinize(v: dict, seed: int) -> State:
    """A full State consistent with a view `v` (one with its "state") or with an information
    state itself: hidden cards dealt at random from the unseen ones, others' sealed choices
    drawn from their legal range, a fresh PRNG. It reads nothing but `v`, so two states
    with the same view give the same sample."""
    d = v.get("state", v)
    if "hands" not in d:
        raise ValueError("determinize needs the masked state: a view made with include_state=True, "
                         "or api.information_state(state, seat)")
    d = dict(d)
    rs = load_ruleset(d["ruleset"], (d.get("config") or {}).get("params") or None)
    rng = seed_state(seed)
    known: set[str] = set()
    for h in d["hands"]:
        known.update(c for c in h if c != HIDDEN)
    for tab in d["tableaus"]:
        known.update(c for c, _ in tab)
    known.update(d["market_discard"])
    for deck in ("market", "haven"):
        known.update(c for c in d[deck] if c != HIDDEN)
    unseen_m = sorted(c for c in rs.market if c not in known)
    unseen_h = sorted(c for c in rs.haven if c not in known)
    rng = shuffle(seed, rng, unseen_m)
    rng = shuffle(seed, rng, unseen_h)
    market = [c if c != HIDDEN else unseen_m.pop() for c in d["market"]]
    haven = [c if c != HIDDEN else unseen_h.pop() for c in d["haven"]]
    rest = unseen_m + unseen_h
    rng = shuffle(seed, rng, rest)
    hands = [[c if c != HIDDEN else rest.pop() for c in h] for h in d["hands"]]
    secrets = {int(k): val for k, val in d["secrets"].items()}
    if d["stack"] and d["stack"][-1].get("sealed"):
        dec = d["stack"][-1]
        for s, _ in dec["committed"]:
            if s not in secrets:
                if dec["d"] == "bid":
                    rng, x = below(seed, rng, d["money"][s] + 1)
                    secrets[s] = x
                else:
                    rng, x = below(seed, rng, 2)
                    secrets[s] = ("attacker", "target")[x]
    st = State.from_dict({**d, "market": market, "haven": haven, "hands": hands,
                          "secrets": {str(k): x for k, x in secrets.items()}, "seed": seed, "rng": rng}, rs)
    st.acting_now = seats_to_act(st)         # complete: a search applies to it, never changes it
    return st
