"""PRJ-7: legal actions are descriptors (a list of choices, or a range of one field such as a bid);
count_actions, nth_action, iter_actions and expand agree on one order over every kind."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from pax_hispanica.engine import core
from support import random_game


@pytest.mark.parametrize("players,seed", [(3, 4), (4, 9)])
def test_PRJ_7_nth_action_count_actions_iter_actions_and_expand_agree(players, seed):
    kinds: set[str] = set()

    def check(before, action, after, events):
        for s in api.acting(before):
            legal = api.legal_actions(before, s)
            kinds.update(d["kind"] for d in legal)
            listed = api.expand(legal)
            assert api.count_actions(legal) == len(listed)
            assert [api.nth_action(legal, i) for i in range(len(listed))] == listed == list(api.iter_actions(legal))
            with pytest.raises(IndexError):
                api.nth_action(legal, len(listed))
            with pytest.raises(IndexError):
                api.nth_action(legal, -1)

    random_game(players, seed, on_step=check, stop=lambda g: len(g.record["actions"]) > 150)
    assert {"choice", "range"} <= kinds, kinds


def test_PRJ_7_count_nth_and_iter_agree_over_a_choice_and_a_range():
    descs = [{"kind": "choice", "options": [{"seat": 0, "type": "pass"}, {"seat": 0, "type": "end_turn"}]},
             {"kind": "range", "action": {"seat": 0, "type": "bid"}, "field": "amount", "min": 2, "max": 4},
             {"kind": "range", "action": {"seat": 0, "type": "bid"}, "field": "amount", "min": 3, "max": 1}]
    assert core.count_actions(descs) == 2 + 3 + 0
    listed = list(core.iter_actions(descs))
    assert [core.nth_action(descs, i) for i in range(5)] == listed == core.expand(descs)
    assert listed[2:] == [{"seat": 0, "type": "bid", "amount": a} for a in (2, 3, 4)]


def test_PRJ_7_nth_action_past_the_count_is_an_index_error_in_words():
    g = api.Game.new(api.Config(players=3), 5)
    descs = api.legal_actions(g.state, api.acting(g.state)[0])
    n = api.count_actions(descs)
    assert n >= 1 and api.nth_action(descs, n - 1) == list(api.iter_actions(descs))[-1]
    with pytest.raises(IndexError) as e:
        api.nth_action(descs, n)
    assert e.value.args == ("action index out of range",)
    assert str(e.value) == "action index out of range"
