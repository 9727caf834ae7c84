"""PRJ-33's ScenarioLoaded described field by field, PRJ-7's scenario refusals word for word, and a
tableau given as [card, target] (issue 36: the mutation score)."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from support import NO_SPAIN, WITH_SPAIN

SANTA_MARTA = "tierra_firme.santa_marta"


def _refusal(scn) -> str:
    with pytest.raises(api.IllegalAction) as e:
        api.from_scenario(scn)
    assert e.value.code == "bad_scenario" and e.value.rule == "PRJ-7"
    return e.value.message


def test_PRJ_33_scenario_loaded_names_nations_tableaus_havens_the_crown_step_ruleset_and_decks():
    scn = {"config": {"players": 3, "nations": WITH_SPAIN},
           "position": {"year": "play", "step": "play_turns", "order": [0, 1, 2],
                        "players": [{}, {"tableau": [["fortificacion-1", SANTA_MARTA]], "havens": ["jamaica"]}, {}],
                        "colonies": {SANTA_MARTA: {"owner": 1, "labour": None}}}}
    g = api.from_scenario(scn)
    loaded = g.events[0]
    assert loaded["type"] == "ScenarioLoaded"
    assert [p["nation"] for p in loaded["players"]] == WITH_SPAIN
    assert loaded["players"][1]["tableau"] == ["fortificacion-1"]
    assert loaded["players"][1]["havens"] == ["jamaica"]
    assert (loaded["year"], loaded["step"]) == ("play", "play_turns")
    assert (loaded["ruleset"], loaded["ruleset_version"]) == (g.state.rs.name, g.state.rs.version)
    assert loaded["ruleset"] and loaded["ruleset_version"]
    assert loaded["market_size"] == len(g.state.market) > 0
    assert loaded["seed_hash"] == api.seed_hash(0)           # a scenario without a seed has seed 0
    assert g.state.tableaus[1] == [("fortificacion-1", SANTA_MARTA)]
    assert "fortificacion-1" not in g.state.market
    crown = api.from_scenario({**scn, "config": {"players": 3, "nations": NO_SPAIN}}).events[0]
    assert "crown" in {c["owner"] for c in crown["colonies"].values()}


def test_PRJ_7_a_scenario_that_is_no_object_is_refused_in_words():
    assert _refusal([1, 2]) == "A scenario is a JSON object (config, seed, position, actions)."


def test_PRJ_7_an_order_with_a_seat_twice_and_a_card_held_twice_are_refused_in_words():
    base = {"config": {"players": 3}, "seed": 1}
    assert _refusal({**base, "position": {"year": "play", "order": [0, 0, 1]}}) == \
        "scenario: order must list every seat once"
    assert _refusal({**base, "position": {"year": "play", "players": [{"hand": ["galeon-1"]},
                                                                      {"hand": ["galeon-1"]}, {}]}}) == \
        "scenario: a card is held twice"


@pytest.mark.parametrize("colony", [{"owner": "nobody"}, {"labour": "serf"}])
def test_PRJ_7_a_colony_owner_or_labour_of_no_kind_is_refused_with_the_choices(colony):
    msg = _refusal({"config": {"players": 3}, "seed": 1, "position": {"colonies": {"cuba.habana": colony}}})
    assert msg.endswith(": owner is a seat, 'crown' or null; labour 'citizen', 'slave' or null")


def test_PRJ_7_a_year_of_no_kind_is_refused_with_the_years():
    msg = _refusal({"config": {"players": 3}, "seed": 1, "position": {"year": "winter"}})
    assert msg == "scenario: year must be one of ('goods', 'auction', 'play', 'sail')"


def test_PRJ_33_a_scenario_without_a_position_is_the_empty_position():
    bare = api.from_scenario({"config": {"players": 3}, "seed": 1})
    empty = api.from_scenario({"config": {"players": 3}, "seed": 1, "position": {}})
    assert bare.state.to_dict() == empty.state.to_dict()
    assert bare.events == empty.events


@pytest.mark.parametrize("position,message", [
    ({"colonies": {"cuba.habana": 5}}, "scenario: colony cuba.habana: must be a table"),
    ({"players": [{"fleet": []}]}, "scenario: player 0 fleet: must be a table"),
    ({"players": 5}, "scenario: position: players must be a list"),
    ({"players": [{"hand": "x"}]}, "scenario: player 0: hand must be a list"),
    ({"players": [{"money": -1}]}, "scenario: player 0: money must be a whole number of at least 0"),
    ({"players": [{"fleet": {"legality": "PIRATE"}}]},
     "scenario: player 0 fleet: legality must be 'PLUNDER', 'SMUGGLER', 'CONQUISTADOR' or 'PRIVATEER', not 'PIRATE'"),
    ({"players": [{"fleet": {"legality": "PIRATE" * 20}}]},
     "scenario: player 0 fleet: legality must be 'PLUNDER', 'SMUGGLER', 'CONQUISTADOR' or 'PRIVATEER', not "
     + repr("PIRATE" * 20)[:57] + "..."),
    ({"players": [{"fleet": {"bogus": 1}}]}, "scenario: player 0 fleet: unknown key(s) ['bogus']"),
    ({"bogus": 1}, "scenario: position: unknown key(s) ['bogus']"),
    ({"colonies": {"cuba.habana": {"bogus": 1}}}, "scenario: colony cuba.habana: unknown key(s) ['bogus']"),
    ({"players": [{"fleet": {"legality": "P" * 58}}]},          # 60 characters shown whole, 61 cut
     "scenario: player 0 fleet: legality must be 'PLUNDER', 'SMUGGLER', 'CONQUISTADOR' or 'PRIVATEER', not "
     + repr("P" * 58)),
    ({"players": [{"fleet": {"legality": "P" * 59}}]},
     "scenario: player 0 fleet: legality must be 'PLUNDER', 'SMUGGLER', 'CONQUISTADOR' or 'PRIVATEER', not "
     + repr("P" * 59)[:57] + "..."),
])
def test_PRJ_7_a_scenario_value_of_the_wrong_shape_is_refused_in_words(position, message):
    assert _refusal({"config": {"players": 3}, "seed": 1, "position": position}) == message


@pytest.mark.parametrize("scn,message", [
    ({"year": "play"}, "scenario: unknown key(s) ['year']"),
    ({"position": 5}, "scenario: position: must be a table"),
    ({"position": {"players": [5]}}, "scenario: player 0: must be a table"),
    ({"position": {"rebels": {"cuba": "x"}}}, "scenario: rebels: cuba must be int"),
])
def test_PRJ_7_a_scenario_refusal_names_the_entry_at_each_depth(scn, message):
    assert _refusal({"config": {"players": 3}, "seed": 1, **scn}) == message


@pytest.mark.parametrize("where", ["hand", "zone", "colony", "site", "land"])
def test_PRJ_7_a_scenario_refusal_quotes_a_long_id_shortened(where):
    """PRJ-7: a refusal quotes at most a short prefix of what it was sent; a 1,000-character id in
    a scenario's hand, fleet, colonies, sites or rebels comes back cut, never in full."""
    long = "x" * 1000
    position: dict = {"year": "play", "step": "play_turns", "order": [0, 1], "players": [{}, {}]}
    if where == "hand":
        position["players"][0]["hand"] = [long]
    elif where == "zone":
        position["players"][0]["fleet"] = {"zone": long}
    elif where == "colony":
        position["colonies"] = {long: {"owner": 0, "labour": None}}
    elif where == "site":
        position["sites"] = {long: {}}
    else:
        position["rebels"] = {long: 1}
    message = _refusal({"config": {"players": 2, "nations": WITH_SPAIN[:2]}, "position": position})
    assert long not in message and len(message) < 300, message
