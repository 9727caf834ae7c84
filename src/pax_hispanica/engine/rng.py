"""The engine's only source of randomness (PRJ-1): a keyed hash in counter mode.

Output i of a game is BLAKE2b(i as 8 little-endian bytes, key=K_rng, 8-byte digest),
read as a little-endian u64, where K_rng = keys.derive(seed, "paxh-rng"). The state
saved in a game is the counter alone (one small int): copying and saving a state stays
cheap, and since outputs come from a keyed PRF, seeing any number of them says nothing
about the next one without the secret seed (SplitMix64, used before, could be run
forward from one observed output).

Every function takes the game's seed (which names the key, derived once and cached)
and the counter, and returns the new counter.

The seam for explicit chance (PRJ-70): the rules draw through `draw` and `draw_shuffle`, which
take an optional `Chance`, the outcomes of the draws supplied by the caller instead of the
generator. Only the RL layer's
explicit chance nodes pass one (api.apply_with_outcomes, api.new_game_with_outcomes); every
other caller passes none and gets the generator, unchanged. A draw of n is an outcome in
0..n-1, each of probability 1/n; a shuffle is its Fisher-Yates draws, one per position from
the last down to the second (outcome j: the card now at j goes to that position); a draw of 1
takes no outcome (it is 0). When the supplied outcomes run out, the draw raises
`ChanceNeeded` (how many outcomes the next draw has): the caller, whose apply is pure, runs it
again from the same state with one more outcome. A supplied draw moves the counter on by one,
as the generator does (bar a rejection, about n in 2**64), so the outcomes the generator would
have drawn give the generator's game exactly, counter included.
"""

from __future__ import annotations

import hashlib
import struct
from functools import lru_cache
from collections.abc import Sequence
from typing import Any

from .keys import derive


class ChanceNeeded(Exception):
    """A draw has no supplied outcome left (PRJ-70): `n` outcomes (0..n-1, each 1/n), the
    `counter` the generator would have drawn it from, `used` outcomes taken before it, and for
    a shuffle's draw the items it chooses among (`items[j]` is outcome j), else None."""

    def __init__(self, n: int, counter: int, used: int, items: tuple[Any, ...] | None) -> None:
        super().__init__(f"chance needed: a draw of {n} outcomes after {used}")
        self.n = n
        self.counter = counter
        self.used = used
        self.items = items


class Chance:
    """The supplied outcomes of one apply's draws, taken in order (PRJ-70). Made afresh for each
    apply by its caller; the engine never keeps one in a state."""

    __slots__ = ("outcomes", "used")

    def __init__(self, outcomes: object) -> None:
        # the caller's data (declared `object`): a sequence of whole numbers, else ValueError
        if isinstance(outcomes, (str, bytes)) or not isinstance(outcomes, Sequence) \
                or not all(type(x) is int for x in outcomes):
            raise ValueError("the outcomes are a sequence of whole numbers")
        self.outcomes: tuple[int, ...] = tuple(outcomes)
        self.used = 0

    def take(self, n: int, counter: int, items: tuple[Any, ...] | None = None) -> int:
        """The next outcome of a draw of n (0 for n = 1, which takes none)."""
        if n <= 0:
            raise ValueError("n must be positive")
        if n == 1:
            return 0
        used = self.used
        if used == len(self.outcomes):
            raise ChanceNeeded(n, counter, used, items)
        x = self.outcomes[used]
        if not 0 <= x < n:
            raise ValueError(f"outcome {x} of a draw of {n} (outcome {used})")
        self.used = used + 1
        return x

U64 = 1 << 64
# The counters' 8 little-endian bytes for the first ones (a sample's draws start at 0) and
# the rejection limits of small ranges, worked out once: shuffle's draws, unchanged.
_COUNTER_BYTES = tuple(i.to_bytes(8, "little") for i in range(4096))
_LIMITS = tuple(U64 - (U64 % n) if n else 0 for n in range(257))
_u64 = struct.Struct("<Q").unpack


@lru_cache(maxsize=1024)
def _keyed(seed: int) -> hashlib.blake2b:
    # a BLAKE2b object that has absorbed the key block: copying it is cheaper than re-keying
    return hashlib.blake2b(key=derive(seed, "paxh-rng"), digest_size=8)


def seed_state(seed: int) -> int:
    """The counter a new game starts from (the key, not the counter, depends on the seed)."""
    _keyed(seed)          # refuses a seed with no key (not an int in 0..2**256-1) at once
    return 0


def next_u64(seed: int, counter: int) -> tuple[int, int]:
    h = _keyed(seed).copy()
    h.update(counter.to_bytes(8, "little"))
    return counter + 1, int.from_bytes(h.digest(), "little")


def below(seed: int, counter: int, n: int) -> tuple[int, int]:
    """A uniform int in 0..n-1 (rejection sampling, no modulo bias)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = U64 - (U64 % n)
    while True:
        counter, x = next_u64(seed, counter)
        if x < limit:
            return counter, x % n


def shuffle(seed: int, counter: int, items: list[Any]) -> int:
    """Fisher-Yates in place; returns the new counter. The draws are `below(seed, counter,
    i + 1)` written out inline: determinize shuffles every unseen card three times a
    sample, and the calls cost more than the hashing (the golden trace pins the numbers)."""
    fresh = _keyed(seed).copy
    counters, limits, u64 = _COUNTER_BYTES, _LIMITS, _u64
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = limits[n] if n < 257 else U64 - (U64 % n)
        h = fresh()
        h.update(counters[counter] if counter < 4096 else counter.to_bytes(8, "little"))
        counter += 1
        x: int = u64(h.digest())[0]
        while x >= limit:                   # rejected (about n in 2**64): draw again
            h = fresh()
            h.update(counter.to_bytes(8, "little"))
            counter += 1
            x = u64(h.digest())[0]
        j = x % n
        items[i], items[j] = items[j], items[i]
    return counter


# ---- the game's draws (PRJ-70) ---------------------------------------------------------------
# The rules draw through these two: with no Chance they are `below` and `shuffle` (the
# generator, every caller but the RL layer); with one, its outcomes. A search's samples
# (determinize) draw from their own stream (engine/sampling.py, PRJ-45), never a game's chance.

def draw(seed: int, counter: int, n: int, chance: Chance | None) -> tuple[int, int]:
    """`below(seed, counter, n)`, or with `chance` its next outcome (the counter moved on by one)."""
    if chance is None:
        return below(seed, counter, n)
    return counter + 1, chance.take(n, counter)


def draw_shuffle(seed: int, counter: int, items: list[Any], chance: Chance | None) -> int:
    """`shuffle(seed, counter, items)`, or with `chance` the same Fisher-Yates with its outcomes
    as the draws (a ChanceNeeded names the items the next draw chooses among)."""
    if chance is None:
        return shuffle(seed, counter, items)
    for i in range(len(items) - 1, 0, -1):
        j = chance.take(i + 1, counter, tuple(items[: i + 1]) if chance.used == len(chance.outcomes) else None)
        counter += 1
        items[i], items[j] = items[j], items[i]
    return counter
