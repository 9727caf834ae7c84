"""Why not? (api.unavailable) descriptors compared whole: decision, action, code, rule and params,
for the reasons the other why tests check only in part (issue 36: the mutation score)."""

from __future__ import annotations

import uuid

import pytest

from pax_hispanica import api
from pax_hispanica.engine import why
from support import NO_SPAIN, WITH_SPAIN, scenario

from .test_ruleset import broken
from .test_why import CARTAGENA, CATHEDRAL, GALEON, RS, SANTA_MARTA, TOLU, ZENU, ZONE, at_sail, reasons


def _labour(sites: dict, money: int = 5, params: dict | None = None) -> api.Game:
    g = scenario({"year": "goods", "step": "labour_acquisition", "order": [0, 1, 2],
                  "players": [{"money": money}, {}, {}],
                  "colonies": {SANTA_MARTA: {"owner": 0, "labour": None}}, "sites": sites},
                 nations=NO_SPAIN, params=params)
    assert api.acting(g.state) == (0,)
    return g


def _lab(source: str, site: str, code: str, rule: str) -> dict:
    return {"decision": "labour", "action": {"seat": 0, "type": "labour", "colony": SANTA_MARTA, "source": source,
                                             "site": site},
            "code": code, "rule": rule, "params": {"colony": SANTA_MARTA, "site": site}}


def test_LAB_1_an_empty_cathedral_and_empty_sites_are_listed_whole_and_a_site_of_one_is_not():
    g = _labour({CATHEDRAL: 0, ZENU: 0, TOLU: 1})
    assert reasons(g.state, 0) == [_lab("employ", CATHEDRAL, "no_citizen", "LAB-1"),
                                   _lab("kidnap", ZENU, "no_indigenous", "LAB-1")]


def test_LAB_2_with_employ_range_anywhere_every_empty_cathedral_is_listed_not_only_the_zones():
    # every Cathedral emptied: with the reference's same_zone, only Cartagena's is a source for
    # Santa Marta; with the variant employ_range = "anywhere" (PRJ-31) each of them is one
    views = api.view(_labour({CATHEDRAL: 0, ZENU: 1, TOLU: 1}).state, 0)["sites"]
    empty = {s["id"]: 0 for s in views if s["kind"] == "cathedral"}
    assert len(empty) > 1
    same = _labour({**empty, ZENU: 1, TOLU: 1})
    assert [d["params"]["site"] for d in reasons(same.state, 0)] == [CATHEDRAL]
    anywhere = _labour({**empty, ZENU: 1, TOLU: 1}, params={"employ_range": "anywhere"})
    found = reasons(anywhere.state, 0)
    assert sorted(d["params"]["site"] for d in found) == sorted(empty)
    assert {d["code"] for d in found} == {"no_citizen"}


def test_LAB_5_a_wilderness_site_is_listed_whole():
    g = scenario({"year": "goods", "step": "labour_acquisition", "order": [0, 1, 2],
                  "players": [{"money": 5}, {}, {}],
                  "colonies": {"yucatan.merida": {"owner": 0, "labour": None}}}, nations=NO_SPAIN)
    found = reasons(g.state, 0, "wilderness")
    assert found
    for d in found:
        site = d["params"]["site"]
        assert d == {"decision": "labour", "action": {"seat": 0, "type": "labour", "colony": "yucatan.merida",
                                                      "source": "kidnap", "site": site},
                     "code": "wilderness", "rule": "LAB-5", "params": {"colony": "yucatan.merida", "site": site}}


def test_AUC_1_an_empty_deck_is_listed_whole():
    g = api.Game.new(api.Config(players=3), 1)
    st = g.state.copy()
    st.haven = []
    st.acting_now = None
    seat = api.acting(st)[0]
    found = [d for d in reasons(st, seat) if d["params"].get("deck") == "haven"]
    assert found == [
        {"decision": "initiate", "action": {"seat": seat, "type": "initiate", "deck": "haven", "buried": False},
         "code": "deck_empty", "rule": "AUC-1", "params": {"deck": "haven"}},
        {"decision": "initiate", "action": {"seat": seat, "type": "initiate", "deck": "haven", "buried": True},
         "code": "deck_too_small", "rule": "PRJ-8", "params": {"deck": "haven", "count": 0}}]


