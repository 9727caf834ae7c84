"""The loaders' refusals at their edges, word for word, and what they accept at the bounds
(PRJ-31 ranges, PRJ-75 Crown colonies by count, PRJ-78 bribes by count, BAT-3's battle cards,
SAIL-1's map; issue 36: the mutation score). Each test reads its own copy of the reference
folder (the loader caches by path)."""

from __future__ import annotations

import re

import pytest

from pax_hispanica.engine.ruleset import RulesetError
from pax_hispanica.rulesets import DATA, load_ruleset

from .test_ruleset import broken, refused


def test_SAIL_1_an_unknown_sea_next_to_europe_is_named_with_europe(tmp_path):
    folder = broken(tmp_path, "map.toml", 'seas = ["atlantico", "antillas_menores"]',
                    'seas = ["atlantico", "nowhere"]')
    assert refused(folder) == "map.toml: europe: unknown zone 'nowhere'"


def test_BAT_3_battle_cards_need_one_card_per_side(tmp_path):
    folder = broken(tmp_path, "battle.toml", 'side = "target"', 'side = "attacker"')
    assert refused(folder) == "battle.toml: needs exactly one card per side (attacker, target)"


def test_PRJ_31_a_number_out_of_its_range_is_shown(tmp_path):
    folder = broken(tmp_path, "ruleset.toml", "fleet_moves = 4 ", "fleet_moves = 99 ")
    msg = refused(folder)
    assert "fleet_moves must be at least 1 and at most 20" in msg and msg.endswith(" not 99")


def test_PRJ_31_a_range_of_one_number_is_accepted(tmp_path):
    folder = broken(tmp_path, "ruleset.toml", "fleet_moves = [1, 20]", "fleet_moves = [4, 4]")
    assert load_ruleset(str(folder)).fleet_moves == 4


def test_PRJ_31_nations_order_must_list_every_nation_once(tmp_path):
    folder = broken(tmp_path, "nations.toml", 'order = ["spanish", "english", "french", "dutch", "courland"]',
                    'order = ["spanish", "english", "french", "dutch", "dutch"]')
    assert refused(folder) == "nations.toml: `order` must list every nation once"


def test_PRJ_75_a_crown_colony_count_out_of_range_is_shown():
    with pytest.raises(RulesetError) as e:
        load_ruleset("reference", {"crown_colonies.3": 99})
    assert str(e.value).startswith("parameter crown_colonies.3 must be at least 0 and at most ")
    assert str(e.value).endswith("Crown colonies, PRJ-75), not 99")


def test_PRJ_78_a_bribe_by_count_is_checked_after_another_count_parameter():
    with pytest.raises(RulesetError) as e:
        load_ruleset("reference", {"crown_colonies.3": 1, "smuggler_bribe.3": 999})
    msg = str(e.value)
    assert msg.startswith("parameter smuggler_bribe.3 must be at least ") and msg.endswith(", not 999")
    assert "(the range of smuggler_bribe, [" in msg


def test_SAIL_1_a_sea_that_lists_a_land_zone_is_refused_in_words(tmp_path):
    folder = broken(tmp_path, "map.toml", 'adjacent = ["canal_yucatan", "estrecho_florida"]',
                    'adjacent = ["canal_yucatan", "nueva_espana"]')
    assert refused(folder) == "map.toml: sea golfo_mexico: list land zones under the land zone"


def test_SAIL_1_europe_is_no_sea_zone_of_a_land(tmp_path):
    folder = broken(tmp_path, "map.toml", 'seas = ["golfo_mexico"]\n', 'seas = ["golfo_mexico", "europe"]\n')
    assert refused(folder) == "map.toml: land nueva_espana: 'europe' is not a sea zone"


def test_CARD_1_a_market_card_of_an_unknown_nation_is_refused_with_its_file(tmp_path):
    folder = broken(tmp_path, "market.toml", "requires = { colonies = 1 }", 'requires = { nation = "atlantis" }')
    assert refused(folder) == "market.toml: card encomienda: requires.nation: unknown nation 'atlantis'"


