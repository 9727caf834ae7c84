"""Loading and unloading meeples (LOAD-1..LOAD-4, PRJ-17): enslaving after a won battle,
automatic emigration, never without a vacant colony, unloading as labour."""

from __future__ import annotations


import pytest
from hypothesis import given, settings, strategies as st_

from pax_hispanica import api
from pax_hispanica.engine import loading
from support import options, scenario, treasure_seeking_game

NATIONS = ["english", "french", "courland"]     # nobody owns anything in Tierra Firme or Venezuela
SANTA_MARTA, CARTAGENA = "tierra_firme.santa_marta", "tierra_firme.cartagena"
CATHEDRAL, ZENU = "tierra_firme.cartagena_cathedral", "tierra_firme.zenu"


def sail(players, colonies=None, sites=None, rebels=None, nations=NATIONS):
    pos = {"year": "sail", "step": "voyages", "order": list(range(len(nations))), "players": players,
           "colonies": colonies or {}, "sites": sites or {}}
    if rebels:
        pos["rebels"] = rebels
    return scenario(pos, players=len(nations), nations=nations)


def vacant(owner):
    return {"owner": owner, "labour": None}


def fleet(zone="caribe_central", ships=1, cargo=(), legality="SMUGGLER"):
    return {"fleet": {"zone": zone, "ships": ships, "cargo": list(cargo), "legality": legality}}


def enter(g, zone="tierra_firme", seat=0):
    return g.act({"seat": seat, "type": "move", "to": zone})


def count_at(st, site):
    return st.site_count[st.site_ids.index(site)]


# ---- LOAD-1, LOAD-3: emigration is automatic ------------------------------------------------

def test_LOAD_3_citizens_emigrate_on_entering_without_a_decision():
    g = sail([fleet(ships=2), {}, {}], colonies={SANTA_MARTA: vacant(0), "venezuela.caracas": vacant(0)})
    assert count_at(g.state, CATHEDRAL) == 2
    events = enter(g)
    em = [e for e in events if e["type"] == "CitizensEmigrated"]
    assert len(em) == 1 and em[0]["boarded"] == {CATHEDRAL: 2} and em[0]["rule"] == "LOAD-3"
    assert g.state.cargo[0] == ["citizen", "citizen"]
    assert count_at(g.state, CATHEDRAL) == 0
    # no decision was asked: the same voyage goes on, and nobody is asked to emigrate
    assert api.acting(g.state) == (0,) and g.state.stack[-1]["d"] == "voyage"
    assert len(g.state.stack) == 1
    assert not any(o["type"] not in ("move", "attack", "end_voyage", "unload", "load_chests")
                   for o in options(g.state, 0))


def test_LOAD_1_LOAD_3_emigration_is_bounded_by_free_cargo():
    g = sail([fleet(cargo=["chest"]), {}, {}],
             colonies={SANTA_MARTA: vacant(0), "venezuela.caracas": vacant(0), "venezuela.margarita": vacant(0)})
    enter(g)
    assert g.state.cargo[0] == ["chest", "citizen"]
    assert count_at(g.state, CATHEDRAL) == 1


def test_LOAD_2_no_meeple_is_loaded_without_a_vacant_colony():
    # seat 0's only colony is worked; seat 1 and the Crown have vacant colonies: they do not count
    g = sail([fleet(ships=3), {}, {}], colonies={"jamaica.port_royal": {"owner": 0, "labour": "citizen"},
                                                 "venezuela.caracas": vacant(1), CARTAGENA: vacant("crown")},
             sites={ZENU: 2})
    assert g.state.vacant_colonies(0) == []
    events = enter(g)
    assert not any(e["type"] == "CitizensEmigrated" for e in events)
    assert g.state.cargo[0] == [] and count_at(g.state, CATHEDRAL) == 2
    events = g.act({"seat": 0, "type": "attack", "target": ZENU})
    assert any(e["type"] == "SiteSubdued" for e in events)
    assert not any(o["type"] == "enslave" for o in options(g.state, 0))
    before = g.state.fingerprint()
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "enslave", "count": 1})
    assert (e.value.code, e.value.rule) == ("no_vacant_colony", "LOAD-2")
    assert g.state.fingerprint() == before


