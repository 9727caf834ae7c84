"""Treasure by the Flagship's legality (TRS-1..TRS-6, PRJ-18), Haven unloading (CARD-2, PRJ-9),
and, over random games, conservation of Chests and meeples and Prestige only from logged scoring.

For each legality: what it may load, from whom, at what price, and what each Chest scores."""

from __future__ import annotations


import pytest
from hypothesis import given, settings, strategies as st_

from pax_hispanica import api
from pax_hispanica.engine import audit
from support import options, scenario, treasure_seeking_game

NO_SPAIN = ["english", "french", "courland"]          # the Crown owns its colonies
WITH_SPAIN = ["english", "french", "spanish"]         # seat 2 owns the Crown colonies
OWN, OTHER, CROWN_COL = "venezuela.caracas", "venezuela.curacao", "venezuela.margarita"


def treasure_game(legality, nations=NO_SPAIN, money=10, ships=3, cargo=(), chests=2, zone="venezuela",
                  params=None):
    """Seat 0's voyage begins in Venezuela. Caracas is seat 0's, Curaçao seat 1's, Margarita the
    Crown's (or the Spanish seat's); each worked by a Citizen and holding `chests` Chests."""
    crown_owner = "crown" if "spanish" not in nations else nations.index("spanish")
    pos = {"year": "sail", "step": "voyages", "order": [0, 1, 2],
           "players": [{"money": money, "fleet": {"zone": zone, "ships": ships, "legality": legality,
                                                   "cargo": list(cargo)}},
                       {"money": money}, {"money": money}],
           "colonies": {OWN: {"owner": 0, "labour": "citizen", "chests": chests},
                        OTHER: {"owner": 1, "labour": "citizen", "chests": chests},
                        CROWN_COL: {"owner": crown_owner, "labour": "citizen", "chests": chests}},
           "sites": {"venezuela.caracas_cathedral": 0}}
    return scenario(pos, players=3, nations=nations, params=params)


def loadable(st, seat=0):
    """colony -> the most Chests `seat` may load there now."""
    out = {}
    for o in options(st, seat):
        if o["type"] == "load_chests":
            out[o["colony"]] = max(out.get(o["colony"], 0), o["count"])
    return out


def load(g, colony, count, seat=0):
    return next(e for e in g.act({"seat": seat, "type": "load_chests", "colony": colony, "count": count})
                if e["type"] == "ChestsLoaded")


def refused(st, colony, count=1, seat=0):
    before = st.fingerprint()
    with pytest.raises(api.IllegalAction) as e:
        api.apply(st, {"seat": seat, "type": "load_chests", "colony": colony, "count": count})
    assert st.fingerprint() == before
    return e.value


# ---- what each legality may load, from whom (before any battle) ------------------------------

@pytest.mark.parametrize("legality,nations,expected", [
    # TRS-2 as written: PLUNDER loads only by sacking, not even its own colony's Chests
    # (the reference again since reference-8, PRJ-82; PRJ-38's own colonies free is a house rule)
    ("PLUNDER", NO_SPAIN, {}),
    ("PLUNDER_SACK_OR_OWN", NO_SPAIN, {OWN: 2}),
    # TRS-3: SMUGGLER: own free, anyone else's for a bribe
    ("SMUGGLER", NO_SPAIN, {OWN: 2, OTHER: 2, CROWN_COL: 2}),
    # TRS-4: CONQUISTADOR: own and the Crown's; never another player's colony
    ("CONQUISTADOR", NO_SPAIN, {OWN: 2, CROWN_COL: 2}),
    ("CONQUISTADOR", WITH_SPAIN, {OWN: 2, CROWN_COL: 2}),
    # TRS-4: PRIVATEER: own colonies only, until it wins a battle
    ("PRIVATEER", NO_SPAIN, {OWN: 2}),
])
def test_TRS_1_what_each_legality_may_load_before_a_battle(legality, nations, expected):
    if legality == "PLUNDER_SACK_OR_OWN":
        g = treasure_game("PLUNDER", nations, params={"plunder_loading": "sack_or_own"})
    else:
        g = treasure_game(legality, nations)
    assert loadable(g.state) == expected
    for colony in {OWN, OTHER, CROWN_COL} - set(expected):
        err = refused(g.state, colony)
        assert (err.code, err.rule) == ("legality_forbids", "TRS-1")


