"""PRJ-7: legal actions come as the descriptors docs/api.md shows, and nothing else:
`{"kind": "choice", "decision", "rule", "options"}` or
`{"kind": "range", "decision", "rule", "action", "field", "min", "max"}`, where `decision` names the
pending decision and `rule` is a rule ID of the catalogue. A labour choice also lists the
`colonies` it is about (PRJ-12)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pax_hispanica import api
from pax_hispanica.engine.rules import RULES
from support import random_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from test_battle import attack, battle_game

KEYS = {"choice": {"kind", "decision", "rule", "options"},
        "range": {"kind", "decision", "rule", "action", "field", "min", "max"}}
EXTRA = {"labour": {"colonies"}}


def check(st, seen):
    for s in api.acting(st):
        for d in api.legal_actions(st, s):
            assert set(d) == KEYS[d["kind"]] | EXTRA.get(d["decision"], set()), d
            assert d["decision"] == api.decision(st)["decision"], (d, api.decision(st))
            assert d["rule"] in RULES, d
            seen.add(d["decision"])


@pytest.mark.parametrize("players,seed", [(3, 21), (5, 22)])
def test_PRJ_7_every_descriptor_of_random_games_has_the_documented_fields(players, seed):
    seen: set[str] = set()
    random_game(players, seed, on_step=lambda before, action, after, events: check(before, seen))
    assert {"bid", "initiate", "play_turn", "voyage"} <= seen, seen


def test_BAT_3_the_support_decision_offers_the_documented_descriptor():
    g = battle_game(fleets={1: (1, []), 2: (1, [])}, rebels=1)
    attack(g, "rebels")
    seen: set[str] = set()
    check(g.state, seen)
    assert seen == {"support"}
    (d,) = api.legal_actions(g.state, 1)
    assert d["rule"] == "BAT-3" and [o["side"] for o in d["options"]] == ["attacker", "target"]
