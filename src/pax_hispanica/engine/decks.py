"""The Market and Haven decks: face-down stacks whose top card (index 0) is face up.

Whatever is below the top is secret (HID-1): the view shows it as '?'. Every
change of the face-up top is announced (`DeckTopShown`) and is irreversible
for undo (PRJ-2), as is every draw from the PRNG.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .flow import Out
from .rng import draw, draw_shuffle
from .vocab import HAVEN, MARKET, Deck

if TYPE_CHECKING:
    from .state import State


def pile(st: State, deck: Deck) -> list[str]:
    """A deck's cards, to read: states share the decks (State.copy), so a rule that changes one
    puts a new list in place (`taken`, `refill`, `discard_market_card`, `return_haven_card`)."""
    return st.market if deck == MARKET else st.haven


def taken(st: State, deck: Deck, pos: int) -> str:
    """The card at `pos` of a deck, taken from it (AUC-6): the deck is replaced, not changed."""
    cards = pile(st, deck)[:]
    card = cards.pop(pos)
    if deck == MARKET:
        st.market = cards
    else:
        st.haven = cards
    return card


def refill(st: State, deck: Deck, out: Out) -> bool:
    """AUC-6: an empty Market deck is refilled by shuffling its discard pile (the Haven deck has none)."""
    if deck == MARKET and not st.market and st.market_discard:
        st.market = st.market_discard[:]          # shuffled in place below: a list of its own
        st.market_discard = []
        st.rng = draw_shuffle(st.seed, st.rng, st.market, out.chance)
        out.irreversible = True
        out.emit("DeckRefilled", "AUC-6", deck=deck, size=len(st.market))
        return True
    return False


def show_top(st: State, deck: Deck, out: Out) -> None:
    cards = pile(st, deck)
    out.irreversible = True
    out.emit("DeckTopShown", "AUC-6", deck=deck, card=cards[0] if cards else None, size=len(cards))


def discard_market_card(st: State, card: str, out: Out) -> None:
    """HND-3, HND-4: a sold or discarded Market card goes to the Market discard pile.
    PRJ-19: if the Market deck is empty it is refilled at once (AUC-6), so that the
    next initiator sees its face-up top card before choosing."""
    st.market_discard = st.market_discard + [card]        # shared between states: replaced
    if refill(st, MARKET, out):
        show_top(st, MARKET, out)


def return_haven_card(st: State, card: str, out: Out) -> None:
    """HND-4, PRJ-3: shuffled back in at a random place below the face-up top card,
    drawn from the state's PRNG; into an empty deck it becomes the face-up top."""
    n = len(st.haven)
    if n == 0:
        pos = 0
    else:
        st.rng, r = draw(st.seed, st.rng, n, out.chance)
        pos = r + 1
    haven = st.haven[:]                                   # shared between states: replaced
    haven.insert(pos, card)
    st.haven = haven
    out.irreversible = True
    out.emit("HavenCardShuffledIn", "HND-4", card=card, size=len(st.haven))
    if pos == 0:
        show_top(st, HAVEN, out)
