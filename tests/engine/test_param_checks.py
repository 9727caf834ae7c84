"""PRJ-31 and the per-count parameters: check_params' refusals word for word, and the edges of
each name's and each string's length (issue 36: the mutation score)."""

from __future__ import annotations

import pytest

from pax_hispanica.engine import ruleset as R
from pax_hispanica.engine.errors import short
from pax_hispanica.engine.ruleset import HouseRulesError, RulesetError


def _refusal(params) -> str:
    with pytest.raises(RulesetError) as e:
        R.check_params(params)
    return str(e.value)


def _one_of_each() -> dict:
    out = {}
    for key, typ in R.parameter_types().items():
        out[key] = R.STR_CHOICES[key][0] if key in R.STR_CHOICES else ("x" if typ is str else typ(1))
    return out


def test_PRJ_31_overrides_that_are_no_table_are_refused_in_words():
    msg = "parameter overrides must be a table of name = value, each name once"
    assert _refusal([("cycles", 3)]) == msg


def test_PRJ_31_every_name_once_and_the_most_card_costs_are_taken_one_more_is_refused():
    full = _one_of_each() | {f"card_cost.c{i}": 1 for i in range(R.MAX_CARD_COSTS)}
    assert len(full) == len(R.parameter_types()) + R.MAX_CARD_COSTS
    assert R.check_params(full) == full
    assert _refusal(full | {"card_cost.one_more": 1}).startswith("parameter overrides must be a table")


@pytest.mark.parametrize("first", [{"card_cost.galeon": 1}, {"smuggler_bribe.3": 1}, {"house_rules": "mine"}])
def test_PRJ_31_a_name_after_a_card_cost_a_count_or_house_rules_is_still_checked(first):
    assert _refusal(first | {"no_such_thing": 1}).startswith("unknown parameter 'no_such_thing'")


def test_PRJ_31_a_value_of_the_wrong_type_is_shown():
    assert _refusal({"cycles": "three"}) == "parameter cycles must be int, not 'three'"
    assert _refusal({"start_zone": "z" * 101}) == f"parameter start_zone: {short('z' * 101)} is not a name"


def test_PRJ_31_employ_range_and_PRJ_38_plunder_loading_name_their_choices():
    assert _refusal({"employ_range": "far"}) == "parameter employ_range must be 'same_zone' or 'anywhere'"
    assert _refusal({"plunder_loading": "all"}) == \
        "parameter plunder_loading must be 'sack' or 'sack_or_own' (PRJ-38)"


def test_PRJ_83_house_rules_names_from_1_to_100_characters():
    for name in ("a", "b" * 100):
        assert R.check_params({"house_rules": name}) == {"house_rules": name}
    for bad in ("", "c" * 101, 5):
        with pytest.raises(HouseRulesError) as e:
            R.check_params({"house_rules": bad})
        assert str(e.value) == f"parameter house_rules names a set of house rules, not {short(bad)} (PRJ-83)"


def test_PRJ_67_card_cost_ids_from_1_to_64_letters_digits_or_underscores():
    for cid in ("a", "x" * 64, "galeon_2"):
        assert R.check_params({f"card_cost.{cid}": 2}) == {f"card_cost.{cid}": 2}
    for cid in ("", "y" * 65, "gal-eon"):
        key = f"card_cost.{cid}"
        assert _refusal({key: 2}) == f"parameter {short(key)}: card_cost.<id> takes the id of a market.toml card"
    assert _refusal({"card_cost.galeon": "2"}) == "parameter card_cost.galeon must be int, not '2'"
    assert _refusal({"card_cost.galeon": 7}) == \
        "parameter card_cost.galeon must be at least 0 and at most 6 (a card's cost, PRJ-67), not 7"


def test_PRJ_78_a_count_parameter_names_a_player_count_and_takes_a_whole_number():
    assert _refusal({"smuggler_bribe.6": 1}) == \
        "parameter 'smuggler_bribe.6': smuggler_bribe.<N> takes a player count N, 2 to 5 (PRJ-78)"
    assert _refusal({"kings_crown_share.3": 1.5}) == "parameter kings_crown_share.3 must be int, not 1.5 (PRJ-68)"
