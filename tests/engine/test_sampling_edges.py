"""PRJ-45 at its edges: a word exactly at a rejection limit is rejected (in below, in a pick's
first try and in its retries), the two words of a counter, the stream's first digest of 257
words, and each refusal in words (issue 36: the mutation score)."""

from __future__ import annotations

import hashlib

import pytest

from pax_hispanica.engine.keys import SEED_LIMIT
from pax_hispanica.engine.sampling import COUNTER_BITS, LIMITS, Stream, words


def _plain_words(seed: int, count: int) -> list[int]:
    raw = hashlib.shake_256(b"paxh-sample\x00" + seed.to_bytes(32, "big")).digest(4 * count)
    return [int.from_bytes(raw[4 * i:4 * i + 4], "little") for i in range(count)]


def _stream(ws: list[int]) -> Stream:
    s = Stream(1, 0)
    s.w, s.pos = tuple(ws), 0
    return s


def test_PRJ_45_a_word_equal_to_the_limit_is_rejected_by_below():
    s = _stream([LIMITS[3], 7, 0, 0])
    assert s.below(3) == 7 % 3 and s.pos == 2


def test_PRJ_45_a_word_equal_to_the_limit_is_rejected_in_a_pick_and_in_its_retry():
    pool = list(range(5))
    _stream([LIMITS[5], 3, 0, 0, 0, 0]).pick(pool, 1)
    assert pool == [3, 1, 2, 0, 4]
    pool = list(range(5))
    s = _stream([LIMITS[5], LIMITS[5], 4, 0, 0, 0])
    s.pick(pool, 1)
    assert pool == [4, 1, 2, 3, 0] and s.pos == 3


def test_PRJ_45_a_counter_reads_two_whole_words_and_extends_the_stream_for_them():
    ws = _plain_words(9, 16)
    s = Stream(9, 0)
    assert len(s.w) == 4
    first, second = s.counter(), s.counter()
    assert s.pos == 4
    assert first == (ws[0] | ws[1] << 32) >> (64 - COUNTER_BITS)
    assert second == (ws[2] | ws[3] << 32) >> (64 - COUNTER_BITS)
    s.pos = 3                              # one word left: the stream is extended first
    assert s.counter() == (ws[3] | ws[4] << 32) >> (64 - COUNTER_BITS) and s.pos == 5


def test_PRJ_45_a_first_digest_of_257_words_is_the_documented_stream():
    assert list(words(SEED_LIMIT - 1, 257)) == _plain_words(SEED_LIMIT - 1, 257)
    assert list(Stream(SEED_LIMIT - 1, 253).w) == _plain_words(SEED_LIMIT - 1, 257)


def _compiled() -> bool:
    import pax_hispanica.engine.sampling as sampling
    return not sampling.__file__.endswith(".py")


def test_PRJ_45_the_refusals_in_words():
    seed_msg = "a sample's seed is a whole number in 0..2**256-1"
    for bad in (SEED_LIMIT, -1, True, "1"):
        with pytest.raises(ValueError) as e:
            words(bad, 4)
        assert str(e.value) == seed_msg
    for bad in (SEED_LIMIT, -1):
        with pytest.raises(ValueError) as e:
            Stream(bad, 0)
        assert str(e.value) == seed_msg
    # Stream's seed is declared `int` (an internal class: words() above is the checked entry). Given
    # a str, the plain engine refuses it with that ValueError, the compiled one (mypyc checks declared
    # types) with TypeError; either way nothing is sampled. (A bool is an int to compiled code.)
    with pytest.raises(TypeError if _compiled() else ValueError):
        Stream("1", 0)
    with pytest.raises(ValueError) as e:
        Stream(1, 4).below(0)
    assert str(e.value) == "a bounded draw's range is 1..2**32"
    with pytest.raises(ValueError) as e:
        Stream(1, 4).pick([1, 2], 3)
    assert str(e.value) == "cannot pick more items than the pool holds"
    with pytest.raises(ValueError) as e:
        Stream(1, 4).pick(list(range(1025)), 1)
    assert str(e.value) == "a pool is at most 1024 items"


def test_PRJ_45_picking_nothing_from_a_long_pool_draws_nothing():
    pool = list(range(1100))
    s = Stream(1, 0)
    s.pick(pool, 0)
    assert pool == list(range(1100)) and s.pos == 0