def test_LOAD_2_never_more_meeples_aboard_than_vacant_colonies():
    # two vacant colonies, one meeple already aboard: one Citizen emigrates, not two
    g = sail([fleet(ships=3, cargo=["indigenous"]), {}, {}],
             colonies={SANTA_MARTA: vacant(0), "venezuela.caracas": vacant(0)}, sites={ZENU: 2})
    enter(g)
    assert g.state.cargo[0] == ["indigenous", "citizen"]
    assert count_at(g.state, CATHEDRAL) == 1
    g.act({"seat": 0, "type": "attack", "target": ZENU})                  # 3 against 2: won
    assert not any(o["type"] == "enslave" for o in options(g.state, 0))   # no room left (LOAD-2)


def test_LOAD_1_enslaving_is_bounded_by_vacant_colonies_and_the_site():
    g = sail([fleet(zone="tierra_firme", ships=3), {}, {}],
             colonies={SANTA_MARTA: vacant(0), "venezuela.caracas": vacant(0), "venezuela.curacao": vacant(0)},
             sites={CATHEDRAL: 0, ZENU: 2})
    g.act({"seat": 0, "type": "attack", "target": ZENU})
    assert [o["count"] for o in options(g.state, 0) if o["type"] == "enslave"] == [1, 2]
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "enslave", "count": 3})
    assert e.value.code == "bad_count"
    events = g.act({"seat": 0, "type": "enslave", "count": 2})
    assert events[0]["type"] == "IndigenousEnslaved" and events[0]["rule"] == "LOAD-1"
    assert g.state.cargo[0] == ["indigenous", "indigenous"]
    assert count_at(g.state, ZENU) == 0


def test_LOAD_1_no_enslaving_without_a_won_battle():
    g = sail([fleet(zone="tierra_firme", ships=3), {}, {}], colonies={SANTA_MARTA: vacant(0)},
             sites={CATHEDRAL: 0, ZENU: 2})
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "enslave", "count": 1})
    assert (e.value.code, e.value.rule) == ("no_battle_won", "LOAD-1")
    # a won battle elsewhere does not carry over to the next land zone
    g.act({"seat": 0, "type": "attack", "target": ZENU})
    g.act({"seat": 0, "type": "move", "to": "caribe_central"})
    g.act({"seat": 0, "type": "move", "to": "venezuela"})
    assert not any(o["type"] == "enslave" for o in options(g.state, 0))


# ---- PRJ-17: emigration at a voyage's start and after unloading -----------------------------

def test_PRJ_17_citizens_emigrate_when_a_voyage_begins_in_a_land_zone():
    g = sail([fleet(zone="tierra_firme"), {}, {}], colonies={SANTA_MARTA: vacant(0)})
    em = [e for e in g.events if e["type"] == "CitizensEmigrated"]
    assert em and em[0]["seat"] == 0
    assert g.state.cargo[0] == ["citizen"]


def test_PRJ_17_citizens_emigrate_when_a_voyage_starts_at_a_Haven():
    g = sail([{"havens": ["tierra_firme"]}, {}, {}], colonies={SANTA_MARTA: vacant(0)})
    events = g.act({"seat": 0, "type": "start_at_haven", "zone": "tierra_firme"})
    assert any(e["type"] == "CitizensEmigrated" for e in events)
    assert g.state.cargo[0] == ["citizen"]


def test_PRJ_17_citizens_emigrate_again_when_unloading_frees_room():
    # full hold (chest + Indigenous); two vacant colonies; unloading the Indigenous here frees a place
    g = sail([fleet(cargo=["chest", "indigenous"]), {}, {}],
             colonies={SANTA_MARTA: vacant(0), "venezuela.caracas": vacant(0)})
    enter(g)
    assert g.state.cargo[0] == ["chest", "indigenous"]                    # no room
    events = g.act({"seat": 0, "type": "unload", "colony": SANTA_MARTA})
    assert [e["type"] for e in events] == ["LabourUnloaded", "CitizensEmigrated"]
    assert g.state.cargo[0] == ["chest", "citizen"]


# ---- LOAD-4: unloading as labour ----------------------------------------------------------

def test_LOAD_4_an_unloaded_Citizen_stays_a_Citizen_an_Indigenous_becomes_a_Slave():
    g = sail([fleet(zone="venezuela", ships=2, cargo=["citizen", "chest", "indigenous"]), {}, {}],
             colonies={"venezuela.caracas": vacant(0), "venezuela.curacao": vacant(0)},
             sites={"venezuela.caracas_cathedral": 0})
    st = g.state
    offered = sorted((o["colony"], o["meeple"]) for o in options(st, 0) if o["type"] == "unload")
    assert offered == [("venezuela.caracas", "citizen"), ("venezuela.caracas", "indigenous"),
                       ("venezuela.curacao", "citizen"), ("venezuela.curacao", "indigenous")]
    ev = g.act({"seat": 0, "type": "unload", "colony": "venezuela.curacao", "meeple": "indigenous"})
    assert ev[0]["type"] == "LabourUnloaded" and ev[0]["rule"] == "LOAD-4"
    assert g.state.col_labour[st.rs.col_index["venezuela.curacao"]] == "slave"
    assert g.state.cargo[0] == ["citizen", "chest"]
    g.act({"seat": 0, "type": "unload", "colony": "venezuela.caracas"})   # default: the first carried
    assert g.state.col_labour[st.rs.col_index["venezuela.caracas"]] == "citizen"
    assert g.state.cargo[0] == ["chest"]
    assert not any(o["type"] == "unload" for o in options(g.state, 0))


