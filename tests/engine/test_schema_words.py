"""The data files' refusals word for word (PRJ-7, PRJ-31, CYC-4, CARD-1, PRJ-33): how
engine/schema.py words pydantic's errors (`first_problem`, `_expected`, a long key cut by
`_cut`) and how each file names the entry a problem is in (ruleset_schema.name_entry and its
map and card namers, ruleset_schema.word, scenario_schema.name_entry). Written to kill
survivors of scripts/mutation.py's full run."""

from __future__ import annotations

import re

import pytest

from pax_hispanica import api
from pax_hispanica.rulesets import DATA

from .test_ruleset import broken, refused

REFERENCE = DATA / "reference"
SITE = '{ id = "mexica", kind = "tribal", name = "Mexica", indigenous = 3 }'
KEY_40 = "abcdefghij" * 4


def rewritten(tmp_path, fname: str, text: str):
    """A copy of the reference data whose file `fname` is `text`."""
    folder = broken(tmp_path, fname, "", "")
    (folder / fname).write_text(text)
    return folder


def said(folder) -> str:
    """The refusal, without the hint that follows a missing key of ruleset.toml (an older copy)."""
    return refused(folder).split("; a ruleset folder copied")[0]


def reference(fname: str) -> str:
    return (REFERENCE / fname).read_text()


def scenario_refusal(position: dict) -> str:
    with pytest.raises(api.IllegalAction) as e:
        api.from_scenario({"config": {"players": 3}, "seed": 1, "position": position})
    assert e.value.code == "bad_scenario"
    return e.value.message


# ---- PRJ-7: a refusal quotes at most a short prefix of a key: 40 characters, or 37 and "..." ----

@pytest.mark.parametrize("key,shown", [
    pytest.param(KEY_40, KEY_40, id="40-characters-kept"),
    pytest.param(KEY_40 + "k", KEY_40[:37] + "...", id="41-characters-cut-to-37-and-dots"),
    pytest.param(KEY_40 + "klmnopq", KEY_40[:37] + "...", id="47-characters-cut-to-37-and-dots"),
])
def test_PRJ_7_an_unknown_key_is_quoted_whole_up_to_40_characters_and_cut_beyond(tmp_path, key, shown):
    folder = broken(tmp_path, "ruleset.toml", "[game]\n", f"[game]\n{key} = 1\n")
    assert refused(folder) == f"ruleset.toml: [game]: unknown key(s) ['{shown}']"


# ---- the wording of each kind of problem, and the entry it is in ---------------------------

RULESET = reference("ruleset.toml")
WITHOUT_SETUP_BY_PLAYERS = re.sub(r"\[setup\.by_players\.2\].*?\n(?=\[supply\])", "", RULESET, flags=re.S)
WITHOUT_RANGES = RULESET[:RULESET.index("[ranges]")]
VERSION = 'version = "reference-8"'


