"""The game's pace in words (issue 38): "Live game", or "Turn-based, 3 days per Year", said
apart from the connection's state ("Connected" / "Reconnecting…", static/app.js), so that a
turn-based game no longer reads "live"."""
from __future__ import annotations

from typing import Any

from pax_hispanica.web.present.i18n import Tr


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}".rstrip("0").rstrip(".")


def pace_words(rules: Any, tr: Tr) -> str:
    """rules: the game's notify.clocks.TableRules, None for a game without any (a live game)."""
    pace = getattr(rules, "pace", "live") if rules is not None else "live"
    if pace == "year" and rules.year_seconds:
        if rules.year_seconds == 86400:      # "1 day", not "1 days"
            return tr("game_pace_year_one_day")
        return tr("game_pace_year", days=_num(rules.year_seconds / 86400))
    if pace == "turn" and rules.move_seconds:
        hours = rules.move_seconds / 3600
        if hours == 24:
            return tr("pace_turn_one_day")
        if hours >= 24 and float(hours / 24).is_integer():
            return tr("pace_turn_days", days=_num(hours / 24))
        return tr("pace_turn_hours", hours=_num(hours))
    if pace == "live" and rules is not None and rules.base_seconds:
        return tr("game_pace_clock", minutes=_num(rules.base_seconds / 60), seconds=_num(rules.increment_seconds or 0))
    return tr("game_pace_live")


def is_turn_based(rules: Any) -> bool:
    """A game played a move (or a Year) a day or so: its seats' pages open on "since your last
    move" (happened.digest). rules: notify.clocks.TableRules, or None (a live game)."""
    return rules is not None and getattr(rules, "pace", "live") in ("turn", "year")
