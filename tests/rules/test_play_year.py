"""Play Year, D3: the play turn (PLY-1) and the hand (HND-1 .. HND-4, seed p7 and p9),
PRJ-3 (where a discarded Haven card goes) and PRJ-19 (Market refill)."""

from __future__ import annotations

import json
import random

import pytest

from pax_hispanica import api
from pax_hispanica.engine import audit
from pax_hispanica.rulesets import load_ruleset
from pax_hispanica.engine.rng import below
from support import NO_SPAIN, options, scenario

RS = load_ruleset()
GALEON = [c for c in RS.market if c.startswith("galeon-")]
TITULO = [c for c in RS.market if c.startswith("titulo_nobleza-")]
SECRETARIO = [c for c in RS.market if c.startswith("secretario-")]
LIMIT = RS.hand_limit


def play_year(players, order=None, step="play_turns", seed=1, haven=None, market=None):
    pos = {"year": "play", "step": step, "order": list(order or range(len(players))), "players": players}
    decks = {k: v for k, v in (("haven", haven), ("market", market)) if v}
    if decks:
        pos["decks"] = decks
    return scenario(pos, players=len(players), seed=seed)


def dumps(x) -> str:
    return json.dumps(x, sort_keys=True)


def refused(state, action, code, rule):
    before = dumps(state.to_dict())
    with pytest.raises(api.IllegalAction) as e:
        api.apply(state, action)
    assert (e.value.code, e.value.rule) == (code, rule), e.value
    assert dumps(state.to_dict()) == before
    return e.value


def types(state, seat):
    return {o["type"] for o in options(state, seat)}


# ---- PLY-1 -----------------------------------------------------------------------------------

def test_PLY_1_each_player_takes_one_play_turn_in_player_order():
    g = play_year([{"money": 5}] * 3, order=[1, 2, 0])
    turns = []
    while g.state.year == 2:
        (s,) = api.acting(g.state)
        assert api.decision(g.state, s)["decision"] == "play_turn"
        turns.append(s)
        g.act({"seat": s, "type": "end_turn"})
    assert turns == [1, 2, 0]
    assert g.state.year == 3                    # CYC-1: the Sail Year follows


def test_PLY_1_play_a_card_pays_its_cost_to_the_pool_and_goes_to_the_tableau():
    g = play_year([{"money": 5, "hand": [TITULO[0]]}, {"money": 5}])
    before = g.state
    events = g.act({"seat": 0, "type": "play", "card": TITULO[0]})
    cost = RS.cards[TITULO[0]].cost
    assert g.state.money[0] == 5 - cost and g.state.burned == before.burned + cost
    assert g.state.hands[0] == [] and [c for c, _ in g.state.tableaus[0]] == [TITULO[0]]
    assert next(e["type"] for e in events) == "CardPlayed"
    assert api.view(g.state, 1, include_state=True)["players"][0]["tableau"] == [{"card": TITULO[0], "target": None}]
    assert audit.money_balance(g.state) == audit.money_balance(before)


def test_PLY_1_a_card_costing_more_than_ones_money_is_refused():
    g = play_year([{"money": 2, "hand": [TITULO[0]]}, {"money": 5}])
    assert RS.cards[TITULO[0]].cost > 2
    assert "play" not in types(g.state, 0)
    refused(g.state, {"seat": 0, "type": "play", "card": TITULO[0]}, "cannot_play", "CARD-1")


def test_PLY_1_only_cards_in_ones_own_hand():
    g = play_year([{"money": 5}, {"money": 5, "hand": [TITULO[0]]}])
    for kind in ("play", "sell", "discard"):
        refused(g.state, {"seat": 0, "type": kind, "card": TITULO[0]}, "card_not_in_hand", "PLY-1")
    refused(g.state, {"seat": 1, "type": "end_turn"}, "not_your_turn", "PRJ-7")


