"""Land battles (BAT-1..BAT-5): Strength by counting tokens, secret Battle Card support
with no neutral, ties to the target, and the consequences of winning and losing.

Every position is a scenario in the Sail Year. The battlefield is Tierra Firme: the
Crown colony Cartagena (with a fort), the colony space Santa Marta, the Cathedral of
Cartagena, the Tribal Site of the Zenu and the Visita of Tolu."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings, strategies as st_

from pax_hispanica import api
from pax_hispanica.engine import battle, sealed
from pax_hispanica.engine.flow import Out
from support import options, scenario

ZONE = "tierra_firme"
CARTAGENA, SANTA_MARTA = "tierra_firme.cartagena", "tierra_firme.santa_marta"
ZENU, TOLU, CATHEDRAL = "tierra_firme.zenu", "tierra_firme.tolu", "tierra_firme.cartagena_cathedral"
NO_SPAIN = ["english", "french", "dutch"]          # the Crown colonies belong to the Crown (CYC-4)


def battle_game(fleets=None, colonies=None, sites=None, rebels=None, nations=NO_SPAIN, order=None,
                legality="PLUNDER"):
    """Seat 0's voyage begins in Tierra Firme. `fleets`: seat -> (ships, cargo) in Tierra Firme
    (seat 0 defaults to one ship); other fleets stay in Europe."""
    n = len(nations)
    fleets = {0: (1, []), **(fleets or {})}
    players = []
    for s in range(n):
        p = {"money": 5}
        if s in fleets:
            ships, cargo = fleets[s]
            p["fleet"] = {"zone": ZONE, "ships": ships, "cargo": list(cargo)}
        if s == 0:
            p.setdefault("fleet", {})["legality"] = legality
        players.append(p)
    pos = {"year": "sail", "step": "voyages", "order": order or list(range(n)), "players": players,
           "colonies": colonies or {}, "sites": {CATHEDRAL: 0, **(sites or {})}}
    if rebels:
        pos["rebels"] = {ZONE: rebels}
    return scenario(pos, players=n, nations=nations)


def resolved(events):
    return next(e for e in events if e["type"] == "BattleResolved")


def attack(g, target):
    assert api.acting(g.state) == (0,)
    return g.act({"seat": 0, "type": "attack", "target": target})


def commit_all(g, supports):
    events = []
    for s, side in supports.items():
        events += g.act({"seat": s, "type": "support", "side": side})
    return events


def col(owner, labour=None, fort=False, chests=0):
    return {"owner": owner, "labour": labour, "fort": fort, "chests": chests}


# (name, battle_game kwargs, target, supports, attacker Strength, target Strength)
STRENGTH = [
    # BAT-1: a Colony counts 1
    ("colony", dict(colonies={SANTA_MARTA: col(1)}), SANTA_MARTA, {}, 1, 1),
    # a Citizen working it counts 1 more
    ("citizen", dict(colonies={SANTA_MARTA: col(1, "citizen")}), SANTA_MARTA, {}, 1, 2),
    # a Slave counts 0 (BAT-2)
    ("slave", dict(colonies={SANTA_MARTA: col(1, "slave")}), SANTA_MARTA, {}, 1, 1),
    # the owner's other colonies in the zone count too; their fort does not
    ("other_colony", dict(colonies={SANTA_MARTA: col(1, "citizen"), CARTAGENA: col(1, "slave", fort=True)}),
     SANTA_MARTA, {}, 1, 3),
    # a fort gives +1 to the targeted colony
    ("fort", dict(colonies={CARTAGENA: col(1, None, fort=True)}), CARTAGENA, {}, 1, 2),
    ("fort_and_citizen", dict(colonies={CARTAGENA: col(1, "citizen", fort=True)}), CARTAGENA, {}, 1, 3),
    # a Crown colony: the Crown's Strength plus the fort
    ("crown_colony", dict(), CARTAGENA, {}, 1, 3),
    # Galleons count 1 each: the attacker's ...
    ("attacker_galleons", dict(fleets={0: (3, [])}, colonies={SANTA_MARTA: col(1, "citizen")}), SANTA_MARTA,
     {}, 3, 2),
    # ... and those of the target's owner when its fleet is in the zone (SAIL-2)
    ("target_galleons", dict(fleets={1: (2, [])}, colonies={SANTA_MARTA: col(1)}), SANTA_MARTA, {}, 1, 3),
    # transported Citizens have Strength 0, on either side
    ("transported_citizens", dict(fleets={0: (1, ["citizen", "citizen"]), 1: (1, ["citizen", "chest"])},
                                  colonies={SANTA_MARTA: col(1)}), SANTA_MARTA, {}, 1, 2),
    # Rebels count 1 each
    ("rebels", dict(fleets={0: (2, [])}, rebels=3), "rebels", {}, 2, 3),
    # a Tribal Site or Visita: 1 per Indigenous
    ("tribal_site", dict(fleets={0: (3, [])}, sites={ZENU: 2}), ZENU, {}, 3, 2),
    ("visita", dict(), TOLU, {}, 1, 1),
    # supports: each supporter adds its own Strength in the zone to the side it chose
    ("support_attacker", dict(fleets={2: (2, [])}, colonies={SANTA_MARTA: col(1, "citizen")}), SANTA_MARTA,
     {2: "attacker"}, 3, 2),
    ("support_target", dict(fleets={2: (2, [])}, colonies={SANTA_MARTA: col(1, "citizen")}), SANTA_MARTA,
     {2: "target"}, 1, 4),
    ("supporter_colony_and_citizen", dict(colonies={SANTA_MARTA: col(2, "citizen")}, rebels=1), "rebels",
     {2: "attacker"}, 3, 1),
    ("supports_both_sides", dict(fleets={1: (1, ["citizen"]), 2: (3, [])}, rebels=2), "rebels",
     {1: "attacker", 2: "target"}, 2, 5),
]


@pytest.mark.parametrize("name,kw,target,supports,a,t", STRENGTH, ids=[r[0] for r in STRENGTH])
def test_BAT_1_strength_by_counting_tokens(name, kw, target, supports, a, t):
    g = battle_game(**kw)
    events = attack(g, target)
    declared = next(e for e in events if e["type"] == "BattleDeclared")
    assert declared["supporters"] == sorted(supports)
    events += commit_all(g, supports)
    r = resolved(events)
    assert (r["attacker_strength"], r["target_strength"]) == (a, t)
    assert r["winner"] == ("attacker" if a > t else "target")
    assert {x["seat"]: x["side"] for x in r["support"]} == supports


def test_BAT_4_tie_favours_the_target():
    g = battle_game(fleets={0: (2, [])}, colonies={SANTA_MARTA: col(1, "citizen", chests=1)})
    r = resolved(attack(g, SANTA_MARTA))
    assert r["attacker_strength"] == r["target_strength"] == 2
    assert r["winner"] == "target"
    assert g.state.col_labour[g.state.rs.col_index[SANTA_MARTA]] == "citizen"   # not sacked


def test_BAT_4_tie_after_support_favours_the_target():
    g = battle_game(fleets={2: (1, [])}, colonies={SANTA_MARTA: col(1, "citizen")})
    attack(g, SANTA_MARTA)
    r = resolved(commit_all(g, {2: "attacker"}))
    assert (r["attacker_strength"], r["target_strength"], r["winner"]) == (2, 2, "target")


def test_BAT_4_higher_strength_wins():
    g = battle_game(fleets={0: (3, [])}, colonies={SANTA_MARTA: col(1, "citizen")})
    assert resolved(attack(g, SANTA_MARTA))["winner"] == "attacker"


def test_BAT_2_own_colonies_are_not_targets_and_only_present_tokens():
    g = battle_game(colonies={SANTA_MARTA: col(0, "citizen")}, rebels=1)
    targets = {o["target"] for o in options(g.state, 0) if o["type"] == "attack"}
    assert SANTA_MARTA not in targets
    assert {CARTAGENA, "rebels", ZENU, TOLU} <= targets
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "attack", "target": SANTA_MARTA})
    assert e.value.rule == "BAT-2"
    with pytest.raises(api.IllegalAction):            # a colony of another land zone
        api.apply(g.state, {"seat": 0, "type": "attack", "target": "jamaica.port_royal"})


def test_BAT_3_the_crown_and_the_target_owner_never_support():
    # The Crown owns Cartagena (tokens in the zone) but is no seat; seat 1 owns the target.
    g = battle_game(fleets={0: (3, []), 1: (2, [])}, colonies={SANTA_MARTA: col(1)})
    declared = next(e for e in attack(g, SANTA_MARTA) if e["type"] == "BattleDeclared")
    assert declared["supporters"] == []
    assert api.acting(g.state) == (0,)                # resolved at once, the voyage goes on


def test_BAT_3_players_without_tokens_in_the_zone_do_not_support():
    g = battle_game(fleets={2: (1, [])}, rebels=1)      # seat 1 stays in Europe
    declared = next(e for e in attack(g, "rebels") if e["type"] == "BattleDeclared")
    assert declared["supporters"] == [2]
    assert api.acting(g.state) == (2,)


# ---- BAT-3: no neutral, secret until all are revealed, any commit order -----------------------

def test_BAT_3_a_supporter_cannot_stay_neutral():
    g = battle_game(fleets={1: (1, []), 2: (1, [])}, rebels=1)
    attack(g, "rebels")
    st = g.state
    before = st.fingerprint()
    offered = options(st, 1)
    assert sorted(o["side"] for o in offered) == ["attacker", "target"]
    for bad in ({"seat": 1, "type": "support", "side": "neutral"},
                {"seat": 1, "type": "support"},
                {"seat": 1, "type": "pass"},
                {"seat": 1, "type": "end_voyage"}):
        with pytest.raises(api.IllegalAction) as e:
            api.apply(st, bad)
        assert e.value.rule == "BAT-3"
        assert st.fingerprint() == before
        assert set(api.acting(st)) == {1, 2}
    with pytest.raises(api.IllegalAction) as e:
        api.apply(st, {"seat": 1, "type": "support", "side": "neutral"})
    assert e.value.code == "no_neutral"
    with pytest.raises(api.IllegalAction) as e:          # a side of the wrong type is not an action at all
        api.apply(st, {"seat": 1, "type": "support", "side": None})
    assert (e.value.code, e.value.rule) == ("malformed", "PRJ-7") and st.fingerprint() == before


def test_BAT_3_a_sealed_card_cannot_be_changed_and_others_cannot_answer_for_it():
    g = battle_game(fleets={1: (1, []), 2: (1, [])}, rebels=1)
    attack(g, "rebels")
    g.act({"seat": 1, "type": "support", "side": "target"})
    st = g.state
    before = st.fingerprint()
    for bad in ({"seat": 1, "type": "support", "side": "attacker"},      # already sealed
                {"seat": 0, "type": "support", "side": "attacker"}):     # the attacker plays no card
        with pytest.raises(api.IllegalAction) as e:
            api.apply(st, bad)
        assert e.value.code == "not_your_turn"
        assert st.fingerprint() == before


FIVE = ["english", "french", "dutch", "courland", "spanish"]    # seat 4 owns the Crown's Cartagena


def five_player_battle():
    """Seat 0 attacks seat 1's Santa Marta; seats 2 and 3 (fleets) and 4 (Cartagena) must support."""
    return battle_game(fleets={0: (2, []), 2: (2, []), 3: (1, ["citizen"])},
                       colonies={SANTA_MARTA: col(1, "citizen", chests=2)}, nations=FIVE)


