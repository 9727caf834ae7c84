"""PRJ-7: legal actions are descriptors (a list of choices, or a range of one field such as a bid);
count_actions, nth_action, iter_actions and expand agree on one order over every kind."""

from __future__ import annotations

import pytest

from pax_hispanica import api
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
