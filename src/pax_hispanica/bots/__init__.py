"""Bots behind one interface: ``decide(view, legal) -> action`` and
``explain() -> dict``.  See docs/bots.md."""
from __future__ import annotations

from typing import Any

from .base import Agent, BaseAgent, expand_descriptors, stable_seed

KINDS = ("random", "heuristic", "ismcts")


def make_agent(kind: str, seed: int, **options: Any) -> Agent:
    """Create a bot.  ``kind``: "random", "heuristic" or "ismcts".

    Options: ``api`` (the engine API module or its name; default
    ``pax_hispanica.api``); for "ismcts" also ``iterations`` or ``seconds``
    per decision, ``cutoff`` (playout length before a heuristic scores it),
    ``exploration`` and ``temperature``."""
    kind = kind.strip().lower()
    if kind == "random":
        from .random_agent import RandomAgent
        return RandomAgent(seed, **options)
    if kind == "heuristic":
        from .heuristic import HeuristicAgent
        return HeuristicAgent(seed, **options)
    if kind == "ismcts":
        from .ismcts import ISMCTSAgent
        return ISMCTSAgent(seed, **options)
    raise ValueError(f"unknown bot kind {kind!r}; known: {', '.join(KINDS)}")


__all__ = ["KINDS", "Agent", "BaseAgent", "expand_descriptors", "make_agent", "stable_seed"]
