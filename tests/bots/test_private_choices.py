"""Issue 37 (N2, N11): a private bot's sealed choices cannot be computed from public facts, and
its randomness survives a reload.

A `private` bot (the web server's and `paxh play`'s) mixes its bids over a band around its
valuation's bid (heuristic.bid_band) and its Battle Card when the sides are close
(heuristic.support_odds), from a PRNG keyed by its seed (derived from the game's secret) and
the game's action count (BaseAgent.decision_rng). The measure: the best predictor from public
facts -- the bid or side the deterministic bot would choose on the same view, the mode of the
mixing distribution, which is public: the bot's code and its options -- calls no more choices than that distribution allows (its mode's
probability, summed over the choices, within 3.5 standard deviations).
"""
from __future__ import annotations

import math
import random

import pytest

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.bots.base import stable_seed
from pax_hispanica.bots.heuristic import BID_SPREAD, DEFAULTS, PRIVATE_SHARE, bid_band, support_odds

pytestmark = pytest.mark.timeout(300)

GAMES = 30          # 4 players: about 2,100 bids and 90 Battle Cards, a few seconds


def _private_games(games: int, kind: str = "heuristic", players: int = 4):
    """Games of private heuristic bots; for every sealed choice with more than one option:
    (type, chosen, the deterministic bot's choice on the same view, the mode's probability)."""
    rows = []
    for g in range(games):
        state = api.new_game(api.Config(players=players), seed=stable_seed("private-test", g))
        bots = {s: make_agent(kind, api.derived_seed(1000 + g, f"bot|{s}"), private=True) for s in range(players)}
        # the public predictor: the deterministic bot with the private bot's centre (the mode)
        plain = {s: make_agent(kind, 0, bid_share=DEFAULTS["bid_share"] * PRIVATE_SHARE) for s in range(players)}
        while not api.is_over(state):
            seat = api.acting(state)[0]
            view, legal = api.view(state, seat), api.legal_actions(state, seat)
            action = bots[seat].decide(view, legal)
            if action["type"] in ("bid", "support") and api.count_actions(legal) > 1:
                why = bots[seat].explain()
                guess = plain[seat].decide(view, legal)
                p = why.get("p_mode", why.get("p_rule"))
                rows.append((action["type"], action, guess, p, why))
            state, _ = api.apply(state, action)
    return rows


@pytest.fixture(scope="module")
def rows():
    return _private_games(GAMES)


def _within_chance(hits: int, probs: list[float]) -> tuple[float, float]:
    mean = math.fsum(probs)
    sd = math.sqrt(math.fsum(p * (1 - p) for p in probs))
    return mean, sd


def test_a_public_predictor_calls_bids_no_better_than_the_mixing_allows(rows):
    bids = [r for r in rows if r[0] == "bid"]
    assert len(bids) >= 1000
    hits = sum(r[1]["amount"] == r[2]["amount"] for r in bids)
    mean, sd = _within_chance(hits, [r[3] for r in bids])
    # the deterministic bot called every bid (1,123 of 1,123 in the finding); now its call is the
    # distribution's mode, right as often as the mode's probability says, and no more
    assert abs(hits - mean) <= 3.5 * sd, (hits, mean, sd)
    assert hits / len(bids) < 0.65 and mean / len(bids) < 0.65
    # every bid is a legal amount in its band, and the band is centred on the valuation's bid
    for _, action, guess, _p, why in bids:
        lo, hi = why["band"]
        assert lo <= action["amount"] <= hi
        assert guess["amount"] == min(max(why["valuation_bid"], lo), hi)


def test_the_bids_follow_the_band_s_triangle(rows):
    """Offsets from the valuation's bid: each offset's count is its expected count under the
    mixing distribution (chi-square, 2 degrees of freedom, well below p = 0.001's 13.8)."""
    observed: dict[int, int] = {}
    expected: dict[int, float] = {}
    for _, action, _guess, _p, why in (r for r in rows if r[0] == "bid"):
        want, (lo, hi) = why["valuation_bid"], why["band"]
        h = max(1, round(BID_SPREAD * want))
        band = [(b, h + 1 - abs(b - want)) for b in range(lo, hi + 1)]
        total = sum(w for _, w in band)
        for b, w in band:
            k = max(-1, min(1, b - want))
            expected[k] = expected.get(k, 0.0) + w / total
        k = max(-1, min(1, action["amount"] - want))
        observed[k] = observed.get(k, 0) + 1
    chi2 = sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items() if e > 0)
    assert chi2 < 13.8, (observed, expected)