def test_PLY_1_play_sell_discard_in_any_order_as_often_as_one_can():
    hand = [GALEON[0], TITULO[0], GALEON[1], SECRETARIO[0]]
    g = play_year([{"money": 6, "hand": hand}, {"money": 5}])
    g.act({"seat": 0, "type": "sell", "card": GALEON[0]})
    g.act({"seat": 0, "type": "play", "card": SECRETARIO[0]})
    g.act({"seat": 0, "type": "discard", "card": GALEON[1]})
    g.act({"seat": 0, "type": "play", "card": TITULO[0]})
    assert api.acting(g.state) == (0,) and g.state.hands[0] == []
    g.act({"seat": 0, "type": "end_turn"})
    assert api.acting(g.state) == (1,)


def test_PLY_1_other_actions_are_refused_in_a_play_turn():
    g = play_year([{"money": 5, "hand": [GALEON[0]]}, {"money": 5}])
    for a in ({"seat": 0, "type": "bid", "amount": 1}, {"seat": 0, "type": "pass"}):
        refused(g.state, a, "wrong_action", "PLY-1")


# ---- HND-1, HND-2: the hand limit ------------------------------------------------------------------

def test_HND_1_hand_limit_is_the_parameter_plus_tableau_bonuses():
    g = play_year([{"money": 5, "tableau": [SECRETARIO[0], SECRETARIO[1]]}, {"money": 5}])
    bonus = sum(e["n"] for c in SECRETARIO[:2] for e in RS.cards[c].effects if e["kind"] == "hand_limit")
    assert bonus == 2
    assert api.view(g.state, 1, include_state=True)["players"][0]["hand_limit"] == LIMIT + 2
    assert api.view(g.state, 1, include_state=True)["players"][1]["hand_limit"] == LIMIT


def test_HND_2_cannot_end_the_play_turn_over_the_hand_limit():
    hand = [GALEON[0], GALEON[1], GALEON[2], "tortuga"]
    assert len(hand) == LIMIT + 1
    g = play_year([{"money": 0, "hand": hand}, {"money": 5}])
    assert "end_turn" not in types(g.state, 0)
    e = refused(g.state, {"seat": 0, "type": "end_turn"}, "over_hand_limit", "HND-2")
    assert "4" in e.message and "3" in e.message
    g.act({"seat": 0, "type": "discard", "card": "tortuga"})
    assert "end_turn" in types(g.state, 0)
    g.act({"seat": 0, "type": "end_turn"})
    assert api.acting(g.state) == (1,)


def test_HND_2_a_bonus_played_this_turn_counts_at_its_end():
    hand = [SECRETARIO[0], GALEON[0], GALEON[1], GALEON[2], GALEON[3]]
    g = play_year([{"money": 5, "hand": hand}, {"money": 5}])
    assert "end_turn" not in types(g.state, 0)
    g.act({"seat": 0, "type": "play", "card": SECRETARIO[0]})       # 4 cards, limit 4
    assert g.state.hand_limit(0) == LIMIT + 1 and len(g.state.hands[0]) == LIMIT + 1
    g.act({"seat": 0, "type": "end_turn"})
    assert api.acting(g.state) == (1,)


def test_HND_2_enforced_again_at_the_end_of_the_play_year():
    over = [GALEON[0], GALEON[1], TITULO[0], "tortuga", "nassau"]
    g = play_year([{"money": 1, "hand": over[:4]}, {"money": 1, "hand": [TITULO[1]]},
                   {"money": 1, "hand": over[4:] + GALEON[2:6]}],
                  order=[2, 1, 0], step="hand_limit_at_year_end")
    assert api.acting(g.state) == (2,)         # in Player Order, only those over the limit
    dec = api.decision(g.state, 2)
    assert dec["decision"] == "reduce_hand" and dec["rule"] == "HND-2"
    assert types(g.state, 2) == {"sell", "discard"}
    for a in ({"seat": 2, "type": "end_turn"}, {"seat": 2, "type": "play", "card": GALEON[2]}):
        refused(g.state, a, "wrong_action", "HND-2")
    g.act({"seat": 2, "type": "sell", "card": GALEON[2]})        # HND-3: selling while enforcing
    assert g.state.money[2] == 1 + RS.sell_price
    g.act({"seat": 2, "type": "discard", "card": "nassau"})
    assert len(g.state.hands[2]) == LIMIT and api.acting(g.state) == (0,)
    g.act({"seat": 0, "type": "discard", "card": "tortuga"})
    assert g.state.year == 3                     # everyone is within the limit: the Sail Year begins
    assert all(len(g.state.hands[s]) <= g.state.hand_limit(s) for s in range(3))


