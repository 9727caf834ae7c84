"""pax_hispanica.rl.gym_env: "PaxHispanica-v0" against bots passes Gymnasium's check_env."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

import pax_hispanica.rl  # noqa: F401  (registers the id)
from pax_hispanica import api


def test_PRJ_7_gymnasium_env_passes_check_env():
    env = gymnasium.make("PaxHispanica-v0", opponents="heuristic")
    check_env(env.unwrapped)
    env.close()


def test_PRJ_7_an_episode_against_heuristic_bots_ends_with_the_rank_reward():
    env = gymnasium.make("PaxHispanica-v0", players=3, opponents=["heuristic", "random"])
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    total, done, steps = 0.0, False, 0
    while not done:
        assert np.array_equal(obs["action_mask"], info["action_mask"]) and obs["action_mask"].any()
        obs, r, done, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += r
        steps += 1
    ranking = info["result"]["ranking"]
    assert total == pytest.approx(1 - ranking.index(0))       # +1, 0 or -1 with 3 players
    assert steps < api.result(env.unwrapped.game.state)["cycles"] * 200
