"""Bots behind one interface: ``decide(view, legal) -> action`` and
``explain() -> dict``.  See docs/bots.md.

The bot kinds are listed once, in ``REGISTRY``: the web game, the CLI and the
simulator read ``KINDS`` (and, for the web game, which kinds search and what a
strength 1..3 means) from here."""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from .base import Agent, BaseAgent, expand_descriptors, stable_seed


@dataclass(frozen=True)
class BotKind:
    """One kind of bot: where its class is, and how callers should treat it."""

    name: str
    module: str                    # in this package
    cls: str
    search: bool = False           # slow enough that a server thinks it in a worker process
    # strength 1..4 (the web lobby's knob) -> options for make_agent; empty: no knob
    strengths: dict[int, dict[str, Any]] = field(default_factory=dict)


REGISTRY: dict[str, BotKind] = {k.name: k for k in (
    BotKind("random", "random_agent", "RandomAgent"),
    BotKind("heuristic", "heuristic", "HeuristicAgent"),
    BotKind("ismcts", "ismcts", "ISMCTSAgent", search=True,
            # 4: the rollout preset (docs/bots.md "Playouts to the end of the game"), the strongest
            # search against the heuristic bots, at seconds a move where the tree takes a tenth of one
            strengths={1: {"iterations": 50}, 2: {"iterations": 200}, 3: {"iterations": 800},
                       4: {"preset": "rollout", "iterations": 200}}),
)}
KINDS: tuple[str, ...] = tuple(REGISTRY)
DEFAULT_KIND = "heuristic"     # what a bot seat plays when nobody chose a kind
SEARCH_KINDS: frozenset[str] = frozenset(k for k, b in REGISTRY.items() if b.search)


def strength_options(kind: str, strength: int | None) -> dict[str, Any]:
    """make_agent options for a bot of `kind` at strength 1..4 (default 2); {} for kinds without a knob."""
    return dict(REGISTRY[kind].strengths.get(strength or 2, {})) if kind in REGISTRY else {}


def strength_config(kind: str, strength: int | None = None) -> str:
    """The configuration a kind at a strength plays, named as `paxh simulate --bots` and
    `paxh ladder` name it: "ismcts:iterations=50", "heuristic"."""
    return ":".join([kind, *(f"{k}={v}" for k, v in strength_options(kind, strength).items())])


LADDER_FILE = "ladder.json"      # in pax_hispanica/data: `paxh ladder --data` wrote it
_ladder: dict[str, Any] = {}


def ladder_ratings() -> dict[str, Any]:
    """The shipped bot ladder (data/ladder.json: each configuration's rating, with the command
    and the date that made it; docs/bots.md, "Ladder"); {} when there is none."""
    if "data" not in _ladder:
        import json
        from importlib import resources
        try:
            _ladder["data"] = json.loads(resources.files("pax_hispanica").joinpath("data", LADDER_FILE).read_text())
        except (OSError, ValueError):
            _ladder["data"] = {}
    ret: dict[str, Any] = _ladder["data"]
    return ret


def ladder_rating(kind: str, strength: int | None = None) -> dict[str, Any] | None:
    """The ladder's rating of `kind` at `strength` (ordinal = mu - 3 sigma, mu, sigma, the 95%
    interval low..high, games), or None when the ladder did not rate that configuration."""
    return (ladder_ratings().get("ratings") or {}).get(strength_config(kind, strength))


def make_agent(kind: str, seed: int, **options: Any) -> Agent:
    """Create a bot.  ``kind``: one of ``KINDS`` ("random", "heuristic" or "ismcts").

    Options: ``api`` (the engine API module or its name; default
    ``pax_hispanica.api``); for "ismcts" also ``iterations`` or ``seconds``
    per decision, ``cutoff`` (playout length before a heuristic scores it),
    ``exploration``, ``temperature`` and ``prior_bot`` ("tuned", the default, "default" or a JSON
    file: the heuristic preset of the root's prior), ``playout_bot`` ("none", or a heuristic preset that
    plays the bot's own seat in the playouts), ``final`` ("win", or "soft": a finished playout scored by
    the softmax of the seats' final Prestige and money), ``preset`` ("rollout": a named set of these
    options, ismcts.PRESETS, the strongest search); for "heuristic" the options of
    ``heuristic.DEFAULTS`` and ``preset`` ("tuned" or a JSON file; docs/bots.md)."""
    entry = REGISTRY.get(kind.strip().lower())
    if entry is None:
        raise ValueError(f"unknown bot kind {kind!r}; known: {', '.join(KINDS)}")
    agent_cls = getattr(importlib.import_module(f"{__name__}.{entry.module}"), entry.cls)
    agent: Agent = agent_cls(seed, **options)
    return agent


__all__ = ["DEFAULT_KIND", "KINDS", "REGISTRY", "SEARCH_KINDS", "Agent", "BaseAgent", "BotKind", "expand_descriptors",
           "ladder_rating", "ladder_ratings", "make_agent", "stable_seed", "strength_config", "strength_options"]
