"""How a rule changes a field states share (State.copy shares the lists and dicts no rule changes
in place): each writer returns a new list or dict with the change, the old one untouched."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


def replaced(values: list[T], i: int, value: T) -> list[T]:
    """A new list with `value` at `i`, the other entries the same: how a SHARED field
    (or a seat's list in a SHARED_NESTED one) changes without changing a list another state holds."""
    new = values[:]
    new[i] = value
    return new


def bumped(values: list[int], i: int, n: int) -> list[int]:
    """A new list with `n` added to entry `i` (a count of a SHARED field)."""
    new = values[:]
    new[i] += n
    return new


def appended(per_seat: list[list[T]], seat: int, item: T) -> list[list[T]]:
    """A new list of lists with `item` added to `seat`'s list, the others shared: how a
    SHARED_NESTED field grows without changing a list another state holds."""
    new = per_seat[:]
    new[seat] = per_seat[seat] + [item]
    return new


def without(per_seat: list[list[T]], seat: int, item: T) -> list[list[T]]:
    """A new list of lists with the first `item` taken from `seat`'s list, the others shared."""
    new = per_seat[:]
    mine = per_seat[seat][:]
    mine.remove(item)
    new[seat] = mine
    return new


def counted(counts: dict[K, int], key: K, n: int) -> dict[K, int]:
    """A new dict with `n` added to `key` (in its place: the key order is kept), for a SHARED_DICTS field."""
    new = counts.copy()
    new[key] += n
    return new


def with_item(table: dict[K, V], key: K, value: V) -> dict[K, V]:
    """A new dict with `key` set to `value` (a new key goes last, as it would in place)."""
    new = table.copy()
    new[key] = value
    return new
