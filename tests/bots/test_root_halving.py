"""bots/root_halving.py: ISMCTS's root=halving (issue 40, search that gains from thinking time)."""
from __future__ import annotations

import random

import pytest

from pax_hispanica import api
from pax_hispanica.bots import make_agent, root_halving
from pax_hispanica.bots.root_halving import Arm, candidates, choose, halve, paired, search


def _keyed(n: int) -> list[tuple[int, dict]]:
    return [(i, {"type": "bid", "amount": i}) for i in range(n)]


def test_candidates_keep_every_action_up_to_the_width():
    assert candidates(_keyed(5), 3, 16) == _keyed(5)


def test_a_wide_bid_keeps_the_prior_and_both_ends():
    got = [k for k, _ in candidates(_keyed(60), 37, 16)]
    assert len(got) == 16 and 37 in got and got[0] == 0 and got[-1] == 59
    assert got == sorted(got)           # the legal order is kept


def _toy(quality: list[float], common: float, own: float, seed: int):
    """A game where arm i's value on sample s is quality[i] + a noise all arms share on s
    (the hidden cards) + a noise of its own (its playout)."""
    rng = random.Random(seed)
    shared: dict[int, float] = {}

    def play(index: int, alive: list[Arm]) -> None:
        c = shared.setdefault(index, rng.gauss(0, common))
        for arm in alive:
            arm.values[index] = quality[arm.key] + c + rng.gauss(0, own)
    return play


def test_halving_spends_its_budget_and_keeps_the_better_half_each_round():
    arms = [Arm(i, {}) for i in range(8)]
    final, spent = halve(arms, 240, _toy([0.1 * i for i in range(8)], 0.0, 0.0, 1))
    # 3 rounds of 80: 8 arms x 10 samples, 4 x 20, 2 x 40
    assert spent == 240
    assert [len(a.values) for a in arms] == [10, 10, 10, 10, 30, 30, 70, 70]
    assert [a.key for a in final] == [7, 6]


def test_common_samples_cancel_the_noise_the_actions_share():
    """The shared noise is 50 times the gap between the best two actions: on common samples it
    cancels, and the best is found in every trial with a small budget."""
    quality = [0.0, 0.01, 0.02, 0.03, 0.05, 0.04]
    for seed in range(40):
        arms = [Arm(i, {}) for i in range(6)]
        final, _ = halve(arms, 60, _toy(quality, 0.5, 0.0, seed))
        assert final[0].key == 4


def test_more_budget_finds_the_best_action_more_often():
    """With a noise of each action's own (its playout), the share of trials that pick the best
    of 8 actions grows with the budget: the search gains from thinking time."""
    quality = [0.0, 0.02, 0.04, 0.06, 0.08, 0.10, 0.12, 0.15]

    def right(budget: int) -> int:
        hits = 0
        for seed in range(150):
            arms = [Arm(i, {}) for i in range(8)]
            final, _ = halve(arms, budget, _toy(quality, 0.3, 0.3, seed))
            hits += final[0].key == 7
        return hits

    low, mid, high = right(48), right(400), right(3200)
    assert low < mid < high and high >= 140, (low, mid, high)


def test_paired_difference_and_its_standard_error():
    a, b = Arm("a", {}, {0: 0.6, 1: 0.7, 2: 0.8, 5: 1.0}), Arm("b", {}, {0: 0.5, 1: 0.5, 2: 0.7})
    m, se, n = paired(a, b)
    assert n == 3 and m == pytest.approx(0.4 / 3)
    assert se == pytest.approx((((0.1 - m) ** 2 + (0.2 - m) ** 2 + (0.1 - m) ** 2) / 2 / 3) ** 0.5)
    assert paired(a, Arm("c", {}))[1:] == (float("inf"), 0)


def test_the_prior_is_kept_unless_the_best_is_clearly_better():
    prior = Arm("p", {}, {i: 0.50 + 0.01 * (i % 2) for i in range(20)})
    close = Arm("c", {}, {i: prior.values[i] + (0.10 if i % 2 else -0.08) for i in range(20)})
    clear = Arm("x", {}, {i: 0.70 + 0.01 * (i % 2) for i in range(20)})
    assert choose([close, prior], [close, prior], "p", 2.0).key == "p"
    assert choose([clear, prior], [clear, prior], "p", 2.0).key == "x"
    assert choose([close, prior], [close, prior], "p", 0.0).key == "c"      # z=0: the best mean
    assert choose([close, prior], [close, prior], None, 2.0).key == "c"     # no prior


