"""Scenario files (docs/scenarios.md): the documented examples load and play as described;
a malformed scenario is refused with a readable error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pax_hispanica import api
from support import NO_SPAIN, scenario

DOCS = Path(__file__).resolve().parents[2] / "docs" / "scenarios"


def load(name):
    return json.loads((DOCS / name).read_text())


def test_every_documented_example_loads_replays_and_is_listed_in_the_docs():
    files = sorted(p.name for p in DOCS.glob("*.json"))
    assert len(files) >= 2
    text = (DOCS.parent / "scenarios.md").read_text()
    for f in files:
        assert f in text, f"{f} is not described in docs/scenarios.md"
        scn = load(f)
        g = api.from_scenario(scn)
        assert len(g.record["actions"]) == len(scn["actions"])
        again = api.replay(json.loads(json.dumps(g.record)))
        assert again.state.to_dict() == g.state.to_dict()


def test_AUC_2_example_buried_treasure_auction():
    g = api.from_scenario(load("buried_treasure_auction.json"))
    st = g.state
    types = [e["type"] for e in g.events]
    assert types.index("ChoicesRevealed") < types.index("BuriedCardRevealed") < types.index("AuctionWon")
    won = next(e for e in g.events if e["type"] == "AuctionWon")
    assert won["card"] == "grandeza-1" and won["winner"] == 1 and won["paid_to"] == 2 and won["price"] == 5
    assert st.hands[1] == ["secretario-1", "grandeza-1"]
    assert st.money[1] == 1 and st.money[2] == 9
    assert st.market[0] == "galeon-1"                        # the face-up top stays
    started = next(e for e in g.events if e["type"] == "AuctionStarted")
    assert started["bidders"] == [2, 1]                      # the Spanish have no money: AUC-3


def test_BAT_4_example_battle_with_support():
    g = api.from_scenario(load("battle_with_support.json"))
    st = g.state
    res = next(e for e in g.events if e["type"] == "BattleResolved")
    assert (res["attacker_strength"], res["target_strength"], res["winner"]) == (5, 3, "attacker")
    assert {s["seat"]: s["side"] for s in res["support"]} == {0: "attacker", 3: "target"}
    assert st.col_labour[st.rs.col_index["jamaica.port_royal"]] is None
    assert st.cargo[2] == ["chest", "chest"]
    assert api.acting(st) == (2,)                            # the French voyage goes on


@pytest.mark.parametrize("change,words", [
    ({"positoin": {}}, "unknown key"),
    ({"position": {"year": "winter"}}, "year"),
    ({"position": {"year": "sail", "step": "dancing"}}, "steps"),
    ({"position": {"order": [0, 0, 1]}}, "order"),
    ({"position": {"players": [{"gold": 3}]}}, "gold"),
    ({"position": {"players": [{"hand": ["excalibur"]}]}}, "excalibur"),
    ({"position": {"players": [{"hand": ["galeon-1"]}, {"hand": ["galeon-1"]}]}}, "twice"),
    ({"position": {"players": [{"fleet": {"zone": "atlantis"}}]}}, "atlantis"),
    ({"position": {"players": [{"fleet": {"legality": "PIRATE"}}]}}, "legality"),
    ({"position": {"players": [{"havens": ["atlantis"]}]}}, "havens"),
    ({"position": {"players": [{}, {}, {}, {}]}}, "players"),
    ({"position": {"colonies": {"cuba.atlantis": {}}}}, "cuba.atlantis"),
    ({"position": {"colonies": {"cuba.habana": {"labor": "slave"}}}}, "labor"),
    ({"position": {"colonies": {"cuba.habana": {"labour": "serf"}}}}, "labour"),
    ({"position": {"sites": {"cuba.atlantis": 2}}}, "cuba.atlantis"),
    ({"position": {"rebels": {"atlantico": 1}}}, "atlantico"),
    ({"position": {"decks": {"market": ["tortuga"]}}}, "tortuga"),
])
def test_PRJ_7_a_malformed_scenario_is_refused_with_a_readable_error(change, words):
    scn = {"config": {"players": 3}, "seed": 1, **change}
    with pytest.raises(api.IllegalAction) as e:
        api.from_scenario(scn)
    assert e.value.code == "bad_scenario" and words in e.value.message


# ---- PRJ-33: a scenario's log begins with the position as given ----------------------------------------

def _seeded_setup(scn):
    from pax_hispanica.engine.setup import new_state
    return new_state(scn["config"], scn.get("seed", 0), start=False, rulesets=api.load_ruleset)


def test_PRJ_33_the_log_begins_with_ScenarioLoaded_and_no_event_of_the_discarded_setup():
    scn = load("battle_with_support.json")
    g = api.from_scenario(scn)
    assert g.events[0]["type"] == "ScenarioLoaded" and g.events[0]["seq"] == 1
    assert [e["seq"] for e in g.events] == list(range(1, len(g.events) + 1))
    assert not any(e["type"] in ("GameStarted", "YearBegan") and e["seq"] < g.events[0]["seq"] for e in g.events)
    assert "GameStarted" not in {e["type"] for e in g.events}
    loaded = g.events[0]
    assert loaded["seed_hash"] == api.seed_hash(scn["seed"]) and loaded["order"] == g.state.order
    assert api.verify_log(g.events, scn["seed"]) == []
    assert api.verify_log(g.events, scn["seed"] + 1) != []


def test_PRJ_33_a_buried_seeded_top_card_appears_in_no_redacted_event_and_hands_go_to_their_owners():
    from .helpers import strings
    base = {"config": {"players": 3, "nations": ["spanish", "english", "french"]}, "seed": 11}
    seeded, _ = _seeded_setup(base)
    top, second = seeded.market[0], seeded.market[1]
    # the scenario puts the seeded second card on top and hands the seeded top card to seat 1
    scn = {**base, "position": {"year": "play", "decks": {"market": [second]},
                                "players": [{}, {"hand": [top]}, {}]}}
    g = api.from_scenario(scn)
    assert g.events[0]["market_top"] == second
    for viewer in (None, 0, 2):
        assert top not in strings(api.redact(g.events, viewer)), viewer
    hands = [e for e in g.events if e["type"] == "ScenarioHand"]
    assert [(e["seat"], e["to"]) for e in hands] == [(0, [0]), (1, [1]), (2, [2])]
    assert top in strings(api.redact(g.events, 1))            # its owner knows it
    assert g.events[0]["players"][1]["hand_size"] == 1


def test_PRJ_33_the_public_position_is_described_as_given():
    scn = {"config": {"players": 3, "nations": ["spanish", "english", "french"]}, "seed": 5,
           "position": {"cycle": 2, "year": "sail", "order": [1, 2, 0],
                        "players": [{"money": 7, "prestige": 3,
                                     "fleet": {"zone": "cuba", "ships": 2, "legality": "PLUNDER",
                                               "cargo": ["chest"]}}],
                        "colonies": {"cuba.habana": {"owner": 2, "labour": "slave", "chests": 1}}}}
    loaded = api.from_scenario(scn).events[0]
    assert (loaded["cycle"], loaded["year"], loaded["order"]) == (2, "sail", [1, 2, 0])
    p0 = loaded["players"][0]
    assert (p0["money"], p0["prestige"]) == (7, 3)
    assert p0["fleet"] == {"zone": "cuba", "ships": 2, "legality": "PLUNDER", "cargo": ["chest"]}
    habana = loaded["colonies"]["cuba.habana"]
    assert {k: habana[k] for k in ("owner", "labour", "chests")} == {"owner": 2, "labour": "slave", "chests": 1}


# ---- PRJ-7: what a scenario announces --------------------------------------------------------------------

def test_PRJ_7_a_scenario_announces_its_haven_decks_top_card():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2], "players": [{}, {}, {}]})
    [loaded] = [e for e in g.events if e["type"] == "ScenarioLoaded"]
    assert g.state.haven and loaded["haven_top"] == g.state.haven[0]
    assert loaded["haven_size"] == len(g.state.haven)


def test_PRJ_7_a_scenario_announces_each_colony_with_its_fort():
    santa_marta = "tierra_firme.santa_marta"
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2], "players": [{}, {}, {}],
                  "colonies": {santa_marta: {"owner": 0, "labour": "citizen", "fort": True}}}, nations=NO_SPAIN)
    [loaded] = [e for e in g.events if e["type"] == "ScenarioLoaded"]
    assert loaded["colonies"][santa_marta] == {"owner": 0, "labour": "citizen", "chests": 0, "fort": True}
    assert all(set(c) == {"owner", "labour", "chests", "fort"} for c in loaded["colonies"].values())


@pytest.mark.parametrize("fort", [1, 0, "yes", [True]])
def test_PRJ_7_a_scenario_colony_fort_that_is_not_a_boolean_is_refused_in_words(fort):
    with pytest.raises(api.IllegalAction) as e:
        api.from_scenario({"config": {"players": 3}, "seed": 1,
                           "position": {"colonies": {"cuba.habana": {"fort": fort}}}})
    assert e.value.code == "bad_scenario"
    assert e.value.message == "scenario: colony cuba.habana: fort must be true or false"
