"""Auction Year, D2 (seed p7).

In Player Order each player initiates one auction or passes (AUC-1; with
`auctions_per_player` > 1, round by round, PRJ-20), naming the deck and whether
it is buried treasure: then the unseen card below the top is sold, seen by nobody
until the reveal (AUC-2, PRJ-8). The initiator and every other player with $1 or
more commit sealed bids, revealed at once (AUC-3, sealed.py). The highest bid
wins, the initiator wins ties, other ties go to the earliest after the initiator
in Player Order (AUC-4); the initiator pays the Pool, another winner pays the
initiator (AUC-5). The card goes to the winner's hand, the deck shows its next
card and an empty Market deck is refilled from its discard (AUC-6). No hand
limit applies here (AUC-7): it is enforced in the Play Year (HND-2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .. import decks
from ..decisions import BOOL, INT, NONE, STR, BidContext, Decision, DecisionContext, register
from .. import why
from ..errors import IllegalAction
from ..flow import Out, Step
from ..sealed import commit
from ..state import appended
from ..vocab import DECK, DECKS, Deck

if TYPE_CHECKING:
    from ..state import State


def auctions(st: State, out: Out) -> bool:
    """AUC-1: each player in turn (auctions_per_player rounds) may initiate an auction."""
    i = st.cursor.get("i", 0)
    if i >= len(st.order) * st.rs.auctions_per_player:
        return False
    st.cursor = {**st.cursor, "i": i + 1}           # shared between states: replaced
    seat = st.order[i % len(st.order)]
    Initiate.push(st, (seat,))
    return True


def initiate_options(st: State, seat: int) -> list[dict[str, Any]]:
    opts = [{"seat": seat, "type": "pass"}]
    for deck in DECKS:
        n = len(decks.pile(st, deck))
        name = str(deck)                    # an action holds plain strings (PRJ-7)
        if n >= 1:
            opts.append({"seat": seat, "type": "initiate", "deck": name, "buried": False})
        if n >= 2:     # PRJ-8: buried treasure needs a card below the top
            opts.append({"seat": seat, "type": "initiate", "deck": name, "buried": True})
    return opts


class Initiate(Decision[DecisionContext]):
    """AUC-1: initiate an auction (a deck, and whether buried treasure, AUC-2) or pass."""

    name = "initiate"
    rule = "AUC-1"
    actions = {"initiate": {"deck": (STR,), "buried": (BOOL, NONE)}, "pass": {}}  # noqa: RUF012 -- a ClassVar of engine/decisions.Decision
    observation = ()

    def reasons(self, board: Any, dec: Mapping[str, Any]) -> list[dict[str, Any]]:
        return why.initiate_reasons(board, dec)

    def legal(self, st: State, dec: DecisionContext, seat: int) -> list[dict[str, Any]]:
        return [{"kind": "choice", "decision": "initiate", "rule": "AUC-1", "options": initiate_options(st, seat)}]

    def act(self, st: State, dec: DecisionContext, action: dict[str, Any], out: Out) -> None:
        seat = action["seat"]
        if action["type"] == "pass":
            st.stack.pop()
            out.emit("AuctionPassed", "AUC-1", seat=seat)
            return
        if action["type"] != "initiate":
            raise IllegalAction("wrong_action", "AUC-1", "Initiate an auction or pass.")
        deck, buried = action.get("deck"), action.get("buried", False)
        if deck not in DECKS:
            raise IllegalAction("unknown_deck", "AUC-1", "The deck is 'market' or 'haven'.")
        if not isinstance(buried, bool):
            raise IllegalAction("malformed", "AUC-2", "`buried` is true or false.")
        assert isinstance(deck, str)
        chosen = DECK[deck]
        n = len(decks.pile(st, chosen))
        if n < (2 if buried else 1):
            raise IllegalAction("deck_too_small", "PRJ-8" if buried else "AUC-1",
                                f"The {deck} deck has {n} card(s): not enough for this auction.")
        st.stack.pop()
        start_bidding(st, seat, chosen, buried, out)
register(Initiate)


def start_bidding(st: State, initiator: int, deck: Deck, buried: bool, out: Out) -> None:
    """AUC-3: the initiator and every other player with at least $1 bid, in secret."""
    k = st.order.index(initiator)
    after = st.order[k + 1:] + st.order[:k]        # AUC-4: ties among others go to the earliest after the initiator
    bidders = (initiator,) + tuple(s for s in after if st.money[s] >= 1)
    pos = 1 if buried else 0
    card = None if buried else decks.pile(st, deck)[0]
    out.emit("AuctionStarted", "AUC-2" if buried else "AUC-1", initiator=initiator, deck=deck, buried=buried,
             card=card, bidders=list(bidders))
    SealedBid.push(st, bidders, id=f"bid.{st.cycle}.{st.version}", initiator=initiator, deck=deck, pos=pos,
                   card=card)


class SealedBid(Decision[BidContext]):
    """AUC-3: a sealed bid, from $0 to all one's money."""

    name = "bid"
    rule = "AUC-3"
    actions = {"bid": {"amount": (INT,)}}  # noqa: RUF012 -- a ClassVar of engine/decisions.Decision
    sealed = True
    secret_field = "amount"
    observation = (("card", "card"), ("deck", "deck"), ("pos", "number"), ("initiator", "seat"))
    nothing_to_explain = "any whole number from $0 to one's money is a bid"

    def secret_domain(self, info: Mapping[str, Any], dec: Mapping[str, Any], seat: int) -> Sequence[int]:
        return range(info["money"][seat] + 1)        # money is public (HID-1)

    def legal(self, st: State, dec: BidContext, seat: int) -> list[dict[str, Any]]:
        return [{"kind": "range", "decision": "bid", "rule": "AUC-3", "action": {"seat": seat, "type": "bid"},
                 "field": "amount", "min": 0, "max": st.money[seat]}]

    def act(self, st: State, dec: BidContext, action: dict[str, Any], out: Out) -> None:
        if action["type"] != "bid":
            raise IllegalAction("wrong_action", "AUC-3", "Place a sealed bid.")
        amount = action.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise IllegalAction("malformed", "AUC-3", "A bid is a whole number of dollars.")
        seat = action["seat"]
        if not 0 <= amount <= st.money[seat]:
            raise IllegalAction("bid_out_of_range", "AUC-3", f"A bid is from $0 to your money (${st.money[seat]}).")
        commit(st, dec, seat, amount, out, resolve_auction)
