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


@pytest.mark.parametrize("old,new,message", [
    pytest.param('seas = ["atlantico", "antillas_menores"]', 'seas = ["atlantico", "nowhere"]',
                 "map.toml: europe: unknown zone 'nowhere'", id="an-unknown-sea-next-to-europe-is-named-with-europe"),
    pytest.param('adjacent = ["canal_yucatan", "estrecho_florida"]', 'adjacent = ["canal_yucatan", "nueva_espana"]',
                 "map.toml: sea golfo_mexico: list land zones under the land zone",
                 id="a-sea-that-lists-a-land-zone-is-refused-in-words"),
    pytest.param('seas = ["golfo_mexico"]\n', 'seas = ["golfo_mexico", "europe"]\n',
                 "map.toml: land nueva_espana: 'europe' is not a sea zone", id="europe-is-no-sea-zone-of-a-land"),
])
def test_SAIL_1_the_maps_zones_are_refused_in_words(tmp_path, old, new, message):
    assert refused(broken(tmp_path, "map.toml", old, new)) == message


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


def test_PRJ_7_a_missing_key_is_named_with_its_entry(tmp_path):
    folder = broken(tmp_path, "battle.toml", 'name = "Support the attacker"\n', "")
    assert refused(folder).startswith("battle.toml: card support_attacker: missing key(s) ['name']; ")


def test_PRJ_7_unknown_keys_are_named_for_the_first_entry_only(tmp_path):
    folder = broken(tmp_path, "battle.toml", 'side = "attacker"', 'side = "attacker"\nbogus = 1')
    battle = folder / "battle.toml"
    battle.write_text(battle.read_text().replace('side = "target"', 'side = "target"\nother = 2'))
    assert refused(folder) == "battle.toml: card support_attacker: unknown key(s) ['bogus']"


@pytest.mark.parametrize("fname,old,new,message", [
    pytest.param("market.toml", 'effects = [{ kind = "gain_galleon", n = 1 }]', 'effects = [{ kind = "bogus", n = 1 }]',
                 "market.toml: card galeon: unknown effect 'bogus'", id="an-unknown-effect"),
    pytest.param("map.toml", 'kind = "cathedral"', 'kind = "castle"',
                 "map.toml: site nueva_espana.veracruz: unknown kind 'castle'", id="an-unknown-kind-of-site"),
    pytest.param("market.toml", "requires = { colonies = 1 }", 'requires = { legality = "PLUNDER" }',
                 "market.toml: card encomienda: requires.legality must be a list of PLUNDER, SMUGGLER, CONQUISTADOR, "
                 "PRIVATEER", id="a-legality-that-is-no-list"),
    pytest.param("ruleset.toml", "[treasure.by_players.2]", "[treasure.by_players.x]",
                 "ruleset.toml: [treasure.by_players.x]: the player count must be a whole number",
                 id="treasure-by-players-of-no-number"),
    pytest.param("ruleset.toml", "[setup.by_players.2]", "[setup.by_players.x]",
                 "ruleset.toml: [setup.by_players.x]: the player count must be a whole number",
                 id="setup-by-players-of-no-number"),
    pytest.param("market.toml", "requires = { colonies = 1 }", 'requires = { nation = "atlantis" }',
                 "market.toml: card encomienda: requires.nation: unknown nation 'atlantis'",
                 id="CARD-1-a-market-card-of-an-unknown-nation-is-refused-with-its-file"),
    pytest.param("map.toml", "pos = [930, 70]", "pos = 5", "map.toml: [europe]: pos must be a list",
                 id="PRJ-7-a-zone-position-that-is-no-pair-is-refused-in-words"),
    pytest.param("map.toml", "pos = [930, 70]", "pos = [930, 70, 5]",
                 "map.toml: [europe]: pos tuple should have at most 2 items after validation, not 3",
                 id="PRJ-7-a-pair-of-three-numbers-is-refused-in-pydantics-words-lower-case"),
])
def test_CARD_1_PRJ_7_the_hand_written_wordings_of_the_ruleset_files(tmp_path, fname, old, new, message):
    assert refused(broken(tmp_path, fname, old, new)) == message
