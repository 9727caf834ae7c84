"""Labour in the Goods Year (LAB-1..LAB-6, seed pages 6 and 11-12; PRJ-12, PRJ-14).

Positions are hand-written scenarios that start at the labour step of the Goods
Year. The reference map, in the parts these tests use:

- nueva_espana: Cathedral veracruz (capacity 2), Tribal Site mexica (3),
  colony spaces zacatecas (Crown, silver) and orizaba (sugar);
- yucatan: wilderness Tribal Site lacandon, Visita mani (1), campeche (Crown), merida;
- florida: Tribal Site timucua, wilderness calusa, san_agustin;
- cuba: Cathedral habana_cathedral (2), habana (Crown), trinidad_cuba;
- jamaica: no sites but the colony spaces port_royal (English home) and st_jago;
- tierra_firme: Cathedral cartagena_cathedral, Tribal Site zenu, Visita tolu, santa_marta.
"""

from __future__ import annotations


import pytest
from hypothesis import HealthCheck, given, settings, strategies as st_

from pax_hispanica import api
from pax_hispanica.engine import audit, labour
from pax_hispanica.engine.flow import YEARS, Out
from support import NO_SPAIN, WITH_SPAIN, modified_ruleset



@pytest.fixture(scope="module")
def anywhere(tmp_path_factory) -> str:
    return modified_ruleset(tmp_path_factory.mktemp("rs") / "anywhere", employ_range="anywhere")


def at_labour(colonies: dict, sites=None, rebels=None, money=None, order=(0, 1, 2), nations=NO_SPAIN,
              ruleset=None, seed=1) -> api.Game:
    """A game at the labour step of a Goods Year, from a hand-written position."""
    position = {"year": "goods", "step": "labour_acquisition", "order": list(order), "colonies": colonies,
                "sites": sites or {}, "rebels": rebels or {}}
    if money is not None:
        position["players"] = [{"money": m} for m in money]
    config = {"players": len(nations), "nations": list(nations)}
    if ruleset:
        config["ruleset"] = ruleset
    return api.Game.from_scenario({"config": config, "seed": seed, "position": position})


def vacant(owner) -> dict:
    return {"owner": owner, "labour": None}


def employ(seat, colony, site) -> dict:
    return {"seat": seat, "type": "labour", "colony": colony, "source": "employ", "site": site}


def kidnap(seat, colony, site) -> dict:
    return {"seat": seat, "type": "labour", "colony": colony, "source": "kidnap", "site": site}


def options(state, seat) -> list[dict]:
    return api.expand(api.legal_actions(state, seat))


def keyset(actions) -> set:
    return {(a["colony"], a["source"], a["site"]) for a in actions}


def refused(state, action, code, rule):
    """The action is refused with this code and rule, and the state is unchanged."""
    before = state.to_dict()
    with pytest.raises(api.IllegalAction) as err:
        api.apply(state, action)
    assert (err.value.code, err.value.rule) == (code, rule), err.value
    assert state.to_dict() == before
    return err.value


def site_count(state, site) -> int:
    return state.site_count[state.site_ids.index(site)]


def colony(state, cid) -> dict:
    c = state.rs.col_index[cid]
    return {"owner": state.col_owner[c], "labour": state.col_labour[c], "chests": state.col_chests[c]}


def of_type(events, *types) -> list[dict]:
    return [e for e in events if e["type"] in types]


ORIZABA = "nueva_espana.orizaba"
VERACRUZ = "nueva_espana.veracruz"
MEXICA = "nueva_espana.mexica"


# ---- LAB-1: kidnapping or employment -------------------------------------------------------------