def test_BAT_3_supporters_are_every_other_player_with_tokens():
    g = five_player_battle()
    declared = next(e for e in attack(g, SANTA_MARTA) if e["type"] == "BattleDeclared")
    assert declared["supporters"] == [2, 3, 4]
    assert set(api.acting(g.state)) == {2, 3, 4}


@pytest.mark.parametrize("choices", list(itertools.product(("attacker", "target"), repeat=3)))
def test_BAT_3_result_is_the_same_for_every_commit_order(choices):
    base = five_player_battle()
    attack(base, SANTA_MARTA)
    sides = dict(zip((2, 3, 4), choices))
    finals = set()
    outcomes = set()
    for perm in itertools.permutations((2, 3, 4)):
        st = base.state
        events = []
        for s in perm:
            st, ev = api.apply(st, {"seat": s, "type": "support", "side": sides[s]})
            events += ev
        finals.add(api.snapshot(st))
        r = resolved(events)
        outcomes.add((r["attacker_strength"], r["target_strength"], r["winner"]))
        revealed = next(e for e in events if e["type"] == "ChoicesRevealed")
        assert [c["seat"] for c in revealed["choices"]] == [2, 3, 4]
        decision_id = f"battle.{base.state.cycle}.{base.state.version - 1}"
        assert all(sealed.verify(decision_id, c) for c in revealed["choices"])
    assert len(finals) == 1 and len(outcomes) == 1
    a = 2 + sum({2: 2, 3: 1, 4: 2}[s] for s, side in sides.items() if side == "attacker")
    t = 2 + sum({2: 2, 3: 1, 4: 2}[s] for s, side in sides.items() if side == "target")
    assert outcomes == {(a, t, "attacker" if a > t else "target")}


