"""Issue 13's search path: `api.apply_trusted(state, action)` gives exactly the state that
`api.apply` gives (the saved fields, `acting`, the undo history), for every legal action
(a sample where there are many) at positions of random and heuristic games of 2 to 5
players in all four years, sealed bids and Battle Cards included, and for whole games
played on the trusted path alone (PRJ-7 is the shape check it skips)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st_

from pax_hispanica import api
from pax_hispanica.engine.flow import seats_to_act

from .test_fast_views import POSITIONS, random_positions


def _same(a, b, same_history: bool = True) -> list[str]:
    """What differs between two states that should be one (empty when nothing does); the
    undo history holds the very same earlier states, or (same_history=False) equal ones."""
    bad = []
    if json.dumps(a.to_dict(), sort_keys=True) != json.dumps(b.to_dict(), sort_keys=True):
        da, db = a.to_dict(), b.to_dict()
        bad.append("fields " + ", ".join(k for k in da if da[k] != db.get(k)))
    if api.acting(a) != api.acting(b) or api.acting(b) != seats_to_act(b):
        bad.append("acting")
    if a.undo_seat != b.undo_seat or len(a.undo_stack) != len(b.undo_stack) \
            or any(x is not y if same_history else x.to_dict() != y.to_dict()
                   for x, y in zip(a.undo_stack, b.undo_stack)):
        bad.append("undo history")
    return bad


def _sample(legal: list, r: random.Random, most: int = 12) -> list[dict]:
    n = api.count_actions(legal)
    picks = range(n) if n <= most else sorted(r.sample(range(n), most))
    return [api.nth_action(legal, i) for i in picks]


def test_PRJ_7_positions_include_every_year_and_both_sealed_choices():
    kinds = {st.stack[-1]["d"] for st in POSITIONS if st.stack and st.stack[-1].get("sealed")}
    years = {api.view(st, None)["year"] for st in POSITIONS}
    assert years == {"goods", "auction", "play", "sail"}
    assert {"bid", "support"} <= kinds, kinds


def test_PRJ_7_the_trusted_path_gives_the_normal_next_state_for_every_legal_action():
    r = random.Random(13)
    checked = sealed = 0
    for st in POSITIONS:
        if st.over:
            continue
        for seat in api.acting(st):
            for action in _sample(api.legal_actions(st, seat), r):
                normal, _ = api.apply(st, action)
                trusted = api.apply_trusted(st, action)
                assert not _same(normal, trusted), (action, _same(normal, trusted))
                checked += 1
                sealed += bool(st.stack[-1].get("sealed"))
    assert checked > 3000 and sealed > 100


def test_PRJ_1_a_sealed_choice_on_the_trusted_path_is_hashed_when_read_the_normal_paths_hash():
    """issue 13: apply_trusted commits without hashing (None in the stack), and every reader
    of the hash (the saved state, the view's "hashes", api.decision) gets the digest apply
    made; a reveal by the normal path from a trusted commit publishes the normal path's log."""
    checked = 0
    for st in POSITIONS:
        if not (st.stack and st.stack[-1].get("sealed") and len(api.acting(st)) > 1):
            continue
        seat = api.acting(st)[0]
        action = api.nth_action(api.legal_actions(st, seat), 0)
        trusted, (normal, _) = api.apply_trusted(st, action), api.apply(st, action)
        assert dict(trusted.stack[-1]["committed"])[seat] is None           # not hashed in a search
        h = dict(normal.stack[-1]["committed"])[seat]
        assert isinstance(h, str) and len(h) == 64
        assert trusted.to_dict() == normal.to_dict()
        for viewer in (None, *range(st.n)):
            assert api.view(trusted, viewer)["decision"]["hashes"][str(seat)] == h
            assert api.view(trusted, viewer, include_state=True) == api.view(normal, viewer, include_state=True)
        assert api.decision(trusted) == api.decision(normal)
        # the others commit by the normal path: the reveal's log is the normal path's, and checks
        a, b = normal, trusted
        a_events, b_events = [], []
        while a.stack and a.stack[-1].get("id") == st.stack[-1]["id"]:
            s2 = api.acting(a)[0]
            act = api.nth_action(api.legal_actions(a, s2), 0)
            a, ea = api.apply(a, act)
            b, eb = api.apply(b, act)
            a_events += ea
            b_events += eb
        assert a_events == b_events and any(e["type"] == "ChoicesRevealed" for e in a_events)
        revealed = next(e for e in b_events if e["type"] == "ChoicesRevealed")
        assert {c["seat"]: c["hash"] for c in revealed["choices"]}[seat] == h
        assert all(api.verify(revealed["id"], c) for c in revealed["choices"])
        assert a.to_dict() == b.to_dict()
        checked += 1
    assert checked >= 5, checked


@pytest.mark.parametrize("players,seed", [(2, 5), (3, 6), (4, 7), (5, 8)])
def test_PRJ_7_a_whole_game_on_the_trusted_path_is_the_normal_game(players, seed):
    r1, r2 = random.Random(seed), random.Random(seed)
    a = b = api.new_game(api.Config(players=players), seed)
    while not a.over:
        seat = r1.choice(api.acting(a))
        assert seat == r2.choice(api.acting(b))
        legal = api.legal_actions(a, seat)
        i = r1.randrange(api.count_actions(legal))
        assert i == r2.randrange(api.count_actions(api.legal_actions(b, seat)))
        a, _ = api.apply(a, api.nth_action(legal, i))
        b = api.apply_trusted(b, api.nth_action(api.legal_actions(b, seat), i))
        assert not _same(a, b, same_history=False)
    assert b.over and a.result == b.result


def test_PRJ_7_the_trusted_path_still_refuses_what_the_rules_refuse():
    st = random_positions(3, 21, 5)[3]
    other = next(s for s in range(st.n) if s not in api.acting(st))
    with pytest.raises(api.IllegalAction) as e:
        api.apply_trusted(st, {"seat": other, "type": "pass"})
    assert e.value.code == "not_your_turn"
    done = random_positions(2, 22, 1000)[-1]
    assert done.over
    with pytest.raises(api.IllegalAction):
        api.apply_trusted(done, {"seat": 0, "type": "pass"})


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st_.integers(2, 5), seed=st_.integers(0, 2 ** 32), heuristic=st_.booleans())
def test_PRJ_7_the_trusted_path_is_the_normal_path_over_any_game(players, seed, heuristic):
    """A property over random or heuristic games of 2 to 5 players (all four years, bids and
    Battle Cards): at every step, the trusted path's next state saves as the normal path's."""
    from pax_hispanica.bots import make_agent
    bots = [make_agent("heuristic" if heuristic else "random", seed + s) for s in range(players)]
    st, r = api.new_game(api.Config(players=players), seed), random.Random(seed)
    sealed = 0
    while not st.over:
        seat = r.choice(api.acting(st))
        action = bots[seat].decide(api.view(st, seat), api.legal_actions(st, seat))
        normal, _ = api.apply(st, action)
        assert not _same(normal, api.apply_trusted(st, action)), action
        sealed += bool(st.stack[-1].get("sealed"))
        st = normal
    assert sealed > 0
