"""Helpers for the engine-core tests (tests/engine)."""

from __future__ import annotations

from pax_hispanica import api
from pax_hispanica.engine import audit
from support import random_game as play  # noqa: F401  (the engine tests call it `play`)


def walk(obj):
    """Every scalar inside a JSON-like object (dict keys included)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from walk(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from walk(v)
    else:
        yield obj


def strings(obj) -> set:
    return {x for x in walk(obj) if isinstance(x, str)}


def ints(obj) -> set:
    return {x for x in walk(obj) if isinstance(x, int) and not isinstance(x, bool)}


def all_cards(st) -> list:
    return sorted(st.rs.market + st.rs.haven)


def counts(st) -> dict:
    """The conserved quantities of audit.py."""
    return {"money": audit.money_balance(st), "meeples": audit.meeple_total(st), "chests": audit.chest_total(st),
            "cards": sorted(audit.cards(st))}


def without(d: dict, *keys) -> dict:
    return {k: v for k, v in d.items() if k not in keys}


def view_json(st, viewer) -> object:
    """api.view as a client receives it: through JSON."""
    import json
    return json.loads(json.dumps(api.view(st, viewer, include_state=True)))


def secret_violations(st, viewer) -> list[str]:
    """HID-1: what `viewer`'s view of `st` carries that it must not (empty when all is well)."""
    from pax_hispanica.engine import sealed
    from pax_hispanica.engine.keys import derive
    v = view_json(st, viewer)
    got_s, got_i = strings(v), ints(v)
    bad = []
    if st.over:
        return bad
    for s in range(st.n):
        if s != viewer and got_s & set(st.hands[s]):
            bad.append(f"hand of seat {s}: {sorted(got_s & set(st.hands[s]))}")
    below = set(st.market[1:]) | set(st.haven[1:])
    if got_s & below:
        bad.append(f"deck cards below the top: {sorted(got_s & below)}")
    # the PRNG counter is a small int that other numbers may equal by chance: it must
    # simply be absent; the seed (large in these tests) and its keys must appear nowhere
    if st.seed in got_i or v["state"]["seed"] is not None or v["state"]["rng"] is not None:
        bad.append("the seed or the PRNG state")
    keys = {derive(st.seed, label).hex() for label in ("paxh-rng", "paxh-salt")}
    if any(k in x for x in got_s for k in keys):
        bad.append("a key derived from the seed")
    if st.stack and st.stack[-1].get("sealed"):
        dec = st.stack[-1]
        salts = {sealed.salt(st.seed, dec["id"], s) for s in dec["seats"] if s != viewer}
        if got_s & salts:
            bad.append("a salt of a sealed choice")
    others = {str(s) for s in st.secrets if s != viewer}
    if set(v["state"]["secrets"]) & others:
        bad.append(f"sealed choices of {sorted(set(v['state']['secrets']) & others)}")
    if viewer is None and (v["state"]["secrets"] or v["my_sealed_choice"] is not None):
        bad.append("a sealed choice shown to a spectator")
    for p in v["players"]:
        if p["seat"] != viewer and p["hand"] is not None:
            bad.append(f"hand list of seat {p['seat']}")
    return bad
