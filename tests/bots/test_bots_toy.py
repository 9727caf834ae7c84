"""The bot seam on the toy game (same API surface as the engine, much faster):
legal actions only, explanations, ISMCTS reproducibility and blindness."""
import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pax_hispanica.bots import make_agent
from pax_hispanica.bots import toygame as toy
from pax_hispanica.bots.base import action_key


def _random_position(seed: int, steps: int):
    s = toy.new_game(toy.Config(players=3), seed)
    rnd = make_agent("random", seed, api=toy)
    for _ in range(steps):
        if toy.is_over(s):
            break
        seat = toy.acting(s)[0]
        s, _ = toy.apply(s, rnd.decide(toy.view(s, seat), toy.legal_actions(s, seat)))
    return s


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40),
       kind=st.sampled_from(["random", "ismcts"]))
def test_agents_return_legal_actions(seed, steps, kind):
    s = _random_position(seed, steps)
    if toy.is_over(s):
        return
    for seat in toy.acting(s):
        legal = toy.legal_actions(s, seat)
        agent = make_agent(kind, seed, api=toy, iterations=20)
        action = agent.decide(toy.view(s, seat), legal)
        assert action_key(action) in {action_key(a) for a in toy.expand(legal)}
        assert isinstance(agent.explain(), dict) and agent.explain()["bot"] == kind


def test_ismcts_is_blind_to_hidden_information():
    """Two states that differ only in what seat 0 cannot see (other hands,
    deck order) give the same view, hence the same decision."""
    a = toy.new_game(toy.Config(players=3), 1)
    b = copy.deepcopy(a)
    b["hands"][1], b["hands"][2] = b["hands"][2], b["hands"][1]
    b["deck"] = list(reversed(b["deck"]))
    assert a != b and toy.view(a, 0) == toy.view(b, 0)
    da = make_agent("ismcts", 42, api=toy, iterations=150).decide(toy.view(a, 0), toy.legal_actions(a, 0))
    db = make_agent("ismcts", 42, api=toy, iterations=150).decide(toy.view(b, 0), toy.legal_actions(b, 0))
    assert da == db


def test_ismcts_explains_with_visits_and_values():
    s = toy.new_game(toy.Config(players=2), 3)
    agent = make_agent("ismcts", 1, api=toy, iterations=100)
    action = agent.decide(toy.view(s, 0), toy.legal_actions(s, 0))
    ex = agent.explain()
    assert ex["iterations"] == 100
    alts = ex["alternatives"]
    assert alts[0]["action"] == action
    assert alts[0]["visits"] >= alts[-1]["visits"]
    assert all(0.0 <= a["value"] <= 1.0 for a in alts)


def test_ismcts_time_budget():
    s = toy.new_game(toy.Config(players=2), 3)
    # the first decision of a process pays for imports and memos (0.7 s on a loaded 2-core
    # machine, more than the budget): warm up, then time a decision of a fresh bot
    make_agent("ismcts", 1, api=toy, iterations=2).decide(toy.view(s, 0), toy.legal_actions(s, 0))
    agent = make_agent("ismcts", 1, api=toy, seconds=0.5)
    agent.decide(toy.view(s, 0), toy.legal_actions(s, 0))
    assert agent.explain()["iterations"] > 1          # it searched, and stopped at the budget:
    assert agent.explain()["seconds"] < 2.5


def test_ismcts_beats_random_on_the_toy_game():
    wins = 0
    games = 16
    for g in range(games):
        s = toy.new_game(toy.Config(players=3), 1000 + g)
        agents = [make_agent("ismcts", g, api=toy, iterations=80)] + \
                 [make_agent("random", g * 10 + i, api=toy) for i in (1, 2)]
        while not toy.is_over(s):
            seat = toy.acting(s)[0]
            s, _ = toy.apply(s, agents[seat].decide(toy.view(s, seat), toy.legal_actions(s, seat)))
        wins += toy.result(s)["winner"] == 0
    assert wins / games > 0.45      # chance is 1/3


def test_unknown_kind():
    with pytest.raises(ValueError):
        make_agent("minimax", 0)


def test_greedy_playout_policy_prefers_loading_and_europe():
    import random

    from pax_hispanica.bots.ismcts import greedy_playout_action
    rng = random.Random(0)
    acts = [{"seat": 0, "type": "move", "to": "a"}, {"seat": 0, "type": "move", "to": "europe"},
            {"seat": 0, "type": "load_chests", "colony": "x", "count": 1},
            {"seat": 0, "type": "load_chests", "colony": "x", "count": 2},
            {"seat": 0, "type": "end_voyage"}]
    picks = [greedy_playout_action(acts, rng) for _ in range(400)]
    loads = [p for p in picks if p["type"] == "load_chests"]
    assert len(loads) > 300 and sum(p["count"] == 2 for p in loads) > 320
    bids = [{"seat": 0, "type": "bid", "amount": k} for k in range(11)]
    amounts = [greedy_playout_action(bids, rng)["amount"] for _ in range(400)]
    assert sum(a <= 5 for a in amounts) > 300
