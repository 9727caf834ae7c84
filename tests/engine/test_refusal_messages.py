"""PRJ-7: a refusal tells the player what the decision takes. Written to kill mutants that
survived scripts/mutation.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pax_hispanica import api

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from test_battle import battle_game

VOYAGE = ["move", "attack", "enslave", "load_chests", "unload", "unload_haven", "end_voyage"]


@pytest.mark.parametrize("action", [{"seat": 0, "type": "bid", "amount": 1},
                                    {"seat": 0, "type": "support", "side": "attacker"},
                                    {"seat": 0, "type": "pass"}])
def test_SAIL_1_a_voyage_refuses_other_actions_naming_the_ones_it_takes(action):
    g = battle_game(rebels=1)
    assert api.decision(g.state)["decision"] == "voyage"
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, action)
    assert e.value.code == "wrong_action" and e.value.rule == "SAIL-1"
    assert e.value.message == "On a voyage: " + ", ".join(VOYAGE[:-1]) + " or " + VOYAGE[-1] + "."
    offered = {a["type"] for a in api.expand(api.legal_actions(g.state, 0))}
    assert offered <= set(VOYAGE) and "attack" in offered
