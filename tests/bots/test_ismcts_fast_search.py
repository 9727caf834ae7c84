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