@pytest.mark.parametrize("fname,old,new,message", [
    pytest.param("ruleset.toml", VERSION, f"{VERSION}\nbogus = 1", "ruleset.toml: top level: unknown key(s) ['bogus']",
                 id="PRJ-31-an-unknown-key-of-the-file-is-at-its-top-level"),
    pytest.param("ruleset.toml", "[setup.by_players.2]       # per player count overrides of [setup]\nstart_money = 6",
                 '[setup.by_players.2]\nstart_money = "six"',
                 "ruleset.toml: [setup.by_players.2]: start_money must be int",
                 id="PRJ-31-a-by-players-table-names-the-key-of-the-wrong-type"),
    pytest.param("ruleset.toml", "cycles = [1, 20]", "cycles = [1]",
                 "ruleset.toml: [ranges] cycles must be [least, most], whole numbers 0..10**6",
                 id="PRJ-31-a-range-of-one-number-says-what-a-range-is"),
    pytest.param("map.toml", "width = 1000", "width = 10001",
                 "map.toml: [board]: width must be a whole number of at most 10000",
                 id="PRJ-7-a-number-above-its-most-says-the-most"),
    pytest.param("map.toml", '[[sea]]\nid = "golfo_mexico"', "[[sea]]\nx = 1",
                 "map.toml: sea ?: unknown key(s) ['x']", id="CYC-4-a-sea-without-an-id-is-sea-?"),
    pytest.param("map.toml", SITE, SITE.replace("indigenous = 3", "indigenous = 3, x = 1"),
                 "map.toml: site nueva_espana.mexica: unknown key(s) ['x']",
                 id="CYC-4-an-unknown-key-of-a-site-names-the-site-not-its-kind"),
    pytest.param("map.toml", SITE, "3", "map.toml: site nueva_espana.?: must be a table",
                 id="CYC-4-a-site-that-is-no-table"),
    pytest.param("map.toml", SITE, SITE.replace('kind = "tribal", ', ""),
                 "map.toml: site nueva_espana.mexica: unknown kind None", id="CYC-4-a-site-without-its-kind"),
    pytest.param("nations.toml", 'legality = "PRIVATEER"', 'legality = "PIRATE"',
                 "nations.toml: [english]: unknown legality 'PIRATE'", id="CYC-4-a-nation-of-an-unknown-legality"),
])
def test_PRJ_7_each_problem_of_a_ruleset_file_is_worded_with_its_entry(tmp_path, fname, old, new, message):
    assert said(broken(tmp_path, fname, old, new)) == message


@pytest.mark.parametrize("fname,text,message", [
    pytest.param("ruleset.toml", WITHOUT_SETUP_BY_PLAYERS.replace("setup_rebels = 0", "setup_rebels = 0\nby_players = 3"),
                 "ruleset.toml: [setup]: by_players must be a table", id="PRJ-75-by-players-that-is-no-table"),
    pytest.param("ruleset.toml", RULESET.replace("[game]\ncycles = 5", "game = 3\n[gamex]\ncycles = 5"),
                 "ruleset.toml: top level: game must be a table", id="PRJ-31-a-section-that-is-no-table"),
    pytest.param("ruleset.toml", WITHOUT_RANGES.replace(VERSION, f"{VERSION}\nranges = 3"),
                 "ruleset.toml: top level: ranges must be a table", id="PRJ-31-ranges-that-are-no-table"),
    pytest.param("map.toml", 'europe = { id = "europe", name = "Europe", seas = [] }\nsea = 3\nland = []\n',
                 "map.toml: top level: sea must be a list", id="CYC-4-seas-that-are-no-list"),
])
def test_PRJ_7_a_file_whose_tables_are_of_the_wrong_type_is_refused_in_words(tmp_path, fname, text, message):
    assert said(rewritten(tmp_path, fname, text)) == message


def test_CARD_1_a_bad_legality_condition_names_the_card_by_its_whole_id(tmp_path):
    market = reference("market.toml").replace('id = "encomienda"', 'id = "encomienda requires"', 1)
    market = market.replace("requires = { colonies = 1 }", 'requires = { legality = ["PIRATE"] }', 1)
    assert refused(rewritten(tmp_path, "market.toml", market)) == (
        "market.toml: card encomienda requires: requires.legality must be a list of PLUNDER, SMUGGLER, "
        "CONQUISTADOR, PRIVATEER")


# ---- PRJ-33: a scenario's position names the table a problem is in ---------------------------

@pytest.mark.parametrize("position,message", [
    pytest.param({"sites": {"mexica": None}}, "scenario: sites: mexica must be int", id="a-site-count-of-null"),
    pytest.param({"decks": {"market": None}}, "scenario: decks: market must be a list", id="a-deck-of-null"),
    pytest.param({"rebels": {"yucatan": None}}, "scenario: rebels: yucatan must be int", id="a-rebel-count-of-null"),
])
def test_PRJ_33_a_null_in_a_scenarios_table_is_named_with_that_table(position, message):
    assert scenario_refusal(position) == message
