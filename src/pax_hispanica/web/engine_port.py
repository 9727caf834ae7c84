"""The web layer's only door to the engine (and to the bots): every module of web/ reaches the
engine as `engine_port.api`, typed as `pax_hispanica.api` itself (docs/api.md), and a view as
`View` (the engine's JSON dict).

The bot kinds, which of them search and what a strength means are the bots package's
(`pax_hispanica.bots.REGISTRY`). The module can be swapped with the environment variable
PAXH_API_MODULE (a development hook for working on the server without the engine; unset in
normal use): a stand-in must offer the same functions, so the types stay those of the real API.
The pages read helpers beyond the engine's core contract (api.decision, unavailable, index...),
so `api` is typed as the whole module, not as `contract.Engine`; a stand-in that is not even a
`contract.SearchEngine` (the contract and its action, search and log helpers) is refused at
import, naming what it lacks.
"""
from __future__ import annotations

import importlib
import random
from typing import TYPE_CHECKING, Any

from pax_hispanica.contract import SearchEngine, lacks
from pax_hispanica.engine.jsontypes import JsonDict as View
from pax_hispanica.engine.ruleset_schema import STR_CHOICES as PARAM_CHOICES  # a word parameter's values
from pax_hispanica.web import settings

if TYPE_CHECKING:
    from pax_hispanica import api
else:
    api = importlib.import_module(settings.raw("PAXH_API_MODULE") or "pax_hispanica.api")
    if not isinstance(api, SearchEngine):
        raise ImportError(f"PAXH_API_MODULE={api.__name__} is not an engine (pax_hispanica.contract.SearchEngine): "
                          f"it lacks {', '.join(lacks(api, SearchEngine))}")

__all__ = [
    "BOT_KINDS",
    "DEFAULT_BOT",
    "PARAM_CHOICES",
    "SEARCH_BOTS",
    "STRENGTHS",
    "View",
    "advise",
    "api",
    "fallback_bot",
    "ladder_names",
    "make_bot",
    "think",
]

try:
    from pax_hispanica.bots import DEFAULT_KIND as DEFAULT_BOT
    from pax_hispanica.bots import KINDS as BOT_KINDS
    from pax_hispanica.bots import SEARCH_KINDS as SEARCH_BOTS
    from pax_hispanica.bots import REGISTRY, ladder_rating, strength_options
except ImportError:   # no bots package: every bot seat plays seeded random moves (fallback_bot)
    BOT_KINDS, SEARCH_BOTS, DEFAULT_BOT, REGISTRY = ("random",), frozenset(), "random", {}

    def strength_options(kind: str, strength: int | None) -> dict[str, Any]:
        return {}

    def ladder_rating(kind: str, strength: int | None = None) -> dict[str, Any] | None:
        return None

# the search kind's strengths (the lobby's select), from the bots package's registry
SEARCH_KIND: str | None = next((k for k in BOT_KINDS if k in SEARCH_BOTS), None)   # the kind with strengths
STRENGTHS: tuple[int, ...] = tuple(sorted(REGISTRY[SEARCH_KIND].strengths)) if SEARCH_KIND else ()


def ladder_names() -> dict[str, Any]:
    """What the lobby names its bots by: the bot ladder's ratings (bots.ladder_rating, the
    file `paxh ladder --data` wrote), as text with one decimal. "kinds": each kind without a
    strength knob; "strengths": STRENGTHS of the search kind (the strength select is its size);
    None where the ladder did not rate that configuration."""
    def text(r: dict[str, Any] | None) -> str | None:
        return None if r is None else f"{r['ordinal']:.1f}"
    try:
        from pax_hispanica.bots import ladder_ratings
        source = {k: ladder_ratings().get(k) for k in ("date", "games", "players")}
    except ImportError:
        source = {"date": None, "games": None, "players": None}
    return {**source, "kinds": {k: None if k in SEARCH_BOTS else text(ladder_rating(k)) for k in BOT_KINDS},
            "strengths": {n: text(ladder_rating(SEARCH_KIND, n)) if SEARCH_KIND else None for n in STRENGTHS}}


class _RandomAgent:
    """A seeded random legal action (never undo)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: Any, legal: list[Any]) -> dict[str, Any]:
        # draw an index, build that one action: a bid range as wide as a player's money is
        # never listed (the same draw as random.choice over the listed actions)
        legal = [{**d, "options": [o for o in d["options"] if o.get("type") != "undo"]}
                 if d.get("kind") == "choice" else d for d in legal]
        return api.nth_action(legal, self.rng.randrange(api.count_actions(legal)))


def fallback_bot(seed: int) -> Any:
    """A seeded random legal move: used when the bots package is missing or a bot fails."""
    return _RandomAgent(seed)


def make_bot(kind: str, seed: int, strength: int | None = None) -> Any:
    """An object with decide(view, legal) -> action, for a bot seat. Always `private` (issue 37,
    docs/bots.md "Private sealed choices"): its bids and Battle Cards are mixed, and each
    decision's randomness is keyed by `seed` (derived from the game's secret and the seat,
    api.derived_seed) and the game's action count, so the table cannot compute them and a
    reload, or another server, goes on with the same stream."""
    try:
        from pax_hispanica.bots import make_agent
    except ImportError:
        return fallback_bot(seed)
    options = {"api": api, "private": True, **strength_options(kind, strength)}
    return make_agent(kind, seed, **options)


def think(kind: str, seed: int, strength: int | None, view: Any, legal: list[Any], log: list[Any] | None = None) -> dict[str, Any]:
    """One decision of a fresh bot (run in a worker process by the server); `log`: the seat's
    own log (api.redact), for a bot that reads it (`uses_log`: ISMCTS, docs/bots.md)."""
    bot = make_bot(kind, seed, strength)
    if log is not None and getattr(bot, "uses_log", False):
        ret: dict[str, Any] = bot.decide(view, legal, log=log)
        return ret
    ret = bot.decide(view, legal)
    return ret


def advise(seed: int, iterations: int, view: Any, legal: list[Any], log: list[Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The Hint of unrated games (issue 38): the strongest bot's choice for a seat (the search
    bot at `iterations`, its view holding the masked state, its own log) and its explain()."""
    try:
        from pax_hispanica.bots import make_agent
    except ImportError:
        fallback = fallback_bot(seed)
        return fallback.decide(view, legal), {"bot": "random", "rule_of_thumb": "random"}
    search = next(iter(sorted(SEARCH_BOTS)), "heuristic")
    options: dict[str, Any] = {"api": api, "iterations": iterations} if search in SEARCH_BOTS else {"api": api}
    bot: Any = make_agent(search, seed, **options)     # a bot that uses_log takes its log
    action = bot.decide(view, legal, log=log) if log is not None and getattr(bot, "uses_log", False) \
        else bot.decide(view, legal)
    return action, bot.explain()