@pytest.mark.parametrize("requires,position,code,params", [
    # a copy of the reference where Encomienda needs two colonies: seat 0 owns one
    pytest.param("requires = { colonies = 2 }",
                 {"colonies": {"jamaica.port_royal": {"owner": None}, SANTA_MARTA: {"owner": 0, "labour": None}},
                  "players": [{"money": 5, "hand": ["encomienda-1"]}, {}, {}]},
                 "needs_colonies", {"card": "encomienda-1", "need": 2, "have": 1},
                 id="a-card-that-needs-two-colonies-counts-each-owned-colony-once"),
    # the reference has no card with requires.nation: a copy gives Encomienda one
    pytest.param('requires = { nation = "french" }',
                 {"players": [{"money": 5, "hand": ["encomienda-1"]}, {"money": 5, "hand": ["encomienda-2"]}, {}]},
                 "needs_nation", {"card": "encomienda-1", "nation": "french"},
                 id="a-card-of-another-nation-is-listed-whole"),
])
def test_CARD_1_a_card_whose_requirement_is_not_met_is_listed_whole(tmp_path, requires, position, code, params):
    folder = broken(tmp_path / uuid.uuid4().hex, "market.toml", "requires = { colonies = 1 }", requires)
    g = api.Game.from_scenario({
        "config": {"players": 3, "ruleset": str(folder), "nations": NO_SPAIN}, "seed": 1,
        "position": {"year": "play", "step": "play_turns", "order": [0, 1, 2], **position}})
    assert reasons(g.state, 0, code) == [
        {"decision": "play_turn", "action": {"seat": 0, "type": "play", "card": "encomienda-1"},
         "code": code, "rule": "CARD-1", "params": params}]


def test_HND_2_over_the_limit_in_a_play_turn_is_listed_whole():
    hand = GALEON[:RS.hand_limit + 1]
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"money": 0, "hand": hand}, {}, {}]})
    assert reasons(g.state, 0, "over_hand_limit") == [
        {"decision": "play_turn", "action": {"seat": 0, "type": "end_turn"}, "code": "over_hand_limit",
         "rule": "HND-2", "params": {"count": len(hand), "limit": RS.hand_limit}}]


def test_PRJ_31_ruleset_of_asks_the_resolver_for_the_views_ruleset_and_params_by_name():
    calls = []

    def resolver(name, params):
        calls.append((name, params))
        return RS
    assert why.ruleset_of({"ruleset": "mine", "ruleset_params": {"cycles": 3}}, resolver) is RS
    assert why.ruleset_of({}, resolver) is RS
    assert calls == [("mine", {"cycles": 3}), ("reference", None)]
    assert why.ruleset_of({}, RS) is RS


def test_BAT_1_a_preview_from_a_spectators_view_names_its_attacker_or_nothing():
    g = at_sail([{"fleet": {"zone": ZONE, "ships": 2, "legality": "PLUNDER"}}, {}, {}], rebels={ZONE: 3})
    spectator = api.view(g.state, None)
    assert why.battle_preview(spectator, "rebels", rs=RS) is None
    assert why.battle_preview(spectator, "rebels", attacker=0, rs=RS)["target_strength"] == 3
    assert api.battle_previews(g.state, None) == {}
    g1 = at_sail([{"fleet": {"zone": ZONE, "ships": 2, "legality": "PLUNDER"}},
                  {"fleet": {"zone": ZONE, "ships": 2, "legality": "PLUNDER"}}, {}], rebels={ZONE: 3})
    assert api.acting(g1.state) == (0,) and api.battle_previews(g1.state, 0)
    assert api.battle_previews(g1.state, 1) == {}                   # not asked now


