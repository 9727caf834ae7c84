"""The game's pace in words (issue 38): "Live game", or "Turn-based, 3 days per Year", said
apart from the connection's state ("Connected" / "Reconnecting…", static/app.js), so that a
turn-based game no longer reads "live". It is said once, in the game page's status line: the
clocks below it show only the time each seat has (static/play.js)."""
from __future__ import annotations

from typing import Any

from pax_hispanica.web.present.i18n import Tr


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}".rstrip("0").rstrip(".")


# the keys of a turn-based pace by the unit its time is said in (a Year's or a move's)
SPAN_KEYS = {"game_pace_year": ("game_pace_year_one_day", "game_pace_year", "game_pace_year_hours", "game_pace_year_minutes"),
             "pace_turn": ("pace_turn_one_day", "pace_turn_days", "pace_turn_hours", "pace_turn_minutes")}


def _span(seconds: float, tr: Tr, kind: str) -> str:
    """A turn-based time in whole days ("1 day", not "1 days"), else hours, else minutes (a
    Year of ten minutes is not "0 days")."""
    one_day, days, hours, minutes = SPAN_KEYS[kind]
    if seconds == 86400:
        return tr(one_day)
    if seconds >= 86400 and float(seconds / 86400).is_integer():
        return tr(days, days=_num(seconds / 86400))
    if seconds >= 3600:
        return tr(hours, hours=_num(seconds / 3600))
    return tr(minutes, minutes=_num(seconds / 60))


def pace_words(rules: Any, tr: Tr) -> str:
    """rules: the game's notify.clocks.TableRules, None for a game without any (a live game)."""
    pace = getattr(rules, "pace", "live") if rules is not None else "live"
    if pace == "year" and rules.year_seconds:
        return _span(rules.year_seconds, tr, "game_pace_year")
    if pace == "turn" and rules.move_seconds:
        return _span(rules.move_seconds, tr, "pace_turn")
    if pace == "live" and rules is not None and rules.base_seconds:
        return tr("game_pace_clock", minutes=_num(rules.base_seconds / 60), seconds=_num(rules.increment_seconds or 0))
    return tr("game_pace_live")


def is_turn_based(rules: Any) -> bool:
    """A game played a move (or a Year) a day or so: its seats' pages open on "since your last
    move" (happened.digest). rules: notify.clocks.TableRules, or None (a live game)."""
    return rules is not None and getattr(rules, "pace", "live") in ("turn", "year")
