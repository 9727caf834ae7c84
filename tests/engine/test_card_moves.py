"""HID-2: what a seat's log tells of the Market cards it saw leave hands (knowledge._card_moves),
event by event: sold and discarded cards go to the discard pile and back into the deck at a
refill, a played card does not, an undo takes back the seat's last move of this year only, and
a card won again leaves the pile (issue 36: the mutation score)."""

from __future__ import annotations

from pax_hispanica.engine.knowledge import _card_moves


def _sold(card, seat=0):
    return {"type": "CardSold", "seat": seat, "card": card}


def _discarded(card, deck="market", seat=0):
    return {"type": "CardDiscarded", "seat": seat, "card": card, "deck": deck}


REFILL = {"type": "DeckRefilled"}
YEAR = {"type": "YearBegan"}


def _back(events):
    return _card_moves(events)[1]


def test_HID_2_sold_and_market_discards_go_back_at_a_refill_and_played_or_haven_cards_do_not():
    assert _back([_sold("a"), _discarded("b"), REFILL]) == {"a", "b"}
    assert _back([{"type": "CardPlayed", "seat": 0, "card": "c"}, _discarded("h", deck="haven"), REFILL]) == set()


def test_HID_2_every_refill_adds_to_the_cards_back_in_a_deck():
    assert _back([_sold("a"), REFILL, _sold("b"), REFILL]) == {"a", "b"}


def test_HID_2_an_undo_takes_back_this_years_last_move_only():
    undo = {"type": "ActionUndone", "seat": 0}
    assert _back([_sold("a"), undo, REFILL]) == set()
    assert _back([_sold("a"), YEAR, undo, REFILL]) == {"a"}


def test_HID_2_a_card_won_again_leaves_the_discard_pile():
    won = {"type": "AuctionWon", "card": "a", "winner": 1}
    winner, back = _card_moves([_sold("a"), won, REFILL])
    assert back == set() and winner == {"a": 1}


def test_HID_2_an_empty_deck_has_no_known_card_while_hands_are_unknown():
    from pax_hispanica import api
    from support import scenario
    haven = sorted(set(api.load_ruleset().haven))
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"hand": haven[0:4]}, {"hand": haven[4:7]}, {"hand": haven[7:]}]})
    view = api.view(g.state, 0)
    assert view["decks"]["haven"]["count"] == 0 and view["decks"]["haven"]["top"] is None
    known = api.known_cards(view, api.redact(g.events, 0))
    assert known["decks"]["haven"]["cards"] == []
    assert sorted(known["decks"]["haven"]["unsure"]) == haven[4:]
