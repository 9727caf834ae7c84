"""Why not? (api.unavailable) and the battle preview (api.battle_preview), issue 14.

Every reason is computed from the seat's view alone: the perturbation test changes every
secret the seat cannot see and finds the same answer. Every listed action that names all
its fields is refused by the engine, and never among the legal actions."""

from __future__ import annotations

import collections
import json

import pytest

from pax_hispanica import api
from pax_hispanica.engine import why
from pax_hispanica.rulesets import load_ruleset
from support import NO_SPAIN, options, random_game, scenario

from .test_views import perturbed

RS = load_ruleset()
GALEON = [c for c in RS.market if c.startswith("galeon-")]
HAVEN = RS.haven[0]

# Tierra Firme: the Crown colony Cartagena, the colony space Santa Marta, the Cathedral of
# Cartagena, the Tribal Site of the Zenu and the Visita of Tolu (tests/rules/test_battle.py)
ZONE = "tierra_firme"
CARTAGENA, SANTA_MARTA = "tierra_firme.cartagena", "tierra_firme.santa_marta"
ZENU, TOLU, CATHEDRAL = "tierra_firme.zenu", "tierra_firme.tolu", "tierra_firme.cartagena_cathedral"


def reasons(state, seat, code=None):
    out = api.unavailable(state, seat)
    return [d for d in out if code is None or d["code"] == code]


def refused(state, action) -> bool:
    try:
        api.apply(state, action)
    except api.IllegalAction:
        return True
    return False


def at_sail(players, colonies=None, sites=None, rebels=None, order=None, nations=NO_SPAIN):
    pos = {"year": "sail", "step": "voyages", "order": order or list(range(len(nations))), "players": players,
           "colonies": colonies or {}, "sites": sites or {}}
    if rebels:
        pos["rebels"] = rebels
    return scenario(pos, players=len(nations), nations=nations)


# ---- the rules, one by one ----------------------------------------------------------------------
def test_PLY_1_a_card_that_costs_more_than_you_have_is_listed_with_its_cost_and_your_money():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"money": 1, "hand": [GALEON[0]]}, {}, {}]})
    [d] = reasons(g.state, 0, "cannot_afford")
    assert d == {"decision": "play_turn", "action": {"seat": 0, "type": "play", "card": GALEON[0]},
                 "code": "cannot_afford", "rule": "PLY-1", "params": {"card": GALEON[0], "cost": 2, "money": 1}}
    assert refused(g.state, d["action"])
    assert all(o.get("card") != GALEON[0] or o["type"] != "play" for o in options(g.state, 0))


def test_PLY_1_an_affordable_card_is_not_listed():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"money": 2, "hand": [GALEON[0]]}, {}, {}]})
    assert not [d for d in reasons(g.state, 0) if d["action"].get("card") == GALEON[0]]


def test_HND_3_a_haven_card_cannot_be_sold_and_HND_2_no_end_of_turn_over_the_limit():
    hand = [HAVEN] + GALEON[:RS.hand_limit]
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"money": 0, "hand": hand}, {}, {}]})
    [sale] = reasons(g.state, 0, "cannot_sell_haven")
    assert sale["action"] == {"seat": 0, "type": "sell", "card": HAVEN} and sale["rule"] == "HND-3"
    [end] = reasons(g.state, 0, "over_hand_limit")
    assert end["rule"] == "HND-2" and end["params"] == {"count": len(hand), "limit": RS.hand_limit}
    assert refused(g.state, sale["action"]) and refused(g.state, end["action"])


def test_LAB_4_no_kidnapping_in_a_rebellious_zone_is_listed_per_site():
    g = scenario({"year": "goods", "step": "labour_acquisition", "order": [0, 1, 2],
                  "colonies": {SANTA_MARTA: {"owner": 0, "labour": None}},
                  "sites": {CATHEDRAL: 1, ZENU: 2, TOLU: 1}, "rebels": {ZONE: 1}}, nations=NO_SPAIN)
    assert api.acting(g.state) == (0,)
    found = reasons(g.state, 0, "rebellious_zone")
    assert {d["action"]["site"] for d in found} == {ZENU, TOLU}
    assert all(d["rule"] == "LAB-4" and d["params"]["rebels"] == 1 for d in found)
    assert all(refused(g.state, d["action"]) for d in found)


def test_LAB_5_no_kidnapping_from_a_wilderness_site_and_LAB_1_employing_needs_a_dollar():
    g = scenario({"year": "goods", "step": "labour_acquisition", "order": [0, 1, 2],
                  "players": [{"money": 0}, {}, {}],
                  "colonies": {"yucatan.merida": {"owner": 0, "labour": None}},
                  "sites": {"yucatan.mani": 1}}, nations=NO_SPAIN)
    assert api.acting(g.state) == (0,)
    [wild] = reasons(g.state, 0, "wilderness")
    assert wild["rule"] == "LAB-5" and wild["action"]["site"] == "yucatan.lacandon"
    assert [d["rule"] for d in reasons(g.state, 0, "no_cathedral")] == ["LAB-2"]