def test_BAT_1_a_preview_read_through_a_resolver_and_of_no_target_there():
    g = at_sail([{"fleet": {"zone": ZONE, "ships": 2, "legality": "PLUNDER"}}, {}, {}], rebels={ZONE: 1},
                colonies={SANTA_MARTA: {"owner": 0, "labour": None}}, sites={ZENU: 0, TOLU: 2})
    view = api.view(g.state, 0)
    p = why.battle_preview(view, "rebels", rs=lambda name, params: RS)
    assert (p["kind"], p["target_strength"]) == ("rebels", 1)          # a single Rebel is a target
    assert why.battle_preview(view, TOLU, rs=RS)["target_strength"] == 2
    for nothing in (ZENU, SANTA_MARTA, "no.such_target"):              # an empty site, one's own colony
        assert why.battle_preview(view, nothing, rs=RS) is None, nothing
    assert set(api.battle_previews(g.state, 0)) == {"rebels", TOLU, CARTAGENA}


def test_TRS_4_a_conquistador_loading_at_a_spanish_colony_is_told_the_fee_and_its_money():
    players = [{}, {"money": 0, "fleet": {"zone": ZONE, "ships": 2, "legality": "CONQUISTADOR"}}, {}]
    g = scenario({"year": "sail", "step": "voyages", "order": [1, 0, 2], "players": players,
                  "colonies": {SANTA_MARTA: {"owner": 0, "labour": "citizen", "chests": 2}}},
                 nations=WITH_SPAIN)
    assert api.acting(g.state) == (1,)
    found = [d for d in reasons(g.state, 1) if d["params"].get("colony") == SANTA_MARTA]
    assert found == [{"decision": "voyage", "action": {"seat": 1, "type": "load_chests", "colony": SANTA_MARTA,
                                                       "count": 1},
                      "code": "cannot_afford", "rule": "TRS-4",
                      "params": {"colony": SANTA_MARTA, "cost": RS.conquistador_spanish_fee, "money": 0}}]


def test_PRJ_38_a_plunderer_loads_at_its_own_colony_for_nothing_with_sack_or_own():
    players = [{"money": 0, "fleet": {"zone": ZONE, "ships": 2, "legality": "PLUNDER"}}, {}, {}]
    pos = {"year": "sail", "step": "voyages", "order": [0, 1, 2], "players": players,
           "colonies": {SANTA_MARTA: {"owner": 0, "labour": "citizen", "chests": 2}}}
    own = scenario(pos, nations=NO_SPAIN, params={"plunder_loading": "sack_or_own"})
    assert not [d for d in reasons(own.state, 0) if d["params"].get("colony") == SANTA_MARTA]
    sack = scenario(pos, nations=NO_SPAIN)
    [d] = [d for d in reasons(sack.state, 0) if d["params"].get("colony") == SANTA_MARTA]
    assert (d["code"], d["rule"]) == ("legality_forbids", "TRS-2")


def test_SAIL_1_room_for_one_more_chest_is_no_full_fleet():
    players = [{"money": 0, "fleet": {"zone": ZONE, "ships": 1, "legality": "SMUGGLER",
                                      "cargo": ["chest"] * (RS.ship_capacity - 1)}}, {}, {}]
    g = at_sail(players, colonies={SANTA_MARTA: {"owner": 0, "labour": "citizen", "chests": 2}})
    assert not [d for d in reasons(g.state, 0) if d["code"] == "fleet_full"]
    full = at_sail([{**players[0], "fleet": {**players[0]["fleet"], "cargo": ["chest"] * RS.ship_capacity}}, {}, {}],
                   colonies={SANTA_MARTA: {"owner": 0, "labour": "citizen", "chests": 2}})
    assert [d["code"] for d in reasons(full.state, 0) if d["params"].get("colony") == SANTA_MARTA] == ["fleet_full"]