def test_LAB_1_employ_moves_a_citizen_for_one_dollar_paid_to_the_pool():
    g = at_labour({ORIZABA: vacant(0)}, sites={MEXICA: 0}, money=[3, 5, 5])
    s0 = g.state
    assert api.acting(s0) == (0,)
    assert options(s0, 0) == [employ(0, ORIZABA, VERACRUZ)]
    events = g.act(employ(0, ORIZABA, VERACRUZ))
    s1 = g.state
    assert colony(s1, ORIZABA)["labour"] == "citizen"
    assert site_count(s1, VERACRUZ) == site_count(s0, VERACRUZ) - 1
    ev = of_type(events, "CitizenEmployed")
    assert ev == [{**ev[0], "colony": ORIZABA, "owner": 0, "site": VERACRUZ, "paid": 1, "rule": "LAB-1"}]
    assert s1.burned == s0.burned + 1                       # to the Pool, not to a player
    earned = sum(e["amount"] for e in of_type(events, "EarningsPaid") if e["seat"] == 0)
    assert s1.money[0] == 3 - 1 + earned
    assert audit.money_balance(s1) == audit.money_balance(s0)
    assert audit.meeple_total(s1) == audit.meeple_total(s0)


def test_LAB_1_kidnap_makes_an_indigenous_of_the_zone_a_slave_on_the_colony():
    g = at_labour({ORIZABA: vacant(0)}, sites={VERACRUZ: 0}, money=[3, 5, 5])
    s0 = g.state
    assert options(s0, 0) == [kidnap(0, ORIZABA, MEXICA)]
    events = g.act(kidnap(0, ORIZABA, MEXICA))
    s1 = g.state
    assert site_count(s1, MEXICA) == site_count(s0, MEXICA) - 1
    assert of_type(events, "IndigenousKidnapped")[0]["site"] == MEXICA
    assert s1.burned == s0.burned                            # kidnapping costs nothing
    attrition = of_type(events, "SlaveAttrition")            # the new Slave already faces attrition (GDS-6)
    assert [e["colony"] for e in attrition] == [ORIZABA]
    assert colony(s1, ORIZABA) == {"owner": 0, "labour": "slave" if attrition[0]["outcome"] == "works" else None,
                                   "chests": colony(s1, ORIZABA)["chests"]}
    assert audit.meeple_total(s1) == audit.meeple_total(s0)


def test_LAB_1_kidnap_from_a_visita():
    g = at_labour({"yucatan.merida": vacant(0)})
    assert options(g.state, 0) == [kidnap(0, "yucatan.merida", "yucatan.mani")]
    g.act(kidnap(0, "yucatan.merida", "yucatan.mani"))
    assert site_count(g.state, "yucatan.mani") == 0


def test_LAB_1_no_kidnap_from_another_land_zone():
    g = at_labour({ORIZABA: vacant(0)}, sites={VERACRUZ: 0})
    assert "florida.timucua" not in {a["site"] for a in options(g.state, 0)}
    refused(g.state, kidnap(0, ORIZABA, "florida.timucua"), "other_zone", "LAB-1")


def test_LAB_1_each_source_from_the_right_kind_of_site():
    tf = "tierra_firme.santa_marta"
    g = at_labour({tf: vacant(0)}, sites={"tierra_firme.zenu": 0, "tierra_firme.cartagena_cathedral": 0})
    assert keyset(options(g.state, 0)) == {(tf, "kidnap", "tierra_firme.tolu")}
    s = g.state
    refused(s, employ(0, tf, "tierra_firme.tolu"), "not_a_cathedral", "LAB-1")
    refused(s, kidnap(0, tf, "tierra_firme.cartagena_cathedral"), "not_a_tribal_site", "LAB-1")
    refused(s, employ(0, tf, "tierra_firme.cartagena_cathedral"), "no_citizen", "LAB-1")
    refused(s, kidnap(0, tf, "tierra_firme.zenu"), "no_indigenous", "LAB-1")
    refused(s, {**kidnap(0, tf, "tierra_firme.tolu"), "source": "buy"}, "bad_source", "LAB-1")
    refused(s, kidnap(0, tf, "tierra_firme.nowhere"), "unknown_site", "LAB-1")
    refused(s, {"seat": 0, "type": "labour", "colony": tf, "source": "kidnap"}, "unknown_site", "LAB-1")
    refused(s, {"seat": 0, "type": "end_turn"}, "wrong_action", "LAB-1")
    refused(s, kidnap(1, tf, "tierra_firme.tolu"), "not_your_turn", "PRJ-7")


