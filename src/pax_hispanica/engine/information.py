"""A seat's information state (HID-1) and sampling full states consistent with it (for
search bots): the masked state of `api.view(..., include_state=True)`.

Built from the state's fields directly, field by field as `State.to_dict` is (issue 13: no
generic walk). It equals `State.to_dict()` masked, byte for byte
(tests/engine/test_fast_views.py keeps the old construction as its reference).
"""

from __future__ import annotations

from typing import Any

from . import years  # noqa: F401  (registers the decisions whose secret domains determinize draws from)
from .decisions import saved_decision, secret_domain
from .flow import seats_to_act
from .jsontypes import JsonDict
from .rng import below, seed_state, shuffle
from .ruleset import Ruleset, load_ruleset
from .state import State, from_fields, plain_config, plain_cursor, plain_result

HIDDEN = "?"


def information_state(st: State, viewer: int | None) -> dict[str, Any]:
    """The state as `viewer` may know it: hidden cards are '?', no seed, no PRNG, others'
    sealed choices gone; once the game is over everything is shown but the PRNG.
    The keys come in `State.to_dict`'s order (SAVED, then "ruleset"), so the JSON is the same
    (tests/engine/test_fast_views.py); written out field by field, as to_dict is."""
    over = st.over
    if over:
        market, haven = st.market[:], st.haven[:]
        hands = [h[:] for h in st.hands]
        secrets = {str(seat): value for seat, value in st.secrets.items()}
    else:
        market = st.market[:1] + [HIDDEN] * (len(st.market) - 1)
        haven = st.haven[:1] + [HIDDEN] * (len(st.haven) - 1)
        hands = [h[:] if s == viewer else [HIDDEN] * len(h) for s, h in enumerate(st.hands)]
        # one's own sealed choice only, as the old view had it
        secrets = {str(viewer): st.secrets[viewer]} if viewer in st.secrets else {}
    return {
        # SCALARS
        "config": plain_config(st.config), "seed": st.seed if over else None, "seed_hash": st.seed_hash,
        "rng": None, "n": st.n, "cycle": st.cycle, "year": st.year, "step": st.step, "event_seq": st.event_seq,
        "version": st.version, "over": over, "result": plain_result(st.result),
        "minted": st.minted, "burned": st.burned,
        # FLAT
        "order": st.order[:], "money": st.money[:], "prestige": st.prestige[:], "nation": st.nation[:],
        "hand_bonus": st.hand_bonus[:], "income": st.income[:], "moves_bonus": st.moves_bonus[:],
        "fzone": st.fzone[:], "fships": st.fships[:], "legality": st.legality[:],
        "col_owner": st.col_owner[:], "col_labour": st.col_labour[:], "col_chests": st.col_chests[:],
        "col_fort": st.col_fort[:], "site_ids": st.site_ids[:], "site_names": st.site_names[:],
        "site_zone": st.site_zone[:], "site_kind": st.site_kind[:], "site_wild": st.site_wild[:],
        "site_count": st.site_count[:], "site_cap": st.site_cap[:], "rebels": st.rebels[:],
        "market": market, "market_discard": st.market_discard[:], "haven": haven,
        # NESTED
        "hands": hands,
        "tableaus": [[[card, target] for card, target in tab] for tab in st.tableaus],
        "havens": [h[:] for h in st.havens],
        "cargo": [c[:] for c in st.cargo],
        # DICTS, and the decisions
        "supply": st.supply.copy(), "gone": st.gone.copy(), "secrets": secrets,
        "cursor": plain_cursor(st.cursor),
        "stack": [saved_decision(dec) for dec in st.stack],
        "ruleset": st.config.get("ruleset", st.rs.name),      # a folder path stays a path
    }


def determinize(v: JsonDict, seed: int) -> State:
    """A full State consistent with a view `v` (one with its "state") or with an information
    state itself: hidden cards dealt at random from the unseen ones, others' sealed choices
    drawn from their legal range, a fresh PRNG. It reads nothing but `v`, so two states
    with the same view give the same sample. `determinizer(v)(seed)` is the same state;
    a search drawing many samples of one view builds its determinizer once."""
    dz = Determinizer(v)
    return dz._deal(seed, dz.template)      # its only sample may be the template itself


