"""What a seat can know of every hand and deck from its view and the public log (HID-1, HID-2).

Every card that enters a hand is named in public: an auction's card is face up, or revealed
once the bids are (AUC-2, `AuctionWon`). So a seat that remembers the log knows every hand
of a game set up normally; only a scenario's hands (PRJ-33) start unknown to the others.
A deck's order below its face-up top stays secret; which cards it holds follows from where
all the others are.
"""

from __future__ import annotations

from typing import Any

from .ruleset import Rulesets
from .vocab import DECKS

_LEAVE_HAND = ("CardPlayed", "CardSold", "CardDiscarded")


def _card_moves(events: list[dict[str, Any]]) -> tuple[dict[str, int], set[str]]:
    """Each card's last winner, and the cards that have gone back into a deck since.
    A card returns to a deck only by an irreversible step (a refill shuffles the discard pile
    back, a discarded Haven card is shuffled in), which PRJ-2 never undoes. An undone play,
    sale or discard (`ActionUndone`) takes back that seat's last card move of the turn: in a
    Play turn every action but end_turn moves one card, and end_turn is never undone."""
    winner: dict[str, int] = {}
    back_in_deck: set[str] = set()
    discarded: set[str] = set()                  # in the Market discard pile, as the log tells
    turn_moves: dict[int, list[str | None]] = {}     # this year's card moves per seat, for undo
    for e in events:
        t = e["type"]
        if t == "YearBegan":
            turn_moves = {}
        elif t == "AuctionWon":
            winner[e["card"]] = e["winner"]
            back_in_deck.discard(e["card"])
            discarded.discard(e["card"])
        elif t in _LEAVE_HAND:
            to_discard = t == "CardSold" or (t == "CardDiscarded" and e["deck"] == "market")
            if to_discard:
                discarded.add(e["card"])
            turn_moves.setdefault(e["seat"], []).append(e["card"] if to_discard else None)
        elif t == "ActionUndone":
            undone = turn_moves.get(e["seat"])
            if undone:
                card = undone.pop()
                if card is not None:
                    discarded.discard(card)
        elif t == "DeckRefilled":
            back_in_deck |= discarded
            discarded = set()
        elif t == "HavenCardShuffledIn":
            back_in_deck.add(e["card"])
    return winner, back_in_deck


def known_cards(view: dict[str, Any], events: list[dict[str, Any]], rulesets: Rulesets) -> dict[str, Any]:
    """What `view["viewer"]` can know of each hand and deck, from its view and its log
    (`api.redact(events, viewer)`): per seat the hand's size, the cards known in it and how
    many are unknown; per deck its size, face-up top, the cards known to be in it, and the
    cards that are in it or in an unknown hand ("unsure"). docs/api.md, "What a seat knows".
    `rulesets` resolves the view's ruleset (api.known_cards passes the loader)."""
    rs = rulesets(view["ruleset"], view.get("ruleset_params") or None)
    players = view["players"]
    n = len(players)
    winner, back_in_deck = _card_moves(events)
    placed = {t["card"] for p in players for t in p["tableau"]}
    discard = list(view["decks"]["market_discard"])
    hands: list[list[str]] = [[] for _ in range(n)]
    shown = [p["hand"] is not None for p in players]       # one's own hand, or every hand once over
    for s, p in enumerate(players):
        if shown[s]:
            hands[s] = list(p["hand"])
    def still_held(card: str) -> bool:
        return card not in placed and card not in discard and card not in back_in_deck

    for e in events:                   # a scenario's hands, less what was played, sold or won since
        if e["type"] == "ScenarioHand" and not shown[e["seat"]]:
            hands[e["seat"]] = [c for c in e["hand"] if c not in winner and still_held(c)]
    for card, s in winner.items():
        if not shown[s] and still_held(card):
            hands[s].append(card)
    unknown = [max(0, p["hand_count"] - len(hands[s])) for s, p in enumerate(players)]
    located = placed | set(discard) | {c for h in hands for c in h}
    decks: dict[str, Any] = {}
    for name in map(str, DECKS):
        info = view["decks"][name]
        rest = sorted(c for c in (rs.market if name == "market" else rs.haven) if c not in located)
        sure = rest if not any(unknown) else sorted({c for c in rest if c in back_in_deck} | (
            {info["top"]} if info["top"] else set()))
        decks[name] = {"count": info["count"], "top": info["top"], "cards": sure,
                       "unsure": [c for c in rest if c not in sure]}
    return {"viewer": view["viewer"],
            "hands": [{"seat": s, "count": players[s]["hand_count"], "known": sorted(hands[s]),
                       "unknown": unknown[s]} for s in range(n)],
            "decks": decks, "market_discard": discard}
