"""Helpers for the engine-core tests (tests/engine)."""

from __future__ import annotations

import random

from pax_hispanica import api
from pax_hispanica.engine import audit


def walk(obj):
    """Every scalar inside a JSON-like object (dict keys included)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from walk(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from walk(v)
    else:
        yield obj


def strings(obj) -> set:
    return {x for x in walk(obj) if isinstance(x, str)}


def ints(obj) -> set:
    return {x for x in walk(obj) if isinstance(x, int) and not isinstance(x, bool)}


def all_cards(st) -> list:
    return sorted(st.rs.market + st.rs.haven)


def play(players: int, seed: int, *, bot_seed=None, max_actions: int = 5000, on_step=None,
         stop=None) -> api.Game:
    """A game of uniformly random legal actions (the bot has its own Random), optionally stopped early."""
    g = api.Game.new(api.Config(players=players), seed)
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


def counts(st) -> dict:
    """The conserved quantities of audit.py."""
    return {"money": audit.money_balance(st), "meeples": audit.meeple_total(st), "chests": audit.chest_total(st),
            "cards": sorted(audit.cards(st))}


def without(d: dict, *keys) -> dict:
    return {k: v for k, v in d.items() if k not in keys}
