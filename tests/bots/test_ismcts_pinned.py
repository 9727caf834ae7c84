"""ISMCTS decisions are pinned: on a fixed set of positions (four from each year of
random games), a fixed seed and an iteration budget give the same decision and the same
visit counts as recorded in tests/bots/data/ismcts_pinned.json. A speed-up of the search
(issue 13: tuple action keys, cached `acting`, views built from the fields) must not
change what it decides.

Regenerate on purpose only (and review why the decisions moved):

    PAXH_UPDATE_PINNED=1 .venv/bin/python -m pytest tests/bots/test_ismcts_pinned.py
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from pax_hispanica import api
from pax_hispanica.bots import make_agent

DATA = Path(__file__).resolve().parent / "data" / "ismcts_pinned.json"
PER_YEAR = 4
ITERATIONS = 60
YEARS = ("goods", "auction", "play", "sail")


def positions() -> list[tuple[dict, list]]:
    """(view, legal) pairs with more than one legal action, PER_YEAR from each year."""
    rnd = make_agent("random", 11)
    want = {y: PER_YEAR for y in YEARS}
    out: list[tuple[dict, list]] = []
    seed = 500
    while any(want.values()):
        state = api.new_game(api.Config(players=4), seed=seed)
        seed += 1
        step = 0
        while not api.is_over(state):
            seat = api.acting(state)[0]
            legal = api.legal_actions(state, seat)
            view = api.view(state, seat, include_state=True)
            if (step % 23 == 7 or view["year"] == "goods") and want[view["year"]] and api.count_actions(legal) > 1:
                want[view["year"]] -= 1
                out.append((view, legal))
            state, _ = api.apply(state, rnd.decide(view, legal))
            step += 1
    return out


def decisions() -> list[dict]:
    out = []
    for i, (view, legal) in enumerate(positions()):
        bot = make_agent("ismcts", 1000 + i, iterations=ITERATIONS)
        action = bot.decide(view, legal)
        ex = bot.explain()
        out.append({"year": view["year"], "action": action,
                    "visits": [[a["action"], a["visits"]] for a in ex["alternatives"]]})
    return out


def test_ismcts_decisions_are_pinned():
    got = decisions()
    if os.environ.get("PAXH_UPDATE_PINNED"):
        DATA.write_text(json.dumps(got, indent=1) + "\n")
    assert got == json.loads(DATA.read_text())
