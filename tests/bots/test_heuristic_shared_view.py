"""The heuristic bot only reads its view: ISMCTS's heuristic playouts hand it the engine's shared
view (PRJ-65, api.view(..., copy=False)), whose hands, cargo and board dicts are the state's and
the view cache's own, so a bot that changed one would change the game it searches."""
from __future__ import annotations

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.bots.base import count_actions


def test_the_heuristic_leaves_a_shared_view_and_its_state_as_they_were():
    decided = 0
    for players, seed in ((2, 3), (3, 4), (4, 5), (5, 6)):
        state = api.new_game(api.Config(players=players), seed)
        bots = [make_agent("heuristic", seed=s) for s in range(players)]
        while not api.is_over(state):
            seat = api.acting(state)[0]
            legal = api.legal_actions(state, seat)
            before, fingerprint = api.view(state, seat), api.snapshot(state)
            shared = api.view(state, seat, copy=False)
            action = bots[seat].decide(shared, legal)
            if count_actions(legal) > 1:
                decided += 1
                assert shared == before and api.view(state, seat) == before
                assert api.snapshot(state) == fingerprint
            state, _ = api.apply(state, action)
    assert decided > 300
