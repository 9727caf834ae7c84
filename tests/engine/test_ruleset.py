"""CARD-1, CARD-3 and the data rules of the ruleset: the reference data is complete, and a
broken copy of it is refused with a RulesetError naming the file and the entry."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

import pytest

from pax_hispanica import api
from pax_hispanica.engine.ruleset import RulesetError
from pax_hispanica.rulesets import DATA, load_ruleset
from support import modified_ruleset

from .helpers import play

RS = load_ruleset()


def broken(tmp_path, fname: str, old: str, new: str, count: int = 1):
    """A copy of the reference data with one text replacement in one file."""
    folder = tmp_path / "broken"
    shutil.copytree(DATA / "reference", folder)
    p = folder / fname
    text = p.read_text()
    assert old in text, f"{old!r} not in {fname}: update this test's fixture"
    p.write_text(text.replace(old, new, count))
    return folder


def refused(folder, *words):
    with pytest.raises(RulesetError) as e:
        load_ruleset(str(folder))
    msg = str(e.value)
    for w in words:
        assert w in msg, (w, msg)
    return msg


# ---- the reference data -------------------------------------------------------------------

def test_CARD_3_reference_decks_have_at_least_40_market_and_8_haven_cards():
    assert len(RS.market) >= 40 and len(RS.haven) >= 8
    assert len(set(RS.market) | set(RS.haven)) == len(RS.market) + len(RS.haven)


def test_CARD_1_every_card_is_data_with_known_effects_and_at_most_one_target():
    from pax_hispanica.engine.ruleset import BESPOKE, EFFECTS
    for cid, card in RS.cards.items():
        assert card.effects or card.bespoke, cid
        assert all(e["kind"] in EFFECTS for e in card.effects)
        assert card.bespoke is None or card.bespoke in BESPOKE
        assert sum(1 for e in card.effects if EFFECTS[e["kind"]][1]) <= 1


def test_reference_map_has_the_zones_and_sites_the_issue_asks_for():
    n_sea = len(RS.zone_ids) - RS.n_land - 1
    assert RS.n_land >= 8 and n_sea >= 6 and RS.zone_ids[RS.europe] == "europe"
    assert set(RS.site_kind) == {"tribal", "visita", "cathedral"} and RS.col_ids
    assert sum(1 for k, w in zip(RS.site_kind, RS.site_wild) if k == "tribal" and w) >= 2
    # every land zone touches a sea; Europe touches a sea; adjacency is symmetric
    for z in range(len(RS.zone_ids)):
        assert RS.adjacent[z], RS.zone_ids[z]
        assert all(z in RS.adjacent[a] for a in RS.adjacent[z])


def test_every_RULES_parameter_section_is_in_the_reference_ruleset():
    from pax_hispanica.engine.ruleset import PARAMS
    for section, schema in PARAMS.items():
        for key in schema:
            assert (f"supply_{key}" if section == "supply" else key) in RS.params, (section, key)


# ---- broken copies ------------------------------------------------------------------------

def test_unknown_parameter_key_names_file_and_section(tmp_path):
    f = broken(tmp_path, "ruleset.toml", "[game]\n", "[game]\nbogus_rule = 3\n")
    refused(f, "ruleset.toml", "[game]", "bogus_rule")


def test_unknown_parameter_section_is_refused(tmp_path):
    f = broken(tmp_path, "ruleset.toml", "[game]\n", "[weather]\nrain = 1\n\n[game]\n")
    refused(f, "ruleset.toml", "weather")


def test_parameter_of_the_wrong_type_is_refused(tmp_path):
    f = broken(tmp_path, "ruleset.toml", "cycles = 5", 'cycles = "five"')
    refused(f, "ruleset.toml", "[game]", "cycles")


def test_CARD_1_unknown_effect_names_file_and_card(tmp_path):
    f = broken(tmp_path, "market.toml", 'kind = "gain_galleon"', 'kind = "gain_dragon"')
    refused(f, "market.toml", "card galeon", "gain_dragon")


def test_CARD_1_unknown_effect_parameter_names_file_card_and_effect(tmp_path):
    f = broken(tmp_path, "market.toml", '{ kind = "gain_galleon", n = 1 }', '{ kind = "gain_galleon", n = 1, m = 2 }')
    refused(f, "market.toml", "card galeon", "gain_galleon", "'m'")


def test_CARD_1_unknown_card_key_names_file_and_card(tmp_path):
    f = broken(tmp_path, "market.toml", 'id = "galeon"\n', 'id = "galeon"\ncolour = "red"\n')
    refused(f, "market.toml", "card galeon", "colour")


def test_CARD_1_unknown_bespoke_card_names_file_and_card(tmp_path):
    f = broken(tmp_path, "market.toml", 'bespoke = "treaty_of_madrid"', 'bespoke = "treaty_of_tordesillas"')
    refused(f, "market.toml", "treaty_of_tordesillas")


def test_CARD_1_duplicate_card_names_file_and_card(tmp_path):
    f = broken(tmp_path, "haven.toml", 'id = "providence"', 'id = "tortuga"')
    refused(f, "haven.toml", "tortuga")


def test_CARD_1_card_condition_naming_an_unknown_nation_or_legality_is_refused(tmp_path):
    f = broken(tmp_path, "market.toml", 'id = "galeon"\n', 'id = "galeon"\nrequires = { nation = "portuguese" }\n')
    refused(f, "market.toml", "card galeon", "portuguese")
    f2 = broken(tmp_path / "b", "market.toml", 'id = "galeon"\n', 'id = "galeon"\nrequires = { legality = ["PIRATE"] }\n')
    refused(f2, "market.toml", "card galeon", "legality")


def test_CARD_2_haven_effect_outside_the_haven_deck_is_refused(tmp_path):
    f = broken(tmp_path, "market.toml", '{ kind = "gain_galleon", n = 1 }', '{ kind = "haven" }')
    refused(f, "market.toml", "card galeon", "haven")


def test_unknown_zone_in_a_sea_names_file_and_sea(tmp_path):
    f = broken(tmp_path, "map.toml", 'adjacent = ["canal_yucatan", "estrecho_florida"]',
               'adjacent = ["canal_yucatan", "mar_del_sur"]')
    refused(f, "map.toml", "sea golfo_mexico", "mar_del_sur")


def test_unknown_zone_in_a_land_names_file_and_land(tmp_path):
    f = broken(tmp_path, "map.toml", 'seas = ["golfo_mexico"]', 'seas = ["pacifico"]')
    refused(f, "map.toml", "land nueva_espana", "pacifico")


def test_unknown_site_kind_names_file_and_site(tmp_path):
    f = broken(tmp_path, "map.toml", 'kind = "cathedral", name = "Cathedral of Veracruz"',
               'kind = "monastery", name = "Cathedral of Veracruz"')
    refused(f, "map.toml", "site nueva_espana.veracruz", "monastery")


def test_unknown_site_key_names_file_and_site(tmp_path):
    f = broken(tmp_path, "map.toml", 'name = "Mexica", indigenous = 3', 'name = "Mexica", indigenous = 3, gold = 9')
    refused(f, "map.toml", "site nueva_espana.mexica", "gold")


def test_CYC_4_unknown_home_colony_names_file_and_nation(tmp_path):
    f = broken(tmp_path, "nations.toml", 'home = "jamaica.port_royal"', 'home = "jamaica.kingston"')
    refused(f, "nations.toml", "[english]", "jamaica.kingston")


def test_CYC_4_unknown_start_zone_names_file_and_key(tmp_path):
    f = broken(tmp_path, "ruleset.toml", 'start_zone = "europe"', 'start_zone = "asia"')
    refused(f, "ruleset.toml", "start_zone", "asia")


def test_invalid_toml_and_missing_file_name_the_file(tmp_path):
    f = broken(tmp_path, "nations.toml", "[english]", "[english")
    refused(f, "nations.toml", "TOML")
    g = broken(tmp_path / "g", "battle.toml", "side", "side")
    (g / "battle.toml").unlink()
    refused(g, "battle.toml", "missing")


def test_a_valid_modified_ruleset_is_used_by_the_game(tmp_path):
    f = broken(tmp_path, "ruleset.toml", "cycles = 5", "cycles = 1")
    (f / "ruleset.toml").write_text((f / "ruleset.toml").read_text().replace("start_money = 6            # CYC-4", "start_money = 9            # CYC-4"))
    cfg = api.Config(players=3, ruleset=str(f))
    st = api.new_game(cfg, 4)
    assert st.rs.cycles == 1 and st.rs.setup_value("start_money", 3) == 9
    game = play(3, 4, ruleset=str(f))
    assert game.state.result["cycles"] == 1
    # a snapshot of a game on a ruleset given by path restores with that ruleset
    back = api.restore(api.snapshot(game.state))
    assert back.rs.cycles == 1 and back.to_dict() == game.state.to_dict()
    assert api.replay(game.record).state.to_dict() == game.state.to_dict()


def test_duplicate_ids_across_files_or_zones_name_the_entry(tmp_path):
    f = broken(tmp_path, "haven.toml", 'id = "providence"', 'id = "casa_contratacion"')
    refused(f, "haven.toml", "casa_contratacion", "market.toml")
    g = broken(tmp_path / "g", "map.toml", 'id = "canal_yucatan"', 'id = "golfo_mexico"')
    refused(g, "map.toml", "golfo_mexico")
    h = broken(tmp_path / "h", "map.toml", '{ id = "mexica"', '{ id = "veracruz"')
    refused(h, "map.toml", "nueva_espana.veracruz")


# ---- the loaders' words (CARD-1, CYC-4) ------------------------------------------------------------------

def test_CARD_1_a_visita_or_cathedral_effect_may_place_zero_but_a_galleon_effect_gives_at_least_one(tmp_path):
    f = broken(tmp_path / "zero", "market.toml", 'effects = [{ kind = "place_visita", indigenous = 2 }]',
               'effects = [{ kind = "place_visita", indigenous = 0 }]')
    assert load_ruleset(str(f)).name
    f = broken(tmp_path / "cap", "market.toml", 'effects = [{ kind = "place_cathedral", capacity = 2 }]',
               'effects = [{ kind = "place_cathedral", capacity = 0 }]')
    assert load_ruleset(str(f)).name
    f = broken(tmp_path / "neg", "market.toml", 'effects = [{ kind = "place_visita", indigenous = 2 }]',
               'effects = [{ kind = "place_visita", indigenous = -1 }]')
    refused(f, "market.toml", "indigenous")


def test_CYC_4_a_nations_order_that_is_not_a_list_is_refused_at_the_top_level(tmp_path):
    f = broken(tmp_path / "order", "nations.toml", 'order = ["spanish", "english", "french", "dutch", "courland"]',
               'order = "spanish"')
    msg = refused(f, "nations.toml")
    assert msg.startswith("nations.toml: top level:"), msg


def test_CYC_4_a_land_entry_that_is_not_a_table_is_named_by_its_list(tmp_path):
    f = broken(tmp_path / "land", "map.toml", "[[land]]", "land = [5]\n[[landx]]")
    msg = refused(f, "map.toml")
    assert "top level" not in msg.split(":")[1], msg


def test_CYC_4_a_site_of_an_unknown_kind_is_refused_as_an_unknown_kind(tmp_path):
    f = broken(tmp_path / "kind", "map.toml", 'kind = "tribal"', 'kind = "castle"')
    refused(f, "map.toml", "unknown kind 'castle'")


def test_CYC_4_a_bad_key_of_europe_is_named_by_its_table(tmp_path):
    f = broken(tmp_path / "eu", "map.toml", "[europe]\n", "[europe]\nbogus_key = 1\n")
    msg = refused(f, "map.toml", "bogus_key")
    assert msg.startswith("map.toml: [europe]"), msg


def test_CYC_4_a_ruleset_number_out_of_its_range_is_refused_naming_ruleset_toml(tmp_path):
    f = broken(tmp_path / "goal", "ruleset.toml", "prestige_to_win = 5 ", "prestige_to_win = 500 ")
    msg = refused(f, "prestige_to_win")
    assert msg.startswith("ruleset.toml"), msg


def test_CYC_4_a_ruleset_file_may_set_a_number_at_the_top_of_its_range(tmp_path):
    f = broken(tmp_path / "top", "ruleset.toml", "cycles = 5 ", "cycles = 20 ")
    assert load_ruleset(str(f)).cycles == 20
    f = broken(tmp_path / "over", "ruleset.toml", "cycles = 5 ", "cycles = 21 ")
    refused(f, "ruleset.toml", "cycles")


def test_CYC_4_a_map_fort_that_is_not_a_boolean_is_refused_naming_file_site_and_key(tmp_path):
    folder = tmp_path / uuid.uuid4().hex
    shutil.copytree(DATA / "reference", folder)
    p = folder / "map.toml"
    text = p.read_text()
    old = 'name = "Zacatecas", goods = "silver", crown = true, fort = true }'
    assert old in text, "update this test's fixture"
    p.write_text(text.replace(old, old.replace("fort = true", "fort = 1"), 1))
    with pytest.raises(RulesetError) as e:
        load_ruleset(str(folder))
    assert str(e.value) == "map.toml: site nueva_espana.zacatecas: fort must be true or false"


def test_CYC_4_a_citizen_supply_too_small_for_the_map_is_refused_with_code_rule_and_words(tmp_path):
    folder = modified_ruleset(tmp_path / uuid.uuid4().hex, citizens=1)
    toml = Path(folder) / "ruleset.toml"
    text = toml.read_text()
    assert "supply_citizens = [23, 500]" in text, "update this test's fixture"
    toml.write_text(text.replace("supply_citizens = [23, 500]", "supply_citizens = [1, 500]", 1))
    with pytest.raises(api.IllegalAction) as e:
        api.Game.new(api.Config(players=3, ruleset=folder), 1)
    assert e.value.code == "bad_config"
    assert e.value.rule == "CYC-4"
    assert e.value.message == "The ruleset's Citizen supply is too small for its map."