def test_LAB_1_employing_with_less_than_one_dollar_is_refused():
    g = at_labour({ORIZABA: vacant(0)}, money=[0, 5, 5])
    assert options(g.state, 0) == [kidnap(0, ORIZABA, MEXICA)]
    err = refused(g.state, employ(0, ORIZABA, VERACRUZ), "cannot_pay", "LAB-1")
    assert "$1" in err.message


# ---- LAB-2: employment range -------------------------------------------------------------------------

def test_LAB_2_employ_only_from_a_cathedral_of_the_colonys_zone():
    g = at_labour({ORIZABA: vacant(0)}, sites={VERACRUZ: 0, MEXICA: 1})
    assert options(g.state, 0) == [kidnap(0, ORIZABA, MEXICA)]
    assert site_count(g.state, "cuba.habana_cathedral") == 2
    refused(g.state, employ(0, ORIZABA, "cuba.habana_cathedral"), "out_of_range", "LAB-2")


def test_LAB_2_employ_range_anywhere_offers_every_cathedral_with_a_citizen(anywhere):
    st_jago = "jamaica.st_jago"                  # Jamaica has no Cathedral and no Indigenous
    g = at_labour({st_jago: vacant(0)}, sites={"panama.panama_cathedral": 0}, ruleset=anywhere)
    s = g.state
    assert s.rs.employ_range == "anywhere"
    cathedrals = [sid for i, sid in enumerate(s.site_ids) if s.site_kind[i] == "cathedral" and s.site_count[i] > 0]
    assert len(cathedrals) >= 5 and "panama.panama_cathedral" not in cathedrals
    assert options(s, 0) == [employ(0, st_jago, sid) for sid in cathedrals]
    refused(s, employ(0, st_jago, "panama.panama_cathedral"), "no_citizen", "LAB-1")
    events = g.act(employ(0, st_jago, "cuba.habana_cathedral"))
    assert colony(g.state, st_jago)["labour"] == "citizen"
    assert site_count(g.state, "cuba.habana_cathedral") == 1
    assert of_type(events, "CitizenEmployed")[0]["paid"] == 1


def test_LAB_2_employ_range_anywhere_leaves_kidnapping_in_the_same_zone(anywhere):
    g = at_labour({ORIZABA: vacant(0)}, ruleset=anywhere)
    opts = options(g.state, 0)
    assert {a["site"] for a in opts if a["source"] == "kidnap"} == {MEXICA}
    refused(g.state, kidnap(0, ORIZABA, "florida.timucua"), "other_zone", "LAB-1")


def test_LAB_2_the_ruleset_rejects_an_unknown_range(tmp_path):
    folder = modified_ruleset(tmp_path / "bad", employ_range="next_door")
    with pytest.raises(api.RulesetError, match="employ_range"):
        api.load_ruleset(folder)


# ---- LAB-3: kidnapping only when no other source -----------------------------------------------------

def test_LAB_3_the_owner_chooses_when_employing_and_kidnapping_are_both_possible():
    g = at_labour({ORIZABA: vacant(0)}, money=[5, 5, 5])
    s = g.state
    assert keyset(options(s, 0)) == {(ORIZABA, "employ", VERACRUZ), (ORIZABA, "kidnap", MEXICA)}
    employed, _ = api.apply(s, employ(0, ORIZABA, VERACRUZ))
    kidnapped, _ = api.apply(s, kidnap(0, ORIZABA, MEXICA))
    assert site_count(employed, VERACRUZ) == 1 and site_count(employed, MEXICA) == 3
    assert site_count(kidnapped, VERACRUZ) == 2 and site_count(kidnapped, MEXICA) == 2


def test_LAB_3_kidnapping_is_forced_when_no_citizen_is_in_range():
    g = at_labour({ORIZABA: vacant(0)}, sites={VERACRUZ: 0}, money=[5, 5, 5])
    assert options(g.state, 0) == [kidnap(0, ORIZABA, MEXICA)]
    refused(g.state, employ(0, ORIZABA, VERACRUZ), "no_citizen", "LAB-1")
    refused(g.state, {"seat": 0, "type": "leave_vacant", "colony": ORIZABA}, "source_exists", "LAB-3")


