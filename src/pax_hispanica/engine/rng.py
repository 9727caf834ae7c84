"""The engine's only source of randomness (PRJ-1): a keyed hash in counter mode.

Output i of a game is BLAKE2b(i as 8 little-endian bytes, key=K_rng, 8-byte digest),
read as a little-endian u64, where K_rng = keys.derive(seed, "paxh-rng"). The state
saved in a game is the counter alone (one small int): copying and saving a state stays
cheap, and since outputs come from a keyed PRF, seeing any number of them says nothing
about the next one without the secret seed (SplitMix64, used before, could be run
forward from one observed output).

Every function takes the game's seed (which names the key, derived once and cached)
and the counter, and returns the new counter.
"""

from __future__ import annotations

import hashlib
import struct
from functools import lru_cache
from typing import Any

from .keys import derive

U64 = 1 << 64
# The counters' 8 little-endian bytes for the first ones (a sample's draws start at 0) and
# the rejection limits of small ranges, worked out once: shuffle's draws, unchanged.
_COUNTER_BYTES = tuple(i.to_bytes(8, "little") for i in range(4096))
_LIMITS = tuple(U64 - (U64 % n) if n else 0 for n in range(257))
_u64 = struct.Struct("<Q").unpack


@lru_cache(maxsize=1024)
def _keyed(seed: int) -> "hashlib.blake2b":
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