def test_TRS_3_SMUGGLER_bribes_the_owner_and_the_Pool_for_the_Crown():
    g = treasure_game("SMUGGLER")
    m, burned = list(g.state.money), g.state.burned
    ev = load(g, OWN, 2)
    assert (ev["paid"], ev["paid_to"], ev["rule"]) == (0, None, "TRS-3")            # own: free
    ev = load(g, OTHER, 2)
    assert (ev["paid"], ev["paid_to"]) == (2 * g.state.rs.smuggler_bribe, 1)       # $1 per Chest to the owner
    assert g.state.money[1] == m[1] + 2 and g.state.money[0] == m[0] - 2
    ev = load(g, CROWN_COL, 2)
    assert (ev["paid"], ev["paid_to"]) == (2, "pool")                              # the Crown: to the Pool
    assert g.state.money[0] == m[0] - 4 and g.state.burned == burned + 2
    assert g.state.cargo[0] == ["chest"] * 6


@pytest.mark.parametrize("legality", ["SMUGGLER", "CONQUISTADOR", "PRIVATEER", "PLUNDER"])
def test_TRS_3_TRS_4_no_legality_loads_the_Chests_of_a_colony_without_an_owner(legality):
    """TRS-3's bribe goes to an owner, TRS-4's export is the owner's: Chests left on a colony
    space nobody owns (a scenario may place them) are loaded by no one."""
    pos = {"year": "sail", "step": "voyages", "order": [0, 1, 2],
           "players": [{"money": 10, "fleet": {"zone": "venezuela", "ships": 3, "legality": legality}}, {}, {}],
           "colonies": {OTHER: {"owner": None, "labour": None, "chests": 2}}}
    g = scenario(pos, players=3, nations=NO_SPAIN)
    assert next(c for c in api.view(g.state, 0)["colonies"] if c["id"] == OTHER)["chests"] == 2
    assert OTHER not in loadable(g.state)


def test_TRS_3_SMUGGLER_bribes_the_Spanish_player_for_Crown_colonies_they_own():
    g = treasure_game("SMUGGLER", WITH_SPAIN)
    m2 = g.state.money[2]
    ev = load(g, CROWN_COL, 1)
    assert ev["paid_to"] == 2 and g.state.money[2] == m2 + 1


def test_TRS_3_SMUGGLER_cannot_load_more_than_it_can_pay():
    g = treasure_game("SMUGGLER", money=1)
    assert loadable(g.state) == {OWN: 2, OTHER: 1, CROWN_COL: 1}
    assert refused(g.state, OTHER, 2).code == "bad_count"


def test_TRS_4_CONQUISTADOR_exports_the_Crowns_Chests_free_and_pays_the_Spanish_player():
    g = treasure_game("CONQUISTADOR")
    m = g.state.money[0]
    ev = load(g, CROWN_COL, 2)
    assert (ev["paid"], ev["rule"]) == (0, "TRS-4") and g.state.money[0] == m
    g = treasure_game("CONQUISTADOR", WITH_SPAIN)
    m0, m2 = g.state.money[0], g.state.money[2]
    ev = load(g, CROWN_COL, 2)
    fee = g.state.rs.conquistador_spanish_fee
    assert (ev["paid"], ev["paid_to"]) == (2 * fee, 2)
    assert (g.state.money[0], g.state.money[2]) == (m0 - 2 * fee, m2 + 2 * fee)


def test_TRS_4_the_Spanish_CONQUISTADOR_exports_its_own_Crown_colonies_free():
    nations = ["spanish", "french", "courland"]                      # seat 0 owns the Crown colonies
    g = treasure_game("CONQUISTADOR", nations)
    assert g.state.col_owner[g.state.rs.col_index[CROWN_COL]] == 0
    ev = load(g, CROWN_COL, 2)
    assert ev["paid"] == 0


def test_TRS_4_CONQUISTADOR_never_loads_another_players_colony_even_after_winning():
    g = treasure_game("CONQUISTADOR")
    ev = g.act({"seat": 0, "type": "attack", "target": OTHER})
    assert any(e["type"] == "ColonySacked" for e in ev)
    assert OTHER not in loadable(g.state)
    assert refused(g.state, OTHER).code == "legality_forbids"


TRS_2 = {"plunder_loading": "sack"}      # TRS-2 as written (the reference is PRJ-58's sack_or_own)


