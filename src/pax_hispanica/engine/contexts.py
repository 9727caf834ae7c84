"""The saved contexts of the decisions (engine/decisions.py): what each pending decision dict
on `st.stack` holds, as TypedDicts for type checkers and for the tests that read them
(tests/engine/test_decisions.py, test_api_decision.py: every saved decision fits its context;
docs/api.md's table of decisions lists their keys).

A module of its own, left out when the engine is compiled (benchmarks/mypyc_build.py, setup.py):
mypyc builds a TypedDict subclass without its bases' keys (`BidContext(SealedContext)`'s
annotations would lose "sealed", "committed", "id"), and at run time a TypedDict is a plain
dict anyway, so compiling these classes gains nothing.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from .vocab import Deck


class DecisionContext(TypedDict):
    """What every pending decision saves: its name, the seats that must act, its rule."""
    d: str
    seats: tuple[int, ...]
    rule: str


class SealedContext(DecisionContext):
    """A sealed choice (sealed.py): the seats that have committed with their hashes, and the
    id its salts and commitments are made from. A hash is None where apply_trusted committed:
    `decisions.committed_hashes` makes it when a saved state or a view reads it."""
    sealed: bool
    committed: tuple[tuple[int, str | None], ...]
    id: str


class LabourContext(DecisionContext):
    colonies: tuple[str, ...]          # LAB-6: the seat's vacant colonies that have a source now


class BidContext(SealedContext):
    initiator: int
    deck: Deck
    pos: int                           # the card's place in its deck: 1 for buried treasure (AUC-2)
    card: str | None                   # the card sold, None while buried


class VoyageProgress(TypedDict):
    """SAIL-1: a fleet's progress on its voyage, kept in the voyage decision itself."""
    moves: int                         # moves left
    battled: tuple[int, ...]           # PRJ-16: land zones fought in on this voyage
    started: bool                      # PRJ-9: moved, or started at a Haven
    won_site: str | None               # LOAD-1: the site subdued in this zone (enslaving allowed)
    sacked: int | None                 # TRS-2, TRS-4: the colony sacked in this zone (its index)
    taken: int                         # TRS-4: Chests taken from the sacked colony
    royal: NotRequired[int]            # PRJ-30: Chests loaded from the King's colonies, once any


class VoyageContext(DecisionContext, VoyageProgress):
    pass


class SupportContext(SealedContext):
    attacker: int
    zone: int
    target: str
