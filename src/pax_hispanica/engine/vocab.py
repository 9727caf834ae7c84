"""The game's words, each declared once with its order: the years, the Flagship's legalities,
the meeples, the decks and the reference nations. Every layer (engine, bots, rl, sim, api, web)
imports them from here; tests/test_vocabulary.py fails when a list of them is written out again
anywhere in src/, naming the file and what to import instead. The decision types' names are
declared by the decision classes themselves (engine/decisions.py, `DECISIONS` in registration
order: `decision_names()` below); the card effect kinds by engine/effects.py.

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


class Nation(StrEnum):
    """The reference ruleset's nations, in its order (nations.toml `order`, the default seating).
    A ruleset may declare other nations: a game's are its ruleset's `nation_order`."""
    SPANISH = "spanish"
    ENGLISH = "english"
    FRENCH = "french"
    DUTCH = "dutch"
    COURLAND = "courland"


YEARS: Final = tuple(Year)
LEGALITIES: Final = tuple(Legality)
MEEPLES: Final = tuple(Meeple)
DECKS: Final = tuple(Deck)
NATIONS: Final = tuple(Nation)
HIDDEN: Final = "?"          # a card its viewer may not see, in an information state (HID-1)

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

PEOPLE: Final = (CITIZEN, INDIGENOUS, SLAVE)
"""The meeples that are people a colony or a fleet may hold (every meeple but the Rebel)."""

GONE: Final = (*MEEPLES, CHEST)
"""What `State.gone` counts, in its key order: each meeple and the Chest removed from the game."""

SPANISH: Final = Nation.SPANISH

BY_CROWN_FAVOUR: Final = (CONQUISTADOR, PRIVATEER, SMUGGLER, PLUNDER)
"""The legalities from the Crown's own to the outlaws (TRS-1's order is LEGALITIES): the order
the pages compare them in."""

# Each word as read back from JSON or TOML (a plain string) -> its member: how restore,
# determinize and scenarios give the state members again (a dict lookup: cheaper than a call).
LEGALITY: Final[dict[str, Legality]] = {str(x): x for x in Legality}
LABOUR: Final[dict[str, Labour]] = {"citizen": CITIZEN, "slave": SLAVE}
CARGO: Final[dict[str, Cargo]] = {"citizen": CITIZEN, "indigenous": INDIGENOUS, "chest": CHEST}
DECK: Final[dict[str, Deck]] = {str(x): x for x in Deck}


def labour_of(x: str | None) -> Labour | None:
    return None if x is None else LABOUR[x]


def decision_names() -> tuple[str, ...]:
    """The decision types' names in registration order (the years' order, CYC-1): the
    registry's keys, declared by each decision class (engine/decisions.py)."""
    from . import years  # noqa: F401  (importing the years registers every decision type)
    from .decisions import DECISIONS
    return tuple(DECISIONS)