def test_LAB_3_kidnapping_is_forced_with_less_than_one_dollar():
    g = at_labour({ORIZABA: vacant(0)}, money=[0, 5, 5])
    assert options(g.state, 0) == [kidnap(0, ORIZABA, MEXICA)]
    refused(g.state, {"seat": 0, "type": "leave_vacant", "colony": ORIZABA}, "source_exists", "LAB-3")


def test_LAB_3_leaving_a_colony_vacant_is_refused_while_a_source_exists():
    g = at_labour({ORIZABA: vacant(0)}, sites={MEXICA: 0})
    assert all(a["type"] == "labour" for a in options(g.state, 0))      # never offered
    err = refused(g.state, {"seat": 0, "type": "leave_vacant", "colony": ORIZABA}, "source_exists", "LAB-3")
    assert VERACRUZ in err.message


def test_LAB_3_a_colony_with_no_source_stays_vacant_without_a_question_and_dies_off():
    st_jago = "jamaica.st_jago"
    g = at_labour({st_jago: vacant(0)}, money=[5, 5, 5])
    assert YEARS[g.state.year] == "auction"                       # nothing was asked in the Goods Year
    stays = of_type(g.events, "ColonyStaysVacant")
    assert [(e["colony"], e["owner"], e["rule"]) for e in stays] == [(st_jago, 0, "LAB-3")]
    died = of_type(g.events, "ColonyDiedOff")
    assert [e["colony"] for e in died] == [st_jago]
    assert colony(g.state, st_jago)["owner"] is None
    assert g.state.burned == 0


def test_LAB_3_with_less_than_one_dollar_and_no_indigenous_the_colony_stays_vacant():
    g = at_labour({ORIZABA: vacant(0)}, sites={MEXICA: 0}, money=[0, 5, 5])
    assert YEARS[g.state.year] == "auction"
    assert [e["colony"] for e in of_type(g.events, "ColonyStaysVacant")] == [ORIZABA]
    assert site_count(g.state, VERACRUZ) == 2


# ---- LAB-4: no kidnapping in a rebellious zone -----------------------------------------------------------

def test_LAB_4_no_kidnap_in_rebellious_zone():
    g = at_labour({ORIZABA: vacant(0)}, rebels={"nueva_espana": 1}, money=[5, 5, 5])
    assert options(g.state, 0) == [employ(0, ORIZABA, VERACRUZ)]
    err = refused(g.state, kidnap(0, ORIZABA, MEXICA), "rebellious_zone", "LAB-4")
    assert "nueva_espana" in err.message


def test_LAB_4_a_rebellious_zone_without_citizens_leaves_the_colony_vacant():
    g = at_labour({ORIZABA: vacant(0)}, sites={VERACRUZ: 0}, rebels={"nueva_espana": 2})
    assert YEARS[g.state.year] == "auction"
    assert [e["colony"] for e in of_type(g.events, "ColonyStaysVacant")] == [ORIZABA]
    assert site_count(g.state, MEXICA) == 3


def test_LAB_4_rebels_elsewhere_do_not_matter():
    g = at_labour({ORIZABA: vacant(0)}, sites={VERACRUZ: 0}, rebels={"florida": 1})
    assert options(g.state, 0) == [kidnap(0, ORIZABA, MEXICA)]


# ---- LAB-5: no kidnapping from a wilderness Tribal Site -----------------------------------------------------

def test_LAB_5_no_kidnap_from_a_wilderness_tribal_site():
    g = at_labour({"yucatan.merida": vacant(0)})
    assert g.state.site_wild[g.state.site_ids.index("yucatan.lacandon")]
    assert options(g.state, 0) == [kidnap(0, "yucatan.merida", "yucatan.mani")]
    refused(g.state, kidnap(0, "yucatan.merida", "yucatan.lacandon"), "wilderness", "LAB-5")


