"""Why not? (api.unavailable) and the battle preview: the reasons test_why.py leaves out, each
checked exactly (its code, its rule, its params), in small positions built by scenario."""

from __future__ import annotations

import shutil
import uuid

import pytest

from pax_hispanica import api
from pax_hispanica.engine import why
from support import NO_SPAIN, REFERENCE, options, scenario

from .test_why import (CATHEDRAL, GALEON, HAVEN, RS, SANTA_MARTA, TOLU, ZENU, ZONE, at_sail, reasons,
                       refused)

NO_INDIGENOUS = {CATHEDRAL: 0, ZENU: 0, TOLU: 0}


# ---- PRJ-8 --------------------------------------------------------------------------------------
def test_PRJ_8_buried_treasure_from_a_deck_of_one_card_is_listed_with_the_deck_and_its_count():
    # nine of the ten Haven cards are held: the Haven deck has one card left
    assert len(RS.haven) == 10
    hands = [RS.haven[0:3], RS.haven[3:6], RS.haven[6:9]]
    g = scenario({"year": "auction", "step": "auctions", "order": [0, 1, 2],
                  "players": [{"hand": h} for h in hands]})
    assert api.acting(g.state) == (0,)
    assert api.view(g.state, 0)["decks"]["haven"]["count"] == 1
    assert reasons(g.state, 0) == [
        {"decision": "initiate", "action": {"seat": 0, "type": "initiate", "deck": "haven", "buried": True},
         "code": "deck_too_small", "rule": "PRJ-8", "params": {"deck": "haven", "count": 1}}]
    [d] = reasons(g.state, 0, "deck_too_small")
    assert refused(g.state, d["action"])
    assert d["action"] not in options(g.state, 0)
    # the plain auction of that one card is not refused, so not listed
    assert {"seat": 0, "type": "initiate", "deck": "haven", "buried": False} in options(g.state, 0)


# ---- HND-2, HND-3 while reducing the hand ---------------------------------------------------------
def test_HND_2_reducing_the_hand_at_the_end_of_the_play_year_lists_the_haven_sale_and_the_limit():
    hand = [HAVEN] + GALEON[:RS.hand_limit]
    g = scenario({"year": "play", "step": "hand_limit_at_year_end", "order": [0, 1, 2],
                  "players": [{"money": 0, "hand": hand}, {}, {}]})
    assert api.acting(g.state) == (0,)
    assert api.decision(g.state, 0)["decision"] == "reduce_hand"
    assert reasons(g.state, 0) == [
        {"decision": "reduce_hand", "action": {"seat": 0, "type": "sell", "card": HAVEN},
         "code": "cannot_sell_haven", "rule": "HND-3", "params": {"card": HAVEN}},
        {"decision": "reduce_hand", "action": {"seat": 0, "type": "end_turn"},
         "code": "over_hand_limit", "rule": "HND-2", "params": {"count": len(hand), "limit": RS.hand_limit}}]
    assert all(refused(g.state, d["action"]) for d in reasons(g.state, 0))


# ---- CARD-1: a card that needs a legality ---------------------------------------------------------
def test_CARD_1_a_card_that_needs_another_legality_is_listed_with_the_fleets_legality(tmp_path):
    # the reference has no card with requires.legality: a copy gives Encomienda one
    folder = tmp_path / uuid.uuid4().hex
    shutil.copytree(REFERENCE, folder)
    market = folder / "market.toml"
    text = market.read_text()
    changed = text.replace("requires = { colonies = 1 }", 'requires = { legality = ["CONQUISTADOR", "SMUGGLER"] }', 1)
    assert changed != text
    market.write_text(changed)
    g = api.Game.from_scenario({
        "config": {"players": 3, "ruleset": str(folder), "nations": NO_SPAIN}, "seed": 1,
        "position": {"year": "play", "step": "play_turns", "order": [0, 1, 2],
                     "players": [{"money": 5, "hand": ["encomienda-1"], "fleet": {"legality": "PLUNDER"}}, {}, {}]}})
    legality = api.view(g.state, 0)["players"][0]["fleet"]["legality"]
    assert legality == "PLUNDER"
    [d] = reasons(g.state, 0, "needs_legality")
    assert d == {"decision": "play_turn", "action": {"seat": 0, "type": "play", "card": "encomienda-1"},
                 "code": "needs_legality", "rule": "CARD-1",
                 "params": {"card": "encomienda-1", "need": ["CONQUISTADOR", "SMUGGLER"], "legality": legality}}
    assert refused(g.state, d["action"])


