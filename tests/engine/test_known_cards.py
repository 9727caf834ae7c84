"""api.known_cards: what a seat can know of each hand and deck from its view and log (HID-1,
HID-2): in a normal game every hand is known from the public log, and each deck's cards."""

from __future__ import annotations

import random

import pytest

from pax_hispanica import api
from support import NO_SPAIN, scenario


def _truth(st):
    return ([sorted(h) for h in st.hands], sorted(st.market), sorted(st.haven))


def _check(g, viewer):
    st = g.state
    k = api.known_cards(api.view(st, viewer, include_state=False), api.redact(g.events, viewer))
    hands, market, haven = _truth(st)
    assert [h["known"] for h in k["hands"]] == hands
    assert all(h["unknown"] == 0 for h in k["hands"])
    assert k["decks"]["market"]["cards"] == market and k["decks"]["haven"]["cards"] == haven
    assert k["decks"]["market"]["unsure"] == [] and k["decks"]["haven"]["unsure"] == []
    assert k["decks"]["market"]["top"] == (st.market[0] if st.market else None)
    return k


@pytest.mark.parametrize("seed", range(8))
def test_HID_2_every_hand_and_deck_follows_from_the_public_log_with_undos(seed):
    n = 2 + seed % 4
    g = api.Game.new(api.Config(players=n), seed=seed)
    r = random.Random(seed)
    steps = 0
    while not api.is_over(g.state):
        seat = api.acting(g.state)[0]
        if api.can_undo(g.state, seat) and r.random() < 0.3:
            g.act({"seat": seat, "type": "undo"})
        else:
            legal = api.legal_actions(g.state, seat)
            g.act(api.nth_action(legal, r.randrange(api.count_actions(legal))))
        steps += 1
        if steps % 7 == 0:
            _check(g, r.choice([None, *range(n)]))
    _check(g, None)
    assert any(e["type"] == "ActionUndone" for e in g.events)


def test_HID_1_a_scenario_hand_is_unknown_to_the_others_and_its_cards_unsure():
    rs = api.load_ruleset("reference")
    market = [c for c in rs.market][:3]
    scn = {"config": {"players": 3, "nations": ["spanish", "english", "french"]}, "seed": 3,
           "position": {"year": "play", "players": [{"hand": market[:2]}, {"hand": market[2:3]}, {}]}}
    g = api.from_scenario(scn)
    for viewer, own in ((0, market[:2]), (1, market[2:3])):
        k = api.known_cards(api.view(g.state, viewer, include_state=False), api.redact(g.events, viewer))
        me = k["hands"][viewer]
        assert me["known"] == sorted(own) and me["unknown"] == 0
        other = 1 - viewer
        assert k["hands"][other]["known"] == [] and k["hands"][other]["unknown"] == k["hands"][other]["count"] > 0
        unsure = set(k["decks"]["market"]["unsure"])
        assert set(g.state.hands[other]) <= unsure                  # the other's cards: deck or hand
        assert not set(own) & (unsure | set(k["decks"]["market"]["cards"]))
        assert k["decks"]["market"]["top"] in k["decks"]["market"]["cards"]
    spectator = api.known_cards(api.view(g.state, None, include_state=False), api.redact(g.events, None))
    assert [h["unknown"] for h in spectator["hands"]] == [2, 1, 0]