def test_LAB_5_only_wilderness_sites_left_means_the_colony_stays_vacant():
    g = at_labour({"yucatan.merida": vacant(0)}, sites={"yucatan.mani": 0})
    assert YEARS[g.state.year] == "auction"
    assert [e["colony"] for e in of_type(g.events, "ColonyStaysVacant")] == ["yucatan.merida"]
    assert site_count(g.state, "yucatan.lacandon") == 2


# ---- LAB-6: Player Order, one colony at a time, Crown last ---------------------------------------------------

def test_LAB_6_players_resolve_their_colonies_in_player_order():
    g = at_labour({ORIZABA: vacant(0), "yucatan.merida": vacant(2), "florida.san_agustin": vacant(1)},
                  order=(2, 0, 1), money=[5, 5, 5])
    assert api.acting(g.state) == (2,)
    assert {a["colony"] for a in options(g.state, 2)} == {"yucatan.merida"}
    g.act(kidnap(2, "yucatan.merida", "yucatan.mani"))
    assert api.acting(g.state) == (0,)
    g.act(employ(0, ORIZABA, VERACRUZ))
    assert api.acting(g.state) == (1,)
    g.act(kidnap(1, "florida.san_agustin", "florida.timucua"))
    assert YEARS[g.state.year] == "auction"
    got = [(e["owner"], e["colony"]) for e in of_type(g.events, "CitizenEmployed", "IndigenousKidnapped")]
    assert got == [(2, "yucatan.merida"), (0, ORIZABA), (1, "florida.san_agustin")]


def test_LAB_6_one_colony_at_a_time_and_the_owner_picks_which_PRJ_12():
    # seat 0 owns two vacant colonies in Nueva España; one Citizen and no Indigenous: only one can be staffed
    zac = "nueva_espana.zacatecas"
    g = at_labour({ORIZABA: vacant(0), zac: vacant(0)}, sites={VERACRUZ: 1, MEXICA: 0}, money=[5, 5, 5])
    dec = api.decision(g.state, 0)
    assert dec["decision"] == "labour" and set(dec["colonies"]) == {ORIZABA, zac}
    assert keyset(options(g.state, 0)) == {(ORIZABA, "employ", VERACRUZ), (zac, "employ", VERACRUZ)}
    # a colony not among them is refused with the ones it may be (PRJ-12: the owner picks)
    err = refused(g.state, employ(0, ORIZABA, VERACRUZ) | {"colony": "yucatan.merida"}, "wrong_colony", "LAB-6")
    assert err.message == f"The colonies to staff now are {', '.join(dec['colonies'])}."
    g.act(employ(0, ORIZABA, VERACRUZ) | {"colony": zac})
    assert colony(g.state, zac)["labour"] == "citizen"
    assert [e["colony"] for e in of_type(g.events, "ColonyStaysVacant")] == [ORIZABA]
    assert [e["colony"] for e in of_type(g.events, "ColonyDiedOff")] == [ORIZABA]


def test_LAB_6_the_same_seat_answers_again_for_its_next_colony():
    g = at_labour({ORIZABA: vacant(0), "yucatan.merida": vacant(0)}, money=[5, 5, 5])
    g.act(kidnap(0, "yucatan.merida", "yucatan.mani"))
    assert api.acting(g.state) == (0,)
    assert list(api.decision(g.state, 0)["colonies"]) == [ORIZABA]
    assert api.can_undo(g.state, 0)                      # nothing random or secret happened (PRJ-2)


def test_LAB_6_a_wrong_colony_is_refused():
    g = at_labour({ORIZABA: vacant(0), "jamaica.st_jago": vacant(0), "yucatan.merida": vacant(1)})
    s = g.state
    assert list(api.decision(s, 0)["colonies"]) == [ORIZABA]
    refused(s, kidnap(0, "yucatan.merida", "yucatan.mani"), "wrong_colony", "LAB-6")          # another's
    refused(s, kidnap(0, "jamaica.port_royal", MEXICA), "wrong_colony", "LAB-6")              # worked
    refused(s, kidnap(0, "jamaica.st_jago", MEXICA), "wrong_colony", "LAB-6")                 # no source
    refused(s, kidnap(0, "nowhere.atall", MEXICA), "wrong_colony", "LAB-6")
    refused(s, {**kidnap(0, ORIZABA, MEXICA), "colony": 3}, "malformed", "PRJ-7")            # not an id
    refused(s, {"seat": 0, "type": "leave_vacant", "colony": "yucatan.merida"}, "wrong_colony", "LAB-6")