# ---- SAIL-1: no room aboard for an enslaved Indigenous ---------------------------------------------
def test_SAIL_1_a_full_fleet_cannot_enslave_at_the_won_site_and_names_the_ship_capacity():
    # 2 ships full of Chests beat the Zenu (1); seat 0 has a vacant colony, but no room aboard
    full = ["chest"] * (2 * RS.ship_capacity)
    g = at_sail([{"fleet": {"zone": ZONE, "ships": 2, "cargo": full, "legality": "PLUNDER"}}, {}, {}],
                colonies={SANTA_MARTA: {"owner": 0, "labour": None}}, sites={**NO_INDIGENOUS, ZENU: 1})
    g.act({"seat": 0, "type": "attack", "target": ZENU})
    assert api.acting(g.state) == (0,)
    [d] = reasons(g.state, 0, "fleet_full")
    assert d == {"decision": "voyage", "action": {"seat": 0, "type": "enslave", "count": 1},
                 "code": "fleet_full", "rule": "SAIL-1",
                 "params": {"site": ZENU, "ships": 2, "capacity": RS.ship_capacity}}
    assert refused(g.state, d["action"])


# ---- CARD-2: unloading at a Haven needs Chests -----------------------------------------------------
def test_CARD_2_unloading_at_ones_haven_without_chests_is_listed():
    g = at_sail([{"fleet": {"zone": ZONE, "ships": 1, "cargo": [], "legality": "SMUGGLER"}, "havens": [ZONE]},
                 {}, {}])
    [d] = reasons(g.state, 0, "no_chests")
    assert d == {"decision": "voyage", "action": {"seat": 0, "type": "unload_haven"},
                 "code": "no_chests", "rule": "CARD-2", "params": {"zone": ZONE}}
    assert refused(g.state, d["action"])
    assert all(o["type"] != "unload_haven" for o in options(g.state, 0))


# ---- BAT-4: a tie goes to the target ---------------------------------------------------------------
def test_BAT_4_the_worst_case_preview_of_a_tie_is_lost_by_the_attacker():
    # seat 0 (3 ships) attacks the Zenu (2); seat 1's fleet (1 ship) is there: against seat 0, 3 v 3
    g = at_sail([{"fleet": {"zone": ZONE, "ships": 3, "legality": "PLUNDER"}},
                 {"fleet": {"zone": ZONE, "ships": 1}}, {}],
                sites={**NO_INDIGENOUS, ZENU: 2})
    p = api.battle_preview(g.state, 0, ZENU)
    assert p["kind"] == "site" and p["attacker_strength"] == 3 and p["target_strength"] == 2
    assert p["others"] == [{"seat": 1, "strength": 1}]
    assert p["best"] == {"attacker": 4, "target": 2, "wins": True}
    assert p["worst"] == {"attacker": 3, "target": 3, "wins": False}


# ---- TRS-2: after a sack, the Chests load for $0 ---------------------------------------------------
def test_TRS_2_a_plunderer_loads_the_chests_of_the_colony_it_sacked_for_nothing():
    players = [{"money": 0, "fleet": {"zone": ZONE, "ships": 3, "legality": "PLUNDER"}}, {}, {}]
    g = at_sail(players, colonies={SANTA_MARTA: {"owner": 1, "labour": None, "chests": 2}}, sites=NO_INDIGENOUS)
    b = why._Board(api.view(g.state, 0), RS)
    assert why.chest_terms(b, b.colony(SANTA_MARTA), None) == (None, "TRS-2")
    g.act({"seat": 0, "type": "attack", "target": SANTA_MARTA})
    v = api.view(g.state, 0)
    assert v["decision"]["sacked"] == SANTA_MARTA
    b = why._Board(v, RS)
    assert why.chest_terms(b, b.colony(SANTA_MARTA), SANTA_MARTA) == (0, "TRS-2")
    # with $0 the load is neither forbidden nor unaffordable, and the engine allows it
    assert [d for d in reasons(g.state, 0) if d["action"]["type"] == "load_chests"] == []
    assert {"seat": 0, "type": "load_chests", "colony": SANTA_MARTA, "count": 1} in options(g.state, 0)


# ---- TRS-3: a SMUGGLER's bribe it cannot pay --------------------------------------------------------
def smuggler_at(money, players=3, params=None):
    seats = [{"money": money, "fleet": {"zone": ZONE, "ships": 1, "cargo": [], "legality": "SMUGGLER"}}]
    seats += [{} for _ in range(players - 1)]
    return scenario({"year": "sail", "step": "voyages", "order": list(range(players)), "players": seats,
                     "colonies": {SANTA_MARTA: {"owner": 1, "labour": None, "chests": 2}}, "sites": NO_INDIGENOUS},
                    players=players, nations=NO_SPAIN[:players], params=params)