# ---- HND-3: selling ----------------------------------------------------------------------------


def test_HND_2_a_snapshot_at_the_years_hand_limit_records_how_far_the_step_has_come():
    """The step's cursor is part of the saved state (snapshots stay byte for byte): while seat 2,
    first in Player Order, reduces its hand the step has passed one seat; then seat 0, the second."""
    rs = load_ruleset()
    cards = [c for c in rs.market if c.startswith(("galeon-", "encomienda-"))]
    over = rs.hand_limit + 1
    g = scenario({"year": "play", "step": "hand_limit_at_year_end", "order": [2, 0, 1],
                  "players": [{"hand": cards[:over]}, {}, {"hand": cards[over:2 * over]}]}, nations=NO_SPAIN)
    assert api.acting(g.state) == (2,) and json.loads(api.snapshot(g.state))["cursor"] == {"i": 1}
    g.act({"seat": 2, "type": "sell", "card": cards[over]})
    assert api.acting(g.state) == (0,) and json.loads(api.snapshot(g.state))["cursor"] == {"i": 2}

def test_HND_3_sell_a_market_card_for_the_sell_price():
    g = play_year([{"money": 2, "hand": [GALEON[0]]}, {"money": 5}])
    before = g.state
    events = g.act({"seat": 0, "type": "sell", "card": GALEON[0]})
    assert RS.sell_price == 1
    assert g.state.money[0] == 2 + RS.sell_price and g.state.minted == before.minted + RS.sell_price
    assert g.state.hands[0] == [] and g.state.market_discard == [GALEON[0]]
    (sold,) = [e for e in events if e["type"] == "CardSold"]
    assert sold["rule"] == "HND-3" and sold["price"] == RS.sell_price


def test_HND_3_a_haven_card_cannot_be_sold():
    g = play_year([{"money": 2, "hand": ["tortuga"]}, {"money": 5}])
    assert {"seat": 0, "type": "sell", "card": "tortuga"} not in options(g.state, 0)
    assert {"seat": 0, "type": "discard", "card": "tortuga"} in options(g.state, 0)
    refused(g.state, {"seat": 0, "type": "sell", "card": "tortuga"}, "cannot_sell_haven", "HND-3")


def test_HND_3_only_in_ones_own_play_turn():
    g = play_year([{"money": 2}, {"money": 5, "hand": [GALEON[0]]}])
    refused(g.state, {"seat": 1, "type": "sell", "card": GALEON[0]}, "not_your_turn", "PRJ-7")


# ---- HND-4: discarding --------------------------------------------------------------------------

def test_HND_4_a_discarded_market_card_goes_to_the_market_discard_pile():
    g = play_year([{"money": 2, "hand": [GALEON[0]]}, {"money": 5}])
    market = list(g.state.market)
    events = g.act({"seat": 0, "type": "discard", "card": GALEON[0]})
    assert g.state.market_discard == [GALEON[0]] and g.state.market == market
    assert g.state.money[0] == 2
    assert api.view(g.state, None, include_state=True)["decks"]["market_discard"] == [GALEON[0]]
    (d,) = [e for e in events if e["type"] == "CardDiscarded"]
    assert d["deck"] == "market" and d["rule"] == "HND-4"


def test_HND_4_discarded_haven_card_is_shuffled_back_below_the_top_PRJ_3():
    g = play_year([{"money": 2, "hand": ["tortuga"]}, {"money": 5}])
    haven, rng = list(g.state.haven), g.state.rng
    events = g.act({"seat": 0, "type": "discard", "card": "tortuga"})
    _, r = below(g.state.seed, rng, len(haven))                   # the position is drawn from the state's PRNG
    assert g.state.haven == haven[:r + 1] + ["tortuga"] + haven[r + 1:]
    assert g.state.haven[0] == haven[0]             # the face-up top does not change
    assert g.state.rng != rng
    shuffled = [e for e in events if e["type"] == "HavenCardShuffledIn"]
    assert len(shuffled) == 1 and shuffled[0]["rule"] == "HND-4"
    assert not [e for e in events if e["type"] == "DeckTopShown"]
    # where it went is secret: nobody's view differs from a world where it went elsewhere
    for v in (0, 1, None):
        assert api.view(g.state, v, include_state=True)["state"]["haven"][1:] == ["?"] * len(haven)
    assert not api.can_undo(g.state, 0)             # a draw from the PRNG cannot be undone (PRJ-2)


