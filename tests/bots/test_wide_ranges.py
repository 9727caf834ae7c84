"""A decision's cost never grows with a number of the game: with $10**9 to bid, every bot
decides in bounded time and memory (no bid range is ever listed), and api.expand refuses
to list it. Small ranges behave as before."""

from __future__ import annotations

import random
import time
import tracemalloc

import pytest

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.bots.base import bounded_actions, count_actions, nth_action, spread
from support import scenario

RICH = 10 ** 9


@pytest.fixture(scope="module")
def rich_bid():
    g = scenario({"year": "auction", "step": "auctions", "order": [0, 1, 2],
                  "players": [{"money": RICH}, {"money": RICH}, {"money": 5}]})
    g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": False})
    return g.state


@pytest.mark.parametrize("kind,options", [("random", {}), ("heuristic", {}), ("ismcts", {"iterations": 3})])
def test_every_bot_decides_a_bid_of_a_billionaire_in_bounded_time_and_memory(rich_bid, kind, options):
    legal = api.legal_actions(rich_bid, 0)
    assert api.count_actions(legal) == RICH + 1
    bot = make_agent(kind, 1, **options)
    tracemalloc.start()
    t0 = time.process_time()
    action = bot.decide(api.view(rich_bid, 0, include_state=True), legal)
    seconds = time.process_time() - t0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert action["type"] == "bid" and 0 <= action["amount"] <= RICH
    api.apply(rich_bid, action)                     # a legal action
    assert seconds < 20 and peak < 64 * 2 ** 20, (seconds, peak)


def test_api_expand_refuses_a_wide_range_and_the_lazy_calls_do_not(rich_bid):
    legal = api.legal_actions(rich_bid, 1)
    with pytest.raises(ValueError):
        api.expand(legal)
    assert api.nth_action(legal, RICH) == {"seat": 1, "type": "bid", "amount": RICH}
    assert next(iter(api.iter_actions(legal))) == {"seat": 1, "type": "bid", "amount": 0}
    with pytest.raises(IndexError):
        api.nth_action(legal, RICH + 1)
    assert count_actions(legal) == api.count_actions(legal)
    assert nth_action(legal, 7) == api.nth_action(legal, 7)


def test_lazy_calls_agree_with_expand_on_small_decisions():
    g = api.Game.new(api.Config(players=3), 4)
    r = random.Random(4)
    for _ in range(300):
        if api.is_over(g.state):
            break
        seat = api.acting(g.state)[0]
        legal = api.legal_actions(g.state, seat)
        listed = api.expand(legal)
        assert api.count_actions(legal) == len(listed) == count_actions(legal)
        assert [api.nth_action(legal, i) for i in range(len(listed))] == listed == list(api.iter_actions(legal))
        g.act(r.choice(listed))


def test_the_random_bot_plays_as_if_it_listed_every_action():
    # same draws as random.Random.randrange over the listed actions: its games are unchanged
    g = api.Game.new(api.Config(players=3), 6)
    bot, twin = make_agent("random", 9), random.Random(9)
    for _ in range(200):
        if api.is_over(g.state):
            break
        seat = api.acting(g.state)[0]
        legal = api.legal_actions(g.state, seat)
        listed = api.expand(legal)
        a = bot.decide(api.view(g.state, seat, include_state=True), legal)
        assert a == listed[twin.randrange(len(listed))]
        g.act(a)


def test_a_search_considers_a_bounded_spread_of_a_wide_range():
    assert spread(0, 10, 64) == list(range(11))
    wide = spread(0, RICH, 64)
    assert len(wide) == 64 and wide[0] == 0 and wide[-1] == RICH and wide == sorted(set(wide))
    d = [{"kind": "range", "action": {"seat": 0, "type": "bid"}, "field": "amount", "min": 3, "max": RICH}]
    got = bounded_actions(d, 16)
    assert len(got) == 16 and got[0]["amount"] == 3 and got[-1]["amount"] == RICH


def test_the_web_fallback_bot_draws_a_bid_of_a_billionaire_without_listing_it(rich_bid):
    from pax_hispanica.web import engine_port as seam     # no web extra needed: it imports the engine only
    legal = api.legal_actions(rich_bid, 0)
    t0 = time.process_time()
    a = seam.fallback_bot(3).decide(api.view(rich_bid, 0, include_state=True), legal)
    assert a["type"] == "bid" and time.process_time() - t0 < 1
    # the same draw as random.choice over the listed actions of a small decision
    st = api.Game.new(api.Config(players=3), 2).state
    small = api.legal_actions(st, api.acting(st)[0])
    assert api.count_actions(small) > 1
    assert seam.fallback_bot(5).decide(None, small) == random.Random(5).choice(api.expand(small))