def test_TRS_2_PLUNDER_must_sack_then_loads_free():
    g = treasure_game("PLUNDER", params=TRS_2)
    ev = g.act({"seat": 0, "type": "attack", "target": OTHER})      # 3 ships against colony + Citizen
    assert any(e["type"] == "ColonySacked" for e in ev)
    assert loadable(g.state) == {OTHER: 2}                           # only the sacked colony
    m = list(g.state.money)
    ev = load(g, OTHER, 2)
    assert (ev["paid"], ev["kept"], ev["crown_claim"], ev["rule"]) == (0, 2, 0, "TRS-2")
    assert g.state.money == m
    assert g.state.cargo[0] == ["chest", "chest"]
    # the right to load ends when the fleet leaves
    g.act({"seat": 0, "type": "move", "to": "caribe_central"})
    g.act({"seat": 0, "type": "move", "to": "venezuela"})
    assert loadable(g.state) == {}


def test_TRS_2_PLUNDER_sacking_the_Crown():
    g = treasure_game("PLUNDER", ships=3, chests=3, params=TRS_2)
    ev = g.act({"seat": 0, "type": "attack", "target": CROWN_COL})  # colony + Citizen = 2
    assert next(e for e in ev if e["type"] == "BattleDeclared")["supporters"] == [1]   # Curaçao's owner
    ev = g.act({"seat": 1, "type": "support", "side": "attacker"})
    assert any(e["type"] == "ColonySacked" for e in ev)
    assert loadable(g.state) == {CROWN_COL: 3}


def test_TRS_2_a_lost_battle_gives_no_Chests():
    g = treasure_game("PLUNDER", ships=2, params=TRS_2)
    g.act({"seat": 0, "type": "attack", "target": OTHER})           # 2 against 2: the target wins
    assert loadable(g.state) == {}


def test_TRS_4_PRIVATEER_after_winning_the_Crown_claims_one_Chest_of_every_two():
    g = treasure_game("PRIVATEER", chests=3)
    g.act({"seat": 0, "type": "attack", "target": OTHER})
    assert loadable(g.state) == {OWN: 3, OTHER: 3}
    supply = g.state.supply["chests"]
    ev = load(g, OTHER, 3)
    assert (ev["count"], ev["crown_claim"], ev["kept"], ev["paid"]) == (3, 1, 2, 0)
    assert g.state.cargo[0] == ["chest", "chest"]
    assert g.state.supply["chests"] == supply + 1                    # claimed Chests go back to the supply
    assert g.state.col_chests[g.state.rs.col_index[OTHER]] == 0


def test_TRS_4_PRIVATEER_crown_claims_count_over_the_whole_sack():
    # taking the Chests one at a time does not escape the claim
    g = treasure_game("PRIVATEER", chests=3)
    g.act({"seat": 0, "type": "attack", "target": OTHER})
    claims = [load(g, OTHER, 1)["crown_claim"] for _ in range(3)]
    assert claims == [0, 1, 0]
    assert g.state.cargo[0] == ["chest", "chest"]


def test_TRS_4_PRIVATEER_own_colonies_are_free_and_never_claimed():
    g = treasure_game("PRIVATEER", chests=3)
    ev = load(g, OWN, 3)
    assert (ev["paid"], ev["crown_claim"], ev["kept"]) == (0, 0, 3)


def test_PRJ_18_claimed_Chests_need_no_room_aboard():
    # three ships (6 places) holding five Citizens: one free place
    g = treasure_game("PRIVATEER", ships=3, chests=3, cargo=["citizen"] * 5)
    g.act({"seat": 0, "type": "attack", "target": OTHER})           # 3 against 2: won
    assert loadable(g.state)[OTHER] == 2                            # 2 taken, 1 claimed, 1 kept
    ev = load(g, OTHER, 2)
    assert (ev["kept"], ev["crown_claim"]) == (1, 1)
    assert len(g.state.cargo[0]) == 6
    assert refused(g.state, OTHER, 1).code == "bad_count"           # 3rd Chest: kept, and no room


@pytest.mark.parametrize("legality", ["PLUNDER", "SMUGGLER", "CONQUISTADOR", "PRIVATEER"])
def test_TRS_1_loading_is_bounded_by_cargo_space(legality):
    g = treasure_game(legality, ships=1, cargo=["citizen"], chests=3,
                      params={"plunder_loading": "sack_or_own"} if legality == "PLUNDER" else None)
    if legality == "PLUNDER":      # TRS-2 as written (the reference) loads nothing before a sack
        assert loadable(treasure_game(legality, ships=1, cargo=["citizen"], chests=3).state) == {}
    assert loadable(g.state)[OWN] == 1
    assert refused(g.state, OWN, 2).code == "bad_count"


