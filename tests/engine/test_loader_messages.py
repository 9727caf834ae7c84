"""The loaders' refusals name the file, the entry and the key (PRJ-7, PRJ-31, CARD-1, CYC-4), and
what they accept is loaded as written. Written to kill mutants that survived scripts/mutation.py."""

from __future__ import annotations

import tomllib
import uuid

import pytest

from pax_hispanica import api
from pax_hispanica import schemas as schema
from pax_hispanica.rulesets import DATA

from support import modified_ruleset

from .test_ruleset import broken, refused

ORDER = 'order = ["spanish", "english", "french", "dutch", "courland"]'


def scenario_refusal(position: dict) -> str:
    with pytest.raises(api.IllegalAction) as e:
        api.from_scenario({"config": {"players": 3}, "seed": 1, "position": position})
    assert e.value.code == "bad_scenario"
    return e.value.message


def test_CYC_4_colonies_start_with_the_forts_of_a_freshly_read_map(tmp_path):
    """A Crown colony keeps the map's fort (false when the map names none); a fort stands on a
    colony only, so the other colony spaces start without one. (A copy of the reference folder
    under a new name, so that the map is read here and not taken from the loader's cache, which
    is keyed by the folder's path.)"""
    lands = tomllib.loads((DATA / "reference" / "map.toml").read_text())["land"]
    sites = {f"{land['id']}.{s['id']}": s for land in lands for s in land.get("sites", [])}
    # 4 players: every Crown colony is set up (with 2 and 3 the reference's last two start as
    # empty spaces without their fort, PRJ-75, PRJ-77: tests/engine/test_crown_colonies.py)
    st = api.new_game(api.Config(players=4, ruleset=modified_ruleset(tmp_path / uuid.uuid4().hex)), 1)
    colonies = api.view(st, None, include_state=False)["colonies"]
    assert colonies
    for c in colonies:
        site = sites[c["id"]]
        assert c["fort"] is (site.get("crown", False) and site.get("fort", False)), c
    assert any(c["fort"] for c in colonies)
    assert any(sites[c["id"]].get("crown") and not c["fort"] for c in colonies)


def test_PRJ_31_a_variant_may_override_every_parameter_at_once():
    params = {name: p["value"] for name, p in api.parameters().items()}
    st = api.new_game(api.Config(players=3, params=params), 1)
    assert api.acting(st)
    with pytest.raises(api.IllegalAction):
        api.new_game(api.Config(players=3, params={**params, "bogus_rule": 1}), 1)


def test_CYC_4_nations_order_must_list_every_nation(tmp_path):
    f = broken(tmp_path / "short", "nations.toml", ORDER, 'order = ["spanish", "english", "french", "dutch"]')
    refused(f, "nations.toml", "`order` must list every nation once")
    f = broken(tmp_path / "empty", "nations.toml", ORDER, "order = []")
    refused(f, "nations.toml", "`order` must list every nation once")


def test_CARD_1_an_effect_parameter_of_the_wrong_type_names_file_card_effect_and_key(tmp_path):
    f = broken(tmp_path, "market.toml", '{ kind = "gain_galleon", n = 1 }', '{ kind = "gain_galleon", n = "one" }')
    assert refused(f) == "market.toml: card galeon effect gain_galleon: n must be int"


def test_a_top_level_key_of_the_wrong_type_is_named_at_the_top_level(tmp_path):
    f = broken(tmp_path, "ruleset.toml", 'version = "reference-8"', "version = 1")
    assert refused(f) == "ruleset.toml: top level: version must be str"


def test_PRJ_7_a_scenario_deck_order_names_the_deck_of_a_card_not_in_it():
    assert scenario_refusal({"decks": {"market": ["nope"]}}) == \
        "scenario: card 'nope' is not in the market deck (is it in a hand?)"
    assert scenario_refusal({"decks": {"haven": ["nope"]}}) == \
        "scenario: card 'nope' is not in the haven deck (is it in a hand?)"


def test_PRJ_7_a_scenario_list_given_as_a_number_must_be_a_list():
    assert scenario_refusal({"players": [{"hand": 3}]}) == "scenario: player 0: hand must be a list"


def test_the_published_schemas_check_reports_up_to_date(capsys):
    assert schema.main(["--check"]) == 0
    assert capsys.readouterr().out == "up to date\n"
    assert schema.main(["--bogus"]) == 2
    assert "usage" in capsys.readouterr().out
