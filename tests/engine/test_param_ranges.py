"""PRJ-31: every whole number of the ruleset has a range in the ruleset data ([ranges] of
ruleset.toml); the file is checked against it, and a variant outside it is refused at setup
(bad_config, PRJ-31) with a message that names the parameter and its range."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from pax_hispanica.engine.ruleset import RulesetError, parameter_types
from pax_hispanica.rulesets import load_ruleset

from .test_ruleset import broken, refused

TABLE = api.parameters()
INTS = sorted(k for k, p in TABLE.items() if p["type"] == "int")
CASES = [(k, which) for k in INTS for which in ("min", "max", "below", "above")]


def test_PRJ_31_every_whole_number_has_a_range_that_holds_its_value():
    assert set(INTS) == {k for k, t in parameter_types().items() if t is int} and len(INTS) > 30
    for k in INTS:
        lo, hi = TABLE[k]["range"]
        assert 0 <= lo <= TABLE[k]["value"] <= hi, k
    assert all(TABLE[k]["range"] is None for k in TABLE if k not in INTS)


@pytest.mark.parametrize("key,which", CASES, ids=[f"{k}-{w}" for k, w in CASES])
def test_PRJ_31_a_variant_at_its_range_ends_is_accepted_and_outside_refused(key, which):
    lo, hi = TABLE[key]["range"]
    value = {"min": lo, "max": hi, "below": lo - 1, "above": hi + 1}[which]
    config = api.Config(players=2, params={key: value})
    if which in ("min", "max"):
        st = api.new_game(config, seed=3)
        assert getattr(st.rs, key) == value and api.acting(st) is not None
        return
    with pytest.raises(api.IllegalAction) as e:
        api.Game.new(config, 3)
    assert (e.value.code, e.value.rule) == ("bad_config", "PRJ-31")
    assert key in e.value.message and f"[{lo}, {hi}]" in e.value.message


@pytest.mark.parametrize("value", [10 ** 5000, -10 ** 5000, "x" * 10_000_000, [1] * 1000],
                         ids=["10**5000", "-10**5000", "10 MB string", "list"])
def test_PRJ_31_a_refusal_never_embeds_an_unbounded_value(value):
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=3, params={"start_money": value}), seed=1)
    assert e.value.code == "bad_config" and len(str(e.value)) < 300
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=3, params={"x" * 10_000_000: 1}), seed=1)
    assert e.value.code == "bad_config" and len(str(e.value)) < 300


@pytest.mark.parametrize("config", [
    {"players": 1}, {"players": 6}, {"players": True}, {"players": 10 ** 5000}, {"players": "4"},
    {"players": 3, "colour": "red"}, {"players": 3, "options": {f"k{i}": i for i in range(100)}},
    {"players": 3, "options": {"k": "x" * 1000}}, {"players": 3, "nations": "spanish"},
    {"players": 3, "nations": [1, 2, 3]}, {"players": 3, "ruleset": "x" * 1000},
    {"players": 3, "params": {f"p{i}": 1 for i in range(100_000)}},
], ids=lambda c: ",".join(f"{k}:{type(v).__name__}" for k, v in c.items()))
def test_PRJ_31_a_config_out_of_bounds_is_refused_and_nothing_is_built(config):
    with pytest.raises(api.IllegalAction) as e:
        api.Game.new(config, 1)
    assert e.value.code == "bad_config" and len(str(e.value)) < 300


def test_PRJ_31_the_ruleset_file_is_checked_against_its_own_ranges(tmp_path):
    refused(broken(tmp_path / "a", "ruleset.toml", "die_sides = 6 ", "die_sides = 30 "),
            "ruleset.toml", "die_sides", "[1, 20]")
    refused(broken(tmp_path / "b", "ruleset.toml", "start_money = 6            # unchanged", "start_money = 5000            # unchanged"),
            "ruleset.toml", "by_players.2", "start_money", "[0, 1000]")
    refused(broken(tmp_path / "c", "ruleset.toml", "cycles = [1, 20]\n", ""),
            "ruleset.toml", "[ranges]", "cycles")
    refused(broken(tmp_path / "d", "ruleset.toml", "cycles = [1, 20]", "cycles = [5, 1]"),
            "ruleset.toml", "[ranges] cycles")


@pytest.mark.parametrize("same_number", [3.0, True])
def test_PRJ_31_a_number_of_another_type_is_refused_after_its_int_was_loaded(same_number):
    """3.0 == 3 and True == 1 hash alike: the loader's cache must not hand out the ruleset of
    the int without checking the other type (check_params refuses it)."""
    from pax_hispanica import rulesets
    value = 1 if same_number is True else 3
    rulesets.load_ruleset("reference", {"chest_cap": value})
    with pytest.raises(rulesets.RulesetError, match="chest_cap must be int"):
        rulesets.load_ruleset("reference", {"chest_cap": same_number})


def test_PRJ_31_a_range_that_is_not_a_pair_is_refused_naming_it(tmp_path):
    f = broken(tmp_path / "range", "ruleset.toml", "cycles = [1, 20]", "cycles = 5")
    with pytest.raises(RulesetError) as e:
        load_ruleset(str(f))
    assert "[ranges] cycles must be [least, most], whole numbers 0..10**6" in str(e.value)


def test_PRJ_31_a_variant_may_take_the_top_of_its_range_and_not_one_more():
    rng = api.parameters()["cycles"]["range"]
    assert api.new_game(api.Config(players=3, params={"cycles": rng[1]}), 1)
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=3, params={"cycles": rng[1] + 1}), 1)
    assert (e.value.code, e.value.rule) == ("bad_config", "PRJ-31")


def test_PRJ_31_a_string_parameter_longer_than_a_name_is_refused_as_not_a_name():
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=3, params={"prestige_goal": "x" * 101}), 1)
    assert "is not a name" in e.value.message
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=3, params={"prestige_goal": "x" * 100}), 1)
    assert e.value.message.endswith("must be 'held' or 'standing' (PRJ-56)")
