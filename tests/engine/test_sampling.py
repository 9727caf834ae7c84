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
from pax_hispanica.engine.sampling import LIMITS, SLACK, U32, Stream, words
from support import scenario


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


def _plain_pick(seed: int, n: int, k: int) -> tuple[list[int], int, list[int]]:
    """The documented partial Fisher-Yates pick of k of range(n) from W(seed), written out:
    the pool, the words read, and the steps whose first word was rejected."""
    ws, at, pool, rejected = _plain_words(seed, 4 * n + 64), 0, list(range(n)), []
    for i in range(min(k, n - 1)):
        m = n - i
        while True:
            w = ws[at]
            at += 1
            if w < 2 ** 32 - 2 ** 32 % m:
                break
            rejected.append(i)
        pool[i], pool[i + w % m] = pool[i + w % m], pool[i]
    return pool, at, rejected


# W(21125) rejects the 131st word for range 894 (a 1024-item pick's step 130), and no other
# word of a full 1024-item shuffle: found by searching the seeds 0..21125 with _plain_pick.
REJECTING_SEED, REJECTED_STEP = 21125, 130


@pytest.mark.parametrize("k", [1024, 131, 200])
def test_PRJ_45_a_pick_with_a_rejection_is_fisher_yates_and_still_one_shake_256_call(monkeypatch, k):
    """A sample's stream is one SHAKE-256 call (module docstring): a sample asks for the words
    it knows it needs plus SLACK, and "a rejection reads one more" word, which the slack
    holds; so a long pick (its careful way, engine/sampling.py's _pick_on) with one rejection
    after its first step reads the documented draws and asks SHAKE-256 for nothing more."""
    n = 1024
    ref, at, rejected = _plain_pick(REJECTING_SEED, n, k)
    assert rejected == [REJECTED_STEP]
    calls: list[int] = []
    real = sampling._shake

    def counted(data: bytes):
        calls.append(1)
        return real(data)

    monkeypatch.setattr(sampling, "_shake", counted)
    last = min(k, n - 1)
    s = Stream(REJECTING_SEED, last)
    pool = list(range(n))
    s.pick(pool, k)
    assert pool == ref
    assert s.pos == at == last + 1                  # the rejected word and one more
    assert len(calls) == 1 and len(s.w) == last + SLACK
    assert s.below(2 ** 32) == _plain_words(REJECTING_SEED, at + 1)[at]    # the stream goes on in order


def test_HID_2_a_sample_of_a_view_whose_market_deck_hides_nothing_keeps_it_and_deals_every_card_once():
    """The Market deck holds one card, its face-up top (HID-2: public), so the view hides none
    of its places; the others' hands and the Haven deck below its top are hidden. A sample
    (PRJ-45) keeps the Market deck as shown, the Haven top as shown, each hand's size, and
    deals every card of the ruleset exactly once across hands and decks."""
    rs = api.load_ruleset("reference")
    market = list(rs.market)
    x, rest = market[0], market[1:]
    g = scenario({"year": "auction", "order": [0, 1, 2],
                  "players": [{"hand": []}, {"hand": rest[: len(rest) // 2]}, {"hand": rest[len(rest) // 2:]}],
                  "decks": {"market": [x]}})
    v = api.view(g.state, 0, include_state=True)
    d = v["state"]
    assert d["market"] == [x] and d["market_discard"] == []
    assert d["haven"][0] == g.state.haven[0] and d["haven"][1:] == ["?"] * (len(rs.haven) - 1)
    for seed in range(4):
        s = api.determinize(v, seed)
        assert s.market == [x]
        assert s.haven[0] == g.state.haven[0] and len(s.haven) == len(rs.haven)
        assert [len(h) for h in s.hands] == [0, len(rest) // 2, len(rest) - len(rest) // 2]
        dealt = s.market + s.haven + [c for h in s.hands for c in h]
        assert sorted(dealt) == sorted(market + list(rs.haven))
