"""api.decision: the documented shape (docs/api.md, "Decisions"), and None for a seat not asked."""

from __future__ import annotations

import random

import pytest

from pax_hispanica import api
from pax_hispanica.engine.flow import DECISIONS

# What each decision's public description carries besides decision, rule and seats (docs/api.md).
CONTEXT = {
    "labour": {"colonies"},
    "initiate": set(),
    "bid": {"card", "deck", "id", "initiator", "pos", "sealed", "committed", "hashes"},
    "play_turn": set(),
    "reduce_hand": set(),
    "voyage": {"moves", "battled", "started", "won_site", "sacked", "taken", "royal"},
    "support": {"attacker", "target", "zone", "id", "sealed", "committed", "hashes"},
}
RULE = {"labour": "LAB-6", "initiate": "AUC-1", "bid": "AUC-3", "play_turn": "PLY-1", "reduce_hand": "HND-2",
        "voyage": "SAIL-1", "support": "BAT-3"}


def _states(games: int = 12):
    for seed in range(games):
        n = 2 + seed % 4
        g = api.Game.new(api.Config(players=n), seed=seed)
        r = random.Random(seed)
        while not api.is_over(g.state):
            yield g.state
            s = api.acting(g.state)[0]
            legal = api.legal_actions(g.state, s)
            g.act(api.nth_action(legal, r.randrange(api.count_actions(legal))))
        yield g.state


def _reduce_hand_state():
    from tests.support import scenario
    cards = [c for c, card in api.load_ruleset("reference").cards.items() if card.deck == "market"][:8]
    g = scenario({"year": "play", "step": "hand_limit_at_year_end",
                  "players": [{"hand": cards}, {}, {}]})
    return g.state


def test_every_decision_type_has_a_documented_context():
    assert set(CONTEXT) == set(DECISIONS) == set(RULE)


@pytest.mark.parametrize("name", sorted(DECISIONS))
def test_api_decision_shape_per_decision_type(name):
    """Each decision type: {"decision", "rule", "seats", ...its context}, for every seat asked;
    None for every seat not asked."""
    seen = 0
    states = [_reduce_hand_state()] if name == "reduce_hand" else _states()
    for st in states:
        pub = api.decision(st, None)
        if pub is None:
            assert api.acting(st) == ()
            assert all(api.decision(st, s) is None for s in range(st.n))
            continue
        if pub["decision"] != name:
            continue
        seen += 1
        assert pub["rule"] == RULE[name]
        assert set(pub) - {"decision", "rule", "seats"} <= CONTEXT[name], set(pub) - CONTEXT[name]
        assert set(api.acting(st)) <= set(pub["seats"])
        for s in range(st.n):
            asked = api.decision(st, s)
            assert (asked == pub) if s in api.acting(st) else (asked is None), (name, s)
        if seen >= 30:
            break
    assert seen, f"no {name} decision met"


def test_api_decision_none_when_the_game_is_over():
    *_, last = _states(1)
    assert api.is_over(last) and api.decision(last, None) is None and api.decision(last, 0) is None
