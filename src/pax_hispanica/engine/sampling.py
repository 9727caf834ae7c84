"""The draws of a search's samples (PRJ-45): one keyed SHAKE-256 call per sample, read as
32-bit words, with unbiased bounded draws by rejection.

A sample of an information state (`information.determinize`, `fast_determinizer.Determinizer`)
reads its draws from the stream

    W(seed) = SHAKE-256(b"paxh-sample" || 0x00 || seed.to_bytes(32, "big"))

as consecutive 4-byte little-endian words w0, w1, ... . SHAKE-256 is an extendable-output
function: `digest(m)` is the first m bytes of one infinite stream, so asking for more bytes
later extends the words already read and never changes them. The seed (0..2**256-1, the
sample's, never the game's secret seed) is the key: the stream is a pure function of it, and
a sample is a pure function of (view, known, seed), never of anything hidden.

A bounded draw `below(n)`, 1 <= n <= 2**32, takes the next word w and returns w % n when
w < L(n) = 2**32 - (2**32 % n); a word at or above L(n) is thrown away and the next one
read. L(n) is a multiple of n, so each residue 0..n-1 comes from exactly L(n) / n of the
accepted words: given uniform words (SHAKE-256's output is indistinguishable from uniform)
the draw is exactly uniform, with no modulo bias. A word is rejected with probability
(2**32 % n) / 2**32 < n / 2**32: about 1.4e-8 for a deck of 60 cards.

`pick(pool, k)` is a partial Fisher-Yates shuffle: for i = 0..k-1 it swaps pool[i] with
pool[i + below(len(pool) - i)], so pool[:k] is a uniformly random ordered selection of k of
the pool's cards (each of the N!/(N-k)! selections has probability (N-k)!/N!); the last
swap of a full shuffle (k = N, a range of 1) draws nothing.

Before PRJ-45 a sample used the game's generator (engine/rng.py, PRJ-1): one keyed BLAKE2b
call per 64-bit word, three full shuffles of the unseen cards, about 47 calls a sample;
the draws alone cost more than the 20 µs a sample is meant to take (docs/benchmarks.md).
"""

from __future__ import annotations

import hashlib
import struct
from operator import add, ge, mod
from typing import Any

from .keys import SEED_LIMIT, is_seed

PREFIX = b"paxh-sample\x00"
WORD = 4
U32 = 1 << 32
# rejection limits of the small ranges (a deck's size, a bid's range), worked out once
LIMITS = tuple(U32 - (U32 % n) if n else 0 for n in range(1025))
_UNPACK = [struct.Struct(f"<{m}I").unpack for m in range(257)]
_shake = hashlib.shake_256
LONG_PICK = 8        # picks of more steps take pick's C-level way (measured: shorter ones lose by it)
SLACK = 4            # words asked for beyond a sample's known need: a rejection reads one more
# The seed of every sample's own generator (PRJ-1's, for what the rules draw after the sample:
# deck refills, ...) and of its sealed choices' salts. It is public and the same for every
# sample, so the keys and salts the engine derives from it are worked out once for a whole
# search, not once per sample; each sample starts that generator at its own random counter
# (`counter`), so two samples' later draws are as independent as two games'.
SEARCH_SEED = 0x7061786873616D70          # b"paxhsamp"
COUNTER_BITS = 62                          # leaves 2**62 draws before the 8-byte counter overflows


def words(seed: object, count: int) -> tuple[int, ...]:
    """The first `count` words of W(seed)."""
    if not is_seed(seed):
        raise ValueError("a sample's seed is a whole number in 0..2**256-1")
    raw = _shake(PREFIX + seed.to_bytes(32, "big")).digest(WORD * count)
    if count < len(_UNPACK):
        return _UNPACK[count](raw)
    return struct.unpack(f"<{count}I", raw)


