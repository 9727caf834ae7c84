"""Voyages (SAIL-1, SAIL-2), one battle per land zone (PRJ-16) and starting at a Haven
(CARD-2, PRJ-9). Positions are scenarios at the start of the Sail Year."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from support import options, scenario

NO_SPAIN = ["english", "french", "courland"]   # nobody owns anything in Venezuela or Tierra Firme


def sail(players, order=(0, 1, 2), nations=NO_SPAIN, **pos):
    position = {"year": "sail", "step": "voyages", "order": list(order), "players": players, **pos}
    return scenario(position, players=len(nations), nations=nations)


def move(g, seat, to):
    return g.act({"seat": seat, "type": "move", "to": to})


def test_SAIL_1_voyages_in_player_order():
    g = sail([{}, {}, {}], order=(2, 0, 1))
    seen = []
    for _ in range(3):
        seat = api.acting(g.state)[0]
        seen.append(seat)
        g.act({"seat": seat, "type": "end_voyage"})
    assert seen == [2, 0, 1]
    begun = [e["seat"] for e in g.events if e["type"] == "VoyageBegan"]
    assert begun == [2, 0, 1]


def test_SAIL_1_fleets_start_the_game_in_Europe():
    st = api.new_game(api.Config(players=4), seed=3)
    assert all(z == st.rs.europe for z in st.fzone)


def test_SAIL_1_a_move_goes_to_an_adjacent_zone():
    g = sail([{}, {}, {}])
    st = g.state
    moves = {o["to"] for o in options(st, 0) if o["type"] == "move"}
    assert moves == {"atlantico", "antillas_menores"}                  # Europe's seas
    before = st.fingerprint()
    for to in ("golfo_mexico", "cuba", "nowhere"):
        with pytest.raises(api.IllegalAction) as e:
            api.apply(st, {"seat": 0, "type": "move", "to": to})
        assert e.value.code == "not_adjacent" and e.value.rule == "SAIL-1"
    with pytest.raises(api.IllegalAction) as e:                         # not a zone id at all
        api.apply(st, {"seat": 0, "type": "move", "to": None})
    assert (e.value.code, e.value.rule) == ("malformed", "PRJ-7")
    assert st.fingerprint() == before
    move(g, 0, "atlantico")
    assert g.state.fzone[0] == st.rs.zone_index["atlantico"]
    assert {o["to"] for o in options(g.state, 0) if o["type"] == "move"} == {
        "estrecho_florida", "paso_barlovento", "antillas_menores", "puerto_rico", "europe"}


def test_SAIL_1_at_most_fleet_moves_moves():
    g = sail([{}, {}, {}])
    path = ["atlantico", "estrecho_florida", "golfo_mexico", "canal_yucatan", "caribe_occidental"]
    assert g.state.rs.fleet_moves == 4
    for i, to in enumerate(path[:4]):
        ev = move(g, 0, to)
        assert ev[-1]["type"] == "FleetMoved" and ev[-1]["moves_left"] == 3 - i
    assert not any(o["type"] == "move" for o in options(g.state, 0))
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "move", "to": path[4]})
    assert e.value.code == "no_moves_left"
    assert api.acting(g.state) == (0,)                                  # still on the voyage
    g.act({"seat": 0, "type": "end_voyage"})
    assert g.state.fzone[0] == g.state.rs.zone_index["canal_yucatan"]     # the fleet stays there


def test_SAIL_1_a_player_may_end_a_voyage_early_and_the_fleet_stays():
    g = sail([{"fleet": {"zone": "caribe_central"}}, {}, {}])
    assert next(e for e in g.events if e["type"] == "VoyageBegan")["zone"] == "caribe_central"
    move(g, 0, "venezuela")
    events = g.act({"seat": 0, "type": "end_voyage"})
    assert events[0]["type"] == "VoyageEnded" and events[0]["zone"] == "venezuela"
    assert g.state.fzone[0] == g.state.rs.zone_index["venezuela"]
    assert api.acting(g.state) == (1,)


def test_SAIL_1_entering_Europe_ends_the_voyage_and_unloads_Chests():
    g = sail([{"fleet": {"zone": "atlantico", "legality": "SMUGGLER", "cargo": ["chest", "chest"]}}, {}, {}])
    money = g.state.money[0]
    events = move(g, 0, "europe")
    types = [e["type"] for e in events]
    assert types.index("TreasureScored") < types.index("VoyageEnded")
    assert g.state.cargo[0] == []
    assert g.state.money[0] == money + 2 * g.state.rs.smuggler_money
    assert api.acting(g.state) == (1,)


def test_PRJ_10_meeples_stay_aboard_in_Europe():
    g = sail([{"fleet": {"zone": "atlantico", "legality": "CONQUISTADOR",
                         "cargo": ["citizen", "chest", "indigenous"]}}, {}, {}])
    move(g, 0, "europe")
    assert g.state.cargo[0] == ["citizen", "indigenous"]
    assert g.state.prestige[0] == g.state.rs.conquistador_prestige


def test_SAIL_1_battles_and_loading_happen_only_in_land_zones():
    g = sail([{"fleet": {"zone": "caribe_central", "ships": 3}}, {}, {}], rebels={"venezuela": 1})
    assert {o["type"] for o in options(g.state, 0)} == {"move", "end_voyage"}
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "attack", "target": "rebels"})
    assert e.value.code == "not_in_land_zone"
    move(g, 0, "venezuela")
    assert {"seat": 0, "type": "attack", "target": "rebels"} in options(g.state, 0)


def test_PRJ_16_one_battle_per_land_zone_per_voyage_even_when_revisited():
    g = sail([{"fleet": {"zone": "caribe_central", "ships": 3}}, {}, {}], rebels={"venezuela": 3})
    move(g, 0, "venezuela")
    g.act({"seat": 0, "type": "attack", "target": "rebels"})            # 3 against 3: lost, a Galleon gone
    assert not any(o["type"] == "attack" for o in options(g.state, 0))
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "attack", "target": "venezuela.caquetio"})
    assert (e.value.code, e.value.rule) == ("already_battled", "PRJ-16")
    move(g, 0, "caribe_central")
    move(g, 0, "venezuela")
    assert not any(o["type"] == "attack" for o in options(g.state, 0))
    # another land zone of the same voyage allows its own battle
    g2 = sail([{"fleet": {"zone": "caribe_central", "ships": 3}}, {}, {}],
              rebels={"venezuela": 1, "tierra_firme": 1})
    move(g2, 0, "venezuela")
    g2.act({"seat": 0, "type": "attack", "target": "rebels"})
    move(g2, 0, "caribe_central")
    move(g2, 0, "tierra_firme")
    assert {"seat": 0, "type": "attack", "target": "rebels"} in options(g2.state, 0)


def test_SAIL_2_a_fleet_counts_as_its_players_tokens_in_a_land_zone():
    # Seat 2 has nothing in Venezuela but its fleet: it must support, with 2 (its ships).
    g = sail([{"fleet": {"zone": "venezuela", "ships": 3}}, {}, {"fleet": {"zone": "venezuela", "ships": 2}}],
             rebels={"venezuela": 2})
    ev = g.act({"seat": 0, "type": "attack", "target": "rebels"})
    assert next(e for e in ev if e["type"] == "BattleDeclared")["supporters"] == [2]
    ev = g.act({"seat": 2, "type": "support", "side": "target"})
    r = next(e for e in ev if e["type"] == "BattleResolved")
    assert (r["attacker_strength"], r["target_strength"]) == (3, 4)
    # a fleet that sailed away no longer counts
    g = sail([{"fleet": {"zone": "venezuela", "ships": 3}}, {}, {"fleet": {"zone": "caribe_central"}}],
             rebels={"venezuela": 2})
    ev = g.act({"seat": 0, "type": "attack", "target": "rebels"})
    assert next(e for e in ev if e["type"] == "BattleDeclared")["supporters"] == []


# ---- Havens (CARD-2, PRJ-9) -------------------------------------------------------------------

def test_CARD_2_PRJ_9_a_voyage_may_start_at_ones_Haven():
    g = sail([{"havens": ["jamaica", "jamaica"]}, {"havens": ["cuba"]}, {}])
    starts = [o for o in options(g.state, 0) if o["type"] == "start_at_haven"]
    assert starts == [{"seat": 0, "type": "start_at_haven", "zone": "jamaica"}]
    st = g.state
    for bad in ("cuba", "venezuela", "europe"):                         # another's Haven, not a Haven
        with pytest.raises(api.IllegalAction) as e:
            api.apply(st, {"seat": 0, "type": "start_at_haven", "zone": bad})
        assert e.value.rule == "CARD-2"
    events = g.act({"seat": 0, "type": "start_at_haven", "zone": "jamaica"})
    assert events[0]["type"] == "VoyageStartedAtHaven"
    assert g.state.fzone[0] == g.state.rs.zone_index["jamaica"]
    assert g.state.stack[-1]["moves"] == g.state.rs.fleet_moves          # the jump is not a move
    assert not any(o["type"] == "start_at_haven" for o in options(g.state, 0))


def test_PRJ_9_a_Haven_start_only_from_Europe_before_the_first_move():
    g = sail([{"havens": ["jamaica"]}, {}, {}])
    move(g, 0, "atlantico")
    assert not any(o["type"] == "start_at_haven" for o in options(g.state, 0))
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "start_at_haven", "zone": "jamaica"})
    assert (e.value.code, e.value.rule) == ("voyage_started", "PRJ-9")
    g = sail([{"havens": ["jamaica"], "fleet": {"zone": "cuba"}}, {}, {}])
    assert not any(o["type"] == "start_at_haven" for o in options(g.state, 0))
    with pytest.raises(api.IllegalAction):
        api.apply(g.state, {"seat": 0, "type": "start_at_haven", "zone": "jamaica"})