def test_an_action_not_legal_in_a_sample_skips_it():
    calls = []

    def evaluate(state, key, action, playout_seed):
        calls.append((state, key))
        return None if (key == 2 and state % 2) else 0.1 * key

    chosen, arms, _spent = search(_keyed(3), None, 30, 16, 2.0, evaluate, lambda seed: seed, random.Random(0))
    two = next(a for a in arms if a.key == 2)
    assert two.values
    assert len(two.values) < len(arms[1].values) and chosen.key == 2


# -- in the bot, on the engine


def _position(seed: int, players: int = 4):
    """A position of a heuristic game after 40 moves or more, where the seat to act has a choice."""
    from pax_hispanica.bots.base import count_actions
    state = api.new_game(api.Config(players=players), seed)
    agents = [make_agent("heuristic", seed=s) for s in range(players)]
    steps = 0
    while True:
        seat = api.acting(state)[0]
        legal = api.legal_actions(state, seat)
        if steps >= 40 and count_actions(legal) > 1:
            return state, seat
        state, _ = api.apply(state, agents[seat].decide(api.view(state, seat), legal))
        steps += 1


def test_the_halving_bot_plays_a_legal_move_reproducibly_within_its_budget():
    state, seat = _position(7)
    view, legal = api.view(state, seat, include_state=True), api.legal_actions(state, seat)
    bot = make_agent("ismcts", seed=3, iterations=120, root="halving")
    action = bot.decide(view, legal)
    assert action in root_halving_actions(legal)
    api.apply(state, action)             # the engine takes it
    why = bot.explain()
    assert why["rule_of_thumb"].startswith("best action of a sequential halving")
    assert 0 < why["iterations"] <= 120
    again = make_agent("ismcts", seed=3, iterations=120, root="halving").decide(view, legal)
    assert again == action


def root_halving_actions(legal):
    from pax_hispanica.bots.base import bounded_actions
    return bounded_actions(legal, 64)


def test_the_halving_bot_with_the_value_model_at_its_cut_offs():
    state, seat = _position(11)
    view, legal = api.view(state, seat, include_state=True), api.legal_actions(state, seat)
    bot = make_agent("ismcts", seed=1, iterations=60, root="halving", eval="value")
    assert bot.decide(view, legal) in root_halving_actions(legal)


def test_bad_root_options_are_refused():
    with pytest.raises(ValueError, match="root is"):
        make_agent("ismcts", seed=0, root="forest")
    with pytest.raises(ValueError, match="width"):
        make_agent("ismcts", seed=0, root="halving", width=1)
    with pytest.raises(ValueError, match="iterations budget"):
        make_agent("ismcts", seed=0, root="halving", seconds=1.0)


def test_root_halving_is_the_module_the_bot_uses():
    assert make_agent("ismcts", seed=0, root="halving", iterations=10).root == "halving"
    assert make_agent("ismcts", seed=0).width == root_halving.DEFAULT_WIDTH


# -- the "rollout" preset: the strongest search's options under one name

ROLLOUT = {"root": "halving", "playout": "heuristic", "cutoff": 3000, "model": 1.0, "final": "soft", "z": 1.0}


def test_the_rollout_preset_is_its_options_and_decides_as_they_do():
    state, seat = _position(5)
    view, legal = api.view(state, seat, include_state=True), api.legal_actions(state, seat)
    named = make_agent("ismcts", seed=2, iterations=12, preset="rollout")
    spelt = make_agent("ismcts", seed=2, iterations=12, **ROLLOUT)
    assert {k: getattr(named, k) for k in ROLLOUT} == ROLLOUT
    assert named.decide(view, legal) == spelt.decide(view, legal)
    assert named.explain()["alternatives"] == spelt.explain()["alternatives"]


def test_options_beside_a_preset_override_it_and_its_budget_defaults_to_200():
    bot = make_agent("ismcts", seed=0, preset="rollout", z=2)
    assert bot.z == 2.0 and bot.root == "halving" and bot.iterations == 200
    assert make_agent("ismcts", seed=0).root == "tree"          # no preset: the tree, as before


def test_an_unknown_preset_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown ISMCTS preset 'deep'; known: rollout"):
        make_agent("ismcts", seed=0, preset="deep")
