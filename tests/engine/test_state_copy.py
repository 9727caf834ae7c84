"""State.copy, to_dict and from_dict (issue 13): written out field by field (no generated code,
no exec, no generic walk). copy shares the scalars and the rarely changed SHARED lists and
copies the rest. Checked against the field lists, against the generic walk to_dict and
from_dict replaced (reference_view.py), and by the promise copy serves: a state never
changes once an action has been applied to it, however the game goes on (so no rule writes
into a shared list)."""

from __future__ import annotations

import random

from pax_hispanica import api
from pax_hispanica.bots import make_agent
import inspect
import json

from pax_hispanica.engine import information, state as state_module
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
from .reference_view import reference_from_dict, reference_masked_state, reference_to_dict


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


def _same_shape(a, b, where="state"):
    """Equal, and of the same types all the way down (a StrEnum member counts as its str)."""
    ta = str if isinstance(a, str) else type(a)
    tb = str if isinstance(b, str) else type(b)
    assert ta is tb and (not isinstance(a, (int, float, str)) or a == b), (where, a, b)
    if isinstance(a, dict):
        assert list(a) == list(b), (where, list(a), list(b))
        for k in a:
            _same_shape(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _same_shape(x, y, f"{where}[{i}]")


def _state_fields(st: State) -> dict:
    return {f: getattr(st, f) for f in (*SAVED, "undo_stack", "undo_seat", "acting_now")}


def test_to_dict_and_from_dict_are_the_generic_walks_they_replaced():
    """Over every position of random and heuristic games of 2 to 5 players: to_dict gives what
    the generic walk gave, key order and types included, with no list shared with the state;
    from_dict (and so restore, and determinize's template) gives the state the old one gave;
    information_state is the old masked state. A snapshot without seed_hash still loads."""
    n = 0
    seen = set()
    for players in (2, 3, 4, 5):
        for heuristic in (False, True):
            states = _game_states(players, 60 + players, heuristic)
            for st, snap in states[::4] + states[-1:]:
                d = st.to_dict()
                ref = reference_to_dict(st)
                _same_shape(d, ref)
                assert json.dumps(d) == json.dumps(ref) and snap == json.dumps(d, separators=(",", ":")).encode()
                for f in FLAT + NESTED + ("supply", "gone", "stack"):
                    assert d[f] is not getattr(st, f), f
                _same_shape(_state_fields(State.from_dict(d)), _state_fields(reference_from_dict(ref)))
                for viewer in (None, 0):
                    _same_shape(information.information_state(st, viewer), reference_masked_state(st, viewer))
                n += 1
                seen.update(k for k, v in (("result", st.result), ("i", st.cursor.get("i")),
                                           ("committed", st.stack and st.stack[-1].get("committed")),
                                           ("colonies", st.stack and st.stack[-1].get("colonies")),
                                           ("battled", st.stack and st.stack[-1].get("battled"))) if v)
    assert n > 300 and seen == {"result", "i", "committed", "colonies", "battled"}, (n, seen)
    st = st.copy()
    st.cursor = {"skipped": (2, 5)}            # LAB-3's colonies with no source (rare in play)
    _same_shape(st.to_dict(), reference_to_dict(st))
    _same_shape(State.from_dict(st.to_dict()).cursor, {"skipped": (2, 5)})
    old = st.to_dict()
    del old["seed_hash"]
    assert State.from_dict(old).seed_hash == st.seed_hash


def test_saving_uses_no_exec_and_no_generic_walk():
    """The code that copies, saves and loads states names its fields (issue 13)."""
    for module in (state_module, information):
        source = inspect.getsource(module)
        assert "exec(" not in source and "eval(" not in source and "_plain(" not in source
        assert "getattr(" not in source and "setattr(" not in source