# ---- TRS-5: scoring in Europe ------------------------------------------------------------------

# RULES.md's TRS-5 numbers; the reference ruleset differs in three (PRJ-32, PRJ-36), so the scoring
# rule is tested under RULES.md's numbers as a variant (PRJ-31), PRJ-32 and PRJ-36 under the
# reference ruleset.
TRS_5 = {"conquistador_prestige": 2, "privateer_money": 1, "plunder_money": 2}


def test_TRS_5_reference_values():
    rs = api.load_ruleset("reference", TRS_5)
    assert (rs.conquistador_prestige, rs.privateer_prestige, rs.privateer_money, rs.smuggler_money,
            rs.plunder_money, rs.plunder_chests_per_prestige) == (2, 1, 1, 3, 2, 2)


def test_PRJ_36_the_tuned_reference_numbers():
    rs = api.load_ruleset("reference")
    assert (rs.money_per_prestige, rs.start_money, rs.setup_value("start_money", 2)) == (6, 6, 6)
    # PRJ-36's Treasure numbers were the reference's until reference-7; reference-8 chose its own (PRJ-82)
    seven = api.load_ruleset("reference-7")
    assert (seven.plunder_money, seven.privateer_money) == (3, 0)
    assert (seven.privateer_prestige, seven.smuggler_money, seven.plunder_chests_per_prestige) == (1, 3, 2)


@pytest.mark.parametrize("legality,chests,prestige,money", [
    ("PRIVATEER", 3, 3, 0), ("PLUNDER", 1, 0, 3), ("PLUNDER", 3, 1, 9),
])
def test_PRJ_36_the_reference_7_privateer_and_plunder_chests(legality, chests, prestige, money):
    # reference-7's numbers, now the named set of house rules "reference-7" (PRJ-83)
    g = treasure_game(legality, ships=3, cargo=["chest"] * chests + ["citizen"], zone="atlantico",
                      params={"house_rules": "reference-7"})
    p0, m0 = g.state.prestige[0], g.state.money[0]
    events = g.act({"seat": 0, "type": "move", "to": "europe"})
    scored = next(e for e in events if e["type"] == "TreasureScored")
    assert (scored["legality"], scored["chests"], scored["prestige"], scored["money"]) == (
        legality, chests, prestige, money)
    assert (g.state.prestige[0], g.state.money[0]) == (p0 + prestige, m0 + money)


def test_PRJ_32_the_reference_conquistador_scores_one_prestige_per_chest():
    assert api.load_ruleset("reference").conquistador_prestige == 1
    g = treasure_game("CONQUISTADOR", ships=3, cargo=["chest"] * 3, zone="atlantico")
    p0 = g.state.prestige[0]
    events = g.act({"seat": 0, "type": "move", "to": "europe"})
    scored = next(e for e in events if e["type"] == "TreasureScored")
    assert (scored["prestige"], scored["money"]) == (3, 0)
    assert g.state.prestige[0] == p0 + 3


@pytest.mark.parametrize("legality,chests,prestige,money", [
    ("CONQUISTADOR", 1, 2, 0), ("CONQUISTADOR", 3, 6, 0),
    ("PRIVATEER", 1, 1, 1), ("PRIVATEER", 3, 3, 3),
    ("SMUGGLER", 1, 0, 3), ("SMUGGLER", 3, 0, 9),
    ("PLUNDER", 1, 0, 2), ("PLUNDER", 2, 1, 4), ("PLUNDER", 3, 1, 6), ("PLUNDER", 5, 2, 10),
])
def test_TRS_5_each_Chest_unloaded_in_Europe_scores_by_legality(legality, chests, prestige, money):
    g = treasure_game(legality, ships=3, cargo=["chest"] * chests + ["citizen"], zone="atlantico", params=TRS_5)
    st = g.state
    p0, m0, gone = st.prestige[0], st.money[0], st.gone["chest"]
    events = g.act({"seat": 0, "type": "move", "to": "europe"})
    scored = [e for e in events if e["type"] == "TreasureScored"]
    assert len(scored) == 1
    s = scored[0]
    assert (s["seat"], s["legality"], s["chests"], s["prestige"], s["money"], s["rule"]) == (
        0, legality, chests, prestige, money, "TRS-5")
    assert g.state.prestige[0] == p0 + prestige
    assert g.state.money[0] == m0 + money
    assert g.state.gone["chest"] == gone + chests                    # Chests leave play
    assert g.state.cargo[0] == ["citizen"]                           # PRJ-10


