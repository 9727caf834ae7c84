"""State.copy (issue 13): written out field by field (no generated code), sharing the
scalars and the rarely changed SHARED lists, copying the rest. Checked against the field
lists, and by the promise it serves: a state never changes once an action has been
applied to it, however the game goes on (so no rule writes into a shared list)."""

from __future__ import annotations

import random

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.engine.state import (
    COPIED,
    COPIED_NESTED,
    DICTS,
    FLAT,
    NESTED,
    SAVED,
    SCALARS,
    SHARED,
    SHARED_NESTED,
    State,
)


def test_the_field_lists_cover_every_saved_field_once():
    assert sorted(SHARED + COPIED) == sorted(FLAT)
    assert sorted(SHARED_NESTED + COPIED_NESTED) == sorted(NESTED)
    assert len(set(SAVED)) == len(SAVED)
    assert set(State.__slots__) == set(SAVED) | {"rs", "undo_stack", "undo_seat", "acting_now"}
    assert list(State.__annotations__) == list(State.__slots__)      # the annotations name every slot, in order


def test_copy_sets_every_slot_shares_what_it_may_and_copies_the_rest():
    g = api.Game.new(api.Config(players=4), 3)
    r = random.Random(3)
    for _ in range(60):
        seat = api.acting(g.state)[0]
        g.act(r.choice(api.expand(api.legal_actions(g.state, seat))))
    st = g.state
    new = st.copy()
    for f in State.__slots__:
        getattr(new, f)                    # every slot is set
    assert api.snapshot(new) == api.snapshot(st)
    assert new.acting_now is None
    for f in SCALARS + SHARED + SHARED_NESTED:
        assert getattr(new, f) is getattr(st, f), f
    for f in COPIED + COPIED_NESTED + DICTS + ("stack",):
        assert getattr(new, f) is not getattr(st, f), f
    for f in COPIED_NESTED + ("stack",):
        assert all(a is not b for a, b in zip(getattr(new, f), getattr(st, f))), f


def _game_states(players: int, seed: int, heuristic: bool) -> list:
    bots = [make_agent("heuristic" if heuristic else "random", seed + s) for s in range(players)]
    st = api.new_game(api.Config(players=players), seed)
    states = [(st, api.snapshot(st))]
    while not st.over:
        seat = api.acting(st)[0]
        legal = api.legal_actions(st, seat)
        st, _ = api.apply(st, bots[seat].decide(api.view(st, seat, include_state=False), legal))
        states.append((st, api.snapshot(st)))
    return states


def test_no_state_changes_once_applied():
    seen_effects = set()
    for players in (2, 3, 4, 5):
        for heuristic in (False, True):
            states = _game_states(players, 40 + players, heuristic)
            for st, snap in states:
                assert api.snapshot(st) == snap
            last = states[-1][0]
            first = states[0][0]
            for f in ("income", "hand_bonus", "moves_bonus", "order", "prestige", "fships", "legality"):
                if getattr(last, f) != getattr(first, f):
                    seen_effects.add(f)
            if len(last.site_ids) > len(first.site_ids):
                seen_effects.add("site")
            for f in SHARED_NESTED:
                if getattr(last, f) != getattr(first, f):
                    seen_effects.add(f)
    # every shared list was replaced during these games (cards.py, goods.py, battle.py,
    # treasure.py, end.py)
    assert seen_effects == {"income", "hand_bonus", "moves_bonus", "order", "site", "tableaus", "havens",
                            "prestige", "fships", "legality"}
