"""PRJ-7: the table of each action type's fields (engine.core.ACTION_FIELDS) covers every
action the rules ever offer, and nothing outside it is accepted."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from pax_hispanica.engine.core import ACTION_FIELDS, check_shape
from support import random_game


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4), (4, 2 ** 127 + 5)])
def test_PRJ_7_every_legal_action_of_random_games_fits_the_field_table(players, seed):
    seen: dict[str, set] = {}

    def check(before, action, after, events):
        for st in (before, after):
            for s in api.acting(st):
                for a in api.iter_actions(api.legal_actions(st, s)):
                    fields = set(a) - {"seat", "type"}
                    assert fields <= set(ACTION_FIELDS[a["type"]]), a
                    assert check_shape(st, a) == s
                    seen.setdefault(a["type"], set()).update(fields)

    random_game(players, seed, bot_seed=seed % 1000, on_step=check)
    assert {"bid", "initiate", "pass", "end_voyage", "move"} <= set(seen)


def test_PRJ_7_an_offered_action_with_one_more_field_is_refused():
    g = api.Game.new(api.Config(players=3), 8)
    while not api.is_over(g.state) and len(g.record["actions"]) < 300:
        seat = api.acting(g.state)[0]
        legal = api.legal_actions(g.state, seat)
        a = api.nth_action(legal, 0)
        with pytest.raises(api.IllegalAction) as e:
            api.apply(g.state, {**a, "extra": 1})
        assert e.value.code == "malformed" and "extra" in e.value.message
        g.act(a)