def test_TRS_6_legality_never_changes_on_a_voyage():
    g = treasure_game("PRIVATEER", chests=3)
    g.act({"seat": 0, "type": "attack", "target": OTHER})
    load(g, OTHER, 2)
    g.act({"seat": 0, "type": "move", "to": "caribe_central"})
    assert g.state.legality[0] == "PRIVATEER"


# ---- Havens (CARD-2, PRJ-9) ------------------------------------------------------------------

@pytest.mark.parametrize("legality", ["PLUNDER", "SMUGGLER", "CONQUISTADOR", "PRIVATEER"])
def test_CARD_2_Chests_unloaded_at_a_Haven_score_as_SMUGGLER(legality):
    pos = {"year": "sail", "step": "voyages", "order": [0, 1, 2],
           "players": [{"havens": ["jamaica"], "fleet": {"zone": "caribe_occidental", "ships": 2,
                                                        "legality": legality,
                                                        "cargo": ["chest", "indigenous", "chest"]}}, {}, {}]}
    g = scenario(pos, players=3, nations=["french", "english", "courland"])
    assert not any(o["type"] == "unload_haven" for o in options(g.state, 0))      # not at the Haven yet
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "unload_haven"})
    assert e.value.code == "not_your_haven"
    g.act({"seat": 0, "type": "move", "to": "jamaica"})
    assert {"seat": 0, "type": "unload_haven"} in options(g.state, 0)
    p0, m0 = g.state.prestige[0], g.state.money[0]
    events = g.act({"seat": 0, "type": "unload_haven"})
    s = next(e for e in events if e["type"] == "TreasureScored")
    assert (s["legality"], s["rule"], s["where"], s["chests"]) == ("SMUGGLER", "CARD-2", "jamaica", 2)
    assert g.state.money[0] == m0 + 2 * g.state.rs.smuggler_money
    assert g.state.prestige[0] == p0
    assert g.state.cargo[0] == ["indigenous"]
    assert g.state.fzone[0] == g.state.rs.zone_index["jamaica"]                   # the voyage ends there
    assert api.acting(g.state) == (1,)


def test_CARD_2_no_Haven_unloading_without_Chests():
    pos = {"year": "sail", "step": "voyages", "order": [0, 1, 2],
           "players": [{"havens": ["jamaica"], "fleet": {"zone": "jamaica", "cargo": ["citizen"]}}, {}, {}]}
    g = scenario(pos, players=3, nations=["french", "english", "courland"])
    assert not any(o["type"] == "unload_haven" for o in options(g.state, 0))
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "unload_haven"})
    assert e.value.code == "no_chests"


def test_PRJ_9_a_voyage_started_at_a_Haven_can_load_and_unload_there():
    pos = {"year": "sail", "step": "voyages", "order": [0, 1, 2],
           "players": [{"havens": ["venezuela"], "fleet": {"legality": "SMUGGLER"}}, {}, {}],
           "colonies": {OTHER: {"owner": 1, "labour": "citizen", "chests": 2}},
           "sites": {"venezuela.caracas_cathedral": 0}}
    g = scenario(pos, players=3, nations=NO_SPAIN)
    g.act({"seat": 0, "type": "start_at_haven", "zone": "venezuela"})
    load(g, OTHER, 2)
    money = g.state.money[0]
    g.act({"seat": 0, "type": "unload_haven"})
    assert g.state.money[0] == money + 2 * g.state.rs.smuggler_money


# ---- over random games: conservation, and Prestige only from logged scoring ------------------

def logged_prestige(events, n):
    got = [0] * n
    for e in events:
        if e["type"] == "TreasureScored":
            got[e["seat"]] += e["prestige"]
        elif e["type"] == "PrestigeGained":
            got[e["seat"]] += e["amount"]
        elif e["type"] == "FinalScoring":
            for b in e["breakdown"]:
                got[b["seat"]] += b["from_money"] + b["from_colonies"]
    return got


