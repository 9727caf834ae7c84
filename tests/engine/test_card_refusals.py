"""A card's refusal names the card, and the effect or condition the problem is in (CARD-1,
PRJ-7): ruleset_schema's entry names for the cards of market.toml and haven.toml, each place a
problem can be found in a card, checked word for word."""

from __future__ import annotations

import pytest

from .test_ruleset import broken, refused

EFFECT = '{ kind = "gain_galleon", n = 1 }'
REQUIRES = "requires = { colonies = 1 }"

CASES = {
    "a key the effect does not take": (EFFECT, '{ kind = "gain_galleon", n = 1, x = 2 }',
                                       "market.toml: card galeon effect gain_galleon: unknown key(s) ['x']"),
    "an effect of no known kind": (EFFECT, '{ kind = "gain_galeon", n = 1 }',
                                   "market.toml: card galeon: unknown effect 'gain_galeon'"),
    "an effect without its kind": (EFFECT, "{ n = 1 }", "market.toml: card galeon: unknown effect None"),
    "an effect that is no table": (EFFECT, '"gain_galleon"', "market.toml: card galeon: effects.0 must be a table"),
    "a key the effect lacks": (EFFECT, '{ kind = "gain_galleon" }',
                               "market.toml: card galeon effect gain_galleon: missing key(s) ['n']"),
    "a condition the card cannot have": (REQUIRES, "requires = { colonies = 1, ships = 2 }",
                                         "market.toml: card encomienda requires: unknown key(s) ['ships']"),
    "a condition of the wrong type": (REQUIRES, 'requires = { colonies = "one" }',
                                      "market.toml: card encomienda: requires.colonies must be int"),
    "conditions that are no table": (REQUIRES, "requires = 3", "market.toml: card encomienda requires: must be a table"),
    "a key the deck file does not take": ('[[card]]\nid = "galeon"', 'extra = 1\n[[card]]\nid = "galeon"',
                                          "market.toml: top level: unknown key(s) ['extra']"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_CARD_1_a_cards_refusal_names_the_card_and_the_effect_or_condition(tmp_path, case):
    old, new, said = CASES[case]
    msg = refused(broken(tmp_path, "market.toml", old, new))
    assert msg.split("; a ruleset folder copied")[0] == said


def test_CARD_1_a_deck_file_whose_cards_are_no_list_is_refused_at_its_top_level(tmp_path):
    folder = broken(tmp_path, "market.toml", "", "")
    (folder / "market.toml").write_text("card = 3\n")
    assert refused(folder) == "market.toml: top level: card must be a list"
