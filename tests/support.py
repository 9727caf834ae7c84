"""Shared helpers for the tests: random games, scenarios, and checks."""

from __future__ import annotations

import difflib
import importlib.util
import os
import random
import re
import shutil
import sys
from pathlib import Path

import pytest

import pax_hispanica
from pax_hispanica import api


def load_benchmark(name: str, folder: str = "benchmarks"):
    """<folder>/<name>.py (benchmarks/ or scripts/) as a module, loaded by its path: putting
    benchmarks/ on sys.path would let its engine.py shadow the tests' `engine` package for every
    test file collected after."""
    path = Path(__file__).resolve().parents[1] / folder / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module          # dataclasses and pickling look their module up here
    spec.loader.exec_module(module)
    return module


def random_game(players: int, seed: int, *, bot_seed=None, max_actions: int = 5000, on_step=None,
                stop=None, ruleset: str = "reference") -> api.Game:
    """A game of uniformly random legal actions (the bot has its own Random), to the end or until
    `stop(game)`; `on_step(before, action, after, events)` sees every action."""
    g = api.Game.new(api.Config(players=players, ruleset=ruleset), seed)
    r = random.Random(seed if bot_seed is None else bot_seed)
    for _ in range(max_actions):
        if api.is_over(g.state) or (stop and stop(g)):
            return g
        seat = r.choice(api.acting(g.state))
        action = r.choice(api.expand(api.legal_actions(g.state, seat)))
        before = g.state
        events = g.act(action)
        if on_step:
            on_step(before, action, g.state, events)
    if stop is None:
        raise AssertionError(f"game did not end in {max_actions} actions")
    return g


def scenario(position: dict, players: int = 3, seed: int = 1, actions=(), nations=None, params=None) -> api.Game:
    cfg = {"players": players}
    if nations:
        cfg["nations"] = nations
    if params:
        cfg["params"] = params          # a variant (PRJ-31)
    return api.Game.from_scenario({"config": cfg, "seed": seed, "position": position, "actions": list(actions)})


def options(state, seat: int) -> list[dict]:
    return api.expand(api.legal_actions(state, seat))


# ---- rulesets with changed numbers --------------------------------------------------------------

NO_SPAIN = ["english", "french", "dutch"]          # the Crown owns the Crown colonies (CYC-4)
WITH_SPAIN = ["spanish", "english", "french"]      # seat 0 owns them
REFERENCE = Path(pax_hispanica.__file__).resolve().parent / "data" / "reference"


def modified_ruleset(folder: Path, **changes) -> str:
    """A copy of the reference ruleset with some parameters of ruleset.toml changed; returns its path."""
    shutil.copytree(REFERENCE, folder)
    toml = folder / "ruleset.toml"
    text = toml.read_text()
    for key, value in changes.items():
        literal = f'"{value}"' if isinstance(value, str) else str(value)
        # the first match: the value itself, not its [ranges] entry below
        text, n = re.subn(rf"(?m)^{key}\s*=\s*[^#\n]*", f"{key} = {literal} ", text, count=1)
        assert n == 1, key
    toml.write_text(text)
    return str(folder)


# ---- games that reach the Sail Year's rarer rules -------------------------------------------------

SAIL_WEIGHTS = {"end_voyage": 1, "move": 4, "attack": 2, "enslave": 8, "load_chests": 8, "unload": 8,
                "unload_haven": 6, "start_at_haven": 3, "play": 6, "end_turn": 1}


def treasure_seeking_game(players: int, seed: int, on_step):
    """A legal game mixing the heuristic bot (which sails for Treasure) with random actions that
    favour sailing, fighting, loading and playing cards. Only the engine is under test: a bot
    answer that is not legal falls back to a random one."""
    g = api.Game.new(api.Config(players=players), seed)
    r = random.Random(seed)
    try:
        from pax_hispanica.bots.heuristic import HeuristicAgent
        bots = [HeuristicAgent(seed=seed * 10 + s, api=api) for s in range(players)]
    except Exception:                  # any failure: without the bot, weighted random play only
        bots = None
    for _ in range(20000):
        if api.is_over(g.state):
            return g
        seat = r.choice(api.acting(g.state))
        legal = api.legal_actions(g.state, seat)
        acts = api.expand(legal)
        action = None
        if bots and r.random() < 0.7:
            try:
                action = bots[seat].decide(api.view(g.state, seat, include_state=True), legal)
            except Exception:          # any failure: the bot is not under test here
                action = None
        if action not in acts:
            action = r.choices(acts, [SAIL_WEIGHTS.get(a["type"], 2) for a in acts])[0]
        before = g.state
        events = g.act(action)
        on_step(before, action, g.state, events)
    raise AssertionError("game did not end")


def check_golden(path: Path, text: str, changed: str, context: int = 2) -> None:
    """A golden file: with PAXH_UPDATE_GOLDEN=1 `text` is written to `path` (and the test skipped,
    for the diff to be reviewed); otherwise `text` must be the file's, else the test fails with
    `changed` (what the difference means) and the start of a unified diff."""
    if os.environ.get("PAXH_UPDATE_GOLDEN") == "1":
        path.write_text(text)
        pytest.skip(f"{path.name} rewritten: review `git diff {path}`")
    assert path.exists(), f"{path} missing: create it with PAXH_UPDATE_GOLDEN=1"
    want = path.read_text()
    if text != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                                 f"{path.name} (checked in)", f"{path.name} (now)", n=context))[:60])
        pytest.fail(f"{changed}\nIf the change is intended, regenerate with PAXH_UPDATE_GOLDEN=1 and review the diff.\n"
                    + diff)
