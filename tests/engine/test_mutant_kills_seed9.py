"""Tests written to kill mutants that survived a fresh mutation sample (`scripts/mutation.py
--sample 200 --seed 9`, mutmut 3.8.1): the outcome a battle returns (BAT-5), undo through the
search path (PRJ-2), the standing goal in whole Prestige (PRJ-56), a labour refusal's code
(LAB-1), the explicit chance's refusal (PRJ-70), the loaders' words for effect numbers, the
nations' order and a range (CARD-1, CYC-4, PRJ-31), a scenario's Haven top (PRJ-7), a sealed
choice sent twice (PRJ-1), and an information state's PRNG and a saved config's params (HID-1)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pax_hispanica import api
from pax_hispanica.engine import battle, end, labour, rng, sealed
from pax_hispanica.engine.flow import Out
from pax_hispanica.engine.ruleset import RulesetError
from pax_hispanica.engine.state import State, plain_config
from pax_hispanica.rulesets import load_ruleset
from support import scenario

from .test_ruleset import broken, refused

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from test_battle import ZONE, battle_game  # noqa: E402


# ---- BAT-5: what a resolved battle returns to the voyage -------------------------------------------

@pytest.mark.parametrize("ships, rebels, won, routed", [(3, 1, True, False), (2, 3, False, False),
                                                       (1, 3, False, True)])
def test_BAT_5_a_battle_returns_who_won_and_whether_the_flagship_was_routed(ships, rebels, won, routed):
    g = battle_game(fleets={0: (ships, [])}, rebels=rebels)
    st = g.state.copy()
    outcome = battle.resolve(st, 0, st.rs.zone_index[ZONE], "rebels", {}, Out(st))
    assert (outcome.attacker, outcome.won, outcome.routed, outcome.sacked, outcome.won_site) == \
        (0, won, routed, None, None)


# ---- PRJ-2: undo through apply_trusted is apply's undo --------------------------------------------

def test_PRJ_2_an_undo_sent_through_apply_trusted_takes_the_action_back_as_apply_does():
    g = api.Game.new(api.Config(players=3), 4)
    while True:                        # to the first action that can be undone
        seat = api.acting(g.state)[0]
        g.act(api.expand(api.legal_actions(g.state, seat))[0])
        if api.can_undo(g.state, seat):
            break
    undo = {"seat": seat, "type": "undo"}
    assert api.apply_trusted(g.state, undo).to_dict() == api.apply(g.state, undo)[0].to_dict()


# ---- PRJ-56: the standing goal counts whole Prestige ------------------------------------------------

def test_PRJ_56_the_standing_goal_counts_money_in_whole_prestige():
    st = api.new_game(api.Config(players=3, params={"prestige_goal": "standing"}), 1).copy()
    mpp = st.rs.money_per_prestige
    st.money = [mpp + 1, 2 * mpp - 1, 0]
    colonies = end.colony_prestige_all(st)
    standing = end.goal_standing(st)
    assert standing == [st.prestige[s] + [1, 1, 0][s] + colonies[s] for s in range(3)]
    assert all(type(x) is int for x in standing)


# ---- LAB-1: staffing a colony that is not one's vacant colony ---------------------------------------

def test_LAB_1_labour_for_a_colony_that_is_not_ones_vacant_one_is_refused_with_its_code():
    st = api.new_game(api.Config(players=3), 1).copy()
    col = next(c for c, o in enumerate(st.col_owner) if o is not None and st.col_labour[c] is not None)
    with pytest.raises(api.IllegalAction) as e:
        labour.acquire(st, col, st.col_owner[col], "employ", st.site_ids[0], Out(st))
    assert (e.value.code, e.value.rule) == ("not_vacant", "LAB-1")
    assert e.value.message == f"{st.rs.col_ids[col]} is not a vacant colony of this owner."


# ---- PRJ-70: a draw of nothing ------------------------------------------------------------------------

def test_PRJ_70_an_explicit_chance_refuses_a_draw_from_nothing_in_words():
    with pytest.raises(ValueError) as e:
        rng.Chance([1]).take(0, 0)
    assert str(e.value) == "n must be positive"


# ---- the loaders' words -----------------------------------------------------------------------------

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


def test_PRJ_31_a_range_that_is_not_a_pair_is_refused_naming_it(tmp_path):
    f = broken(tmp_path / "range", "ruleset.toml", "cycles = [1, 20]", "cycles = 5")
    with pytest.raises(RulesetError) as e:
        load_ruleset(str(f))
    assert "[ranges] cycles must be [least, most], whole numbers 0..10**6" in str(e.value)


# ---- PRJ-7: a scenario's Haven deck top is announced -------------------------------------------------

def test_PRJ_7_a_scenario_announces_its_haven_decks_top_card():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2], "players": [{}, {}, {}]})
    [loaded] = [e for e in g.events if e["type"] == "ScenarioLoaded"]
    assert g.state.haven and loaded["haven_top"] == g.state.haven[0]
    assert loaded["haven_size"] == len(g.state.haven)


# ---- PRJ-1: a sealed choice cannot be sent twice --------------------------------------------------------

def test_PRJ_1_a_sealed_choice_committed_twice_is_refused_in_words():
    st = api.new_game(api.Config(players=3), 2)
    seat = api.acting(st)[0]
    initiate = next(a for a in api.expand(api.legal_actions(st, seat)) if a["type"] == "initiate")
    st = api.apply(st, initiate)[0]
    assert api.decision(st)["decision"] == "bid"
    seat = api.acting(st)[0]
    st = api.apply(st, {"seat": seat, "type": "bid", "amount": 0})[0]
    new = st.copy()
    with pytest.raises(api.IllegalAction) as e:
        sealed.commit(new, new.stack[-1], seat, 1, Out(new), lambda *a: None)
    assert (e.value.code, e.value.message) == \
        ("already_committed", "Your choice is already sealed; it cannot be changed before the reveal.")


# ---- HID-1: an information state has no PRNG; a saved config keeps its params ---------------------------

def test_HID_1_a_state_read_from_an_information_state_starts_its_generator_at_zero():
    st = api.new_game(api.Config(players=3), 3)
    info = api.information_state(st, 0)
    assert info["rng"] is None
    assert State.from_dict({**info, "seed": 1, "seed_hash": st.seed_hash}, st.rs).rng == 0


def test_PRJ_31_a_saved_config_copies_its_params_table():
    params = {"conquistador_prestige": 2}
    config = {"players": 3, "params": params, "nations": ("spanish", "english", "french")}
    saved = plain_config(config)
    assert saved["params"] == params and saved["params"] is not params
    assert saved["nations"] == ["spanish", "english", "french"]