def test_TRS_4_a_conquistador_loads_at_a_crown_colony_for_nothing():
    players = [{"money": 0, "fleet": {"zone": ZONE, "ships": 2, "legality": "CONQUISTADOR"}}, {}, {}]
    g = at_sail(players, colonies={CARTAGENA: {"owner": "crown", "labour": "citizen", "chests": 2}})
    assert [c["owner"] for c in api.view(g.state, 0)["colonies"] if c["id"] == CARTAGENA] == ["crown"]
    assert not [d for d in reasons(g.state, 0) if d["params"].get("colony") == CARTAGENA]
    assert {"seat": 0, "type": "load_chests", "colony": CARTAGENA, "count": 1} in \
        api.expand(api.legal_actions(g.state, 0))


def _play(hand: list[str], colonies: dict) -> api.Game:
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"money": 9, "hand": hand}, {}, {}], "colonies": colonies}, nations=NO_SPAIN)
    assert api.acting(g.state) == (0,)
    return g


def test_PRJ_11_fortificacion_has_no_target_when_each_own_colony_has_its_fort():
    fortified = _play(["fortificacion-1"], {"jamaica.port_royal": {"owner": 0, "labour": "citizen", "fort": True}})
    assert [c["id"] for c in api.view(fortified.state, 0)["colonies"] if c["owner"] == 0] == ["jamaica.port_royal"]
    assert reasons(fortified.state, 0, "no_target") == [
        {"decision": "play_turn", "action": {"seat": 0, "type": "play", "card": "fortificacion-1"},
         "code": "no_target", "rule": "PRJ-11",
         "params": {"card": "fortificacion-1", "target": "own_colony_without_fort"}}]
    open_ = _play(["fortificacion-1"], {"jamaica.port_royal": {"owner": 0, "labour": "citizen", "fort": False}})
    assert not reasons(open_.state, 0, "no_target")


def test_PRJ_11_carta_de_poblacion_has_no_target_when_every_colony_space_is_taken():
    taken = {cid: {"owner": 1, "labour": None} for cid in RS.col_ids
             if cid not in {c for c, crown in zip(RS.col_ids, RS.col_crown) if crown}}
    g = _play(["carta_poblacion-1"], taken)
    assert not [c for c in api.view(g.state, 0)["colonies"] if c["owner"] is None]
    [d] = reasons(g.state, 0, "no_target")
    assert d["params"] == {"card": "carta_poblacion-1", "target": "empty_colony_space"}


def test_SAIL_1_enslaving_with_room_for_one_and_at_an_emptied_site_lists_nothing():
    # 2 ships with room for one more beat the Zenu (1): the enslaving is open; once the site is
    # empty it is no longer a question, although no vacant colony is left
    cargo = ["chest"] * (2 * RS.ship_capacity - 1)
    g = at_sail([{"fleet": {"zone": ZONE, "ships": 2, "cargo": cargo, "legality": "PLUNDER"}}, {}, {}],
                colonies={SANTA_MARTA: {"owner": 0, "labour": None}},
                sites={CATHEDRAL: 0, ZENU: 1, TOLU: 0})
    g.act({"seat": 0, "type": "attack", "target": ZENU})
    assert api.acting(g.state) == (0,)
    assert not [d for d in reasons(g.state, 0) if d["action"]["type"] == "enslave"]
    g.act({"seat": 0, "type": "enslave", "count": 1})
    assert [s["count"] for s in api.view(g.state, 0)["sites"] if s["id"] == ZENU] == [0]
    assert not [d for d in reasons(g.state, 0) if d["action"]["type"] == "enslave"]


def test_TRS_4_a_privateer_loads_for_nothing_at_the_colony_it_sacked_only():
    g = at_sail([{"money": 0, "fleet": {"zone": ZONE, "ships": 3, "legality": "PRIVATEER"}}, {}, {}],
                colonies={SANTA_MARTA: {"owner": 1, "labour": None, "chests": 2}})
    [before] = [d for d in reasons(g.state, 0) if d["params"].get("colony") == SANTA_MARTA]
    assert (before["code"], before["rule"]) == ("legality_forbids", "TRS-4")
    g.act({"seat": 0, "type": "attack", "target": SANTA_MARTA})
    assert api.view(g.state, 0)["decision"]["sacked"] == SANTA_MARTA
    assert not [d for d in reasons(g.state, 0) if d["params"].get("colony") == SANTA_MARTA]