class Stream:
    """W(seed) read word by word: `below(n)`, and `pick(pool, k)` (module docstring).
    It asks SHAKE-256 for `need` words at first (a sample knows how many draws it makes)
    and for twice as many whenever they run out (only after rejections)."""

    __slots__ = ("pos", "seed", "w")

    def __init__(self, seed: int, need: int) -> None:
        # words(seed, need + SLACK) written out (a sample's hot path: one call fewer)
        if type(seed) is not int or not 0 <= seed < SEED_LIMIT:        # keys.is_seed: bool is not a seed
            raise ValueError("a sample's seed is a whole number in 0..2**256-1")
        self.seed = seed
        count = need + SLACK
        raw = _shake(PREFIX + seed.to_bytes(32, "big")).digest(WORD * count)
        self.w: tuple[int, ...] = _UNPACK[count](raw) if count < len(_UNPACK) else struct.unpack(f"<{count}I", raw)
        self.pos = 0

    def _more(self) -> None:
        self.w = words(self.seed, 2 * len(self.w))

    def below(self, n: int) -> int:
        if not 1 <= n <= U32:
            raise ValueError("a bounded draw's range is 1..2**32")
        limit = LIMITS[n] if n < len(LIMITS) else U32 - (U32 % n)
        while True:
            if self.pos >= len(self.w):
                self._more()
            x = self.w[self.pos]
            self.pos += 1
            if x < limit:
                return x % n

    def counter(self) -> int:
        """A 62-bit start for the sample's own generator: two words, read whole."""
        while self.pos + 2 > len(self.w):
            self._more()
        lo, hi = self.w[self.pos], self.w[self.pos + 1]
        self.pos += 2
        return (lo | hi << 32) >> (64 - COUNTER_BITS)

    def _again(self, n: int, pos: int, after: int) -> int:
        """A word at `pos - 1` was rejected for range n: the draw goes on from `pos`; the
        stream is then long enough for `after` more words. Returns the accepted word."""
        limit = LIMITS[n] if n < len(LIMITS) else U32 - (U32 % n)
        while True:
            while pos >= len(self.w):
                self._more()
            x = self.w[pos]
            pos += 1
            if x < limit:
                break
        while pos + after > len(self.w):
            self._more()
        self.pos = pos
        return x

    def pick(self, pool: list[Any], k: int) -> None:
        """pool[:k] becomes a uniformly random ordered selection of k of its items."""
        n = len(pool)
        if not 0 <= k <= n:
            raise ValueError("cannot pick more items than the pool holds")
        last = k if k < n else n - 1          # a range of one draws nothing
        if last <= 0:
            return
        if n > len(LIMITS) - 1:
            raise ValueError("a pool is at most 1024 items")
        pos = self.pos
        end = pos + last
        while end > len(self.w):
            self._more()
        if last > LONG_PICK:
            # a long pick (a deck's hidden cards): the rejection test and each step's place
            # j = i + w % (n - i) worked out in C, leaving only the swaps to the loop; the
            # same draws and swaps as the short way (tests/engine/test_sampling.py)
            w = self.w[pos:end]
            if any(map(ge, w, LIMITS[n:n - last:-1])):      # a rejection: the careful way
                self._pick_on(pool, n, 0, last, pos)
                return
            for i, j in enumerate(map(add, range(last), map(mod, w, range(n, n - last, -1)))):
                pool[i], pool[j] = pool[j], pool[i]
            self.pos = end
            return
        # step i draws in range n - i: its word, its range and its rejection limit side by
        # side, in one zip
        for i, x, m, limit in zip(range(last), self.w[pos:end], range(n, n - last, -1), LIMITS[n:n - last:-1]):
            if x >= limit:              # rejected (fewer than m in 2**32 words): the rest one by one
                self._pick_on(pool, n, i, last, pos + i)
                return
            j = i + x % m
            pool[i], pool[j] = pool[j], pool[i]
        self.pos = end

    def _pick_on(self, pool: list[Any], n: int, i: int, last: int, pos: int) -> None:
        """pick's steps i..last-1, the word at `pos` first (one of them is rejected)."""
        w, limits = self.w, LIMITS
        while i < last:
            m = n - i
            x = w[pos]
            pos += 1
            if x >= limits[m]:
                x = self._again(m, pos, last - i - 1)
                pos, w = self.pos, self.w
            j = i + x % m
            pool[i], pool[j] = pool[j], pool[i]
            i += 1
        self.pos = pos
