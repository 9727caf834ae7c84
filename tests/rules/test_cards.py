"""Cards: CARD-1 (cards are data, a small effect vocabulary, named exceptions), CARD-2
(Haven cards), CARD-3 (deck sizes), PRJ-11 (card targets).

Each effect kind of engine/ruleset.EFFECTS has its own test `test_CARD_1_effect_<kind>`,
and each bespoke card its own `test_CARD_1_bespoke_<name>`; a meta-test checks that."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pax_hispanica import api
from pax_hispanica.engine import audit, cards as card_rules
from pax_hispanica.engine.flow import Out
from pax_hispanica.engine.ruleset import BESPOKE, EFFECTS, RulesetError
from pax_hispanica.rulesets import DATA, load_ruleset
from support import options, scenario

RS = load_ruleset()
DOCS = Path(__file__).resolve().parents[2] / "docs" / "cards.md"


def first(prefix):
    return next(c for c in RS.market + RS.haven if c == prefix or c.startswith(prefix + "-"))


def with_effect(kind):
    return [c for c in RS.market + RS.haven if any(e["kind"] == kind for e in RS.cards[c].effects)]


def play_year(players, seed=1, **position):
    pos = {"year": "play", "order": list(range(len(players))), "players": players, **position}
    return scenario(pos, players=len(players), seed=seed)


def ev(events, type_):
    return [e for e in events if e["type"] == type_]


def play(g, seat, card, target=None):
    action = {"seat": seat, "type": "play", "card": card}
    if target is not None:
        action["target"] = target
    return g.act(action)


def refused(state, action, code, rule):
    before = state.to_dict()
    with pytest.raises(api.IllegalAction) as e:
        api.apply(state, action)
    assert (e.value.code, e.value.rule) == (code, rule), e.value
    assert state.to_dict() == before


def drive(g, until):
    """Play dull legal actions (end turns and voyages, first labour option) until `until(g)`."""
    for _ in range(500):
        if until(g):
            return
        s = api.acting(g.state)[0]
        opts = options(g.state, s)
        pick = next((o for t in ("end_turn", "end_voyage", "pass") for o in opts if o["type"] == t), opts[0])
        if pick["type"] == "bid":
            pick = {**pick, "amount": 0}
        g.act(pick)
    raise AssertionError("never reached")


def targets_offered(state, seat, card):
    return sorted(o.get("target") for o in options(state, seat) if o["type"] == "play" and o["card"] == card)


# ---- one test per effect kind -------------------------------------------------------------------

def test_CARD_1_effect_gain_galleon():
    card, spare = with_effect("gain_galleon")[:2]
    g = play_year([{"money": 9, "hand": [card, spare], "fleet": {"ships": 1}}, {"money": 5}])
    before, snap = g.state, api.snapshot(g.state)
    events = play(g, 0, card)
    assert g.state.fships[0] == 2
    assert api.snapshot(before) == snap              # fships is shared between states: replaced
    assert api.view(g.state, 1, include_state=True)["players"][0]["fleet"]["ships"] == 2
    (gained,) = ev(events, "GalleonGained")
    assert gained["gained"] == 1 and gained["rule"] == "CARD-1"
    # at the fleet's maximum the card adds nothing
    g = play_year([{"money": 9, "hand": [card], "fleet": {"ships": RS.max_ships}}, {"money": 5}])
    events = play(g, 0, card)
    assert g.state.fships[0] == RS.max_ships and ev(events, "GalleonGained")[0]["gained"] == 0


def test_CARD_1_effect_found_colony():
    card = with_effect("found_colony")[0]
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}, {"money": 5}])
    empty = sorted(c["id"] for c in api.view(g.state, None, include_state=True)["colonies"] if c["owner"] is None)
    assert targets_offered(g.state, 0, card) == empty
    refused(g.state, {"seat": 0, "type": "play", "card": card, "target": "cuba.habana"}, "bad_target", "PRJ-11")
    refused(g.state, {"seat": 0, "type": "play", "card": card}, "bad_target", "PRJ-11")
    events = play(g, 0, card, "honduras.trujillo")
    col = next(c for c in api.view(g.state, None, include_state=True)["colonies"] if c["id"] == "honduras.trujillo")
    assert (col["owner"], col["labour"], col["chests"], col["fort"]) == (0, None, 0, False)
    assert ev(events, "ColonyFounded")[0]["colony"] == "honduras.trujillo"
    assert g.state.tableaus[0] == [(card, "honduras.trujillo")]


def test_CARD_1_effect_build_fort():
    card = with_effect("build_fort")[0]
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}, {"money": 5}],
                  colonies={"honduras.trujillo": {"owner": 0, "labour": "citizen"}})
    mine = sorted(c["id"] for c in api.view(g.state, None, include_state=True)["colonies"] if c["owner"] == 0 and not c["fort"])
    assert "cuba.habana" not in mine                      # already has a fort
    assert targets_offered(g.state, 0, card) == mine
    refused(g.state, {"seat": 0, "type": "play", "card": card, "target": "jamaica.port_royal"},
            "bad_target", "PRJ-11")                       # another player's colony
    events = play(g, 0, card, "honduras.trujillo")
    assert g.state.col_fort[RS.col_index["honduras.trujillo"]] is True
    assert ev(events, "FortBuilt")[0]["colony"] == "honduras.trujillo"


@pytest.mark.parametrize("card", with_effect("set_legality"))
def test_CARD_1_effect_set_legality(card):
    (eff,) = [e for e in RS.cards[card].effects if e["kind"] == "set_legality"]
    start = "SMUGGLER" if eff["value"] != "SMUGGLER" else "PLUNDER"
    g = play_year([{"money": 5, "hand": [card], "fleet": {"legality": start}},
                   {"money": 5, "fleet": {"legality": start}}])
    before, snap = g.state, api.snapshot(g.state)
    events = play(g, 0, card)
    assert g.state.legality == [eff["value"], start]
    assert api.snapshot(before) == snap              # legality is shared between states: replaced
    (changed,) = ev(events, "LegalityChanged")
    assert changed["rule"] == "TRS-6" and changed["legality"] == eff["value"]


def test_CARD_1_effect_income():
    card = first("casa_contratacion")
    (eff,) = RS.cards[card].effects
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}])
    events = play(g, 0, card)
    assert g.state.income[0] == eff["n"] and api.view(g.state, 1, include_state=True)["players"][0]["income"] == eff["n"]
    assert ev(events, "IncomeIncreased")[0]["amount"] == eff["n"]
    mark = len(g.events)
    drive(g, lambda g: any(e["type"] == "EarningsPaid" for e in g.events[mark:]))
    paid = {e["seat"]: e for e in g.events[mark:] if e["type"] == "EarningsPaid"}
    assert paid[0]["card_income"] == eff["n"] and paid[1]["card_income"] == 0    # GDS-7, every Goods Year
    p0 = paid[0]
    colonies = (p0["worked_colonies"] - p0["kings_colonies"]) * RS.colony_income + p0["kings_colonies"] * RS.crown_colony_income
    assert p0["amount"] - colonies == eff["n"]


def test_CARD_1_effect_hand_limit():
    card = with_effect("hand_limit")[0]
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}])
    events = play(g, 0, card)
    assert g.state.hand_limit(0) == RS.hand_limit + 1
    assert api.view(g.state, 1, include_state=True)["players"][0]["hand_limit"] == RS.hand_limit + 1
    assert ev(events, "HandLimitIncreased")[0]["hand_limit"] == RS.hand_limit + 1


def test_CARD_1_effect_prestige():
    card = first("grandeza")
    (eff,) = RS.cards[card].effects
    g = play_year([{"money": 5, "prestige": 3, "hand": [card]}, {"money": 5}])
    before, snap = g.state, api.snapshot(g.state)
    events = play(g, 0, card)
    assert api.snapshot(before) == snap              # prestige is shared between states: replaced
    assert g.state.prestige[0] == 3 + eff["n"] and g.state.money[0] == 5 - RS.cards[card].cost
    assert ev(events, "PrestigeGained")[0]["amount"] == eff["n"]


def test_CARD_1_effect_money():
    card = with_effect("money")[0]
    (eff,) = RS.cards[card].effects
    g = play_year([{"money": 0, "hand": [card]}, {"money": 5}])
    before = g.state
    events = play(g, 0, card)
    assert g.state.money[0] == eff["n"] - RS.cards[card].cost
    assert g.state.minted == before.minted + eff["n"]
    assert audit.money_balance(g.state) == audit.money_balance(before)
    assert ev(events, "MoneyGained")[0]["amount"] == eff["n"]


def test_CARD_1_effect_place_visita():
    card = with_effect("place_visita")[0]
    (eff,) = RS.cards[card].effects
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}])
    before = g.state
    assert targets_offered(g.state, 0, card) == sorted(RS.zone_ids[:RS.n_land])
    refused(g.state, {"seat": 0, "type": "play", "card": card, "target": "caribe_central"}, "bad_target", "PRJ-11")
    events = play(g, 0, card, "honduras")
    (placed,) = ev(events, "VisitaPlaced")
    site = next(s for s in api.view(g.state, None, include_state=True)["sites"] if s["id"] == placed["site"])
    assert (site["zone"], site["kind"], site["count"], site["wilderness"]) == ("honduras", "visita",
                                                                               eff["indigenous"], False)
    assert g.state.supply["indigenous"] == before.supply["indigenous"] - eff["indigenous"]
    assert audit.meeple_total(g.state) == audit.meeple_total(before)
    # a second Visita in the same zone gets its own id
    other = with_effect("place_visita")[1]
    g2 = play_year([{"money": 5, "hand": [card, other]}, {"money": 5}])
    ids = [ev(play(g2, 0, c, "honduras"), "VisitaPlaced")[0]["site"] for c in (card, other)]
    assert len(set(ids)) == 2


def test_CARD_1_effect_place_visita_takes_what_the_supply_has():
    card = with_effect("place_visita")[0]
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}])
    st = g.state
    # a unit test of the effect: Visitas placed until the Indigenous supply runs out
    placed = []
    while st.supply["indigenous"] > 0:
        new = st.copy()
        card_rules.EFFECT["place_visita"](new, 0, {"indigenous": 3}, "florida", Out(new))
        placed.append(new.site_count[-1])
        st = new
    assert st.supply["indigenous"] == 0 and sum(placed) == RS.supply_indigenous
    assert placed[-1] == RS.supply_indigenous % 3 or placed[-1] == 3
    assert audit.meeple_total(st) == audit.meeple_total(g.state)


def test_CARD_1_effect_place_cathedral():
    card = with_effect("place_cathedral")[0]
    (eff,) = RS.cards[card].effects
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}])
    events = play(g, 0, card, "honduras")
    (placed,) = ev(events, "CathedralPlaced")
    site = next(s for s in api.view(g.state, None, include_state=True)["sites"] if s["id"] == placed["site"])
    assert (site["zone"], site["kind"], site["count"], site["capacity"]) == ("honduras", "cathedral", 0,
                                                                             eff["capacity"])
    mark = len(g.events)
    drive(g, lambda g: any(e["type"] == "CathedralsRefreshed" for e in g.events[mark:]))
    (refreshed,) = [e for e in g.events[mark:] if e["type"] == "CathedralsRefreshed"]
    assert refreshed["filled"][placed["site"]] == eff["capacity"]       # GDS-3 fills it in the next Goods Year


def test_CARD_1_effect_remove_rebels():
    card = with_effect("remove_rebels")[0]
    (eff,) = RS.cards[card].effects
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}], rebels={"jamaica": 2, "florida": 1})
    before = g.state
    assert targets_offered(g.state, 0, card) == ["florida", "jamaica"]
    refused(g.state, {"seat": 0, "type": "play", "card": card, "target": "cuba"}, "bad_target", "PRJ-11")
    events = play(g, 0, card, "jamaica")
    assert api.view(g.state, None, include_state=True)["rebels"] == {"jamaica": 2 - eff["n"], "florida": 1}
    assert ev(events, "RebelsRemoved")[0]["count"] == eff["n"]
    assert audit.meeple_total(g.state) == audit.meeple_total(before)
    # without a rebellious zone the card cannot be played at all
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}])
    assert targets_offered(g.state, 0, card) == []


def test_CARD_1_effect_extra_moves():
    card = first("piloto_mayor")
    (eff,) = RS.cards[card].effects
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}])
    events = play(g, 0, card)
    assert ev(events, "MovesIncreased")[0]["moves"] == RS.fleet_moves + eff["n"]
    assert ev(events, "MovesIncreased")[0]["amount"] == eff["n"]          # the log's "+n moves"
    drive(g, lambda g: g.state.year == 3 and api.acting(g.state) == (0,))
    assert api.decision(g.state, 0)["moves"] == RS.fleet_moves + eff["n"]
    drive(g, lambda g: g.state.year == 3 and api.acting(g.state) == (1,))
    assert api.decision(g.state, 1)["moves"] == RS.fleet_moves


def test_CARD_1_effect_haven():
    card = "tortuga"
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}])
    assert targets_offered(g.state, 0, card) == sorted(RS.zone_ids[:RS.n_land])
    refused(g.state, {"seat": 0, "type": "play", "card": card, "target": "europe"}, "bad_target", "PRJ-11")
    events = play(g, 0, card, "espanola")
    assert api.view(g.state, 1, include_state=True)["players"][0]["havens"] == ["espanola"]
    (founded,) = ev(events, "HavenFounded")
    assert founded["rule"] == "CARD-2"
    drive(g, lambda g: g.state.year == 3 and api.acting(g.state) == (0,))
    assert {"seat": 0, "type": "start_at_haven", "zone": "espanola"} in options(g.state, 0)   # PRJ-9


def test_CARD_1_bespoke_treaty_of_madrid():
    card = next(c for c in RS.market if RS.cards[c].bespoke == "treaty_of_madrid")
    g = play_year([{"money": 5, "hand": [card], "fleet": {"legality": "SMUGGLER"}},
                   {"money": 5, "fleet": {"legality": "PLUNDER"}},
                   {"money": 5, "fleet": {"legality": "CONQUISTADOR"}},
                   {"money": 5, "fleet": {"legality": "PLUNDER"}}])
    before, snap = g.state, api.snapshot(g.state)
    events = play(g, 0, card)
    assert g.state.legality == ["SMUGGLER", "PRIVATEER", "CONQUISTADOR", "PRIVATEER"]
    assert api.snapshot(before) == snap              # legality is shared between states: replaced
    assert sorted(e["seat"] for e in ev(events, "LegalityChanged")) == [1, 3]
    assert g.state.money[0] == 5 - RS.cards[card].cost


# ---- the vocabulary as a whole ------------------------------------------------------------------

def test_CARD_1_every_effect_kind_and_bespoke_card_has_its_own_test():
    names = set(globals())
    assert {f"test_CARD_1_effect_{k}" for k in EFFECTS} <= names
    assert {f"test_CARD_1_bespoke_{b}" for b in BESPOKE} <= names


def test_CARD_1_every_effect_kind_is_implemented_and_documented():
    assert set(card_rules.EFFECT) == set(EFFECTS)
    assert set(card_rules.BESPOKE) == set(BESPOKE)
    doc = DOCS.read_text()
    for kind, (params, target) in EFFECTS.items():
        assert f"`{kind}`" in doc, kind
        for p in params:
            assert f"`{p}`" in doc, (kind, p)
        if target:
            assert f"`{target}`" in doc, (kind, target)
    for b in BESPOKE:
        assert f"`{b}`" in doc


def test_CARD_3_every_effect_kind_occurs_in_the_reference_decks():
    used = {e["kind"] for c in RS.cards.values() for e in c.effects}
    assert used == set(EFFECTS)
    assert {c.bespoke for c in RS.cards.values() if c.bespoke} == set(BESPOKE)


def test_CARD_3_deck_sizes():
    assert len(RS.market) >= 40
    assert len(RS.haven) >= 8
    assert all(RS.cards[c].deck == "market" for c in RS.market)
    assert all(RS.cards[c].deck == "haven" for c in RS.haven)
    g = api.Game.new(api.Config(players=3), 1)
    assert sorted(audit.cards(g.state)) == sorted(RS.market + RS.haven)


def test_CARD_2_haven_cards_and_only_they_found_havens():
    for c in RS.haven:
        assert any(e["kind"] == "haven" for e in RS.cards[c].effects), c
        assert RS.cards[c].target == "land_zone"
    for c in RS.market:
        assert all(e["kind"] != "haven" for e in RS.cards[c].effects), c


# ---- conditions (requires) -----------------------------------------------------------------------

def test_CARD_1_condition_colonies():
    card = next(c for c in RS.market if RS.cards[c].requires.get("colonies"))
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}],
                  colonies={c: {"owner": None, "labour": None} for c in RS.col_ids})
    assert not [o for o in options(g.state, 0) if o["type"] == "play"]
    refused(g.state, {"seat": 0, "type": "play", "card": card}, "cannot_play", "CARD-1")
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}],
                  colonies={c: {"owner": 0 if c == "honduras.trujillo" else None, "labour": None}
                            for c in RS.col_ids})
    play(g, 0, card)
    assert [c for c, _ in g.state.tableaus[0]] == [card]


def custom_ruleset(tmp_path, extra_market: str) -> str:
    folder = tmp_path / "custom"
    shutil.copytree(DATA / "reference", folder)
    with (folder / "market.toml").open("a") as f:
        f.write("\n" + extra_market)
    return str(folder)


def test_CARD_1_condition_legality_and_nation(tmp_path):
    folder = custom_ruleset(tmp_path, '''
[[card]]
id = "carta_de_marca"
name = "Letter of Marque"
cost = 1
requires = { legality = ["PLUNDER", "PRIVATEER"], nation = "english" }
effects = [{ kind = "prestige", n = 1 }]
''')
    base = {"config": {"players": 3, "ruleset": folder, "nations": ["spanish", "english", "french"]},
            "seed": 2}
    players = [{"money": 5, "hand": ["carta_de_marca"] if s == 1 else [], "fleet": {"legality": leg}}
               for s, leg in enumerate(["PLUNDER", "SMUGGLER", "PLUNDER"])]
    g = api.Game.from_scenario({**base, "position": {"year": "play", "order": [1, 0, 2], "players": players}})
    refused(g.state, {"seat": 1, "type": "play", "card": "carta_de_marca"}, "cannot_play", "CARD-1")
    players[1]["fleet"] = {"legality": "PRIVATEER"}
    g = api.Game.from_scenario({**base, "position": {"year": "play", "order": [1, 0, 2], "players": players}})
    play(g, 1, "carta_de_marca")
    assert g.state.prestige[1] == 1
    players[1]["hand"], players[2]["hand"] = [], ["carta_de_marca"]
    g = api.Game.from_scenario({**base, "position": {"year": "play", "order": [2, 0, 1], "players": players}})
    refused(g.state, {"seat": 2, "type": "play", "card": "carta_de_marca"}, "cannot_play", "CARD-1")


@pytest.mark.parametrize("card, message", [
    ('effects = [{ kind = "teleport" }]', "unknown effect 'teleport'"),
    ('effects = [{ kind = "prestige" }]', "missing key(s) ['n']"),
    ('effects = [{ kind = "prestige", n = 0 }]', "n must be a whole number"),
    ('effects = [{ kind = "prestige", n = 1, colour = "red" }]', "unknown key(s) ['colour']"),
    ('effects = [{ kind = "set_legality", value = "PIRATE" }]', "unknown legality 'PIRATE'"),
    ('effects = [{ kind = "found_colony" }, { kind = "build_fort" }]', "more than one effect names a target"),
    ('effects = [{ kind = "haven" }]', "Haven cards, and only they"),
    ('effects = []', "no effects"),
    ('bespoke = "armada"', "unknown bespoke card 'armada'"),
    ('requires = { legality = "PLUNDER" }\neffects = [{ kind = "money", n = 1 }]', "requires.legality"),
    ('requires = { nation = "venetian" }\neffects = [{ kind = "money", n = 1 }]', "unknown nation"),
])
def test_CARD_1_bad_card_data_is_an_error_naming_file_and_card(tmp_path, card, message):
    folder = custom_ruleset(tmp_path, f'[[card]]\nid = "bad_card"\nname = "Bad"\ncost = 1\n{card}\n')
    with pytest.raises(RulesetError) as e:
        load_ruleset(folder)
    assert "market.toml" in str(e.value) and "bad_card" in str(e.value) and message in str(e.value)


def test_PRJ_11_a_card_without_target_refuses_one():
    card = first("grandeza")
    g = play_year([{"money": 5, "hand": [card]}, {"money": 5}])
    refused(g.state, {"seat": 0, "type": "play", "card": card, "target": "cuba"}, "bad_target", "PRJ-11")