def test_PRJ_68_a_ruleset_without_treasure_by_players_loads(tmp_path):
    text = (DATA / "reference" / "ruleset.toml").read_text()
    block = re.search(r"\[treasure\.by_players\.2\].*?(?=\n# PRJ-31)", text, re.S)
    assert block is not None
    folder = broken(tmp_path, "ruleset.toml", block.group(0), "")
    rs = load_ruleset(str(folder))
    assert rs.smuggler_bribes == (rs.smuggler_bribe,) * len(rs.smuggler_bribes)


def test_PRJ_67_each_market_entry_names_its_copies_among_the_cards(tmp_path):
    # the Galeón entry without `copies` (the schema's default: one card, named by the entry's id)
    folder = broken(tmp_path, "market.toml", 'id = "galeon"\nname = "Galeón"\ncost = 2\ncopies = 6\n',
                    'id = "galeon"\nname = "Galeón"\ncost = 2\n')
    rs = load_ruleset(str(folder))
    assert rs.market_entries["galeon"] == ("galeon",) and "galeon" in rs.market
    ids = [cid for copies in rs.market_entries.values() for cid in copies]
    assert sorted(ids) == sorted(rs.market)


def test_PRJ_7_a_zone_position_that_is_no_pair_is_refused_in_words(tmp_path):
    folder = broken(tmp_path, "map.toml", "pos = [930, 70]", "pos = 5")
    assert refused(folder) == "map.toml: [europe]: pos must be a list"


def test_PRJ_7_a_missing_key_is_named_with_its_entry(tmp_path):
    folder = broken(tmp_path, "battle.toml", 'name = "Support the attacker"\n', "")
    assert refused(folder).startswith("battle.toml: card support_attacker: missing key(s) ['name']; ")


def test_PRJ_7_unknown_keys_are_named_for_the_first_entry_only(tmp_path):
    folder = broken(tmp_path, "battle.toml", 'side = "attacker"', 'side = "attacker"\nbogus = 1')
    battle = folder / "battle.toml"
    battle.write_text(battle.read_text().replace('side = "target"', 'side = "target"\nother = 2'))
    assert refused(folder) == "battle.toml: card support_attacker: unknown key(s) ['bogus']"


def test_PRJ_7_a_pair_of_three_numbers_is_refused_in_pydantics_words_lower_case(tmp_path):
    folder = broken(tmp_path, "map.toml", "pos = [930, 70]", "pos = [930, 70, 5]")
    assert refused(folder) == "map.toml: [europe]: pos tuple should have at most 2 items after validation, not 3"


@pytest.mark.parametrize("fname,old,new,message", [
    ("market.toml", 'effects = [{ kind = "gain_galleon", n = 1 }]', 'effects = [{ kind = "bogus", n = 1 }]',
     "market.toml: card galeon: unknown effect 'bogus'"),
    ("map.toml", 'kind = "cathedral"', 'kind = "castle"', "map.toml: site nueva_espana.veracruz: unknown kind 'castle'"),
    ("market.toml", "requires = { colonies = 1 }", 'requires = { legality = "PLUNDER" }',
     "market.toml: card encomienda: requires.legality must be a list of PLUNDER, SMUGGLER, CONQUISTADOR, PRIVATEER"),
    ("ruleset.toml", "[treasure.by_players.2]", "[treasure.by_players.x]",
     "ruleset.toml: [treasure.by_players.x]: the player count must be a whole number"),
    ("ruleset.toml", "[setup.by_players.2]", "[setup.by_players.x]",
     "ruleset.toml: [setup.by_players.x]: the player count must be a whole number"),
])
def test_CARD_1_PRJ_7_the_hand_written_wordings_of_the_ruleset_files(tmp_path, fname, old, new, message):
    assert refused(broken(tmp_path, fname, old, new)) == message
