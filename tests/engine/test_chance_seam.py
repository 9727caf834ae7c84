"""PRJ-70: the engine's draws pass through one seam (rng.draw, rng.draw_shuffle) that may take
supplied outcomes instead of the generator; without them it is the generator, unchanged."""

from __future__ import annotations

import random

import pytest

from pax_hispanica import api
from pax_hispanica.engine import rng


def _generators(seed, fn):
    """fn(outcomes) with every outcome the one the generator draws at that point."""
    outcomes = []
    while True:
        try:
            return fn(outcomes), outcomes
        except api.ChanceNeeded as e:
            assert e.used == len(outcomes)
            outcomes = outcomes + [rng.below(seed, e.counter, e.n)[1]]


def test_PRJ_70_without_a_chance_the_seam_is_the_generator():
    for seed in (0, 5, 2 ** 200 + 1):
        for n in (1, 2, 6, 46, 1000):
            assert rng.draw(seed, 17, n, None) == rng.below(seed, 17, n)
        a, b = list(range(46)), list(range(46))
        assert rng.draw_shuffle(seed, 3, a, None) == rng.shuffle(seed, 3, b) and a == b


def test_PRJ_70_a_shuffle_is_its_fisher_yates_draws_one_outcome_per_position():
    seed = 99
    items = list("abcdefghij")
    expect = items[:]
    end = rng.shuffle(seed, 40, expect)
    outcomes = [rng.below(seed, 40 + k, n)[1] for k, n in enumerate(range(10, 1, -1))]
    got = items[:]
    chance = rng.Chance(outcomes)
    assert rng.draw_shuffle(seed, 40, got, chance) == end == 49 and got == expect and chance.used == 9
    # outcome j puts the card now at j in the last unplaced position
    got = items[:]
    rng.draw_shuffle(seed, 0, got, rng.Chance([3] + [0] * 8))
    assert got[-1] == "d"


def test_PRJ_70_running_out_names_the_next_draw_and_a_draw_of_one_takes_none():
    chance = rng.Chance([2])
    items = ["x", "y", "z"]
    with pytest.raises(api.ChanceNeeded) as e:
        rng.draw_shuffle(7, 10, items, chance)
    assert (e.value.n, e.value.counter, e.value.used) == (2, 11, 1)
    assert e.value.items == ("x", "y")            # z went to the last place: the draw of 3 chose index 2
    assert rng.draw(7, 5, 1, rng.Chance([])) == (6, 0)
    with pytest.raises(api.ChanceNeeded) as e:
        rng.draw(7, 5, 6, rng.Chance([]))
    assert (e.value.n, e.value.items) == (6, None)


@pytest.mark.parametrize("bad", [-1, 6, 10])
def test_PRJ_70_an_outcome_out_of_range_is_refused(bad):
    with pytest.raises(ValueError):
        rng.draw(7, 0, 6, rng.Chance([bad]))


def test_PRJ_70_outcomes_left_over_are_refused():
    cfg = api.Config(players=2)
    _st, outcomes = _generators(3, lambda o: api.new_game_with_outcomes(cfg, 3, o))
    with pytest.raises(ValueError):
        api.new_game_with_outcomes(cfg, 3, outcomes + [0])


@pytest.mark.parametrize("players,seed", [(2, 1), (5, 2 ** 127 + 9)])
def test_PRJ_70_the_generators_outcomes_supplied_give_the_generators_game(players, seed):
    """Setup and every action, outcomes supplied: the same state, counter included, and events."""
    cfg = api.Config(players=players)
    ref = api.new_game(cfg, seed)
    st, outcomes = _generators(seed, lambda o: api.new_game_with_outcomes(cfg, seed, o))
    assert st.to_dict() == ref.to_dict() and len(outcomes) == players - 1 + 45 + 9 + 9
    bot, drawn = random.Random(seed), 0
    while not api.is_over(ref):
        seat = api.acting(ref)[0]
        legal = api.legal_actions(ref, seat)
        action = api.nth_action(legal, bot.randrange(api.count_actions(legal)))
        ref2, events = api.apply(ref, action)
        (st2, events2), outcomes = _generators(seed, lambda o, st=st, action=action: api.apply_with_outcomes(st, action, o))
        assert st2.to_dict() == ref2.to_dict() and events2 == events
        assert api.can_undo(st2, seat) == api.can_undo(ref2, seat)
        drawn += len(outcomes)
        ref, st = ref2, st2
    assert drawn > 0


def test_PRJ_70_other_outcomes_give_another_game_and_are_its_draws():
    """GDS-6 and CYC-4 in the events: the Player Order is what the outcomes chose."""
    cfg = api.Config(players=3)
    game = api.Game.new(cfg, 1)
    st = api.new_game_with_outcomes(cfg, 1, [0, 0] + [0] * (45 + 9 + 9))
    # Fisher-Yates with outcome 0 at every draw: [0,1,2] -> swap(2,0) -> [2,1,0] -> swap(1,0) -> [1,2,0]
    assert st.order == [1, 2, 0]
    assert st.to_dict() != game.state.to_dict()


def test_PRJ_70_an_explicit_chance_refuses_a_draw_from_nothing_in_words():
    with pytest.raises(ValueError) as e:
        rng.Chance([1]).take(0, 0)
    assert str(e.value) == "n must be positive"