def test_SAIL_1_no_moves_left_lists_every_neighbour_and_the_fleet_full_stops_loading():
    players = [{"money": 5, "fleet": {"zone": ZONE, "ships": 1, "cargo": ["chest", "chest"],
                                       "legality": "SMUGGLER"}}, {}, {}]
    g = at_sail(players, colonies={SANTA_MARTA: {"owner": 1, "labour": "citizen", "chests": 2}})
    [full] = reasons(g.state, 0, "fleet_full")
    assert full["rule"] == "SAIL-1" and full["params"] == {"colony": SANTA_MARTA, "ships": 1, "capacity": 2}
    assert refused(g.state, full["action"])
    for _ in range(RS.fleet_moves):           # sail back and forth until no move is left
        here = api.view(g.state, 0)["players"][0]["fleet"]["zone"]
        to = next(o["to"] for o in options(g.state, 0) if o["type"] == "move" and o["to"] != "europe")
        g.act({"seat": 0, "type": "move", "to": to})
        assert here != to
    moves = reasons(g.state, 0, "no_moves_left")
    zone = api.view(g.state, 0)["players"][0]["fleet"]["zone"]
    assert {d["action"]["to"] for d in moves} == {RS.zone_ids[z] for z in RS.adjacent[RS.zone_index[zone]]}
    assert all(refused(g.state, d["action"]) for d in moves)


def test_TRS_2_a_plunderer_loads_only_what_it_sacked_and_PRJ_16_one_battle_per_zone():
    players = [{"money": 5, "fleet": {"zone": ZONE, "ships": 3, "legality": "PLUNDER"}}, {}, {}]
    g = at_sail(players, colonies={SANTA_MARTA: {"owner": 1, "labour": None, "chests": 1}},
                sites={CATHEDRAL: 0, ZENU: 0, TOLU: 0})
    [forbid] = reasons(g.state, 0, "legality_forbids")
    assert forbid["rule"] == "TRS-2" and forbid["params"]["colony"] == SANTA_MARTA
    g.act({"seat": 0, "type": "attack", "target": SANTA_MARTA})
    assert not reasons(g.state, 0, "legality_forbids")           # sacked: now it may
    battled = reasons(g.state, 0, "already_battled")
    assert battled and all(d["rule"] == "PRJ-16" for d in battled)
    assert all(refused(g.state, d["action"]) for d in battled)


def test_BAT_3_the_support_decision_lists_no_neutral_card():
    g = at_sail([{"fleet": {"zone": ZONE, "ships": 2, "legality": "PLUNDER"}},
                 {"fleet": {"zone": ZONE, "ships": 1}}, {}],
                colonies={SANTA_MARTA: {"owner": 2, "labour": None}})
    g.act({"seat": 0, "type": "attack", "target": SANTA_MARTA})
    assert api.acting(g.state) == (1,)
    assert [d["code"] for d in reasons(g.state, 1)] == ["no_neutral"]
    assert reasons(g.state, 0) == []                             # not asked now


# ---- battle preview ------------------------------------------------------------------------------
def test_BAT_1_BAT_2_the_preview_counts_both_sides_and_names_who_will_choose():
    # seat 0 (2 ships) attacks seat 2's Santa Marta (colony + Citizen + fort = 3); seat 1's
    # fleet (1 ship) is there and will choose a side
    g = at_sail([{"fleet": {"zone": ZONE, "ships": 2, "legality": "PLUNDER"}},
                 {"fleet": {"zone": ZONE, "ships": 1}}, {}],
                colonies={SANTA_MARTA: {"owner": 2, "labour": "citizen", "fort": True}})
    p = api.battle_preview(g.state, 0, SANTA_MARTA)
    assert p["attacker_strength"] == 2 and p["target_strength"] == 3 and p["target_owner"] == 2
    assert p["others"] == [{"seat": 1, "strength": 1}]
    assert p["best"] == {"attacker": 3, "target": 3, "wins": False}          # BAT-4: a tie is the target's
    assert p["worst"] == {"attacker": 2, "target": 4, "wins": False}
    assert set(api.battle_previews(g.state, 0)) >= {SANTA_MARTA}
    g.act({"seat": 0, "type": "attack", "target": SANTA_MARTA})
    # the supporter sees the same battle before choosing
    assert api.battle_previews(g.state, 1) == {SANTA_MARTA: p}
    events = g.act({"seat": 1, "type": "support", "side": "attacker"})
    res = next(e for e in events if e["type"] == "BattleResolved")
    assert (res["attacker_strength"], res["target_strength"]) == (p["best"]["attacker"], p["best"]["target"])


