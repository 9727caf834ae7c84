"""Tests written to kill mutants that survived a fresh mutation sample (`scripts/mutation.py
--sample 200 --seed 12 --fresh`, mutmut 3.8.1): a won site's outcome (BAT-5), a variant at the
top of its range and a string parameter's length (PRJ-31), the file a ruleset number's refusal
names (CYC-4), a draw past the small-range table (PRJ-45), a scenario's colonies as announced
(PRJ-7), the rule of a labour reason (LAB-1) and the Strength of Rebels in a battle preview
(BAT-2)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pax_hispanica import api
from pax_hispanica.engine import battle
from pax_hispanica.engine.flow import Out
from pax_hispanica.engine.sampling import LIMITS, U32, Stream
from pax_hispanica.rulesets import load_ruleset
from support import NO_SPAIN, scenario

from .test_ruleset import broken, refused
from .test_why import CATHEDRAL, SANTA_MARTA, ZENU, at_sail, reasons

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from test_battle import ZONE, battle_game  # noqa: E402


def test_BAT_5_a_won_battle_against_a_site_returns_the_attacker_and_the_site():
    g = battle_game(fleets={0: (3, [])}, sites={ZENU: 2})
    st = g.state.copy()
    outcome = battle.resolve(st, 0, st.rs.zone_index[ZONE], ZENU, {}, Out(st))
    assert (outcome.attacker, outcome.won, outcome.won_site, outcome.routed) == (0, True, ZENU, False)


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


def test_CYC_4_a_ruleset_number_out_of_its_range_is_refused_naming_ruleset_toml(tmp_path):
    f = broken(tmp_path / "goal", "ruleset.toml", "prestige_to_win = 5 ", "prestige_to_win = 500 ")
    msg = refused(f, "prestige_to_win")
    assert msg.startswith("ruleset.toml"), msg


@pytest.mark.parametrize("n", [len(LIMITS) - 1, len(LIMITS), 2 ** 20, U32])
def test_PRJ_45_a_draw_past_the_small_range_table_has_its_own_rejection_limit(n):
    s = Stream(7, 4)
    w = s.w[0]
    limit = U32 - (U32 % n)
    got = s.below(n)
    assert 0 <= got < n
    if w < limit:
        assert got == w % n and s.pos == 1


def test_PRJ_7_a_scenario_announces_each_colony_with_its_fort():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2], "players": [{}, {}, {}],
                  "colonies": {SANTA_MARTA: {"owner": 0, "labour": "citizen", "fort": True}}}, nations=NO_SPAIN)
    [loaded] = [e for e in g.events if e["type"] == "ScenarioLoaded"]
    assert loaded["colonies"][SANTA_MARTA] == {"owner": 0, "labour": "citizen", "chests": 0, "fort": True}
    assert all(set(c) == {"owner", "labour", "chests", "fort"} for c in loaded["colonies"].values())


def test_LAB_1_employing_without_the_dollar_cites_LAB_1():
    g = scenario({"year": "goods", "step": "labour_acquisition", "order": [0, 1, 2],
                  "players": [{"money": 0}, {}, {}], "colonies": {SANTA_MARTA: {"owner": 0, "labour": None}},
                  "sites": {CATHEDRAL: 1, ZENU: 2}}, nations=NO_SPAIN)
    [d] = reasons(g.state, 0, "cannot_afford")
    assert d["rule"] == "LAB-1" and d["decision"] == "labour"


def test_BAT_2_the_preview_of_a_battle_against_rebels_counts_one_strength_a_rebel():
    g = at_sail([{"fleet": {"zone": ZONE, "ships": 2, "legality": "PLUNDER"}}, {}, {}], rebels={ZONE: 3})
    p = api.battle_preview(g.state, 0, "rebels")
    assert (p["kind"], p["target_strength"], p["attacker_strength"]) == ("rebels", 3, 2)
    assert p["best"]["wins"] is False


def test_CYC_4_a_ruleset_file_may_set_a_number_at_the_top_of_its_range(tmp_path):
    f = broken(tmp_path / "top", "ruleset.toml", "cycles = 5 ", "cycles = 20 ")
    assert load_ruleset(str(f)).cycles == 20
    f = broken(tmp_path / "over", "ruleset.toml", "cycles = 5 ", "cycles = 21 ")
    refused(f, "ruleset.toml", "cycles")
