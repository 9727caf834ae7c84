"""The simulator: many bot games, reproducibly, locally or on a Dask
cluster, summarised for game designers.  See docs/bots.md."""
from __future__ import annotations

from .runner import execute, game_seed, make_specs, parse_bots, play_game, run
from .stats import report, wilson

__all__ = ["execute", "game_seed", "make_specs", "parse_bots", "play_game", "report", "run", "wilson"]