def test_a_public_predictor_calls_battle_cards_no_better_than_the_mixing_allows(rows):
    cards = [r for r in rows if r[0] == "support"]
    assert len(cards) >= 40
    hits = sum(r[1]["side"] == r[2]["side"] for r in cards)
    mean, sd = _within_chance(hits, [r[3] for r in cards])
    assert abs(hits - mean) <= 3.5 * sd + 1, (hits, mean, sd)
    assert any(r[3] < 1.0 for r in cards)           # close sides are mixed


def test_bid_band_and_support_odds():
    assert bid_band(4, 0, 10, 9.0) == [(3, 1), (4, 2), (5, 1)]          # h = max(1, round(0.25 x 4))
    assert bid_band(8, 0, 20, 20.0) == [(6, 1), (7, 2), (8, 3), (9, 2), (10, 1)]
    assert bid_band(8, 0, 20, 8.5) == [(6, 1), (7, 2), (8, 3)]            # never above the card's worth
    assert bid_band(2, 2, 9, 9.0) == [(2, 2), (3, 1)]                      # the legal minimum
    assert bid_band(0, 0, 5, 0.5) == [(0, 2)]                              # worth under $1: nothing to mix
    assert bid_band(5, 0, 3, 9.0)[-1][0] == 3                               # never above the money
    assert support_odds(None) == 1.0 and support_odds(5.0) == 1.0
    assert support_odds(0.0) == 0.5 and support_odds(1.0, 2.0) == 0.75


def test_the_private_stream_depends_on_the_secret_not_on_the_view():
    """Two bots seeded from two game secrets bid differently on the same views; the same seed
    bids the same (the simulator's seeded games stay reproducible)."""
    state = api.new_game(api.Config(players=4), seed=11)
    a, b, a2 = (make_agent("heuristic", s, private=True) for s in (api.derived_seed(1, "bot|0"),
                                                                   api.derived_seed(2, "bot|0"),
                                                                   api.derived_seed(1, "bot|0")))
    differ = same = bids = 0
    while not api.is_over(state):
        seat = api.acting(state)[0]
        view, legal = api.view(state, seat), api.legal_actions(state, seat)
        x = a.decide(view, legal)
        if x["type"] == "bid" and api.count_actions(legal) > 1:
            bids += 1
            differ += b.decide(view, legal) != x
            same += a2.decide(view, legal) == x
        state, _ = api.apply(state, x)
    assert differ >= 5 and same == bids       # the same seed: always the same bid
    assert a2.private and not make_agent("heuristic", 0).private


def test_a_reloaded_private_bot_goes_on_with_its_stream_not_the_start():
    """N11: the random bots of a reloaded game (new agents, the same seeds) make the moves the
    kept ones would have made, and do not repeat the moves their restarted streams would make."""
    seeds = [api.derived_seed(99, f"bot|{s}") for s in range(4)]
    kept = [make_agent("random", s, private=True) for s in seeds]
    restarted = [random.Random(s) for s in seeds]   # what a reload used to do: each stream from its start
    moves = agree = repeat = 0
    for game in range(3):
        state = api.new_game(api.Config(players=4), seed=game)
        step = 0
        while not api.is_over(state):
            seat = api.acting(state)[0]
            view, legal = api.view(state, seat), api.legal_actions(state, seat)
            n = api.count_actions(legal)
            action = kept[seat].decide(view, legal)
            if step >= 20 and n > 1:             # after a "reload" at action 20
                moves += 1
                agree += make_agent("random", seeds[seat], private=True).decide(view, legal) == action
                repeat += api.nth_action(legal, restarted[seat].randrange(n)) == action
            state, _ = api.apply(state, action)
            step += 1
    assert moves >= 60 and agree == moves
    assert repeat < 0.6 * moves               # chance agreement only (182 of 182 before)


def test_the_simulator_s_bots_are_unchanged_unless_private():
    """Without `private` the heuristic decides as it always did: deterministic, no mixing."""
    state = api.new_game(api.Config(players=4), seed=5)
    one, two = make_agent("heuristic", 1), make_agent("heuristic", 2)
    while not api.is_over(state):
        seat = api.acting(state)[0]
        view, legal = api.view(state, seat), api.legal_actions(state, seat)
        x = one.decide(view, legal)
        assert two.decide(view, legal) == x
        state, _ = api.apply(state, x)


def test_the_web_server_s_bots_are_private():
    from pax_hispanica.web import engine_port as seam
    for kind in ("random", "heuristic", "ismcts"):
        assert seam.make_bot(kind, 7, 1).private
