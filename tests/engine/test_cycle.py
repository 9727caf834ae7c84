"""CYC-1 (the cycle of four years), GDS-1 (the Goods Year's steps in order),
CYC-2 (end of the game) and CYC-3 (final scoring and the winner)."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from pax_hispanica.engine import end
from pax_hispanica.engine.flow import YEAR_STEPS, YEARS
from pax_hispanica.rulesets import load_ruleset
from support import scenario

from .helpers import play

RS = load_ruleset()
NO_SPAIN = ["english", "french", "dutch"]

# decisions each year may ask
YEAR_DECISIONS = {"goods": {"labour"}, "auction": {"initiate", "bid"}, "play": {"play_turn", "reduce_hand"},
                  "sail": {"voyage", "support"}}
# events that only one year's steps emit
YEAR_EVENTS = {
    "goods": {"PlayerOrderUpdated", "CathedralsRefreshed", "CitizenEmployed", "IndigenousKidnapped",
              "ColonyStaysVacant", "ColonyDiedOff", "GoodsDrawn", "ChestsPlaced", "SlaveAttrition", "EarningsPaid"},
    # DeckTopShown also follows a Market refill in the Play Year (PRJ-19), so it is not listed
    "auction": {"AuctionPassed", "AuctionStarted", "AuctionWon", "BuriedCardRevealed"},
    "play": {"CardPlayed", "CardSold", "PlayTurnEnded"},
    "sail": {"VoyageBegan", "FleetMoved", "VoyageEnded", "BattleDeclared", "BattleResolved", "TreasureScored",
             "ChestsLoaded", "FinalScoring", "GameEnded"},
}
# GDS-1: the Goods Year's events, by the index of the step that emits them
GOODS_STEP_OF = {"PlayerOrderUpdated": 0, "CathedralsRefreshed": 1, "CitizenEmployed": 2, "IndigenousKidnapped": 2,
                 "ColonyStaysVacant": 2, "ColonyDiedOff": 3, "GoodsDrawn": 4, "ChestsPlaced": 4,
                 "SlaveAttrition": 5, "EarningsPaid": 6}


def years_of(events):
    """(cycle, year, [events of that year]) in order."""
    out = []
    for e in events:
        if e["type"] == "YearBegan":
            out.append((e["cycle"], e["year"], []))
        elif out:
            out[-1][2].append(e)
    return out


def test_CYC_1_the_years_are_goods_auction_play_sail_in_that_order():
    assert YEARS == ("goods", "auction", "play", "sail")
    assert [f.__name__ for f in YEAR_STEPS[3]][-1] == "end_of_cycle"


def test_GDS_1_the_goods_year_is_these_seven_steps_in_this_order():
    assert [f.__name__ for f in YEAR_STEPS[0]] == [
        "update_player_order", "refresh_cathedrals", "labour_acquisition", "die_off", "place_chests",
        "slave_attrition", "pay_earnings"]


@pytest.mark.parametrize("n,seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_CYC_1_every_cycle_runs_the_four_years_in_order_and_each_year_asks_its_own_decisions(n, seed):
    seen = []

    def on_step(before, action, after, events):
        year = YEARS[before.year]
        seen.append((year, before.stack[-1]["d"]))

    g = play(n, seed, on_step=on_step)
    marks = [(c, y) for c, y, _ in years_of(g.events)]
    cycles = g.state.result["cycles"]
    assert marks == [(c, y) for c in range(1, cycles + 1) for y in YEARS]
    for year, d in seen:
        assert d in YEAR_DECISIONS[year], (year, d)
    for _, year, evs in years_of(g.events):
        for e in evs:
            for other, types in YEAR_EVENTS.items():
                if e["type"] in types:
                    assert other == year, (e["type"], year)


@pytest.mark.parametrize("n,seed", [(2, 21), (4, 22), (5, 23)])
def test_GDS_1_goods_year_events_follow_the_step_order(n, seed):
    g = play(n, seed)
    for cycle, year, evs in years_of(g.events):
        if year != "goods":
            continue
        idx = [GOODS_STEP_OF[e["type"]] for e in evs if e["type"] in GOODS_STEP_OF]
        assert idx == sorted(idx), cycle
        types = [e["type"] for e in evs]
        assert types.count("PlayerOrderUpdated") == types.count("CathedralsRefreshed") == 1
        assert types.count("GoodsDrawn") == types.count("ChestsPlaced") == 1
        assert types.count("EarningsPaid") == n
        assert types.index("PlayerOrderUpdated") == 0


def test_GDS_1_step_order_in_one_goods_year():
    """Order first, then Cathedrals (refilled before anyone employs), labour, die-off of what
    stayed vacant, Chests, slave attrition, and earnings last (after the employer paid)."""
    g = scenario({
        "cycle": 2, "year": "goods", "step": "update_player_order", "order": [0, 1, 2],
        "players": [{"prestige": 3, "money": 1}, {"prestige": 5, "money": 4}, {"prestige": 1, "money": 4}],
        "colonies": {"nueva_espana.orizaba": {"owner": 0, "labour": None},
                     "jamaica.st_jago": {"owner": 1, "labour": None, "chests": 2},
                     "florida.san_agustin": {"owner": 2, "labour": "slave"}},
        "sites": {"nueva_espana.veracruz": 0},
    }, nations=NO_SPAIN, seed=4)
    start = next(i for i, e in enumerate(g.events) if e["type"] == "ScenarioLoaded")
    pre = [e for e in g.events[start:] if e["type"] != "ScenarioHand"]      # PRJ-33: hands follow it
    assert [e["type"] for e in pre[1:3]] == ["PlayerOrderUpdated", "CathedralsRefreshed"]
    assert pre[1]["order"] == [2, 0, 1]                      # GDS-2 before labour
    assert pre[2]["filled"]["nueva_espana.veracruz"] == 2     # GDS-3 before labour
    # labour: seat 0 chooses for Orizaba (seat 2, first in order, has no vacant colony)
    assert api.acting(g.state) == (0,)
    opts = api.expand(api.legal_actions(g.state, 0))
    employ = {"seat": 0, "type": "labour", "colony": "nueva_espana.orizaba", "source": "employ",
              "site": "nueva_espana.veracruz"}
    assert employ in opts
    events = g.act(employ)
    order = [GOODS_STEP_OF[e["type"]] for e in events if e["type"] in GOODS_STEP_OF]
    assert order == sorted(order) and set(order) == {2, 3, 4, 5, 6}
    types = [e["type"] for e in events]
    assert types.index("ColonyStaysVacant") < types.index("ColonyDiedOff")
    died = next(e for e in events if e["type"] == "ColonyDiedOff")
    assert died["colony"] == "jamaica.st_jago" and died["chests_returned"] == 2
    paid = {e["seat"]: e for e in events if e["type"] == "EarningsPaid"}
    assert [e["seat"] for e in events if e["type"] == "EarningsPaid"] == [2, 0, 1]
    st = g.state
    # seat 0 paid $1 to employ (from its $1) before being paid for 2 worked colonies
    assert paid[0]["worked_colonies"] == 2
    assert st.money[0] == 1 - RS.employ_cost + paid[0]["amount"]
    assert YEARS[st.year] == "auction"


def _sail_end(position, players=3, nations=NO_SPAIN):
    g = scenario({"year": "sail", "step": "voyages", "order": list(range(players)), **position},
                 players=players, nations=nations)
    while not api.is_over(g.state) and YEARS[g.state.year] == "sail":
        seat = api.acting(g.state)[0]
        g.act({"seat": seat, "type": "end_voyage"})
    return g


def test_CYC_2_game_ends_after_the_sail_year_of_the_last_cycle():
    g = _sail_end({"cycle": RS.cycles})
    assert api.is_over(g.state)
    assert g.state.result["reason"] == "last_cycle" and g.state.result["cycles"] == RS.cycles
    assert g.events[-1]["type"] == "GameEnded"
    assert api.acting(g.state) == () and all(api.legal_actions(g.state, s) == [] for s in range(3))


def test_CYC_2_game_goes_on_before_the_last_cycle():
    g = _sail_end({"cycle": RS.cycles - 1, "players": [{"prestige": RS.prestige_to_win - 1}]})
    assert not api.is_over(g.state)
    assert (g.state.cycle, YEARS[g.state.year]) == (RS.cycles, "auction")
    start = next(i for i, e in enumerate(g.events) if e["type"] == "ScenarioLoaded")
    assert [(e["cycle"], e["year"]) for e in g.events[start:] if e["type"] == "YearBegan"] == [
        (RS.cycles, "goods"), (RS.cycles, "auction")]
    assert not any(e["type"] in ("FinalScoring", "GameEnded") for e in g.events)


def test_CYC_2_early_end_after_a_sail_year_with_prestige_to_win():
    g = _sail_end({"cycle": 2, "players": [{}, {"prestige": RS.prestige_to_win}]})
    assert api.is_over(g.state)
    r = g.state.result
    assert r["reason"] == "prestige_goal" and r["cycles"] == 2 and r["winner"] == 1


def test_CYC_2_prestige_to_win_reached_in_the_play_year_ends_only_after_the_sail_year():
    g = scenario({"cycle": 2, "year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"prestige": RS.prestige_to_win, "hand": []}, {"hand": []}, {"hand": []}]},
                 nations=NO_SPAIN)
    for s in (0, 1, 2):
        g.act({"seat": s, "type": "end_turn"})
    assert not api.is_over(g.state) and YEARS[g.state.year] == "sail"
    for s in (0, 1):
        g.act({"seat": s, "type": "end_voyage"})
    assert not api.is_over(g.state)
    g.act({"seat": 2, "type": "end_voyage"})
    assert api.is_over(g.state) and g.state.result["reason"] == "prestige_goal"


def test_CYC_3_final_scoring_adds_prestige_for_money_and_colonies():
    g = _sail_end({"cycle": RS.cycles,
                   "players": [{"prestige": 4, "money": 12}, {"prestige": 2, "money": 4}, {"prestige": 0, "money": 0}],
                   "colonies": {"cuba.trinidad_cuba": {"owner": 0, "labour": "citizen"},
                                "venezuela.curacao": {"owner": None, "labour": None}}})
    fs = next(e for e in g.events if e["type"] == "FinalScoring")
    by = {b["seat"]: b for b in fs["breakdown"]}
    assert by[0]["from_money"] == 12 // RS.money_per_prestige and by[0]["from_colonies"] == 2 * RS.prestige_per_colony
    assert by[1]["from_money"] == 0 and by[1]["from_colonies"] == 1
    assert by[2]["from_colonies"] == 0          # its home colony was emptied by the scenario
    assert g.state.result["scores"] == [4 + 2 + 2, 2 + 0 + 1, 0]
    assert g.state.result["winner"] == 0 and g.state.result["ranking"] == [0, 1, 2]
    assert g.state.money == [12, 4, 0]          # money is counted, not spent


def test_CYC_3_tie_in_prestige_goes_to_most_money():
    # both reach 10 + 9//5 + 1 colony = 12 Prestige; seat 0 has more money although seat 1 is later in order
    g = _sail_end({"cycle": RS.cycles,
                   "players": [{"prestige": 10, "money": 9}, {"prestige": 10, "money": 8}, {"prestige": 0}]})
    r = g.state.result
    assert r["scores"][0] == r["scores"][1] == 12
    assert r["winner"] == 0 and r["ranking"][:2] == [0, 1]


@pytest.mark.parametrize("order,winner", [([0, 1, 2], 1), ([1, 0, 2], 0)])
def test_CYC_3_tie_in_prestige_and_money_goes_to_the_later_in_player_order(order, winner):
    g = _sail_end({"cycle": RS.cycles, "order": order,
                   "players": [{"prestige": 10, "money": 9}, {"prestige": 10, "money": 9}, {"prestige": 0}]})
    r = g.state.result
    assert r["scores"][0] == r["scores"][1] and r["money"][0] == r["money"][1]
    assert r["winner"] == winner


def test_CYC_3_result_and_game_ended_event_agree():
    g = play(4, 8)
    r = api.result(g.state)
    ended = g.events[-1]
    assert ended["type"] == "GameEnded"
    assert ended["winner"] == r["winner"] and ended["ranking"] == r["ranking"] and ended["scores"] == r["scores"]
    assert sorted(r["ranking"]) == [0, 1, 2, 3] and r["ranking"][0] == r["winner"]
    key = [(r["scores"][s], r["money"][s]) for s in r["ranking"]]
    assert key == sorted(key, reverse=True)


# ---- PRJ-56: the variant prestige_goal = "standing" (the goal counts the score CYC-3 would give) ----

# seat 1: 2 Prestige held, $12 (2 Prestige at $6) and its home colony (1): a standing of 5
STANDING_5 = {"players": [{"prestige": 0, "money": 0}, {"prestige": 2, "money": 12}, {"prestige": 0, "money": 0}]}


def _goal(goal, prestige_to_win, cycle=2, position=STANDING_5):
    g = scenario({"year": "sail", "step": "voyages", "order": [0, 1, 2], "cycle": cycle, **position},
                 nations=NO_SPAIN, params={"prestige_goal": goal, "prestige_to_win": prestige_to_win})
    while not api.is_over(g.state) and YEARS[g.state.year] == "sail":
        g.act({"seat": api.acting(g.state)[0], "type": "end_voyage"})
    return g


def test_CYC_2_PRJ_56_the_reference_goal_counts_prestige_held():
    assert RS.prestige_goal == "held" and RS.money_per_prestige == 6     # STANDING_5 is written for $6
    g = _goal("held", 5)                        # held 2 < 5: money and colonies do not count
    assert not api.is_over(g.state) and g.state.cycle == 3


def test_CYC_2_PRJ_56_standing_ends_the_game_when_held_money_and_colonies_reach_the_goal():
    g = _goal("standing", 5)
    assert api.is_over(g.state)
    r = g.state.result
    assert r["reason"] == "prestige_goal" and r["cycles"] == 2 and r["winner"] == 1
    by = {b["seat"]: b for b in next(e for e in g.events if e["type"] == "FinalScoring")["breakdown"]}
    assert (by[1]["from_money"], by[1]["from_colonies"]) == (2, 1)
    assert r["scores"][1] == 2 + 2 + 1           # the final score is the standing the goal counted


def test_CYC_2_PRJ_56_standing_one_short_of_the_goal_goes_on():
    g = _goal("standing", 6)                     # 5 < 6
    assert not api.is_over(g.state) and g.state.cycle == 3
    money = {"players": [{}, {"prestige": 2, "money": 11}, {}]}     # $11 is 1 Prestige, not 2: 4 < 5
    assert not api.is_over(_goal("standing", 5, position=money).state)


def test_CYC_2_PRJ_56_standing_is_checked_after_the_sail_year_only():
    g = scenario({"cycle": 2, "year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"hand": []}, {"prestige": 2, "money": 12, "hand": []}, {"hand": []}]},
                 nations=NO_SPAIN, params={"prestige_goal": "standing", "prestige_to_win": 5})
    for s in (0, 1, 2):
        g.act({"seat": s, "type": "end_turn"})
    assert not api.is_over(g.state) and YEARS[g.state.year] == "sail"
    for s in (0, 1, 2):
        g.act({"seat": s, "type": "end_voyage"})
    assert api.is_over(g.state) and g.state.result["reason"] == "prestige_goal"


def test_PRJ_56_an_unknown_prestige_goal_is_refused_at_setup():
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=3, params={"prestige_goal": "score"}), 1)
    assert e.value.code == "bad_config" and "prestige_goal" in str(e.value) and "PRJ-56" in str(e.value)


# ---- PRJ-57: goal_from_cycle (the goal is checked only from that cycle's Sail Year on) ----

def test_CYC_2_PRJ_57_the_reference_checks_the_goal_from_the_first_cycle():
    assert RS.goal_from_cycle == 1
    g = _sail_end({"cycle": 1, "players": [{}, {"prestige": RS.prestige_to_win}]})
    assert api.is_over(g.state) and g.state.result["reason"] == "prestige_goal"


@pytest.mark.parametrize("goal", ["held", "standing"])
def test_CYC_2_PRJ_57_the_goal_is_not_checked_before_goal_from_cycle(goal):
    position = {"players": [{}, {"prestige": 5, "money": 0}, {}]}
    params = {"prestige_goal": goal, "prestige_to_win": 5, "goal_from_cycle": 2}
    early = scenario({"year": "sail", "step": "voyages", "order": [0, 1, 2], "cycle": 1, **position},
                     nations=NO_SPAIN, params=params)
    on_time = scenario({"year": "sail", "step": "voyages", "order": [0, 1, 2], "cycle": 2, **position},
                       nations=NO_SPAIN, params=params)
    for g in (early, on_time):
        for s in (0, 1, 2):
            g.act({"seat": s, "type": "end_voyage"})
    assert not api.is_over(early.state) and early.state.cycle == 2          # cycle 1: not yet
    assert api.is_over(on_time.state) and on_time.state.result["reason"] == "prestige_goal"
    assert on_time.state.result["cycles"] == 2 and on_time.state.result["winner"] == 1


def test_PRJ_57_goal_from_cycle_outside_its_range_is_refused_at_setup():
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=3, params={"goal_from_cycle": 0}), 1)
    assert e.value.code == "bad_config" and "goal_from_cycle" in str(e.value)


def test_PRJ_56_the_standing_goal_counts_money_in_whole_prestige():
    st = api.new_game(api.Config(players=3, params={"prestige_goal": "standing"}), 1).copy()
    mpp = st.rs.money_per_prestige
    st.money = [mpp + 1, 2 * mpp - 1, 0]
    colonies = end.colony_prestige_all(st)
    standing = end.goal_standing(st)
    assert standing == [st.prestige[s] + [1, 1, 0][s] + colonies[s] for s in range(3)]
    assert all(type(x) is int for x in standing)


def test_CYC_2_an_action_applied_to_a_finished_game_is_refused_in_words():
    g = play(3, 1)
    assert api.is_over(g.state)
    last = g.record["actions"][-1]              # a well-formed action (check_shape passes it)
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, last)
    assert (e.value.code, e.value.rule, e.value.message) == ("game_over", "CYC-2", "The game is over.")
