"""bots/fast_search.py stands for the plain code (issue 40): a search with its fast paths
(the playout, the opponent model's choices, the tree's kept keyed actions, the leaf's
values) grows the very tree the plain code grows, node for node: the same keys, visits,
availabilities and values (the same floats), for the default options and with an opponent
model that draws uniformly more often."""
from __future__ import annotations

from typing import Any

import pytest

from pax_hispanica.bots import fast_search, ismcts
from pax_hispanica.bots.ismcts import ISMCTSAgent

from test_ismcts_pinned import positions


def _tree(node: Any) -> Any:
    return (node.visits, node.avail, node.reward, node.action, node.seat,
            {k: _tree(c) for k, c in node.children.items()})


def _search(view: dict, legal: list, seed: int, options: dict, monkeypatch: pytest.MonkeyPatch) -> Any:
    roots: list[Any] = []
    real = ISMCTSAgent._iterate

    def spy(self: Any, state: Any, root: Any, *rest: Any) -> None:
        if not roots:
            roots.append(root)
        real(self, state, root, *rest)

    monkeypatch.setattr(ISMCTSAgent, "_iterate", spy)
    bot = ISMCTSAgent(seed, iterations=40, **options)
    action = bot.decide(view, legal)
    monkeypatch.undo()
    return action, _tree(roots[0]), bot._fast


@pytest.mark.parametrize("options", [{}, {"model": 0.5}])
def test_fast_search_grows_the_plain_tree(options: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    picked = positions()[::3]          # goods, auction, play and sail positions
    for i, (view, legal) in enumerate(picked):
        ismcts._SHARED_MEMOS.clear()
        fast = _search(view, legal, 70 + i, options, monkeypatch)
        ismcts._SHARED_MEMOS.clear()
        with monkeypatch.context() as m:
            m.setattr(fast_search, "usable", lambda agent: False)
            m.setattr(fast_search, "keyed", lambda node, seat, legal, make: make(legal))
            plain = _search(view, legal, 70 + i, options, m)
        assert fast[2] and not plain[2]
        assert fast[:2] == plain[:2], (i, view["year"])


def test_fact_bid_is_bid_on_facts() -> None:
    """fast_search.fact_bid gives bid_on_facts' bid wherever it gives one (the card's value in
    the memo), over every card of the reference, both decks, initiator or rival, each legality,
    a few fleets, sums of money, cycles and bid ranges."""
    import itertools
    import random

    from pax_hispanica import api
    from pax_hispanica.bots.heuristic import HeuristicAgent

    rs = api.load_ruleset("reference")
    bot = HeuristicAgent(3)
    rng = random.Random(5)
    given = 0
    for card, legality in itertools.product([None, *sorted(rs.cards)], ["CONQUISTADOR", "PRIVATEER", "SMUGGLER", "PLUNDER"]):
        for _ in range(3):
            lo = rng.choice([0, 0, 1, 3])
            bids = {"kind": "range", "field": "amount", "min": lo, "max": lo + rng.randrange(0, 40),
                    "action": {"type": "bid", "seat": 1}}
            facts = (card, rng.choice(["market", "haven", None]), rng.choice([0, 1, 2]), rng.randrange(0, 40),
                     legality, rng.choice([1, 2, 3]), rng.randrange(1, rs.cycles + 1))
            before = fast_search.fact_bid(bot, facts, bids)
            expected = bot.bid_on_facts(rs, facts, bids)
            after = fast_search.fact_bid(bot, facts, bids)
            assert before is None or before == expected
            if bids["max"] > bids["min"]:
                assert after == expected, (facts, bids)
                given += 1
    assert given > 100
