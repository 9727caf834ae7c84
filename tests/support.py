"""Shared helpers for the tests: random games, scenarios, and checks."""

from __future__ import annotations

import random

from pax_hispanica import api


def random_game(players: int, seed: int, max_actions: int = 5000, on_step=None):
    """Play a game to the end with uniformly random legal actions; returns the Game."""
    g = api.Game.new(api.Config(players=players), seed)
    r = random.Random(seed)
    for _ in range(max_actions):
        if api.is_over(g.state):
            return g
        seat = r.choice(api.acting(g.state))
        action = r.choice(api.expand(api.legal_actions(g.state, seat)))
        before = g.state
        events = g.act(action)
        if on_step:
            on_step(before, action, g.state, events)
    raise AssertionError(f"game did not end in {max_actions} actions")


def scenario(position: dict, players: int = 3, seed: int = 1, actions=(), nations=None) -> api.Game:
    cfg = {"players": players}
    if nations:
        cfg["nations"] = nations
    return api.Game.from_scenario({"config": cfg, "seed": seed, "position": position, "actions": list(actions)})


def options(state, seat: int) -> list[dict]:
    return api.expand(api.legal_actions(state, seat))
