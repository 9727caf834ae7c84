"""Tests written to kill mutants that survived a fresh mutation sample (`scripts/mutation.py
--sample 200 --seed 11 --fresh`, mutmut 3.8.1): how a refusal shows a value that is not a plain
one (PRJ-7), the event reference's summaries (issue 18), a config's ruleset name (PRJ-31), the
map loader's words for [europe] (CYC-4), and reasons a page shows: a Milicia with one rebellious
zone (PRJ-11), an empty deck (AUC-1), a Cathedral without Citizens and a site in a rebellious
zone (LAB-1, LAB-4)."""

from __future__ import annotations

import json

import pytest

from pax_hispanica import api
from pax_hispanica.engine.events import EVENTS
from pax_hispanica.rulesets import load_ruleset
from support import NO_SPAIN, scenario

from .test_ruleset import broken, refused
from .test_why import CATHEDRAL, SANTA_MARTA, TOLU, ZENU, ZONE, reasons


@pytest.mark.parametrize("kind, shown", [([1], "<list>"), ({"a": 1}, "<dict>"), (2.5, "2.5"), (None, "None")])
def test_PRJ_7_a_refusal_shows_a_plain_value_as_written_and_any_other_by_its_type(kind, shown):
    st = api.new_game(api.Config(players=3), 1)
    with pytest.raises(api.IllegalAction) as e:
        api.apply(st, {"seat": 0, "type": kind})
    assert e.value.message == f"Unknown action type {shown}."


def test_every_event_type_has_a_summary_for_the_reference():
    assert all(isinstance(e.summary, str) and e.summary.strip() for e in EVENTS.values())


@pytest.mark.parametrize("ruleset", [5, "", "x" * 201])
def test_PRJ_31_a_ruleset_that_is_not_a_short_name_is_refused_in_words(ruleset):
    with pytest.raises(api.IllegalAction) as e:
        api.new_game({"players": 3, "ruleset": ruleset}, 1)     # a caller's table (Config is typed)
    assert (e.value.code, e.value.rule, e.value.message) == \
        ("bad_config", "PRJ-31", "The ruleset is named by a short string.")


def test_CYC_4_a_bad_key_of_europe_is_named_by_its_table(tmp_path):
    f = broken(tmp_path / "eu", "map.toml", "[europe]\n", "[europe]\nbogus_key = 1\n")
    msg = refused(f, "map.toml", "bogus_key")
    assert msg.startswith("map.toml: [europe]"), msg


def test_PRJ_11_milicia_has_a_target_in_a_zone_with_a_single_rebel():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"money": 9, "hand": ["milicia-1"]}, {}, {}], "rebels": {ZONE: 1}}, nations=NO_SPAIN)
    assert not reasons(g.state, 0, "no_target")
    assert {"seat": 0, "type": "play", "card": "milicia-1", "target": ZONE} in \
        api.expand(api.legal_actions(g.state, 0))


def test_AUC_1_an_empty_deck_is_listed_as_one_that_cannot_be_auctioned():
    g = api.Game.new(api.Config(players=3), 1)
    st = g.state.copy()
    st.haven = []
    st.acting_now = None
    found = {d["code"]: d for d in reasons(st, api.acting(st)[0]) if d["params"].get("deck") == "haven"}
    assert found["deck_empty"]["rule"] == "AUC-1" and found["deck_empty"]["params"] == {"deck": "haven"}
    assert found["deck_empty"]["action"]["buried"] is False


def _labour(sites: dict, rebels: dict | None = None) -> api.Game:
    pos = {"year": "goods", "step": "labour_acquisition", "order": [0, 1, 2], "players": [{"money": 5}, {}, {}],
           "colonies": {SANTA_MARTA: {"owner": 0, "labour": None}}, "sites": sites}
    if rebels:
        pos["rebels"] = rebels
    g = scenario(pos, nations=NO_SPAIN)
    assert api.acting(g.state) == (0,)
    return g


def test_LAB_1_a_cathedral_without_citizens_is_listed_for_the_colony_and_the_site():
    g = _labour({CATHEDRAL: 0, ZENU: 2})                     # kidnapping from Zenú is open
    [empty] = reasons(g.state, 0, "no_citizen")
    assert empty["rule"] == "LAB-1" and empty["params"] == {"colony": SANTA_MARTA, "site": CATHEDRAL}


def test_LAB_4_each_site_of_a_rebellious_zone_is_listed_by_its_id():
    g = _labour({CATHEDRAL: 1, ZENU: 2, TOLU: 1}, {ZONE: 1})    # employing at the Cathedral is open
    rebellious = reasons(g.state, 0, "rebellious_zone")
    assert sorted(d["params"]["site"] for d in rebellious) == sorted([ZENU, TOLU])
    assert all(d["params"]["colony"] == SANTA_MARTA and d["params"]["zone"] == ZONE for d in rebellious)


def test_HND_2_a_snapshot_at_the_years_hand_limit_records_how_far_the_step_has_come():
    """The step's cursor is part of the saved state (snapshots stay byte for byte): while seat 2,
    first in Player Order, reduces its hand the step has passed one seat; then seat 0, the second."""
    rs = load_ruleset()
    cards = [c for c in rs.market if c.startswith(("galeon-", "encomienda-"))]
    over = rs.hand_limit + 1
    g = scenario({"year": "play", "step": "hand_limit_at_year_end", "order": [2, 0, 1],
                  "players": [{"hand": cards[:over]}, {}, {"hand": cards[over:2 * over]}]}, nations=NO_SPAIN)
    assert api.acting(g.state) == (2,) and json.loads(api.snapshot(g.state))["cursor"] == {"i": 1}
    g.act({"seat": 2, "type": "sell", "card": cards[over]})
    assert api.acting(g.state) == (0,) and json.loads(api.snapshot(g.state))["cursor"] == {"i": 2}
