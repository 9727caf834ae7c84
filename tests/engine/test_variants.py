"""PRJ-31: a variant overrides ruleset numbers by name; the overrides are checked, public and recorded."""

import random

import pytest

from pax_hispanica import api
from pax_hispanica.engine import treasure
from pax_hispanica.engine.state import plain_config

from .test_setup import (
    with_two_player_start_money,  # a [setup.by_players.2] that differs
)


def _random_game(config: api.Config, seed: int, steps: int) -> api.Game:
    g = api.Game.new(config, seed)
    r = random.Random(seed)
    for _ in range(steps):
        if api.is_over(g.state):
            break
        seat = api.acting(g.state)[0]
        opts = [a for a in api.expand(api.legal_actions(g.state, seat)) if a["type"] != "undo"]
        g.act(r.choice(opts))
    return g


def test_PRJ_31_an_override_replaces_the_number_for_every_player_count(tmp_path):
    folder = with_two_player_start_money(tmp_path, 8)
    reference = api.load_ruleset(folder)
    assert reference.setup_value("start_money", 2) != reference.start_money   # [setup.by_players.2]
    for players in (2, 4):
        st = api.new_game(api.Config(players=players, ruleset=folder, params={"start_money": 17}), seed=1)
        plain = api.new_game(api.Config(players=players, ruleset=folder), seed=1)
        # the same game otherwise (the first Goods Year has begun), with $17 at setup for everyone
        start = reference.setup_value("start_money", players)
        assert [a - b for a, b in zip(st.money, plain.money)] == [17 - start] * players
    # the ruleset itself is untouched (variants are separate, cached copies)
    assert api.load_ruleset(folder).params["start_money"] == reference.start_money != 17
    assert api.load_ruleset(folder).setup_value("start_money", 2) == reference.setup_value("start_money", 2) == 8


def test_PRJ_31_the_variant_is_public_in_every_view_and_in_the_parameter_list():
    params = {"crown_colony_prestige": 1, "employ_range": "anywhere"}
    st = api.new_game(api.Config(players=3, params=params), seed=2)
    for seat in (0, 1, 2, None):
        assert api.view(st, seat, include_state=True)["ruleset_params"] == params
    assert api.view(api.new_game(api.Config(players=3), seed=2), 0)["ruleset_params"] == {}
    table = api.parameters("reference", params)
    assert table["crown_colony_prestige"] == {"value": 1, "type": "int", "range": [0, 10]}
    assert table["employ_range"]["value"] == "anywhere"
    assert api.parameters()["crown_colony_prestige"]["value"] == 0


@pytest.mark.parametrize("params, words", [
    ({"no_such_number": 1}, "unknown parameter 'no_such_number'"),
    ({"start_money": "ten"}, "start_money must be int"),
    ({"start_money": True}, "start_money must be int"),
    ({"employ_cost": -1}, "employ_cost must be at least 0 and at most 100 (its range [0, 100]), not -1"),
    ({"die_sides": 0}, "die_sides must be at least 1 and at most 20 (its range [1, 20]), not 0"),
    ({"employ_range": "everywhere"}, "employ_range must be"),
    ({"start_zone": "atlantis"}, "unknown zone 'atlantis'"),
])
def test_PRJ_31_a_bad_variant_is_refused_at_setup_with_a_clear_error(params, words):
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=4, params=params), seed=1)
    assert e.value.code == "bad_config" and e.value.rule == "PRJ-31"
    assert words in str(e.value)


def test_PRJ_31_a_variant_game_replays_exactly_from_its_record():
    config = api.Config(players=4, params={"start_money": 12, "hand_limit": 5, "cycles": 2})
    g = _random_game(config, seed=9, steps=400)
    assert g.record["config"]["params"] == {"start_money": 12, "hand_limit": 5, "cycles": 2}
    again = api.replay(g.record)
    assert again.state.fingerprint() == g.state.fingerprint()
    assert again.state.rs.hand_limit == 5
    # a snapshot restores the variant too
    restored = api.restore(api.snapshot(g.state))
    assert restored.rs.overrides == {"start_money": 12, "hand_limit": 5, "cycles": 2}
    assert restored.fingerprint() == g.state.fingerprint()


def test_PRJ_31_the_cycles_override_ends_the_game_sooner():
    g = _random_game(api.Config(players=3, params={"cycles": 1}), seed=4, steps=5000)
    assert api.is_over(g.state)
    assert g.state.cycle == 1


def test_PRJ_31_a_crown_share_of_zero_claims_nothing():
    st = api.new_game(api.Config(players=2, nations=["spanish", "english"],
                                 params={"kings_crown_share": 0}), seed=1)
    kings = next(c for c, crown in enumerate(st.rs.col_crown) if crown)
    assert treasure.crown_claim(st, 0, kings, {"royal": 0}, 5) == 0
    shared = api.new_game(api.Config(players=2, nations=["spanish", "english"]), seed=1)
    assert treasure.crown_claim(shared, 0, kings, {"royal": 0}, 4) == 4 // shared.rs.kings_share[2]   # PRJ-68, PRJ-79


def test_PRJ_31_a_saved_config_copies_its_params_table():
    params = {"conquistador_prestige": 2}
    config = {"players": 3, "params": params, "nations": ("spanish", "english", "french")}
    saved = plain_config(config)
    assert saved["params"] == params and saved["params"] is not params
    assert saved["nations"] == ["spanish", "english", "french"]


def test_PRJ_31_a_config_option_string_of_200_characters_is_taken_and_201_refused():
    assert api.new_game(api.Config(players=3, options={"note": "x" * 200}), 1)
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=3, options={"note": "x" * 201}), 1)
    assert (e.value.code, e.value.rule) == ("bad_config", "PRJ-31")


@pytest.mark.parametrize("ruleset", [5, "", "x" * 201])
def test_PRJ_31_a_ruleset_that_is_not_a_short_name_is_refused_in_words(ruleset):
    with pytest.raises(api.IllegalAction) as e:
        api.new_game({"players": 3, "ruleset": ruleset}, 1)     # a caller's table (Config is typed)
    assert (e.value.code, e.value.rule, e.value.message) == \
        ("bad_config", "PRJ-31", "The ruleset is named by a short string.")