_HASH = re.compile(r"^[0-9a-f]{64}$")


def _without_hashes(x):
    """A view or event list with every commitment hash blanked (hashes differ by design)."""
    if isinstance(x, dict):
        return {k: _without_hashes(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_without_hashes(v) for v in x]
    if isinstance(x, str) and _HASH.match(x):
        return "<hash>"
    return x


@settings(max_examples=40, deadline=None)
@given(choices=st_.tuples(*[st_.sampled_from(("attacker", "target"))] * 3),
       order=st_.permutations((2, 3, 4)), k=st_.integers(1, 2))
def test_BAT_3_no_one_sees_another_supporters_card_before_the_reveal(choices, order, k):
    """Commit k < 3 cards in some order; flipping any committed card changes nothing that
    any other seat or a spectator can see (view, legal actions, redacted events) except hashes."""
    base = five_player_battle()
    attack(base, SANTA_MARTA)
    sides = dict(zip((2, 3, 4), choices))

    def play(sides_):
        st, events = base.state, []
        for s in order[:k]:
            st, ev = api.apply(st, {"seat": s, "type": "support", "side": sides_[s]})
            events += ev
        return st, events

    st, events = play(sides)
    assert not any(e["type"] in ("ChoicesRevealed", "BattleResolved") for e in events)
    for s in order[:k]:
        flipped = {**sides, s: "target" if sides[s] == "attacker" else "attacker"}
        st2, events2 = play(flipped)
        for viewer in [None, 0, 1, 2, 3, 4]:
            if viewer == s:
                assert api.view(st, viewer, include_state=True)["my_sealed_choice"] == sides[s]
                continue
            v1, v2 = api.view(st, viewer, include_state=True), api.view(st2, viewer, include_state=True)
            assert _without_hashes(v1) == _without_hashes(v2)
            assert set(v1["state"]["secrets"]) <= {str(viewer)}
            assert v1["my_sealed_choice"] in (None, sides.get(viewer))
            assert _without_hashes(api.redact(events, viewer)) == _without_hashes(api.redact(events2, viewer))
            if viewer is not None:
                assert api.legal_actions(st, viewer) == api.legal_actions(st2, viewer)
        # the commitment is public, the card is not
        committed = [e for e in api.redact(events, None) if e["type"] == "ChoiceCommitted"]
        assert {e["seat"] for e in committed} == set(order[:k])
        assert all("value" not in e for e in committed)


# ---- BAT-5: consequences ----------------------------------------------------------------------

def test_BAT_5_a_won_battle_sacks_the_colony():
    g = battle_game(fleets={0: (3, [])}, colonies={SANTA_MARTA: col(1, "citizen", chests=2)})
    gone = g.state.gone["citizen"]
    events = attack(g, SANTA_MARTA)
    sack = next(e for e in events if e["type"] == "ColonySacked")
    assert sack["labour_killed"] == "citizen" and sack["owner"] == 1 and sack["rule"] == "BAT-5"
    c = g.state.rs.col_index[SANTA_MARTA]
    assert g.state.col_labour[c] is None                  # vacant
    assert g.state.col_owner[c] == 1                      # still the owner's
    assert g.state.gone["citizen"] == gone + 1            # the labour meeple died
    assert g.state.col_chests[c] == 2                     # the Chests wait for the fleet (TRS-2/TRS-4)


def test_BAT_5_a_sacked_slave_dies_too():
    g = battle_game(fleets={0: (3, [])}, colonies={SANTA_MARTA: col(1, "slave")})
    gone = g.state.gone["slave"]
    attack(g, SANTA_MARTA)
    assert g.state.gone["slave"] == gone + 1
    assert g.state.col_labour[g.state.rs.col_index[SANTA_MARTA]] is None


def test_BAT_5_a_won_battle_against_rebels_removes_one_rebel():
    g = battle_game(fleets={0: (3, [])}, rebels=2)
    events = attack(g, "rebels")
    assert any(e["type"] == "RebelRemoved" for e in events)
    assert g.state.rebels[g.state.rs.zone_index[ZONE]] == 1
    assert g.state.gone["rebel"] == 1


def test_BAT_5_a_won_battle_subdues_the_site_then_the_fleet_may_enslave():
    # seat 0 owns a vacant Santa Marta: room for one meeple (LOAD-2)
    g = battle_game(fleets={0: (3, [])}, sites={ZENU: 2}, colonies={SANTA_MARTA: col(0)})
    assert not any(o["type"] == "enslave" for o in options(g.state, 0))
    events = attack(g, ZENU)
    assert any(e["type"] == "SiteSubdued" and e["site"] == ZENU for e in events)
    assert [o["count"] for o in options(g.state, 0) if o["type"] == "enslave"] == [1]
    [enslaved] = [e for e in g.act({"seat": 0, "type": "enslave", "count": 1}) if e["type"] == "IndigenousEnslaved"]
    assert (enslaved["seat"], enslaved["site"], enslaved["count"]) == (0, ZENU, 1)
    assert g.state.cargo[0] == ["indigenous"]
    assert g.state.site_count[g.state.site_ids.index(ZENU)] == 1
    g.act({"seat": 0, "type": "unload", "colony": SANTA_MARTA})
    assert g.state.col_labour[g.state.rs.col_index[SANTA_MARTA]] == "slave"


def test_BAT_5_a_lost_battle_does_not_let_the_fleet_enslave():
    g = battle_game(fleets={0: (2, [])}, sites={ZENU: 2}, colonies={SANTA_MARTA: col(0)})
    assert resolved(attack(g, ZENU))["winner"] == "target"          # 2 against 2: the target
    assert api.acting(g.state) == (0,)
    assert not any(o["type"] == "enslave" for o in options(g.state, 0))
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "enslave", "count": 1})
    assert e.value.rule == "LOAD-1"


