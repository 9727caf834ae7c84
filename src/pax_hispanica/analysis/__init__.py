"""Game analysis (issue 40): a win probability for every position, and a finished game reviewed.

The public API, for the CLI (`paxh analyse`, `paxh train-value`) and the web page:

- `win_probabilities(view, model=None) -> list[float]`: each seat's chance of winning from a
  view (`api.view(state, seat)` or the spectator's), summing to 1 (value.py);
- `analyse(record, seat=0, budget=200, seed=0, model=None) -> GameAnalysis`: the chart, the
  reviewed decisions and the key moments (game.py); `GameAnalysis.to_json(lang)` is plain data;
- `render_text(analysis, lang)`, `chart_svg(analysis, lang)`: the CLI's text and the chart (render.py);
- `MESSAGES`, `MARKS`, `NATIONS`, `YEARS`, `LEGALITIES`: the words in English and Catalan (messages.py).

Everything reaches the engine through `pax_hispanica.api` only: its operations through the
modules' `ENGINE`, typed against the contract (`pax_hispanica.contract.SearchEngine`), and of the
other helper groups the names that have no protocol (tests/engine/test_api_contract.py). docs/rl.md
("The value function") and docs/bots.md ("Game analysis") describe the model, the data and the figures.
"""
from __future__ import annotations

from .game import (DEFAULT_BUDGET, MOMENT_SWING, MOMENTS, THRESHOLDS, ChartPoint, DecisionReview, GameAnalysis,
                   KeyMoment, YearMark, analyse, mark)
from .messages import LANGS, LEGALITIES, MARKS, MESSAGES, NATIONS, YEARS, say
from .render import action_text, chart_svg
from .render import text as render_text
from .value import (FEATURES, ValueModel, handwritten_probabilities, seat_features, win_probabilities)
from .value import load as load_value_model

__all__ = ["DEFAULT_BUDGET", "FEATURES", "LANGS", "LEGALITIES", "MARKS", "MESSAGES", "MOMENTS", "MOMENT_SWING",
           "NATIONS", "THRESHOLDS", "YEARS", "ChartPoint", "DecisionReview", "GameAnalysis", "KeyMoment",
           "ValueModel", "YearMark", "action_text", "analyse", "chart_svg", "handwritten_probabilities",
           "load_value_model", "mark", "render_text", "say", "seat_features", "win_probabilities"]
