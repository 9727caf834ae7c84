"""PRJ-45: a sample's draws (engine/sampling.py): one SHAKE-256 stream per sample seed, read
as 32-bit words, bounded draws by rejection, picks by a partial Fisher-Yates shuffle.
Determinism (the documented formula, prefix-stable extension, the rejection path) and
uniformity (chi-square over many draws, at a 0.1% level: the seeds are fixed, so each
check is deterministic, and a biased generator fails it)."""

from __future__ import annotations

import hashlib
import itertools
import math
from collections import Counter

import pytest

from pax_hispanica import api
from pax_hispanica.engine import sampling
from pax_hispanica.engine.sampling import LIMITS, U32, Stream, words


def _chi2_limit(df: int, z: float = 3.090) -> float:
    """The chi-square statistic's upper 0.1% point (Wilson-Hilferty; z the normal's)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _chi2(counts: Counter, cells: list, total: int) -> float:
    expected = total / len(cells)
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in cells)


def _plain_words(seed: int, count: int) -> list[int]:
    raw = hashlib.shake_256(b"paxh-sample\x00" + seed.to_bytes(32, "big")).digest(4 * count)
    return [int.from_bytes(raw[4 * i:4 * i + 4], "little") for i in range(count)]


def _plain_below(ws: list[int], at: int, n: int) -> tuple[int, int]:
    while True:
        w = ws[at]
        at += 1
        if w < 2 ** 32 - 2 ** 32 % n:
            return at, w % n


def test_PRJ_45_the_words_are_the_documented_shake_256_stream():
    for seed in (0, 1, 2 ** 63 - 1, 2 ** 256 - 1):
        assert list(words(seed, 40)) == _plain_words(seed, 40)
        assert list(words(seed, 300))[:40] == _plain_words(seed, 40)     # a longer digest extends it
    assert words(1, 8) != words(2, 8)
    for bad in (-1, 2 ** 256, 1.5, True, "1"):
        with pytest.raises(ValueError):
            words(bad, 4)


def test_PRJ_45_bounded_draws_reject_the_top_words_and_run_past_the_first_digest():
    # n = 2**31 + 1 rejects about half of the words: the stream runs out of its first digest
    # (need 0: SLACK words) many times, and must still read the one stream in order
    n = 2 ** 31 + 1
    for seed in range(20):
        s = Stream(seed, 0)
        ws, at = _plain_words(seed, 4096), 0
        for _ in range(50):
            at, want = _plain_below(ws, at, n)
            assert s.below(n) == want
        assert s.pos == at
    with pytest.raises(ValueError):
        Stream(1, 4).below(0)


def test_PRJ_45_pick_is_the_documented_partial_fisher_yates():
    for seed in range(30):
        for n, k in ((1, 1), (5, 0), (5, 2), (20, 20), (60, 43), (300, 17)):
            pool = list(range(n))
            s = Stream(seed, 0)              # too few words: pick extends the stream itself
            s.pick(pool, k)
            ws, at, ref = _plain_words(seed, 4096), 0, list(range(n))
            for i in range(min(k, n - 1)):
                at, x = _plain_below(ws, at, n - i)
                ref[i], ref[i + x] = ref[i + x], ref[i]
            assert pool == ref and s.pos == at
    with pytest.raises(ValueError):
        Stream(1, 4).pick([1, 2], 3)


@pytest.mark.parametrize("n,k", [(30, 30), (40, 12), (6, 6), (12, 5)])
def test_PRJ_45_the_rejection_path_inside_a_pick(monkeypatch, n, k):
    # force rejections in pick's loops (a limit of half the words), the long picks' C-level
    # way (more than LONG_PICK steps) and the short one, and check the draws against the
    # plain rejection reading of the same words
    half = tuple(2 ** 31 - (2 ** 31 % m) if m else 0 for m in range(len(sampling.LIMITS)))
    monkeypatch.setattr(sampling, "LIMITS", half)
    for seed in range(20):
        pool = list(range(n))
        s = Stream(seed, k)
        s.pick(pool, k)
        ws, at, ref = _plain_words(seed, 4096), 0, list(range(n))
        for i in range(min(k, n - 1)):
            m = n - i
            while True:
                w = ws[at]
                at += 1
                if w < half[m]:
                    break
            ref[i], ref[i + w % m] = ref[i + w % m], ref[i]
        assert pool == ref and s.pos == at


@pytest.mark.parametrize("n", [2, 3, 7, 43, 60])
def test_PRJ_45_bounded_draws_are_uniform(n):
    draws = 400 * n
    counts: Counter = Counter()
    for seed in range(draws // 50):
        s = Stream(seed, 50)
        counts.update(s.below(n) for _ in range(50))
    assert _chi2(counts, list(range(n)), draws) < _chi2_limit(n - 1)


def test_PRJ_45_picks_are_uniform_over_ordered_selections():
    # every ordered selection of 3 of 5 cards (60 of them), and every order of 4 (24)
    for n, k in ((5, 3), (4, 4)):
        cells = list(itertools.permutations(range(n), k))
        total = 300 * len(cells)
        counts: Counter = Counter()
        for seed in range(total):
            pool = list(range(n))
            Stream(seed, k).pick(pool, k)
            counts[tuple(pool[:k])] += 1
        assert _chi2(counts, cells, total) < _chi2_limit(len(cells) - 1)


def test_PRJ_45_a_determinized_hidden_place_takes_each_unseen_card_equally_often():
    g = api.new_game(api.Config(players=4), seed=3)
    seat = api.acting(g)[0]
    info = api.information_state(g, seat)
    sample = api.determinizer(info)
    seen = set(info["market"]) | set(info["haven"]) | set(info["market_discard"])
    seen |= {c for h in info["hands"] for c in h} | {c for t in info["tableaus"] for c, _ in t}
    unseen = sorted(set(api.load_ruleset("reference").market) - seen)
    at = info["market"].index("?")
    total = 60 * len(unseen)
    counts = Counter(sample(seed).market[at] for seed in range(total))
    assert set(counts) == set(unseen)
    assert _chi2(counts, unseen, total) < _chi2_limit(len(unseen) - 1)


def test_PRJ_45_a_sample_is_a_function_of_its_view_and_seed():
    g = api.new_game(api.Config(players=3), seed=9)
    seat = api.acting(g)[0]
    info = api.information_state(g, seat)
    a, b = api.determinizer(info), api.determinizer(api.information_state(g, seat))
    for seed in (0, 5, 2 ** 62 + 1):
        assert api.snapshot(a(seed)) == api.snapshot(b(seed)) == api.snapshot(api.determinize(info, seed))
    assert api.snapshot(a(1)) != api.snapshot(a(2))


@pytest.mark.parametrize("n", [len(LIMITS) - 1, len(LIMITS), 2 ** 20, U32])
def test_PRJ_45_a_draw_past_the_small_range_table_has_its_own_rejection_limit(n):
    s = Stream(7, 4)
    w = s.w[0]
    limit = U32 - (U32 % n)
    got = s.below(n)
    assert 0 <= got < n
    if w < limit:
        assert got == w % n and s.pos == 1
