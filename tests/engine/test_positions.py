"""Properties over positions and actions (tests/strategies.py): positions are prefixes of the
corpus's recorded games, then Hypothesis draws legal actions one by one. Each property holds
after every drawn action:

- the audit's conserved quantities (money with the Pool's mints and burns, meeples, Chests, the
  cards as a permutation of the decks) do not change (CYC-2 via engine/audit.py);
- somebody acts until the game is over, and exactly the acting seats have legal actions;
- every legal action of every acting seat applies (PRJ-7);
- no view carries another seat's secret (HID-1), and a state sampled from a seat's view shows it
  the same view and the same legal actions (PRJ-45);
- the record (config, seed, actions) replays to the same state and events (PRJ-1);
- a game that ends has a well-formed result (CYC-3).

Long run: `pytest -m soak tests/engine/test_positions.py` (strategies.SOAK_EXAMPLES examples a
property), or PAXH_HYPOTHESIS_EXAMPLES=500 for the default tests."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pax_hispanica import api
from strategies import DEFAULT, LARGE_SEEDS, SOAK, Walk, positions, walks

from .helpers import all_cards, counts, secret_violations


def check_conservation_and_turns(walk: Walk) -> None:
    first = counts(walk.start)
    assert first["cards"] == all_cards(walk.start)
    for step in walk.steps:
        now = counts(step.after)
        assert now == first, (step.action, {k: (first[k], now[k]) for k in now if now[k] != first[k]})
        assert step.after.version == step.before.version + 1
        if not api.is_over(step.after):
            seats = api.acting(step.after)
            assert seats, "nobody to act in a game that is not over"
            for s in range(step.after.n):
                assert bool(api.legal_actions(step.after, s)) == (s in seats), (s, seats)


@DEFAULT
@given(walks())
def test_CYC_2_from_corpus_positions_random_legal_actions_conserve_everything_and_someone_acts(walk):
    check_conservation_and_turns(walk)


@DEFAULT
@given(positions(), st.integers(0, 2 ** 32))
def test_PRJ_7_every_legal_action_of_a_corpus_position_applies(game, pick):
    """Each acting seat's legal actions all apply (a range is tried at its ends and at a drawn
    value inside); the position is left as it was."""
    state = game.state
    before = state.to_dict()
    for seat in api.acting(state):
        legal = api.legal_actions(state, seat)
        total = api.count_actions(legal)
        assert total > 0, seat
        tried = range(total) if total <= 60 else sorted({0, total - 1, *random.Random(pick).sample(range(total), 58)})
        for i in tried:
            action = api.nth_action(legal, i)
            after, events = api.apply(state, action)
            assert after.version == state.version + 1 and events, action
    assert state.to_dict() == before


@DEFAULT
@given(walks(max_steps=8, entries=LARGE_SEEDS))
def test_HID_1_from_corpus_positions_no_view_carries_another_seats_secret(walk):
    for st_ in [walk.start, *(s.after for s in walk.steps)]:
        for viewer in [None, *range(st_.n)]:
            assert secret_violations(st_, viewer) == [], viewer


@DEFAULT
@given(walks(max_steps=10), st.integers(0, 2 ** 32))
def test_PRJ_45_a_determinized_position_shows_its_seat_the_same_view_and_the_same_legal_actions(walk, dseed):
    """A state sampled from a seat's view (api.determinize) is one the seat cannot tell from the
    real one: the same view, and the seat's own legal actions are the same and apply."""
    state = walk.game.state
    if api.is_over(state):
        return
    for viewer in range(state.n):
        v = api.view(state, viewer, include_state=True)
        det = api.determinize(v, dseed)
        assert api.view(det, viewer, include_state=True) == v, viewer
        legal = api.legal_actions(state, viewer)
        assert api.legal_actions(det, viewer) == legal, viewer
        if legal:
            api.apply(det, api.nth_action(legal, dseed % api.count_actions(legal)))


@DEFAULT
@given(walks())
def test_PRJ_1_the_record_of_a_walk_replays_to_its_state_and_events(walk):
    rec = json.loads(json.dumps(walk.game.record))          # as saved and loaded
    again = api.replay(rec)
    assert api.snapshot(again.state) == api.snapshot(walk.game.state)
    assert again.events == walk.game.events
    assert api.verify_record(rec) == []


@DEFAULT
@given(walks(max_steps=40, from_end=25), st.integers(0, 2 ** 32))
def test_CYC_3_a_game_played_on_from_a_late_position_ends_with_a_well_formed_result(walk, bot_seed):
    """After the drawn actions, random legal play finishes the game (CYC-2: it always ends)."""
    g, r = walk.game, random.Random(bot_seed)
    for _ in range(20000):
        if api.is_over(g.state):
            break
        seat = r.choice(api.acting(g.state))
        legal = api.legal_actions(g.state, seat)
        g.act(api.nth_action(legal, r.randrange(api.count_actions(legal))))
    assert api.is_over(g.state) and api.acting(g.state) == ()
    n = g.state.n
    res = api.result(g.state)
    assert 0 <= res["winner"] < n and res["ranking"][0] == res["winner"]
    assert sorted(res["ranking"]) == list(range(n))
    assert len(res["scores"]) == n and len(res["money"]) == n
    assert all(api.legal_actions(g.state, s) == [] for s in range(n))
    assert json.loads(json.dumps(res)) == res


@pytest.mark.soak
@SOAK
@given(walks(max_steps=80))
def test_soak_CYC_2_PRJ_1_long_walks_from_corpus_positions(walk):
    check_conservation_and_turns(walk)
    assert api.snapshot(api.replay(json.loads(json.dumps(walk.game.record))).state) == api.snapshot(walk.game.state)