def test_LOAD_4_only_onto_ones_own_vacant_colony_in_the_fleets_land_zone():
    g = sail([fleet(zone="venezuela", cargo=["citizen"]), {}, {}],
             colonies={"venezuela.caracas": {"owner": 0, "labour": "slave"}, "venezuela.curacao": vacant(1),
                       "venezuela.margarita": vacant("crown"), SANTA_MARTA: vacant(0)},
             sites={"venezuela.caracas_cathedral": 0})
    st = g.state
    assert not any(o["type"] == "unload" for o in options(st, 0))
    before = st.fingerprint()
    for colony in ("venezuela.caracas", "venezuela.curacao", "venezuela.margarita", SANTA_MARTA, "nowhere"):
        with pytest.raises(api.IllegalAction) as e:
            api.apply(st, {"seat": 0, "type": "unload", "colony": colony})
        assert (e.value.code, e.value.rule) == ("not_own_vacant_colony", "LOAD-4")
    with pytest.raises(api.IllegalAction) as e:
        api.apply(st, {"seat": 0, "type": "unload", "colony": SANTA_MARTA, "meeple": "indigenous"})
    assert e.value.code == "no_such_meeple"
    assert st.fingerprint() == before


def test_LOAD_4_nothing_to_unload():
    g = sail([fleet(zone="venezuela", cargo=["chest"]), {}, {}], colonies={"venezuela.caracas": vacant(0)},
             sites={"venezuela.caracas_cathedral": 0})
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "unload", "colony": "venezuela.caracas"})
    assert (e.value.code, e.value.rule, e.value.message) == ("no_meeple_aboard", "LOAD-4", "No meeple aboard to unload.")


# ---- LOAD-2 over random games ---------------------------------------------------------------

@settings(max_examples=15, deadline=None)
@given(players=st_.integers(2, 5), seed=st_.integers(0, 2**32))
def test_LOAD_2_no_meeple_is_ever_loaded_without_a_vacant_colony_in_random_games(players, seed):
    loads = []

    def check(before, action, after, events):
        for e in events:
            if e["type"] in ("CitizensEmigrated", "IndigenousEnslaved"):
                s = e["seat"]
                loads.append(e["type"])
                assert before.vacant_colonies(s) or after.vacant_colonies(s)
                assert loading.meeples_aboard(after, s) <= len(after.vacant_colonies(s))
        for s in range(after.n):                         # nothing boards but through those events
            grew = loading.meeples_aboard(after, s) > loading.meeples_aboard(before, s)
            assert not grew or any(e["type"] in ("CitizensEmigrated", "IndigenousEnslaved")
                                   and e["seat"] == s for e in events)

    treasure_seeking_game(players, seed, check)


def test_LOAD_1_LOAD_2_the_enslave_refusals_word_for_word():
    """Without a won battle, and for a count past the vacant colonies or the site's Indigenous:
    each refusal's code, rule and words (the count's bound is min(room, Indigenous at the site))."""
    g = sail([fleet(zone="tierra_firme", ships=3), {}, {}],
             colonies={SANTA_MARTA: vacant(0), "venezuela.caracas": vacant(0), "venezuela.curacao": vacant(0)},
             sites={CATHEDRAL: 0, ZENU: 2})
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "enslave", "count": 1})
    assert (e.value.code, e.value.rule, e.value.message) == (
        "no_battle_won", "LOAD-1", "Indigenous are enslaved only after winning a land battle against their site.")
    g.act({"seat": 0, "type": "attack", "target": ZENU})
    for count in (0, 3, -1):
        with pytest.raises(api.IllegalAction) as e:
            api.apply(g.state, {"seat": 0, "type": "enslave", "count": count})
        assert (e.value.code, e.value.rule, e.value.message) == (
            "bad_count", "LOAD-2", "You can carry off 1 to 2 Indigenous.")