def test_BAT_5_PRJ_5_a_lost_battle_costs_a_galleon_and_the_cargo_that_no_longer_fits():
    # 2 ships hold 4 items; with one ship left, the last two loaded are lost (PRJ-5)
    g = battle_game(fleets={0: (2, ["chest", "chest", "citizen", "chest"])})
    chests, citizens = g.state.supply["chests"], g.state.gone["citizen"]
    before, snap = g.state, api.snapshot(g.state)
    events = attack(g, CARTAGENA)                          # the Crown: colony + Citizen + fort = 3
    assert resolved(events)["winner"] == "target"
    assert api.snapshot(before) == snap                    # fships is shared between states: replaced
    lost = next(e for e in events if e["type"] == "GalleonLost")
    assert (lost["seat"], lost["ships"]) == (0, 1)
    cargo = next(e for e in events if e["type"] == "CargoLost")
    assert cargo["items"] == ["citizen", "chest"] and cargo["rule"] == "PRJ-5"
    assert g.state.fships[0] == 1
    assert g.state.cargo[0] == ["chest", "chest"]
    assert g.state.supply["chests"] == chests + 1          # Chests go back to the supply
    assert g.state.gone["citizen"] == citizens + 1         # meeples leave play
    assert api.acting(g.state) == (0,)                     # the voyage goes on
    assert g.state.fzone[0] == g.state.rs.zone_index[ZONE]