def test_LAB_6_crown_colonies_resolve_last_automatically_and_never_pay():
    zac = "nueva_espana.zacatecas"
    g = at_labour({ORIZABA: vacant(0), zac: vacant("crown")}, sites={VERACRUZ: 1, MEXICA: 1}, money=[5, 5, 5])
    assert api.acting(g.state) == (0,)                    # the player first, although zacatecas comes first on the map
    events = g.act(employ(0, ORIZABA, VERACRUZ))
    labour = [(e["type"], e["owner"], e["colony"]) for e in of_type(events, "CitizenEmployed", "IndigenousKidnapped")]
    assert labour == [("CitizenEmployed", 0, ORIZABA), ("IndigenousKidnapped", -1, zac)]
    assert g.state.burned == 1                            # the player's $1 only


def test_LAB_6_the_crown_employs_when_it_can_without_paying():
    zac = "nueva_espana.zacatecas"
    g = at_labour({zac: vacant("crown")}, money=[5, 5, 5])
    assert YEARS[g.state.year] == "auction"               # no decision
    ev = of_type(g.events, "CitizenEmployed", "IndigenousKidnapped")
    assert [(e["type"], e["site"], e.get("paid")) for e in ev] == [("CitizenEmployed", VERACRUZ, 0)]
    assert g.state.burned == 0
    earned = {e["seat"]: e["amount"] for e in of_type(g.events, "EarningsPaid")}
    assert g.state.money == [5 + earned[s] for s in range(3)]


def test_LAB_6_the_crown_kidnaps_when_it_cannot_employ():
    zac = "nueva_espana.zacatecas"
    g = at_labour({zac: vacant("crown")}, sites={VERACRUZ: 0})
    ev = of_type(g.events, "CitizenEmployed", "IndigenousKidnapped")
    assert [(e["type"], e["site"]) for e in ev] == [("IndigenousKidnapped", MEXICA)]


def test_LAB_6_the_crown_obeys_LAB_4_and_LAB_5():
    g = at_labour({"nueva_espana.zacatecas": vacant("crown"), "yucatan.campeche": vacant("crown")},
                  sites={VERACRUZ: 0, "yucatan.mani": 0}, rebels={"nueva_espana": 1})
    assert of_type(g.events, "CitizenEmployed", "IndigenousKidnapped") == []
    stays = [(e["colony"], e["owner"]) for e in of_type(g.events, "ColonyStaysVacant")]
    assert stays == [("nueva_espana.zacatecas", -1), ("yucatan.campeche", -1)]


def test_LAB_6_the_crown_prefers_a_cathedral_of_its_own_zone_PRJ_14(anywhere):
    g = at_labour({"yucatan.campeche": vacant("crown"), "cuba.habana": vacant("crown")},
                  sites={"yucatan.mani": 0}, ruleset=anywhere)
    ev = [(e["colony"], e["site"]) for e in of_type(g.events, "CitizenEmployed")]
    assert ev == [("yucatan.campeche", VERACRUZ),              # no Cathedral in Yucatán: the first on the map
                  ("cuba.habana", "cuba.habana_cathedral")]     # its own zone's, though Veracruz comes first


def test_CYC_4_the_spanish_player_decides_and_pays_for_the_crown_colonies():
    zac = "nueva_espana.zacatecas"
    g = at_labour({zac: vacant(0)}, nations=WITH_SPAIN, money=[5, 5, 5])
    assert g.state.spanish_seat() == 0
    assert api.acting(g.state) == (0,)
    assert keyset(options(g.state, 0)) == {(zac, "employ", VERACRUZ), (zac, "kidnap", MEXICA)}
    events = g.act(employ(0, zac, VERACRUZ))
    assert of_type(events, "CitizenEmployed")[0]["paid"] == 1
    assert g.state.burned == 1


# ---- the descriptors offer exactly the legal sources ------------------------------------------------------------

