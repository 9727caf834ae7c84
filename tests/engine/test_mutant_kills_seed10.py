"""Tests written to kill mutants that survived a fresh mutation sample (`scripts/mutation.py
--sample 200 --seed 10`, mutmut 3.8.1, drawn after tests/engine/test_golden_reasons.py): the
count of several descriptors (PRJ-7), what a full log tells of a dealt scenario hand (HID-2),
the map loader's words for a zone entry and a site's kind (CYC-4), a config option's longest
string (PRJ-31), a labour decision's colony as everyone sees it (LAB-6), and the params of two
reasons a page shows (CARD-1, LAB-1)."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from pax_hispanica.engine import core
from support import NO_SPAIN, scenario

from .test_ruleset import broken, refused
from .test_why import CATHEDRAL, SANTA_MARTA, ZENU, reasons


# ---- PRJ-7: several descriptors ------------------------------------------------------------------------

def test_PRJ_7_count_nth_and_iter_agree_over_a_choice_and_a_range():
    descs = [{"kind": "choice", "options": [{"seat": 0, "type": "pass"}, {"seat": 0, "type": "end_turn"}]},
             {"kind": "range", "action": {"seat": 0, "type": "bid"}, "field": "amount", "min": 2, "max": 4},
             {"kind": "range", "action": {"seat": 0, "type": "bid"}, "field": "amount", "min": 3, "max": 1}]
    assert core.count_actions(descs) == 2 + 3 + 0
    listed = list(core.iter_actions(descs))
    assert [core.nth_action(descs, i) for i in range(5)] == listed == core.expand(descs)
    assert listed[2:] == [{"seat": 0, "type": "bid", "amount": a} for a in (2, 3, 4)]


# ---- HID-2: a log holding another seat's dealt hand ------------------------------------------------------

def test_HID_2_a_log_that_holds_a_scenario_hand_makes_its_cards_known_less_those_played_since():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"hand": ["galeon-1", "encomienda-1"], "money": 9}, {"hand": ["galeon-2"]}, {}]},
                 nations=NO_SPAIN)
    g.act({"seat": 0, "type": "sell", "card": "encomienda-1"})
    view = api.view(g.state, 1)                      # seat 1 sees its own hand only ...
    assert view["players"][0]["hand"] is None
    known = api.known_cards(view, g.events)          # ... but this log (not redacted) holds seat 0's
    assert known["hands"][0]["known"] == ["galeon-1"] and known["hands"][0]["unknown"] == 0
    redacted = api.known_cards(view, api.redact(g.events, 1))
    assert redacted["hands"][0]["known"] == [] and redacted["hands"][0]["unknown"] == 1


# ---- CYC-4: the map loader's words ---------------------------------------------------------------------

def test_CYC_4_a_land_entry_that_is_not_a_table_is_named_by_its_list(tmp_path):
    f = broken(tmp_path / "land", "map.toml", "[[land]]", "land = [5]\n[[landx]]")
    msg = refused(f, "map.toml")
    assert "top level" not in msg.split(":")[1], msg


def test_CYC_4_a_site_of_an_unknown_kind_is_refused_as_an_unknown_kind(tmp_path):
    f = broken(tmp_path / "kind", "map.toml", 'kind = "tribal"', 'kind = "castle"')
    refused(f, "map.toml", "unknown kind 'castle'")


# ---- PRJ-31: a config option's string ------------------------------------------------------------------

def test_PRJ_31_a_config_option_string_of_200_characters_is_taken_and_201_refused():
    assert api.new_game(api.Config(players=3, options={"note": "x" * 200}), 1)
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=3, options={"note": "x" * 201}), 1)
    assert (e.value.code, e.value.rule) == ("bad_config", "PRJ-31")


# ---- LAB-6 and LAB-1, CARD-1: what a page is shown -----------------------------------------------------

def _labour_game(money: int) -> api.Game:
    return scenario({"year": "goods", "step": "labour_acquisition", "order": [0, 1, 2],
                     "players": [{"money": money}, {}, {}],
                     "colonies": {SANTA_MARTA: {"owner": 0, "labour": None}},
                     "sites": {CATHEDRAL: 1, ZENU: 2}}, nations=NO_SPAIN)        # kidnapping is open


def test_LAB_1_employing_without_the_dollar_is_listed_for_the_colony_and_cathedral():
    g = _labour_game(0)
    [d] = reasons(g.state, 0, "cannot_afford")
    assert d["params"] == {"colony": SANTA_MARTA, "site": CATHEDRAL, "cost": g.state.rs.employ_cost, "money": 0}
    assert d["action"] == {"seat": 0, "type": "labour", "colony": SANTA_MARTA, "source": "employ", "site": CATHEDRAL}


def test_LAB_6_the_labour_decision_names_its_colonies_as_everyone_sees_them():
    g = _labour_game(5)
    pub = api.decision(g.state)
    assert pub["decision"] == "labour" and SANTA_MARTA in pub["colonies"]
    assert all(isinstance(c, str) for c in pub["colonies"])
    assert api.view(g.state, 1)["decision"]["colonies"] == pub["colonies"]


def test_CARD_1_a_card_that_needs_a_colony_is_listed_with_the_card_and_the_count():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"money": 9, "hand": ["encomienda-1"]}, {}, {}],
                  "colonies": {"jamaica.port_royal": {"owner": None}}}, nations=NO_SPAIN)
    assert not [c for c in api.view(g.state, 0)["colonies"] if c["owner"] == 0]
    [d] = reasons(g.state, 0, "needs_colonies")
    assert d["params"] == {"card": "encomienda-1", "need": 1, "have": 0} and d["rule"] == "CARD-1"
