"""The Market and Haven decks: face-down stacks whose top card (index 0) is face up."""

from __future__ import annotations

from .flow import Out
from .rng import below, shuffle


def pile(st, deck: str) -> list:
    return st.market if deck == "market" else st.haven


def refill(st, deck: str, out: Out) -> None:
    """AUC-6: an empty Market deck is refilled by shuffling its discard pile."""
    if deck == "market" and not st.market and st.market_discard:
        st.market = st.market_discard
        st.market_discard = []
        st.rng = shuffle(st.rng, st.market)
        out.irreversible = True
        out.emit("DeckRefilled", "AUC-6", deck=deck, size=len(st.market))


def show_top(st, deck: str, out: Out) -> None:
    cards = pile(st, deck)
    out.irreversible = True
    out.emit("DeckTopShown", "AUC-6", deck=deck, card=cards[0] if cards else None, size=len(cards))


def return_haven_card(st, card: str, out: Out) -> None:
    """HND-4, PRJ-3: shuffled back in at a random place below the face-up top card."""
    n = len(st.haven)
    if n == 0:
        pos = 0
    else:
        st.rng, r = below(st.rng, n)
        pos = r + 1
    st.haven.insert(pos, card)
    out.irreversible = True
    out.emit("HavenCardShuffledIn", "HND-4", card=card, size=len(st.haven))