@settings(max_examples=15, deadline=None)
@given(players=st_.integers(2, 5), seed=st_.integers(0, 2**32))
def test_TRS_5_Chests_and_meeples_are_conserved_and_Prestige_rises_only_by_logged_scoring(players, seed):
    totals = {}
    seen = set()

    def check(before, action, after, events):
        n = after.n
        if not totals:
            totals.update(chests=audit.chest_total(before), meeples=audit.meeple_total(before),
                          money=audit.money_balance(before))
        assert audit.chest_total(after) == totals["chests"], (action, events)
        assert audit.meeple_total(after) == totals["meeples"], (action, events)
        assert audit.money_balance(after) == totals["money"], (action, events)
        logged = logged_prestige(events, n)
        assert all(x >= 0 for x in logged)
        assert [after.prestige[s] - before.prestige[s] for s in range(n)] == logged, (action, events)
        for s in range(n):                                  # TRS-6: legality changes only by cards
            if after.legality[s] != before.legality[s]:
                assert any(e["type"] == "LegalityChanged" and e["seat"] == s for e in events)
        seen.update(e["type"] for e in events)

    treasure_seeking_game(players, seed, check)
    assert "FinalScoring" in seen


# ---- PRJ-38: the variant plunder_loading = "sack_or_own" ------------------------------------

def test_PRJ_38_TRS_2_as_written_a_plunderer_may_not_load_its_own_colony():
    g = treasure_game("PLUNDER", params=TRS_2)
    assert loadable(g.state) == {}
    assert refused(g.state, OWN).code == "legality_forbids"


def test_PRJ_58_reference_7_let_a_plunderer_load_its_own_colony():
    assert api.load_ruleset("reference-7").plunder_loading == "sack_or_own"     # PRJ-69, PRJ-77, PRJ-79 kept it
    assert api.load_ruleset("reference").plunder_loading == "sack"             # PRJ-82: TRS-2 as written again
    g = treasure_game("PLUNDER", params={"house_rules": "reference-7"})       # PRJ-83: its named set
    assert loadable(g.state) == {OWN: 2}
    assert load(g, OWN, 2)["rule"] == "PRJ-38"
    assert api.view(g.state, 0)["ruleset_params"]["house_rules"] == "reference-7"   # a variant now, named


def test_PRJ_38_with_the_variant_a_plunderer_loads_its_own_colony_free_and_still_must_sack_others():
    g = treasure_game("PLUNDER", params={"plunder_loading": "sack_or_own"})
    assert loadable(g.state) == {OWN: 2}                             # its own colony, nobody else's
    # why not (api.unavailable): the others' colonies are forbidden by TRS-2, its own is not
    forbid = {d["params"]["colony"]: d["rule"] for d in api.unavailable(g.state, 0) if d["code"] == "legality_forbids"}
    assert forbid == {OTHER: "TRS-2", CROWN_COL: "TRS-2"}
    default = {d["params"]["colony"] for d in api.unavailable(treasure_game("PLUNDER", params=TRS_2).state, 0)
               if d["code"] == "legality_forbids"}
    assert default == {OWN, OTHER, CROWN_COL}
    assert refused(g.state, OTHER).code == "legality_forbids"
    assert refused(g.state, CROWN_COL).code == "legality_forbids"
    m = list(g.state.money)
    ev = load(g, OWN, 2)
    assert (ev["paid"], ev["kept"], ev["crown_claim"], ev["rule"]) == (0, 2, 0, "PRJ-38")
    assert g.state.money == m and g.state.cargo[0] == ["chest", "chest"]
    # a sack still loads under TRS-2, and the view's why-not says the variant's rule
    g2 = treasure_game("PLUNDER", params={"plunder_loading": "sack_or_own"}, ships=3)
    g2.act({"seat": 0, "type": "attack", "target": OTHER})
    assert loadable(g2.state) == {OWN: 2, OTHER: 2}
    assert load(g2, OTHER, 1)["rule"] == "TRS-2"
    assert api.view(g2.state, 0)["ruleset_params"] == {"plunder_loading": "sack_or_own"}   # public (PRJ-31)


def test_PRJ_38_other_legalities_and_PLUNDER_scoring_are_unchanged_by_the_variant():
    for legality in ("SMUGGLER", "CONQUISTADOR", "PRIVATEER"):
        assert loadable(treasure_game(legality, params={"plunder_loading": "sack_or_own"}).state) == \
            loadable(treasure_game(legality, params=TRS_2).state), legality


def test_PRJ_38_an_unknown_plunder_loading_is_refused_at_setup():
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=3, params={"plunder_loading": "own"}), 1)
    assert e.value.code == "bad_config" and "plunder_loading" in str(e.value) and "PRJ-38" in str(e.value)