def test_TRS_3_a_smuggler_that_cannot_pay_the_bribe_is_told_the_cost_and_its_money():
    g = smuggler_at(0)
    assert RS.smuggler_bribes[3] == RS.smuggler_bribe == 1
    [d] = reasons(g.state, 0, "cannot_afford")
    assert d == {"decision": "voyage", "action": {"seat": 0, "type": "load_chests", "colony": SANTA_MARTA, "count": 1},
                 "code": "cannot_afford", "rule": "TRS-3",
                 "params": {"colony": SANTA_MARTA, "cost": 1, "money": 0}}
    assert refused(g.state, d["action"])


def test_PRJ_78_chest_terms_cite_PRJ_78_for_the_two_player_bribe_and_TRS_3_for_the_flat_one():
    # reference-7: $2 a Chest with 2 players (PRJ-79), smuggler_bribe ($1) with 3
    assert (RS.smuggler_bribes[2], RS.smuggler_bribes[3], RS.smuggler_bribe) == (2, 1, 1)
    g2 = smuggler_at(5, players=2)
    b = why._Board(api.view(g2.state, 0), RS)
    assert why.chest_terms(b, b.colony(SANTA_MARTA), None) == (2, "PRJ-78")
    g3 = smuggler_at(5)
    b = why._Board(api.view(g3.state, 0), RS)
    assert why.chest_terms(b, b.colony(SANTA_MARTA), None) == (1, "TRS-3")
    # and the reason for a 2-player smuggler with $1 cites PRJ-78
    [d] = reasons(smuggler_at(1, players=2).state, 0, "cannot_afford")
    assert d["rule"] == "PRJ-78" and d["params"] == {"colony": SANTA_MARTA, "cost": 2, "money": 1}


# ---- PRJ-31: a variant's numbers reach the reasons through the resolver ---------------------------
def test_PRJ_31_ruleset_of_resolves_a_variant_view_with_its_params():
    calls = []

    def resolver(name, params):
        calls.append((name, params))
        return RS

    assert why.ruleset_of({"ruleset": "reference", "ruleset_params": {"smuggler_bribe": 3}}, resolver) is RS
    assert why.ruleset_of({"ruleset": "reference", "ruleset_params": {}}, resolver) is RS
    assert calls == [("reference", {"smuggler_bribe": 3}), ("reference", None)]


def test_PRJ_31_a_variant_bribe_in_a_view_makes_the_load_unaffordable():
    # smuggler_bribe=3 (a variant): $2 does not pay it; the view (a dict) is resolved by name and params
    g = smuggler_at(2, params={"smuggler_bribe": 3})
    v = api.view(g.state, 0)
    assert v["ruleset_params"] == {"smuggler_bribe": 3}
    [d] = reasons(v, 0, "cannot_afford")
    assert d["rule"] == "TRS-3" and d["params"] == {"colony": SANTA_MARTA, "cost": 3, "money": 2}
    # the same game without the variant: $2 pays the $1 bribe, nothing refused
    assert reasons(api.view(smuggler_at(2).state, 0), 0, "cannot_afford") == []


# ---- BAT-1: the preview names its target ------------------------------------------------------------
def test_BAT_1_the_battle_preview_names_the_target_asked():
    g = at_sail([{"fleet": {"zone": ZONE, "ships": 2, "legality": "PLUNDER"}}, {}, {}],
                sites={**NO_INDIGENOUS, ZENU: 1})
    p = api.battle_preview(g.state, 0, ZENU)
    assert p["target"] == ZENU
    assert (p["attacker"], p["zone"], p["kind"], p["target_owner"]) == (0, ZONE, "site", None)
    assert (p["attacker_strength"], p["target_strength"], p["others"]) == (2, 1, [])


# ---- LAB-1, LAB-4, LAB-6: a labour decision's reasons and colonies -----------------------------------
def _labour_game(money: int) -> api.Game:
    return scenario({"year": "goods", "step": "labour_acquisition", "order": [0, 1, 2],
                     "players": [{"money": money}, {}, {}],
                     "colonies": {SANTA_MARTA: {"owner": 0, "labour": None}},
                     "sites": {CATHEDRAL: 1, ZENU: 2}}, nations=NO_SPAIN)        # kidnapping is open


def _labour(sites: dict, rebels: dict | None = None) -> api.Game:
    pos = {"year": "goods", "step": "labour_acquisition", "order": [0, 1, 2], "players": [{"money": 5}, {}, {}],
           "colonies": {SANTA_MARTA: {"owner": 0, "labour": None}}, "sites": sites}
    if rebels:
        pos["rebels"] = rebels
    g = scenario(pos, nations=NO_SPAIN)
    assert api.acting(g.state) == (0,)
    return g


def test_LAB_1_employing_without_the_dollar_is_listed_for_the_colony_and_cathedral():
    g = _labour_game(0)
    [d] = reasons(g.state, 0, "cannot_afford")
    assert d["params"] == {"colony": SANTA_MARTA, "site": CATHEDRAL, "cost": g.state.rs.employ_cost, "money": 0}
    assert d["action"] == {"seat": 0, "type": "labour", "colony": SANTA_MARTA, "source": "employ", "site": CATHEDRAL}


