"""The pace in words (present/pace.py): one day is "1 day", never "1 days", in English and Catalan."""
from __future__ import annotations

import pytest

from pax_hispanica.web.notify.clocks import TableRules
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.present.pace import pace_words

DAY = 86400.0


@pytest.mark.parametrize("lang,rules,words", [
    ("en", TableRules(pace="turn", move_seconds=DAY), "Turn-based, 1 day per move"),
    ("en", TableRules(pace="turn", move_seconds=3 * DAY), "Turn-based, 3 days per move"),
    ("en", TableRules(pace="turn", move_seconds=3600.0 * 12), "Turn-based, 12 h per move"),
    ("en", TableRules(pace="year", year_seconds=DAY), "Turn-based, 1 day per Year"),
    ("en", TableRules(pace="year", year_seconds=4 * DAY), "Turn-based, 4 days per Year"),
    ("ca", TableRules(pace="turn", move_seconds=DAY), "Per torns, 1 dia per jugada"),
    ("ca", TableRules(pace="turn", move_seconds=2 * DAY), "Per torns, 2 dies per jugada"),
    ("ca", TableRules(pace="year", year_seconds=DAY), "Per torns, 1 dia per Any"),
])
def test_one_day_is_singular(lang, rules, words):
    assert pace_words(rules, Tr(lang)) == words


@pytest.mark.parametrize("lang,rules,words", [
    ("en", TableRules(pace="year", year_seconds=600.0), "Turn-based, 10 min per Year"),
    ("en", TableRules(pace="year", year_seconds=3600.0 * 36), "Turn-based, 36 h per Year"),
    ("en", TableRules(pace="turn", move_seconds=1800.0), "Turn-based, 30 min per move"),
    ("ca", TableRules(pace="year", year_seconds=600.0), "Per torns, 10 min per Any"),
    ("ca", TableRules(pace="year", year_seconds=3600.0 * 12), "Per torns, 12 h per Any"),
    ("ca", TableRules(pace="turn", move_seconds=1800.0), "Per torns, 30 min per jugada"),
])
def test_a_time_shorter_than_a_day_is_said_in_hours_or_minutes_never_0_days(lang, rules, words):
    """The pace is said once, in the status line (the clocks no longer repeat it), so it says a
    short time in the unit it has."""
    assert pace_words(rules, Tr(lang)) == words
