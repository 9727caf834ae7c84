"""The engine's words: the years, the Flagship's legalities, the meeples and the decks.

Each is a StrEnum: a member *is* its string ("citizen" == Meeple.CITIZEN, with the same hash),
so JSON, hashes and commitments see exactly the strings saved games and records have always
held, and a value read back from JSON compares equal to the member. The state keeps members
(setup, restore and scenarios convert what they read); an action a player sends keeps plain
strings (PRJ-7 checks exact JSON types), so legal_actions writes `str(member)`.

On Python 3.11 reading a member through its class costs a property call: the hot paths use
the module-level names below (PLUNDER, CITIZEN, CHEST, ...), which are the same objects.
tests/engine/test_vocab.py checks every word against the rules' data and the schemas.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, Literal, TypeAlias


class Year(StrEnum):
    """CYC-1: the four years of a cycle, D1..D4 in order (`State.year` is the index)."""
    GOODS = "goods"
    AUCTION = "auction"
    PLAY = "play"
    SAIL = "sail"


class Legality(StrEnum):
    """TRS-1: a Flagship's legality, which decides how it may take and score treasure."""
    PLUNDER = "PLUNDER"
    SMUGGLER = "SMUGGLER"
    CONQUISTADOR = "CONQUISTADOR"
    PRIVATEER = "PRIVATEER"


class Meeple(StrEnum):
    """The people pieces: a colony's labour is a Citizen or a Slave (PRJ-6), a fleet carries
    Citizens and enslaved Indigenous (LOAD-1, LOAD-3), Rebels stand in land zones (GDS-6)."""
    CITIZEN = "citizen"
    INDIGENOUS = "indigenous"
    SLAVE = "slave"
    REBEL = "rebel"


class Deck(StrEnum):
    """AUC-1: the two card decks (the Market deck also has a discard pile, AUC-6)."""
    MARKET = "market"
    HAVEN = "haven"


YEARS: Final = tuple(Year)
DECKS: Final = tuple(Deck)

GOODS: Final = Year.GOODS
AUCTION: Final = Year.AUCTION
PLAY: Final = Year.PLAY
SAIL: Final = Year.SAIL
PLUNDER: Final = Legality.PLUNDER
SMUGGLER: Final = Legality.SMUGGLER
CONQUISTADOR: Final = Legality.CONQUISTADOR
PRIVATEER: Final = Legality.PRIVATEER
CITIZEN: Final = Meeple.CITIZEN
INDIGENOUS: Final = Meeple.INDIGENOUS
SLAVE: Final = Meeple.SLAVE
REBEL: Final = Meeple.REBEL
MARKET: Final = Deck.MARKET
HAVEN: Final = Deck.HAVEN

CHEST: Final = "chest"
"""A Chest aboard (`State.cargo`) or gone (`State.gone`): a treasure token, not a meeple."""

Labour: TypeAlias = Literal[Meeple.CITIZEN, Meeple.SLAVE]
"""What works a colony (`State.col_labour`, None while vacant)."""

Cargo: TypeAlias = Literal[Meeple.CITIZEN, Meeple.INDIGENOUS, "chest"]
"""What a fleet carries (`State.cargo`)."""

ABOARD: Final = (CITIZEN, INDIGENOUS)
"""The meeples a fleet may carry and unload (LOAD-4)."""

# Each word as read back from JSON or TOML (a plain string) -> its member: how restore,
# determinize and scenarios give the state members again (a dict lookup: cheaper than a call).
LEGALITY: Final[dict[str, Legality]] = {str(x): x for x in Legality}
LABOUR: Final[dict[str, Labour]] = {"citizen": CITIZEN, "slave": SLAVE}
CARGO: Final[dict[str, Cargo]] = {"citizen": CITIZEN, "indigenous": INDIGENOUS, "chest": CHEST}
DECK: Final[dict[str, Deck]] = {str(x): x for x in Deck}


def labour_of(x: str | None) -> Labour | None:
    return None if x is None else LABOUR[x]