def test_LAB_1_employing_without_the_dollar_cites_LAB_1():
    g = scenario({"year": "goods", "step": "labour_acquisition", "order": [0, 1, 2],
                  "players": [{"money": 0}, {}, {}], "colonies": {SANTA_MARTA: {"owner": 0, "labour": None}},
                  "sites": {CATHEDRAL: 1, ZENU: 2}}, nations=NO_SPAIN)
    [d] = reasons(g.state, 0, "cannot_afford")
    assert d["rule"] == "LAB-1" and d["decision"] == "labour"


def test_LAB_1_a_cathedral_without_citizens_is_listed_for_the_colony_and_the_site():
    g = _labour({CATHEDRAL: 0, ZENU: 2})                     # kidnapping from Zenú is open
    [empty] = reasons(g.state, 0, "no_citizen")
    assert empty["rule"] == "LAB-1" and empty["params"] == {"colony": SANTA_MARTA, "site": CATHEDRAL}


def test_LAB_4_each_site_of_a_rebellious_zone_is_listed_by_its_id():
    g = _labour({CATHEDRAL: 1, ZENU: 2, TOLU: 1}, {ZONE: 1})    # employing at the Cathedral is open
    rebellious = reasons(g.state, 0, "rebellious_zone")
    assert sorted(d["params"]["site"] for d in rebellious) == sorted([ZENU, TOLU])
    assert all(d["params"]["colony"] == SANTA_MARTA and d["params"]["zone"] == ZONE for d in rebellious)


def test_LAB_6_the_labour_decision_names_its_colonies_as_everyone_sees_them():
    g = _labour_game(5)
    pub = api.decision(g.state)
    assert pub["decision"] == "labour" and SANTA_MARTA in pub["colonies"]
    assert all(isinstance(c, str) for c in pub["colonies"])
    assert api.view(g.state, 1)["decision"]["colonies"] == pub["colonies"]


# ---- CARD-1, PRJ-11: a card's colonies and target ------------------------------------------------------
def test_CARD_1_a_card_that_needs_a_colony_is_listed_with_the_card_and_the_count():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"money": 9, "hand": ["encomienda-1"]}, {}, {}],
                  "colonies": {"jamaica.port_royal": {"owner": None}}}, nations=NO_SPAIN)
    assert not [c for c in api.view(g.state, 0)["colonies"] if c["owner"] == 0]
    [d] = reasons(g.state, 0, "needs_colonies")
    assert d["params"] == {"card": "encomienda-1", "need": 1, "have": 0} and d["rule"] == "CARD-1"


def test_PRJ_11_milicia_has_a_target_in_a_zone_with_a_single_rebel():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"money": 9, "hand": ["milicia-1"]}, {}, {}], "rebels": {ZONE: 1}}, nations=NO_SPAIN)
    assert not reasons(g.state, 0, "no_target")
    assert {"seat": 0, "type": "play", "card": "milicia-1", "target": ZONE} in \
        api.expand(api.legal_actions(g.state, 0))


# ---- AUC-1: an empty deck ------------------------------------------------------------------------------
def test_AUC_1_an_empty_deck_is_listed_as_one_that_cannot_be_auctioned():
    g = api.Game.new(api.Config(players=3), 1)
    st = g.state.copy()
    st.haven = []
    st.acting_now = None
    found = {d["code"]: d for d in reasons(st, api.acting(st)[0]) if d["params"].get("deck") == "haven"}
    assert found["deck_empty"]["rule"] == "AUC-1" and found["deck_empty"]["params"] == {"deck": "haven"}
    assert found["deck_empty"]["action"]["buried"] is False


# ---- BAT-2: the preview of a battle against Rebels -----------------------------------------------------
def test_BAT_2_the_preview_of_a_battle_against_rebels_counts_one_strength_a_rebel():
    g = at_sail([{"fleet": {"zone": ZONE, "ships": 2, "legality": "PLUNDER"}}, {}, {}], rebels={ZONE: 3})
    p = api.battle_preview(g.state, 0, "rebels")
    assert (p["kind"], p["target_strength"], p["attacker_strength"]) == ("rebels", 3, 2)
    assert p["best"]["wins"] is False


def test_CARD_2_unloading_at_ones_haven_without_chests_is_refused_in_words():
    g = at_sail([{"fleet": {"zone": ZONE, "ships": 1, "cargo": [], "legality": "SMUGGLER"}, "havens": [ZONE]},
                 {}, {}])
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "unload_haven"})
    assert (e.value.code, e.value.rule, e.value.message) == ("no_chests", "CARD-2", "No Chests aboard to unload.")