def test_PRJ_2_an_undone_sale_keeps_its_card_in_hand_after_a_later_refill():
    """Seat 0 sells A, undoes it, sells B; a later auction empties the Market deck, whose
    discard pile (B and the others' sales, not A) is shuffled back (AUC-6): A is still seat 0's,
    never surely in the deck."""
    rs = api.load_ruleset("reference")
    market = list(rs.market)
    a, b, last, rest = market[0], market[1], market[2], market[3:]
    scn = {"config": {"players": 3, "nations": ["spanish", "english", "french"]}, "seed": 9,
           "position": {"year": "play", "order": [0, 1, 2],
                        "players": [{"hand": [a, b], "money": 5}, {"hand": rest[: len(rest) // 2], "money": 5},
                                    {"hand": rest[len(rest) // 2:], "money": 5}],
                        "decks": {"market": [last]}}}
    g = api.from_scenario(scn)
    assert g.state.market == [last]
    g.act({"seat": 0, "type": "sell", "card": a})
    g.act({"seat": 0, "type": "undo"})
    g.act({"seat": 0, "type": "sell", "card": b})
    assert a in g.state.hands[0]
    while not any(e["type"] == "DeckRefilled" for e in g.events):
        seat = api.acting(g.state)[0]
        opts = api.expand(api.legal_actions(g.state, seat)) if api.count_actions(
            api.legal_actions(g.state, seat)) < 500 else [api.nth_action(api.legal_actions(g.state, seat), 0)]
        pick = next((o for o in opts if o["type"] == "end_turn"), None) \
            or next((o for o in opts if o["type"] in ("sell", "discard") and o["card"] != a), None) \
            or next((o for o in opts if o["type"] == "initiate" and o["deck"] == "market" and not o["buried"]), None) \
            or opts[0]
        g.act(pick)
    assert a in g.state.hands[0]
    k = api.known_cards(api.view(g.state, 1, include_state=False), api.redact(g.events, 1))
    # seat 1 never saw A (a scenario hand, PRJ-33): not surely in the deck, only possibly
    assert a not in k["decks"]["market"]["cards"] and a in k["decks"]["market"]["unsure"]
    assert k["hands"][0]["unknown"] == 1
    mine = api.known_cards(api.view(g.state, 0, include_state=False), api.redact(g.events, 0))
    assert a in mine["hands"][0]["known"]


def test_HID_2_a_log_that_holds_a_scenario_hand_makes_its_cards_known_less_those_played_since():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"hand": ["galeon-1", "encomienda-1"], "money": 9}, {"hand": ["galeon-2"]}, {}]},
                 nations=NO_SPAIN)
    g.act({"seat": 0, "type": "sell", "card": "encomienda-1"})
    view = api.view(g.state, 1)                      # seat 1 sees its own hand only ...
    assert view["players"][0]["hand"] is None
    known = api.known_cards(view, g.events)          # ... but this log (not redacted) holds seat 0's
    assert known["hands"][0]["known"] == ["galeon-1"] and known["hands"][0]["unknown"] == 0
    redacted = api.known_cards(view, api.redact(g.events, 1))
    assert redacted["hands"][0]["known"] == [] and redacted["hands"][0]["unknown"] == 1


def test_HID_2_a_won_card_discarded_to_the_market_pile_and_refilled_is_known_in_the_deck_not_in_hand():
    """Seat 0 wins the Market deck's last card X at auction (AUC-6: `AuctionWon`, public), then
    discards it in the Play Year (HND-4: a Market card goes to the Market discard pile) while
    the deck is empty: the pile is shuffled back at once (PRJ-19), so X is the deck's again.
    Every seat knows it from the log (`CardDiscarded` with deck "market", then `DeckRefilled`):
    seat 0's hand is known to be empty, X known to be the deck's, for the others too (whose
    own scenario hands, PRJ-33, stay unknown to each other)."""
    rs = api.load_ruleset("reference")
    market = list(rs.market)
    x, rest = market[0], market[1:]
    scn = {"config": {"players": 3, "nations": ["spanish", "english", "french"]}, "seed": 9,
           "position": {"year": "auction", "order": [0, 1, 2],
                        "players": [{"hand": [], "money": 5}, {"hand": rest[: len(rest) // 2], "money": 5},
                                    {"hand": rest[len(rest) // 2:], "money": 5}],
                        "decks": {"market": [x]}}}
    g = api.from_scenario(scn)
    g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": False})
    for seat in (0, 1, 2):
        g.act({"seat": seat, "type": "bid", "amount": 0})           # a tie: the initiator wins (AUC-4)
    g.act({"seat": 1, "type": "pass"})
    g.act({"seat": 2, "type": "pass"})
    assert [(e["card"], e["winner"]) for e in g.events if e["type"] == "AuctionWon"] == [(x, 0)]
    assert g.state.hands[0] == [x] and g.state.market == [] and list(api.acting(g.state)) == [0]

    def known(viewer):
        return api.known_cards(api.view(g.state, viewer, include_state=False), api.redact(g.events, viewer))

    for viewer in (None, 1, 2):                   # the win is public: X is known to be in seat 0's hand
        assert known(viewer)["hands"][0] == {"seat": 0, "count": 1, "known": [x], "unknown": 0}
    g.act({"seat": 0, "type": "discard", "card": x})
    assert [(e["card"], e["deck"]) for e in g.events if e["type"] == "CardDiscarded"] == [(x, "market")]
    assert g.events[-2]["type"] == "DeckRefilled"
    assert g.state.market == [x] and g.state.market_discard == [] and g.state.hands[0] == []
    for viewer in (None, 0, 1, 2):
        k = known(viewer)
        assert k["hands"][0] == {"seat": 0, "count": 0, "known": [], "unknown": 0}, viewer
        hidden = sorted(c for s in (1, 2) if s != viewer for c in g.state.hands[s])   # hands unseen by viewer
        assert k["decks"]["market"] == {"count": 1, "top": x, "cards": [x], "unsure": hidden}, viewer
        assert k["market_discard"] == []
        for s in (1, 2):
            assert k["hands"][s]["known"] == (sorted(g.state.hands[s]) if s == viewer else [])
