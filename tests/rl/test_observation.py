"""pax_hispanica.rl.observation: the observation tensor comes from the seat's view only (HID-1).
The secrecy perturbation of tests/engine/test_views.py (others' hands swapped with hidden deck
cards, deck order below the top reversed, others' sealed choices changed, another seed and PRNG)
never changes any observation."""

from __future__ import annotations

import numpy as np
import pytest

from pax_hispanica import api
from pax_hispanica.rl import observation
from support import random_game, scenario

from engine.test_views import perturbed


@pytest.mark.parametrize("n,seed", [(2, 41), (4, 42), (5, 43)])
def test_HID_1_no_other_players_secret_changes_an_observation(n, seed):
    met = {"changed": 0, "sealed": 0}

    def on_step(before, action, after, events):
        if after.over or after.version % 2:
            return
        for viewer in range(after.n):
            other = perturbed(after, viewer)
            if other.to_dict() != after.to_dict():
                met["changed"] += 1
            if after.stack and after.stack[-1].get("sealed") and any(int(k) != viewer for k in after.secrets):
                met["sealed"] += 1
            assert np.array_equal(observation.observe(other, viewer), observation.observe(after, viewer))
        assert np.array_equal(observation.observe(perturbed(after, None), None), observation.observe(after, None))

    random_game(n, seed, on_step=on_step)
    assert met["changed"] > 0 and met["sealed"] > 0      # the test met the secrets it guards


def test_HID_1_the_perturbation_catches_an_observation_that_leaks():
    """Control: an observation that also read others' hands or the deck below its top (from the
    state, not the view) would fail the test above."""
    def leaky(st, viewer):
        lay = observation.layout_for(api.view(st, viewer, include_state=False, board=False))
        extra = np.zeros(len(lay.cards), np.float32)
        for s in range(st.n):
            if s != viewer:
                for c in st.hands[s]:
                    extra[lay.card_ix[c]] = 1
        for c in st.market[1:3]:
            extra[lay.card_ix[c]] += 2
        return np.concatenate([observation.observe(st, viewer), extra])

    caught = []

    def on_step(before, action, after, events):
        if not after.over:
            caught.append(not np.array_equal(leaky(perturbed(after, 0), 0), leaky(after, 0)))

    random_game(3, 44, on_step=on_step, stop=lambda g: g.state.version > 80)
    assert any(caught)


def test_HID_1_own_hand_and_own_sealed_bid_are_in_the_own_observation_only():
    g = scenario({"year": "auction", "step": "auctions", "order": [0, 1, 2],
                  "players": [{"hand": ["galeon-1"], "money": 4}, {"hand": ["galeon-2", "galeon-3"], "money": 4},
                              {"money": 4}]})
    g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": False})
    before = {s: observation.observe(g.state, s) for s in range(3)}
    g.act({"seat": 1, "type": "bid", "amount": 3})
    lay = observation.layout_for(api.view(g.state, 0, include_state=False))
    o0, o1 = observation.observe(g.state, 0), observation.observe(g.state, 1)
    hand = slice(lay.off["hand"], lay.off["hand"] + len(lay.cards))
    assert o0[hand][lay.card_ix["galeon-1"]] == 1 and o0[hand].sum() == 1
    assert o1[hand].sum() == 2
    m = lay.off["my_sealed"]
    assert o1[m] == 1 and o1[m + 1] == 3 and o0[m] == 0
    # others see only that seat 1 committed (slot 1 for seat 0, slot 2 for seat 2), not the amount
    assert o0[lay.off["committed"] + 1] == 1 and observation.observe(g.state, 2)[lay.off["committed"] + 2] == 1
    assert not np.array_equal(o0, before[0])


def test_PRJ_7_the_layout_is_documented_and_fixed_size():
    lay = observation.ObservationLayout()
    assert [s[1] for s in lay.segments] == list(np.cumsum([0] + [s[2] for s in lay.segments[:-1]]))
    assert lay.size == sum(s[2] for s in lay.segments)
    sizes = set()
    for n in (2, 5):
        g = random_game(n, 50 + n, stop=lambda g: g.state.version > 60)
        for s in range(n):
            sizes.add(observation.observe(g.state, s).shape)
    assert sizes == {(lay.size,)}
    assert f"| total | | {lay.size} | |" in lay.describe()