def test_BAT_5_a_lone_flagship_that_loses_is_routed_to_Europe_with_its_cargo_lost():
    g = battle_game(fleets={0: (1, ["chest", "citizen"])})
    chests, citizens, prestige, money = (g.state.supply["chests"], g.state.gone["citizen"],
                                         g.state.prestige[0], g.state.money[0])
    events = attack(g, CARTAGENA)
    assert any(e["type"] == "FlagshipRouted" for e in events)
    assert g.state.fships[0] == 1                          # the Flagship is never lost
    assert g.state.fzone[0] == g.state.rs.europe
    assert g.state.cargo[0] == []
    assert g.state.supply["chests"] == chests + 1
    assert g.state.gone["citizen"] == citizens + 1
    assert (g.state.prestige[0], g.state.money[0]) == (prestige, money)   # lost Chests never score
    ended = [e for e in events if e["type"] == "VoyageEnded"]
    assert ended and ended[0]["seat"] == 0 and ended[0]["zone"] == "europe"
    assert api.acting(g.state) == (1,)                     # the next voyage


def test_BAT_5_a_lost_battle_after_support_routes_the_flagship():
    g = battle_game(fleets={0: (2, []), 1: (1, []), 2: (1, [])}, rebels=1)
    attack(g, "rebels")
    events = commit_all(g, {1: "target", 2: "target"})
    assert resolved(events)["winner"] == "target"
    assert g.state.fships[0] == 1
    assert api.acting(g.state) == (0,)                     # back to the attacker's voyage


