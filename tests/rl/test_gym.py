"""pax_hispanica.rl.gym_env: "PaxHispanica-v0" against bots passes Gymnasium's check_env."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402 -- after the importorskip above

import pax_hispanica.rl  # noqa: E402, F401  (registers the id)
from pax_hispanica import api  # noqa: E402 -- after the importorskip above


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
        obs, r, done, _trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += r
        steps += 1
    ranking = info["result"]["ranking"]
    assert total == pytest.approx(1 - ranking.index(0))       # +1, 0 or -1 with 3 players
    assert steps < api.result(env.unwrapped.game.state)["cycles"] * 200


class _LogSpy:
    """A bot that reads its log (as ISMCTS does, `uses_log`): records the log it was given at
    each decision, and plays a seeded random legal action."""
    uses_log = True
    uses_information_state = False

    def __init__(self, seed, **_options):
        self.rng = np.random.default_rng(seed)
        self.calls = []

    def decide(self, view, legal, log=None):
        self.calls.append(None if log is None else list(log))
        return api.nth_action(legal, int(self.rng.integers(api.count_actions(legal))))


def test_HID_2_gymnasium_opponents_that_read_their_log_get_their_own_redacted_log(monkeypatch):
    """An opponent with `uses_log` (ISMCTS) is given api.redact(events so far, its seat) at
    every decision (docs/bots.md), checked against a replay of the episode's actions."""
    from pax_hispanica.rl import gym_env

    spies = []
    monkeypatch.setattr(gym_env, "make_agent", lambda kind, seed, **o: spies.append(_LogSpy(seed)) or spies[-1])
    env = gymnasium.make("PaxHispanica-v0", players=3, opponents="ismcts").unwrapped
    game = env.game
    seeds, actions, points = [], [], []
    new, act = game.new, game.act
    monkeypatch.setattr(game, "new", lambda seed, bots=None: (seeds.append(seed), new(seed, bots))[1])

    def recorded_act(action):        # the learner's actions too (Game.apply -> act)
        s = action["seat"]
        if s != env.seat:
            points.append((len(actions), s, len(env.bots[s].calls) - 1))
        actions.append(action)
        act(action)
    monkeypatch.setattr(game, "act", recorded_act)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        obs, _r, done, _t, _i = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert points and all(log is not None for b in env.bots.values() for log in b.calls)
    replay = api.Game.new(api.Config(players=3), seeds[-1])
    checked = 0
    for k, action in enumerate(actions):
        for at, s, call in points:
            if at == k:
                assert env.bots[s].calls[call] == api.redact(replay.events, s), (k, s)
                checked += 1
        replay.act(action)
    assert checked == len(points) > 20


def test_PRJ_7_an_ismcts_opponent_plays_an_episode_with_its_log():
    env = gymnasium.make("PaxHispanica-v0", players=2, opponents="ismcts", opponent_options={"iterations": 2})
    obs, _ = env.reset(seed=3)
    assert env.unwrapped.game.logs is not None and set(env.unwrapped.game.logs.logs) == {1}
    rng = np.random.default_rng(0)
    done = False
    while not done:
        obs, _r, done, _t, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert "result" in info