def test_PRJ_3_the_place_depends_on_the_game_seed_not_on_global_random():
    places = set()
    for seed in range(12):
        random.seed(seed * 7919)
        g = play_year([{"money": 2, "hand": ["tortuga"]}, {"money": 5}], seed=seed)
        g.act({"seat": 0, "type": "discard", "card": "tortuga"})
        places.add(g.state.haven.index("tortuga"))
        random.seed(-seed)
        again = play_year([{"money": 2, "hand": ["tortuga"]}, {"money": 5}], seed=seed)
        again.act({"seat": 0, "type": "discard", "card": "tortuga"})
        assert again.state.haven == g.state.haven
    assert 0 not in places and len(places) >= 4


def test_PRJ_3_a_haven_card_returned_to_an_empty_haven_deck_becomes_its_top():
    others = [c for c in RS.haven if c != "tortuga"]
    g = play_year([{"money": 2, "hand": ["tortuga"], "tableau": others}, {"money": 5}])
    assert g.state.haven == []
    events = g.act({"seat": 0, "type": "discard", "card": "tortuga"})
    assert g.state.haven == ["tortuga"]
    (top,) = [e for e in events if e["type"] == "DeckTopShown"]
    assert (top["deck"], top["card"]) == ("haven", "tortuga")
    assert api.view(g.state, 1, include_state=True)["decks"]["haven"]["top"] == "tortuga"


# ---- PRJ-19: refilling the Market deck --------------------------------------------------------

@pytest.mark.parametrize("kind", ["sell", "discard"])
def test_PRJ_19_a_card_into_the_discard_of_an_empty_market_deck_refills_it_at_once(kind):
    cards = list(RS.market)
    g = play_year([{"money": 2, "hand": [cards[0]], "tableau": cards[1:25]},
                   {"money": 5, "tableau": cards[25:]}])
    assert g.state.market == []
    events = g.act({"seat": 0, "type": kind, "card": cards[0]})
    assert g.state.market == [cards[0]] and g.state.market_discard == []
    names = [e["type"] for e in events]
    assert names.index("DeckRefilled") < names.index("DeckTopShown")
    (refill,) = [e for e in events if e["type"] == "DeckRefilled"]
    assert (refill["deck"], refill["size"], refill["rule"]) == ("market", 1, "AUC-6")
    assert api.view(g.state, 1, include_state=True)["decks"]["market"] == {"top": cards[0], "count": 1}
    assert sorted(audit.cards(g.state)) == sorted(RS.market + RS.haven)


def test_PRJ_19_no_refill_while_the_market_deck_has_cards():
    g = play_year([{"money": 2, "hand": [GALEON[0], GALEON[1]]}, {"money": 5}])
    rng = g.state.rng
    events = g.act({"seat": 0, "type": "sell", "card": GALEON[0]})
    events += g.act({"seat": 0, "type": "discard", "card": GALEON[1]})
    assert g.state.market_discard == [GALEON[0], GALEON[1]] and g.state.rng == rng
    assert not [e for e in events if e["type"] in ("DeckRefilled", "DeckTopShown")]
    assert api.can_undo(g.state, 0)                # nothing was drawn: the seat may take it back


# ---- PRJ-2 within a play turn ------------------------------------------------------------------

def test_PRJ_2_a_play_can_be_undone_within_ones_turn():
    g = play_year([{"money": 5, "hand": [TITULO[0]]}, {"money": 5}])
    before = dumps(g.state.to_dict())
    g.act({"seat": 0, "type": "play", "card": TITULO[0]})
    g.act({"seat": 0, "type": "undo"})
    after = g.state.to_dict()
    assert {k: v for k, v in after.items() if k not in ("version", "event_seq")} == \
        {k: v for k, v in json.loads(before).items() if k not in ("version", "event_seq")}