class Determinizer:
    """Samples of one view (issue 13): what depends on the view alone (the ruleset, the cards
    seen, the unseen ones in order, a template State built straight from the fields) is
    worked out once; each sample shuffles the unseen cards, deals them and takes a copy of
    the template (State.copy: nothing it holds is shared with another sample but what states
    always share). The draws are determinize's, in the same order, so the samples are too
    (tests/engine/test_fast_views.py checks them against the old construction)."""

    __slots__ = ("d", "template", "unseen_m", "unseen_h", "market", "haven", "hands", "secrets")

    def __init__(self, v: JsonDict) -> None:
        d = v.get("state", v)
        if "hands" not in d:
            raise ValueError("determinize needs the masked state: a view made with include_state=True, "
                             "or api.information_state(state, seat)")
        self.d = d
        rs = load_ruleset(d["ruleset"], (d.get("config") or {}).get("params") or None)
        known: set[str] = set()
        for h in d["hands"]:
            known.update(c for c in h if c != HIDDEN)
        for tab in d["tableaus"]:
            known.update(c for c, _ in tab)
        known.update(d["market_discard"])
        for deck in ("market", "haven"):
            known.update(c for c in d[deck] if c != HIDDEN)
        self.unseen_m = sorted(c for c in rs.market if c not in known)
        self.unseen_h = sorted(c for c in rs.haven if c not in known)
        self.market, self.haven, self.hands = d["market"], d["haven"], d["hands"]
        self.secrets = {int(k): val for k, val in d["secrets"].items()}
        self.template = _template(d, rs)

    def __call__(self, seed: int) -> State:
        return self._deal(seed, self.template.copy())

    def _deal(self, seed: int, st: State) -> State:
        """Deal a sample into `st`, a copy of the template (or the template, used once)."""
        rng = seed_state(seed)
        unseen_m, unseen_h = self.unseen_m[:], self.unseen_h[:]
        rng = shuffle(seed, rng, unseen_m)
        rng = shuffle(seed, rng, unseen_h)
        market = [c if c != HIDDEN else unseen_m.pop() for c in self.market]
        haven = [c if c != HIDDEN else unseen_h.pop() for c in self.haven]
        rest = unseen_m + unseen_h
        rng = shuffle(seed, rng, rest)
        hands = [[c if c != HIDDEN else rest.pop() for c in h] for h in self.hands]
        secrets = dict(self.secrets)
        rng = _sample_secrets(self.d, secrets, seed, rng)
        st.market, st.haven, st.hands, st.secrets = market, haven, hands, secrets
        st.seed, st.rng = seed, rng
        if self.d.get("seed_hash") is None:     # as State.from_dict: a view saved before the field existed
            from .keys import seed_hash
            st.seed_hash = seed_hash(seed)
        st.acting_now = seats_to_act(st)     # complete: a search applies to it, never changes it
        return st


def _sample_secrets(d: JsonDict, secrets: dict[int, Any], seed: int, rng: int) -> int:
    """Others' sealed choices of the pending decision, drawn from their legal range into
    `secrets`; returns the PRNG's new counter."""
    if d["stack"] and d["stack"][-1].get("sealed"):
        dec = d["stack"][-1]
        for s, _ in dec["committed"]:
            if s not in secrets:            # another seat's sealed choice: any value its decision allows
                domain = secret_domain(d, dec, s)
                rng, x = below(seed, rng, len(domain))
                secrets[s] = domain[x]
    return rng


def _template(d: JsonDict, rs: Ruleset) -> State:
    """The State of an information state's fields, straight from them (state.from_fields, as
    State.from_dict builds it); the hidden cards, the secrets, seed and PRNG are the sample's
    (Determinizer), and so is seed_hash when an old view has none."""
    return from_fields(d, rs, d.get("seed_hash") or "")
