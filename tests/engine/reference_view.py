"""The views as they were built before issue 13's fast paths: the masked state through
the generic `_plain` walk of the old `State.to_dict` (reference_to_dict, kept here: the
engine's is now written out field by field) and the public parts read field by field.
Kept verbatim as the reference the fast `api.view` and `api.information_state` must equal
byte for byte (tests/engine/test_fast_views.py); and `determinize` as it was before its
sampler (engine/fast_determinizer.py's Determinizer), which must give the same states."""

from __future__ import annotations

import hashlib

from pax_hispanica.engine.end import colony_prestige_all
from pax_hispanica.engine.flow import YEARS, acting, seats_to_act, step_name
from pax_hispanica.engine.state import CROWN, FLAT, NESTED, SAVED, State
from pax_hispanica.engine.vocab import CARGO, DECK, LABOUR, LEGALITY
from pax_hispanica.rulesets import load_ruleset

HIDDEN = "?"


def _plain(x):
    if isinstance(x, dict):
        return {str(k) if not isinstance(k, str) else k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def _frozen(x):
    """Decision dicts keep tuples, never lists, so a shallow copy is a safe copy."""
    if isinstance(x, dict):
        return {k: _frozen(v) for k, v in x.items()}
    if isinstance(x, list):
        return tuple(_frozen(v) for v in x)
    return x


def reference_to_dict(st: State) -> dict:
    """State.to_dict as it was before issue 13's explicit one: the generic walk."""
    d = {f: getattr(st, f) for f in SAVED}
    d["ruleset"] = st.config.get("ruleset", st.rs.name)     # a folder path stays a path
    d["secrets"] = {str(k): v for k, v in st.secrets.items()}
    d["stack"] = [_plain(x) for x in st.stack]
    d["tableaus"] = [[list(t) for t in tab] for tab in st.tableaus]
    return _plain(d)


def reference_from_dict(d: dict, rs=None) -> State:
    """State.from_dict as it was before issue 13's explicit one (the generic walk), with the
    vocabulary's members as the state has them since (vocab.py)."""
    st = State.__new__(State)
    st.rs = rs or load_ruleset(d["ruleset"], (d.get("config") or {}).get("params") or None)
    for f in SAVED:
        setattr(st, f, d[f] if f != "seed_hash" else d.get(f))
    if st.seed_hash is None:            # snapshots saved before the field existed
        from pax_hispanica.engine.keys import seed_hash
        st.seed_hash = seed_hash(st.seed)
    st.secrets = {int(k): v for k, v in d["secrets"].items()}
    st.tableaus = [[tuple(t) for t in tab] for tab in d["tableaus"]]
    st.stack = [_frozen(x) for x in d["stack"]]
    st.cursor = _frozen(dict(d["cursor"]))
    for f in FLAT:                      # fresh lists: the state never shares one with `d`
        setattr(st, f, list(getattr(st, f)))
    for f in NESTED:
        setattr(st, f, [list(x) if isinstance(x, list) else x for x in getattr(st, f)])
    st.legality = [LEGALITY[x] for x in st.legality]
    st.col_labour = [None if x is None else LABOUR[x] for x in st.col_labour]
    st.cargo = [[CARGO[x] for x in c] for c in st.cargo]
    st.stack = [{**dec, "deck": DECK[dec["deck"]]} if "deck" in dec else dec for dec in st.stack]
    st.undo_stack = ()
    st.undo_seat = None
    st.acting_now = None
    return st


def reference_masked_state(st: State, viewer: int | None) -> dict:
    """The state as `viewer` may know it: hidden cards are '?', no seed, no PRNG, others' sealed choices gone."""
    d = reference_to_dict(st)
    d["seed"] = None
    d["rng"] = None
    if not st.over:
        d["hands"] = [h if s == viewer else [HIDDEN] * len(h) for s, h in enumerate(d["hands"])]
        for deck in ("market", "haven"):
            d[deck] = d[deck][:1] + [HIDDEN] * (len(d[deck]) - 1)
        d["secrets"] = {str(viewer): st.secrets[viewer]} if viewer in st.secrets else {}
    else:
        d["seed"] = st.seed
    return d


def _owner(o):
    return "crown" if o == CROWN else o


def reference_view(st: State, viewer: int | None, include_state: bool = True) -> dict:
    """What one seat (or a spectator, viewer=None) sees: readable parts plus the masked state
    (`include_state=False` leaves the masked state out: a cheaper view for playouts, not for determinize)."""
    rs = st.rs
    ms = reference_masked_state(st, viewer) if include_state else None
    dec = st.stack[-1] if st.stack else None
    pub_dec = None
    if dec is not None:
        pub_dec = {k: v for k, v in dec.items() if k not in ("committed",)}
        if dec.get("sealed"):
            pub_dec["committed"] = [s for s, _ in dec["committed"]]
            pub_dec["hashes"] = {str(s): h for s, h in dec["committed"]}
        for k in ("zone", "colony"):
            if isinstance(pub_dec.get(k), int):
                pub_dec[k] = (rs.zone_ids if k == "zone" else rs.col_ids)[pub_dec[k]]
        if "battled" in pub_dec:
            pub_dec["battled"] = [rs.zone_ids[z] for z in pub_dec["battled"]]
        if isinstance(pub_dec.get("sacked"), int):
            pub_dec["sacked"] = rs.col_ids[pub_dec["sacked"]]
        pub_dec["seats"] = list(dec["seats"])
    players = []
    from_colonies = colony_prestige_all(st)
    for s in range(st.n):
        players.append({
            "seat": s, "nation": st.nation[s], "money": st.money[s], "prestige": st.prestige[s],
            "colony_prestige": from_colonies[s],
            "hand": list(st.hands[s]) if (s == viewer or st.over) else None, "hand_count": len(st.hands[s]),
            "hand_limit": st.hand_limit(s), "income": st.income[s],
            "tableau": [{"card": c, "target": t} for c, t in st.tableaus[s]],
            "fleet": {"zone": rs.zone_ids[st.fzone[s]], "ships": st.fships[s], "legality": st.legality[s],
                      "cargo": list(st.cargo[s])},
            "havens": [rs.zone_ids[z] for z in st.havens[s]],
        })
    return {
        "viewer": viewer, "ruleset": rs.name, "ruleset_version": rs.version, "ruleset_params": dict(rs.overrides), "version": st.version,
        "cycle": st.cycle, "year": YEARS[st.year], "step": step_name(st), "order": list(st.order),
        "acting": list(acting(st)), "decision": pub_dec, "players": players,
        "colonies": [{"id": rs.col_ids[c], "name": rs.col_names[c], "zone": rs.zone_ids[rs.col_zone[c]],
                      "goods": rs.col_goods[c], "owner": _owner(st.col_owner[c]), "labour": st.col_labour[c],
                      "chests": st.col_chests[c], "fort": st.col_fort[c]} for c in range(len(rs.col_ids))],
        "sites": [{"id": st.site_ids[i], "name": st.site_names[i], "zone": rs.zone_ids[st.site_zone[i]],
                   "kind": st.site_kind[i], "wilderness": st.site_wild[i], "count": st.site_count[i],
                   "capacity": st.site_cap[i]} for i in range(len(st.site_ids))],
        "rebels": {rs.zone_ids[z]: n for z, n in enumerate(st.rebels) if n},
        "decks": {"market": {"top": st.market[0] if st.market else None, "count": len(st.market)},
                  "haven": {"top": st.haven[0] if st.haven else None, "count": len(st.haven)},
                  "market_discard": list(st.market_discard)},
        "supply": dict(st.supply), "gone": dict(st.gone),
        "my_sealed_choice": st.secrets.get(viewer) if viewer is not None else None,
        "seed_hash": st.seed_hash, "seed": st.seed if st.over else None,
        "over": st.over, "result": st.result, **({"state": ms} if include_state else {}),
    }


class _ReferenceStream:
    """PRJ-45's draws written out plainly (engine/sampling.py must give the same): the words
    of SHAKE-256(b"paxh-sample" 0x00 seed as 32 big-endian bytes), 4 little-endian bytes each,
    read one at a time from a long enough digest; below(n) rejects a word w >= 2**32 - 2**32 % n."""

    def __init__(self, seed: int) -> None:
        self.stream = hashlib.shake_256(b"paxh-sample\x00" + seed.to_bytes(32, "big")).digest(4 * 4096)
        self.at = 0

    def below(self, n: int) -> int:
        while True:
            w = int.from_bytes(self.stream[4 * self.at:4 * self.at + 4], "little")
            self.at += 1
            if w < 2 ** 32 - 2 ** 32 % n:
                return w % n

    def pick(self, pool: list, k: int) -> list:
        """A partial Fisher-Yates shuffle: the first k of pool, in a uniformly random order."""
        pool = list(pool)
        for i in range(min(k, len(pool) - 1)):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool


def reference_determinize(v: dict, seed: int) -> State:
    """A full State consistent with a view `v` (one with its "state") or with an information
    state itself: hidden cards dealt at random from the unseen ones (PRJ-45: the market's
    hidden places from the unseen Market cards, the haven's from the unseen Haven cards, in
    order, then the hands' from what is left of both), others' sealed choices drawn from
    their legal range, a fresh PRNG. It reads nothing but `v`, so two states with the same
    view give the same sample."""
    d = v.get("state", v)
    if "hands" not in d:
        raise ValueError("determinize needs the masked state: a view made with include_state=True, "
                         "or api.information_state(state, seat)")
    d = dict(d)
    rs = load_ruleset(d["ruleset"], (d.get("config") or {}).get("params") or None)
    draws = _ReferenceStream(seed)
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
    km, kh = d["market"].count(HIDDEN), d["haven"].count(HIDDEN)
    unseen_m = draws.pick(unseen_m, km)
    unseen_h = draws.pick(unseen_h, kh)
    fill_m, fill_h = iter(unseen_m[:km]), iter(unseen_h[:kh])
    market = [c if c != HIDDEN else next(fill_m) for c in d["market"]]
    haven = [c if c != HIDDEN else next(fill_h) for c in d["haven"]]
    k = sum(h.count(HIDDEN) for h in d["hands"])
    rest = iter(draws.pick(unseen_m[km:] + unseen_h[kh:], k)[:k])
    hands = [[c if c != HIDDEN else next(rest) for c in h] for h in d["hands"]]
    secrets = {int(k): val for k, val in d["secrets"].items()}
    if d["stack"] and d["stack"][-1].get("sealed"):
        dec = d["stack"][-1]
        for s, _ in dec["committed"]:
            if s not in secrets:
                if dec["d"] == "bid":
                    secrets[s] = draws.below(d["money"][s] + 1)
                else:
                    secrets[s] = ("attacker", "target")[draws.below(2)]
    words = [draws.below(2 ** 32), draws.below(2 ** 32)]      # two whole words: never rejected
    rng = (words[0] | words[1] << 32) >> 2
    seed = 0x7061786873616D70                                  # PRJ-45's public SEARCH_SEED
    st = reference_from_dict({**d, "market": market, "haven": haven, "hands": hands,
                          "secrets": {str(k): x for k, x in secrets.items()}, "seed": seed, "rng": rng}, rs)
    st.acting_now = seats_to_act(st)         # complete: a search applies to it, never changes it
    return st
