"""CYC-4: setup for 2, 3, 4 and 5 players."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

import pax_hispanica
from pax_hispanica import api
from pax_hispanica.rulesets import load_ruleset
from pax_hispanica.engine.sealed import seed_hash
from pax_hispanica.engine.state import CROWN

from .helpers import all_cards

RS = load_ruleset()
PLAYERS = (2, 3, 4, 5)


def started(players, seed=11, nations=None):
    cfg = {"players": players}
    if nations:
        cfg["nations"] = nations
    g = api.Game.new(cfg, seed)
    return g, next(e for e in g.events if e["type"] == "GameStarted")


def earnings(g) -> dict:
    return {e["seat"]: e["amount"] for e in g.events if e["type"] == "EarningsPaid"}


@pytest.mark.parametrize("n", PLAYERS)
def test_CYC_4_starting_money_from_the_ruleset_per_player_count(n):
    g, _ = started(n)
    start = RS.setup_value("start_money", n)
    # the first Goods Year has already paid its earnings: money = start + earnings
    assert g.state.money == [start + earnings(g)[s] for s in range(n)]
    assert g.state.minted == sum(earnings(g).values())


def with_two_player_start_money(tmp_path, money: int) -> str:
    """A copy of the reference ruleset whose [setup.by_players.2] start_money is `money` (the
    reference's own override equals its [setup] value since PRJ-36)."""
    folder = tmp_path / "by_players"
    shutil.copytree(Path(pax_hispanica.__file__).parent / "data" / "reference", folder)
    p = folder / "ruleset.toml"
    old = "start_money = 6            # unchanged by PRJ-36"
    assert old in p.read_text()
    p.write_text(p.read_text().replace(old, f"start_money = {money}"))
    return str(folder)


def test_CYC_4_by_players_override_applies_only_to_its_player_count(tmp_path):
    assert RS.setup_value("start_money", 2) == RS.params["by_players"][2]["start_money"]
    rs = load_ruleset(with_two_player_start_money(tmp_path, 8))
    assert rs.params["by_players"][2]["start_money"] == 8 != rs.params["start_money"]
    assert rs.setup_value("start_money", 2) == 8
    assert rs.setup_value("start_money", 3) == rs.params["start_money"]


@pytest.mark.parametrize("n", PLAYERS)
def test_CYC_4_player_order_is_a_permutation_drawn_from_the_seed(n):
    orders = set()
    for seed in range(40):
        g, ev = started(n, seed)
        assert sorted(ev["order"]) == list(range(n))
        assert g.state.order == ev["order"]         # GDS-2: all tied in year 1, so the order is kept
        orders.add(tuple(ev["order"]))
        random.seed(seed + 1000)                    # the global random module plays no part
        assert started(n, seed)[1]["order"] == ev["order"]
    assert len(orders) > 1


@pytest.mark.parametrize("n", PLAYERS)
def test_CYC_4_flagships_start_in_the_start_zone_with_their_nation_legality(n):
    g, ev = started(n)
    st = g.state
    assert st.fzone == [RS.zone_index[RS.setup_value("start_zone", n)]] * n
    assert st.legality == [RS.nations[x]["legality"] for x in ev["nations"]]
    plunder = RS.setup_value("plunder_start_galleons", n)         # PRJ-84: a PLUNDER fleet's Galleons
    assert st.fships == [min(RS.max_ships, RS.setup_value("start_ships", n) + (plunder if leg == "PLUNDER" else 0))
                         for leg in st.legality]
    if "PLUNDER" in st.legality:                                   # the French, with 3 players or more
        assert plunder > 0 and max(st.fships) > RS.setup_value("start_ships", n)
    assert st.cargo == [[] for _ in range(n)]
    assert st.hands == [[] for _ in range(n)] and st.tableaus == [[] for _ in range(n)]
    assert st.prestige == [0] * n


@pytest.mark.parametrize("n", PLAYERS)
def test_CYC_4_default_nations_are_the_first_n_in_nation_order(n):
    _, ev = started(n)
    assert ev["nations"] == RS.nation_order[:n]


@pytest.mark.parametrize("n", PLAYERS)
def test_CYC_4_crown_colonies_start_worked_and_spanish_owns_them(n):
    g, ev = started(n)
    st = g.state
    spanish = ev["nations"].index("spanish")
    assert ev["crown_owner"] == spanish
    crown_cols = [c for c in range(len(RS.col_ids)) if RS.col_crown[c]]
    assert crown_cols
    # the reference's Crown colonies by player count (PRJ-75; reference-8: PRJ-85, PRJ-77): the first 6
    # with 2 and 3 players, all 8 with 4 and 5; the others start empty (tests/engine/test_crown_colonies.py)
    kept = [c for c in crown_cols if RS.crown_of_game(n, True)[c]]
    assert kept == crown_cols[:{2: 6, 3: 6}.get(n, 8)]
    for c in kept:
        assert st.col_owner[c] == spanish
        assert st.col_labour[c] == "citizen"
    assert all(st.col_owner[c] is None for c in crown_cols if c not in kept)


@pytest.mark.parametrize("nations", [["english", "french"], ["dutch", "courland", "english"],
                                     ["english", "french", "dutch", "courland"]])
def test_CYC_4_without_the_spanish_the_crown_owns_the_crown_colonies(nations):
    g, ev = started(len(nations), nations=nations)
    st = g.state
    assert ev["crown_owner"] is None
    for c in range(len(RS.col_ids)):
        if RS.col_crown[c]:
            assert st.col_owner[c] == CROWN and st.col_labour[c] == "citizen"
    # the Crown earns nothing and holds no seat
    assert set(earnings(g)) == set(range(len(nations)))


@pytest.mark.parametrize("n", PLAYERS)
def test_CYC_4_each_other_nation_has_its_home_colony_worked_by_a_citizen(n):
    g, ev = started(n)
    st = g.state
    owned = {}
    for c, o in enumerate(st.col_owner):
        if o is not None and not RS.col_crown[c]:
            owned.setdefault(o, []).append(RS.col_ids[c])
    for s, nation in enumerate(ev["nations"]):
        if RS.nations[nation].get("crown"):
            assert s not in owned
        else:
            assert owned[s] == [RS.nations[nation]["home"]]
            assert st.col_labour[RS.col_index[RS.nations[nation]["home"]]] == "citizen"
    # every other colony space is empty and has no fort
    for c in range(len(RS.col_ids)):
        if not RS.col_crown[c] and RS.col_ids[c] not in {RS.nations[x].get("home") for x in ev["nations"]}:
            assert st.col_owner[c] is None and st.col_labour[c] is None and not st.col_fort[c]


@pytest.mark.parametrize("n", PLAYERS)
def test_CYC_4_cathedrals_full_and_indigenous_on_their_sites(n):
    g, _ = started(n)
    st = g.state
    for i, kind in enumerate(st.site_kind):
        if kind == "cathedral":
            assert st.site_count[i] == st.site_cap[i] > 0
        else:
            assert st.site_count[i] == RS.site_count[i] > 0
    workers = sum(1 for x in st.col_labour if x == "citizen")
    assert st.supply["citizens"] == RS.supply_citizens - workers - sum(st.site_cap)
    assert st.supply["indigenous"] == RS.supply_indigenous


@pytest.mark.parametrize("n", PLAYERS)
def test_CYC_4_market_and_haven_decks_shuffled_from_the_seed(n):
    g, ev = started(n, seed=5)
    st = g.state
    assert sorted(st.market) == sorted(RS.market) and sorted(st.haven) == sorted(RS.haven)
    assert st.market != RS.market and st.haven != RS.haven
    assert ev["market_top"] == st.market[0] and ev["haven_top"] == st.haven[0]
    other = started(n, seed=6)[0].state
    assert other.market != st.market
    assert sorted(st.market + st.haven) == all_cards(st)


@pytest.mark.parametrize("n", PLAYERS)
def test_CYC_4_seed_hash_published_at_setup_and_first_question_is_the_auction(n):
    g, ev = started(n, seed=123456789)
    assert ev["seed_hash"] == seed_hash(123456789)
    years = [e["year"] for e in g.events if e["type"] == "YearBegan"]
    assert years == ["goods", "auction"]
    first = g.state.order[0]
    assert api.acting(g.state) == (first,)
    assert api.decision(g.state, first)["decision"] == "initiate"


@pytest.mark.parametrize("players", [0, 1, 6, "4", True, None])
def test_CYC_4_two_to_five_players(players):
    with pytest.raises(api.IllegalAction) as e:
        api.new_game({"players": players}, 1)
    assert e.value.code == "bad_config" and e.value.rule == "CYC-4"


@pytest.mark.parametrize("nations", [["spanish", "spanish"], ["spanish", "portuguese"], ["english"]])
def test_CYC_4_nations_must_be_distinct_known_and_one_per_player(nations):
    with pytest.raises(api.IllegalAction) as e:
        api.new_game({"players": 2, "nations": nations}, 1)
    assert e.value.code == "bad_config"


def test_CYC_4_same_config_and_seed_give_the_same_game():
    a = api.new_game(api.Config(players=4), 99)
    b = api.new_game(api.Config(players=4), 99)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict() != api.new_game(api.Config(players=4), 100).to_dict()


def test_CYC_4_every_player_holds_the_two_battle_cards_of_the_ruleset():
    """BAT-3 support is chosen from each player's two Battle Cards (battle.toml), never neutral."""
    from support import scenario
    sides = sorted(c["side"] for c in RS.battle_cards)
    assert sides == ["attacker", "target"]
    g = scenario({"year": "sail", "step": "voyages", "order": [0, 1, 2, 3],
                  "players": [{"fleet": {"zone": "jamaica", "ships": 3}}, {}, {"fleet": {"zone": "jamaica"}},
                              {"fleet": {"zone": "jamaica"}}]}, players=4)
    g.act({"seat": 0, "type": "attack", "target": "jamaica.port_royal"})
    for seat in api.acting(g.state):
        opts = api.expand(api.legal_actions(g.state, seat))
        assert sorted(o["side"] for o in opts) == sides
        assert all(o == {"seat": seat, "type": "support", "side": o["side"]} for o in opts)
