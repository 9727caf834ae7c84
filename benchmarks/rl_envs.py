"""RL environment benchmark (a script, not a timed test): env steps per second of uniformly random
masked play, on one core, in the same run as OpenSpiel's own C++ Hearts played from Python.

    .venv/bin/python benchmarks/rl_envs.py            # the table in the README
    .venv/bin/python benchmarks/rl_envs.py --quick    # a few seconds
    .venv/bin/python benchmarks/rl_envs.py --json

Measured (CPU time of this process, median of --runs runs of --seconds each):
  - PettingZoo AEC env (pax_hispanica.rl.pettingzoo_env.env, 4 players): steps/s, each step an
    ``env.last()`` (the observation vector and the action mask) then ``env.step`` of a random legal
    action; resets included;
  - the same without building observations (``raw_env.game`` directly: mask + apply) to show
    what the observation costs;
  - OpenSpiel python_pax_hispanica (4 players): ``legal_actions`` + ``apply_action`` per decision
    (chance nodes counted as steps too), and the same with ``information_state_tensor``; with
    the default ``chance="events"`` (a chance node per draw, PRJ-70) and with ``chance="seed"``
    (8 seed-byte nodes), each also as players' decisions per second (the chance nodes' time
    counted, not the nodes), the figure that compares the two;
  - OpenSpiel "hearts" (C++): ``legal_actions`` + ``apply_action`` per step, chance included.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

import numpy as np
import pyspiel

from pax_hispanica.rl import openspiel as _paxspiel  # noqa: F401  (registers the game)
from pax_hispanica.rl import pettingzoo_env

CLOCK = time.process_time


def pettingzoo_steps(seconds: float, seed: int) -> float:
    env = pettingzoo_env.env(players=4)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    n, t0 = 0, CLOCK()
    while CLOCK() - t0 < seconds:
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
            if n % 64 == 0 and CLOCK() - t0 >= seconds:
                break
        else:
            env.reset()
            continue
        break
    return n / (CLOCK() - t0)


def engine_masked_steps(seconds: float, seed: int) -> float:
    game = pettingzoo_env.Game(players=4)
    rng = np.random.default_rng(seed)
    game.new(seed)
    n, t0 = 0, CLOCK()
    while CLOCK() - t0 < seconds:
        if game.over():
            game.new(int(rng.integers(2 ** 62)))
        seat = game.current()
        game.apply(seat, int(rng.choice(game.legal(seat))))
        n += 1
    return n / (CLOCK() - t0)


def openspiel_steps(name: str, params: dict, seconds: float, seed: int, tensor: bool = False,
                    decisions: bool = False) -> float:
    game = pyspiel.load_game(name, params)
    r = random.Random(seed)
    state = game.new_initial_state()
    n, t0 = 0, CLOCK()
    while CLOCK() - t0 < seconds:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
            n += not decisions
        else:
            actions = state.legal_actions()
            if tensor:
                state.information_state_tensor()
            n += 1
        state.apply_action(r.choice(actions))
    return n / (CLOCK() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.quick:
        a.seconds, a.runs = 1.0, 1
    cases = {
        "PettingZoo AEC, 4 players (observation + mask + step)": lambda s: pettingzoo_steps(a.seconds, s),
        "masked engine steps, 4 players (mask + apply, no observation)": lambda s: engine_masked_steps(a.seconds, s),
        "OpenSpiel python_pax_hispanica, 4 players (legal_actions + apply_action)":
            lambda s: openspiel_steps("python_pax_hispanica", {"players": 4}, a.seconds, s),
        "OpenSpiel python_pax_hispanica, 4 players, + information_state_tensor":
            lambda s: openspiel_steps("python_pax_hispanica", {"players": 4}, a.seconds, s, tensor=True),
        "OpenSpiel python_pax_hispanica, 4 players, players' decisions only (chance nodes' time counted)":
            lambda s: openspiel_steps("python_pax_hispanica", {"players": 4}, a.seconds, s, decisions=True),
        "OpenSpiel python_pax_hispanica, 4 players, chance=\"seed\" (legal_actions + apply_action)":
            lambda s: openspiel_steps("python_pax_hispanica", {"players": 4, "chance": "seed"}, a.seconds, s),
        "OpenSpiel python_pax_hispanica, 4 players, chance=\"seed\", players' decisions only":
            lambda s: openspiel_steps("python_pax_hispanica", {"players": 4, "chance": "seed"}, a.seconds, s,
                                      decisions=True),
        "OpenSpiel hearts (C++), from Python (legal_actions + apply_action)":
            lambda s: openspiel_steps("hearts", {}, a.seconds, s),
    }
    out = {}
    for name, fn in cases.items():
        out[name] = statistics.median(fn(seed) for seed in range(a.runs))
    if a.json:
        print(json.dumps({"python": platform.python_version(), "steps_per_s": out}, indent=2))
        return
    print(f"Python {platform.python_version()}, {a.runs} run(s) of {a.seconds:g} s CPU each (median)")
    print("| environment | steps/s |")
    print("|---|---:|")
    for name, v in out.items():
        print(f"| {name} | {v:,.0f} |")


if __name__ == "__main__":
    main()
