"""PRJ-30: the Crown colonies owned by the Spanish player pay earnings but score no Prestige at the end."""

import pytest

from support import scenario

from pax_hispanica import api


def _spanish_game(**position):
    return scenario(position, players=2, nations=["spanish", "english"])


def test_PRJ_30_crown_colonies_pay_the_spanish_player_earnings():
    g = _spanish_game(year="goods", step="pay_earnings")
    ev = {e["seat"]: e for e in g.events if e["type"] == "EarningsPaid"}
    rs = g.state.rs
    crown = sum(rs.crown_of_game(2, True))       # the Spanish player's Crown colonies (PRJ-75: 6 of 8, PRJ-85)
    assert crown == 6
    assert ev[0]["worked_colonies"] == ev[0]["kings_colonies"] == crown
    assert ev[0]["amount"] == crown * rs.crown_colony_income
    assert ev[1]["amount"] == rs.colony_income


@pytest.mark.parametrize("crown_income, income", [(2, 1), (3, 0)])
def test_PRJ_30_a_kings_colony_pays_crown_colony_income_and_the_others_colony_income(crown_income, income):
    """The reference pays $0 for a King's colony, so only other numbers tell its term apart."""
    g = scenario({"year": "goods", "step": "pay_earnings",
                  "colonies": {"florida.san_agustin": {"owner": 0, "labour": "citizen"}}},
                 players=2, nations=["spanish", "english"],
                 params={"crown_colony_income": crown_income, "colony_income": income})
    paid = next(e for e in g.events if e["type"] == "EarningsPaid" and e["seat"] == 0)
    kings = paid["kings_colonies"]
    assert kings == 6 and paid["worked_colonies"] == kings + 1
    assert paid["amount"] == kings * crown_income + 1 * income + paid["card_income"]


def test_PRJ_30_crown_colonies_score_no_prestige_at_the_end_but_founded_ones_do():
    # seat 0 (Spanish) owns the Crown colonies and one colony it founded itself
    g = _spanish_game(cycle=5, year="sail", step="end_of_cycle",
                      players=[{"money": 0}, {"money": 0}],
                      colonies={"florida.san_agustin": {"owner": 0, "labour": "citizen"}})
    final = next(e for e in g.events if e["type"] == "FinalScoring")["breakdown"]
    rs = g.state.rs
    assert final[0]["from_colonies"] == rs.prestige_per_colony * 1
    assert final[1]["from_colonies"] == rs.prestige_per_colony * 1
    assert api.is_over(g.state)


def test_PRJ_30_without_a_spanish_player_the_crown_scores_nothing():
    g = scenario({"cycle": 5, "year": "sail", "step": "end_of_cycle"}, players=2, nations=["english", "french"])
    final = next(e for e in g.events if e["type"] == "FinalScoring")["breakdown"]
    assert [f["from_colonies"] for f in final] == [1, 1]


def test_PRJ_30_the_crown_claims_one_chest_in_every_kings_crown_share_loaded_from_the_kings_colonies():
    g = _spanish_game(year="sail", step="voyages", order=[0, 1],
                      players=[{"fleet": {"zone": "cuba", "ships": 3}}, {}],
                      colonies={"cuba.habana": {"chests": 3},
                                "cuba.trinidad_cuba": {"owner": 0, "labour": "citizen", "chests": 2}})
    share = g.state.rs.kings_share[2]          # the game's count's (PRJ-68; 3 with 2 players, PRJ-79)
    assert share == 3
    ev = g.act({"seat": 0, "type": "load_chests", "colony": "cuba.habana", "count": 1})
    first = next(e for e in ev if e["type"] == "ChestsLoaded")
    ev = g.act({"seat": 0, "type": "load_chests", "colony": "cuba.habana", "count": share - 1})
    second = next(e for e in ev if e["type"] == "ChestsLoaded")
    # counted over the voyage: loading one at a time does not escape the claim
    assert first["crown_claim"] + second["crown_claim"] == 1
    assert g.state.cargo[0].count("chest") == share - 1
    # a colony the Spanish player founded is theirs: no claim
    ev = g.act({"seat": 0, "type": "load_chests", "colony": "cuba.trinidad_cuba", "count": 2})
    assert next(e for e in ev if e["type"] == "ChestsLoaded")["crown_claim"] == 0


def test_PRJ_30_one_chest_at_a_time_is_counted_over_the_voyage():
    """The royal count adds up load by load: three loads of one Chest give the Crown its one."""
    g = _spanish_game(year="sail", step="voyages", order=[0, 1],
                      players=[{"fleet": {"zone": "cuba", "ships": 3}}, {}],
                      colonies={"cuba.habana": {"chests": 3}})
    share = g.state.rs.kings_share[2]
    claims = []
    for _ in range(share):
        ev = g.act({"seat": 0, "type": "load_chests", "colony": "cuba.habana", "count": 1})
        claims.append(next(e for e in ev if e["type"] == "ChestsLoaded")["crown_claim"])
    assert claims == [0] * (share - 1) + [1]
    assert g.state.cargo[0].count("chest") == share - 1


def test_PRJ_30_views_show_what_the_colonies_will_score_at_the_end():
    position = {"cycle": 5, "year": "sail", "step": "end_of_cycle", "players": [{"money": 0}, {"money": 0}],
                "colonies": {"florida.san_agustin": {"owner": 0, "labour": "citizen"}}}
    before = _spanish_game(**{**position, "step": "voyages"})
    shown = [p["colony_prestige"] for p in api.view(before.state, 1, include_state=True)["players"]]
    assert shown == [p["colony_prestige"] for p in api.summary(before.state)["players"]]
    final = next(e for e in _spanish_game(**position).events if e["type"] == "FinalScoring")["breakdown"]
    assert shown == [f["from_colonies"] for f in final] == [1, 1]       # eight King's colonies score 0
    assert [p["colony_prestige"] for p in api.view(_spanish_game(**position).state, 0, include_state=True)["players"]] == [0, 0]


def test_PRJ_30_colony_prestige_of_all_seats_equals_the_rule_seat_by_seat():
    from support import random_game
    from pax_hispanica.engine.end import colony_prestige_all
    seen = []

    def by_rule(st, s):      # CYC-3, seat by seat, with the King's colonies at crown_colony_prestige
        if st.over:
            return 0
        rs, cols = st.rs, st.colonies_of(s)
        kings = sum(1 for c in cols if rs.col_crown[c]) if s == st.spanish_seat() else 0
        return (len(cols) - kings) * rs.prestige_per_colony + kings * rs.crown_colony_prestige

    def check(before, action, after, events):
        assert colony_prestige_all(after) == [by_rule(after, s) for s in range(after.n)]
        seen.append(sum(colony_prestige_all(after)))
    for seed in range(3):
        random_game(4, seed, on_step=check)
    assert max(seen) > 0


def test_CYC_3_colony_prestige_is_its_own_rulesets_when_the_board_is_the_same():
    """end.colony_prestige_all reuses its last numbers only for the same ruleset: two games with
    the same colonies and nations but another prestige_per_colony score their own."""
    from pax_hispanica.engine import end
    plain = api.Game.new(api.Config(players=3), 5).state
    more = api.Game.new(api.Config(players=3, params={"prestige_per_colony": 3}), 5).state
    assert plain.col_owner == more.col_owner and plain.nation == more.nation
    first = end.colony_prestige_all(plain)
    assert end.colony_prestige_all(more) == [3 * x for x in first] != first
    assert end.colony_prestige_all(plain) == first