def test_BAT_2_the_preview_agrees_with_every_battle_of_random_games():
    seen = 0
    for seed in range(12):
        previews: dict = {}

        def on_step(before, action, after, events, previews=previews):
            nonlocal seen
            if action["type"] == "attack":
                previews["p"] = api.battle_preview(before, action["seat"], action["target"])
                previews["sides"] = {}
            if action["type"] == "support":
                previews["sides"][action["seat"]] = action["side"]
            for e in events:
                if e["type"] == "BattleResolved":
                    p = previews["p"]
                    assert p is not None
                    sides = previews["sides"]
                    for_a = sum(o["strength"] for o in p["others"] if sides.get(o["seat"]) == "attacker")
                    for_t = sum(o["strength"] for o in p["others"] if sides.get(o["seat"]) == "target")
                    assert {o["seat"] for o in p["others"]} == set(sides)
                    assert e["attacker_strength"] == p["attacker_strength"] + for_a
                    assert e["target_strength"] == p["target_strength"] + for_t
                    assert p["worst"]["attacker"] <= e["attacker_strength"] <= p["best"]["attacker"]
                    seen += 1

        random_game(4, 500 + seed, on_step=on_step)
    assert seen >= 10, seen


# ---- properties over random games ----------------------------------------------------------------
COMMON = {("play_turn", "cannot_afford"), ("play_turn", "cannot_sell_haven"), ("voyage", "no_moves_left"),
          ("voyage", "already_battled"), ("voyage", "legality_forbids"), ("support", "no_neutral")}


def test_PLY_1_SAIL_1_every_listed_action_is_refused_and_never_legal():
    found = collections.Counter()
    for seed in range(8):
        def on_step(before, action, after, events):
            for seat in api.acting(after):
                legal = [json.dumps(o, sort_keys=True) for o in api.iter_actions(api.legal_actions(after, seat))]
                for d in api.unavailable(after, seat):
                    found[(d["decision"], d["code"])] += 1
                    assert d["rule"] in api.RULES, d
                    assert d["decision"] == (api.decision(after, seat) or {}).get("decision"), d
                    assert json.dumps(d["action"], sort_keys=True) not in legal, d
                    assert refused(after, d["action"]), d
                    json.dumps(d)

        random_game(3 + seed % 3, 700 + seed, on_step=on_step)
    assert set(found) >= COMMON, sorted(found)


def test_HID_1_why_not_is_the_same_whatever_the_seat_cannot_see():
    checked = 0

    def on_step(before, action, after, events):
        nonlocal checked
        if after.over or after.version % 2:
            return
        for seat in api.acting(after):
            other = perturbed(after, seat)
            assert api.unavailable(other, seat) == api.unavailable(after, seat)
            assert api.battle_previews(other, seat) == api.battle_previews(after, seat)
            checked += 1

    random_game(4, 41, on_step=on_step)
    assert checked > 50


def test_HID_1_why_not_reads_the_view_only():
    g = random_game(3, 5, stop=lambda g: api.decision(g.state, None) is not None
                    and api.decision(g.state, None)["decision"] == "play_turn")
    seat = api.acting(g.state)[0]
    v = api.view(g.state, seat)
    assert api.unavailable(v, seat) == api.unavailable(g.state, seat) == why.unavailable(v, load_ruleset)
    with pytest.raises(ValueError):
        api.unavailable(v, (seat + 1) % 3)         # another seat's view cannot answer for it
    assert api.unavailable(g.state, (seat + 1) % 3) == []       # not asked now
    assert api.unavailable(api.view(g.state, None), None) == []  # a spectator is asked nothing


def test_PLY_1_why_not_leaves_the_state_unchanged_and_is_json():
    g = random_game(4, 9, stop=lambda g: len(g.record["actions"]) >= 120 and bool(api.acting(g.state)))
    seat = api.acting(g.state)[0]
    before = api.snapshot(g.state)
    out = api.unavailable(g.state, seat)
    assert api.snapshot(g.state) == before
    assert json.loads(json.dumps(out)) == out


def test_SAIL_1_every_decision_type_of_the_registry_has_its_reasons_or_none_to_give():
    from pax_hispanica.engine.decisions import DECISIONS

    from pax_hispanica.engine.decisions import Decision

    # each type declares its reasons, or says why it has none (a sealed bid: any whole number
    # from $0 to one's money)
    explained = {n for n, d in DECISIONS.items() if type(d).reasons is not Decision.reasons}
    silent = {n for n, d in DECISIONS.items() if d.nothing_to_explain}
    assert explained == set(DECISIONS) - {"bid"} and silent == {"bid"}