def expected_sources(view: dict, colonies: list[str], money: int, employ_range: str) -> set:
    """An independent reading of LAB-1..LAB-5 over the public view."""
    zone = {c["id"]: c["zone"] for c in view["colonies"]}
    out = set()
    for cid in colonies:
        for s in view["sites"]:
            if s["count"] <= 0:
                continue
            if s["kind"] == "cathedral" and money >= 1 and (employ_range == "anywhere" or s["zone"] == zone[cid]):
                out.add((cid, "employ", s["id"]))
            if (s["kind"] in ("tribal", "visita") and s["zone"] == zone[cid] and not s["wilderness"]
                    and not view["rebels"].get(zone[cid])):
                out.add((cid, "kidnap", s["id"]))
    return out


LAND = ["nueva_espana", "yucatan", "florida", "cuba", "espanola", "tierra_firme"]
SPACES = ["nueva_espana.orizaba", "yucatan.merida", "florida.san_agustin", "cuba.trinidad_cuba",
          "espanola.tortuga", "tierra_firme.santa_marta", "jamaica.st_jago"]
SITES = ["nueva_espana.veracruz", "nueva_espana.mexica", "yucatan.lacandon", "yucatan.mani", "florida.timucua",
         "florida.calusa", "cuba.habana_cathedral", "espanola.santo_domingo_cathedral", "espanola.bayaguana",
         "tierra_firme.cartagena_cathedral", "tierra_firme.zenu", "tierra_firme.tolu"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(vac=st_.lists(st_.sampled_from(SPACES), min_size=1, max_size=4, unique=True),
       counts=st_.lists(st_.integers(0, 2), min_size=len(SITES), max_size=len(SITES)),
       rebels=st_.sets(st_.sampled_from(LAND), max_size=3),
       money=st_.integers(0, 2), anywhere_range=st_.booleans())
def test_LAB_1_descriptors_offer_exactly_the_legal_sources(anywhere, vac, counts, rebels, money, anywhere_range):
    colonies = {cid: vacant(1) for cid in vac}          # seat 1 (the French) owns them all
    g = at_labour(colonies, sites=dict(zip(SITES, counts)), rebels={z: 1 for z in rebels}, money=[5, money, 5],
                  ruleset=anywhere if anywhere_range else None)
    s = g.state
    view = api.view(s, None, include_state=True)
    asked = api.decision(s, 1)["colonies"] if api.acting(s) == (1,) else []
    expect = expected_sources(view, vac, money, "anywhere" if anywhere_range else "same_zone")
    assert {c for c, _, _ in expect} == set(asked)
    if not asked:
        assert expect == set() and YEARS[s.year] == "auction"
        return
    assert keyset(options(s, 1)) == expect
    before = s.to_dict()
    for cid in vac + ["jamaica.port_royal"]:
        for source in ("employ", "kidnap"):
            for site in SITES:
                action = {"seat": 1, "type": "labour", "colony": cid, "source": source, "site": site}
                if (cid, source, site) in expect:
                    _, events = api.apply(s, action)
                    done = of_type(events, "CitizenEmployed", "IndigenousKidnapped")[0]
                    assert (done["colony"], done["site"], done["owner"]) == (cid, site, 1)
                else:
                    with pytest.raises(api.IllegalAction) as err:
                        api.apply(s, action)
                    assert err.value.rule in ("LAB-1", "LAB-2", "LAB-4", "LAB-5", "LAB-6")
    assert s.to_dict() == before


def test_LAB_1_labour_for_a_colony_that_is_not_ones_vacant_one_is_refused_with_its_code():
    st = api.new_game(api.Config(players=3), 1).copy()
    col = next(c for c, o in enumerate(st.col_owner) if o is not None and st.col_labour[c] is not None)
    with pytest.raises(api.IllegalAction) as e:
        labour.acquire(st, col, st.col_owner[col], "employ", st.site_ids[0], Out(st))
    assert (e.value.code, e.value.rule) == ("not_vacant", "LAB-1")
    assert e.value.message == f"{st.rs.col_ids[col]} is not a vacant colony of this owner."