register(SealedBid)


def resolve_auction(st: State, dec: BidContext, bids: dict[int, int], out: Out) -> None:
    """AUC-4 winner, AUC-5 payment, AUC-6 the card and the deck."""
    initiator = dec["initiator"]
    high = max(bids.values())
    winner = initiator if bids[initiator] == high else next(s for s in dec["seats"][1:] if bids[s] == high)
    price = bids[winner]
    st.money[winner] -= price
    paid_to: int | str
    if winner == initiator:
        st.burned += price
        paid_to = "pool"
    else:
        st.money[initiator] += price
        paid_to = initiator
    card = decks.taken(st, dec["deck"], dec["pos"])
    st.hands = appended(st.hands, winner, card)          # shared between states: replaced
    if dec["pos"] == 1:
        out.emit("BuriedCardRevealed", "AUC-2", deck=dec["deck"], card=card)
    out.emit("AuctionWon", "AUC-5", winner=winner, initiator=initiator, card=card, deck=dec["deck"],
             price=price, paid_to=paid_to, tie_broken=list(bids.values()).count(high) > 1)
    decks.refill(st, dec["deck"], out)
    if dec["pos"] == 0:
        decks.show_top(st, dec["deck"], out)


STEPS: tuple[Step, ...] = (auctions,)
