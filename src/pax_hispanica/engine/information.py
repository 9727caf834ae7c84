"""A seat's information state (HID-1) and sampling full states consistent with it (for
search bots): the masked state of `api.view(..., include_state=True)`.

Built from `State.to_dict` (one field table for both), its hidden fields masked (no generic
walk). It equals `State.to_dict()` masked, byte for byte
(tests/engine/test_fast_views.py keeps the old construction as its reference). A sample deals
the hidden cards from the unseen ones and draws others' sealed choices from their legal range;
engine/fast_determinizer.py's `Determinizer` deals it, tested equal to the plain construction.
"""

from __future__ import annotations

from typing import Any

from .end import colony_prestige_all
from .fast_determinizer import Determinizer
from .jsontypes import JsonDict
from .ruleset import Rulesets
from .state import State
from .vocab import HIDDEN

__all__ = ["HIDDEN", "Determinizer", "determinize", "hand_facts", "information_state", "score_facts"]


def information_state(st: State, viewer: int | None) -> dict[str, Any]:
    """The state as `viewer` may know it: hidden cards are '?', no seed, no PRNG, others'
    sealed choices gone; once the game is over everything is shown but the PRNG.
    Built from `State.to_dict` (one field table for both: the saved state's keys, order and
    conversions), with the masked fields replaced in place, so the key order and the JSON
    are to_dict's (tests/engine/test_fast_views.py checks it against the old construction)."""
    d = st.to_dict()
    d["rng"] = None
    if not st.over:
        d["seed"] = None
        market, haven = st.market, st.haven
        d["market"] = market[:1] + [HIDDEN] * (len(market) - 1)
        d["haven"] = haven[:1] + [HIDDEN] * (len(haven) - 1)
        d["hands"] = [h[:] if s == viewer else [HIDDEN] * len(h) for s, h in enumerate(st.hands)]
        # one's own sealed choice only, as the old view had it
        d["secrets"] = {str(viewer): st.secrets[viewer]} if viewer in st.secrets else {}
    return d


def score_facts(st: State) -> tuple[int, list[tuple[int, int, int, int, int, int, str, int]]]:
    """What a search's cut-off scoring reads of a (sampled) state, as tuples, nothing else
    built (ISMCTS's `_values`): the cycle, and per seat (prestige, money, colony_prestige,
    hand size, income, ships, legality, Chests aboard), equal to `api.summary`'s values
    (tests/bots/test_ismcts_values.py). All of it is public (HID-1)."""
    colonies = colony_prestige_all(st)
    return st.cycle, [(st.prestige[s], st.money[s], colonies[s], len(st.hands[s]), st.income[s], st.fships[s],
                       st.legality[s], st.cargo[s].count("chest")) for s in range(st.n)]


def hand_facts(st: State) -> tuple[tuple[str, ...], ...]:
    """Each seat's hand, card ids, as tuples: what a search's cut-off scoring reads to price the
    cards in hand (ISMCTS's `eval=worth`). Of a state a search sampled, so the others' hidden
    cards are the sample's guesses (HID-2: a state itself is never shown to a player)."""
    return tuple(tuple(h) for h in st.hands)


def determinize(v: JsonDict, seed: int, known: JsonDict | None = None, *, rulesets: Rulesets) -> State:
    """A full State consistent with a view `v` (one with its "state") or with an information
    state itself: hidden cards dealt at random from the unseen ones, others' sealed choices
    drawn from their legal range, a fresh PRNG. It reads nothing but `v` (and `known`), so
    two states with the same view give the same sample. `determinizer(v)(seed)` is the same
    state; a search drawing many samples of one view builds its determinizer once.

    `known`: what the viewer knows from its own log, `api.known_cards(view, api.redact(events,
    viewer))` (HID-2). Its known hand cards are kept in their hands and a deck's sure cards
    in that deck; only the rest is dealt at random (in a game set up normally every hand is
    known, so only deck orders below the top and others' sealed choices are drawn).

    The state shares the view's lists that no rule changes in place (State.copy's SHARED
    fields, structural sharing): change the view and you change its samples."""
    return Determinizer(v, known, rulesets=rulesets).only_sample(seed)