@pytest.mark.parametrize("ships, rebels, won, routed", [(3, 1, True, False), (2, 3, False, False),
                                                       (1, 3, False, True)])
def test_BAT_5_a_battle_returns_who_won_and_whether_the_flagship_was_routed(ships, rebels, won, routed):
    g = battle_game(fleets={0: (ships, [])}, rebels=rebels)
    st = g.state.copy()
    outcome = battle.resolve(st, 0, st.rs.zone_index[ZONE], "rebels", {}, Out(st))
    assert (outcome.attacker, outcome.won, outcome.routed, outcome.sacked, outcome.won_site) == \
        (0, won, routed, None, None)


def test_BAT_5_a_won_battle_against_a_site_returns_the_attacker_and_the_site():
    g = battle_game(fleets={0: (3, [])}, sites={ZENU: 2})
    st = g.state.copy()
    outcome = battle.resolve(st, 0, st.rs.zone_index[ZONE], ZENU, {}, Out(st))
    assert (outcome.attacker, outcome.won, outcome.won_site, outcome.routed) == (0, True, ZENU, False)


def test_PRJ_2_a_declared_battle_cannot_be_undone_even_without_supporters():
    g = battle_game(fleets={0: (1, [])})
    g.act({"seat": 0, "type": "move", "to": "caribe_central"})
    g.act({"seat": 0, "type": "move", "to": ZONE})
    assert api.can_undo(g.state, 0)                    # moving is taken back freely
    attack(g, ZENU)
    assert not api.can_undo(g.state, 0)
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "undo"})
    assert e.value.rule == "PRJ-2"


def test_BAT_3_the_resolved_battle_lists_its_supporters_in_player_order():
    """The revealed cards read in player order (the log's order of the table), not by seat
    number: here the order runs 0, 4, 3, 2, 1."""
    g = battle_game(fleets={0: (2, []), 2: (2, []), 3: (1, ["citizen"])},
                    colonies={SANTA_MARTA: col(1, "citizen", chests=2)}, nations=FIVE, order=[0, 4, 3, 2, 1])
    events = attack(g, SANTA_MARTA)
    events += commit_all(g, {2: "attacker", 3: "target", 4: "attacker"})
    r = resolved(events)
    assert [(x["seat"], x["side"]) for x in r["support"]] == [(4, "attacker"), (3, "target"), (2, "attacker")]
    # Cartagena and its Citizen 2, a ship 1 (its Citizen 0), two ships 2 (BAT-1, BAT-2)
    assert [x["strength"] for x in r["support"]] == [2, 1, 2]
    assert (r["attacker_strength"], r["target_strength"]) == (2 + 2 + 2, 2 + 1)
