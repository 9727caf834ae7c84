"""ISMCTS's opt-in `playout_bot` (issue 17, fifth round; docs/bots.md): the bot's own seat in
the playouts follows a heuristic preset on its view of the sampled state, the other seats keep
the playout policy. Off ("none") by default, so the pinned decisions do not move."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from pax_hispanica.bots import make_agent
from pax_hispanica.bots.heuristic import DEFAULTS, preset
from pax_hispanica.bots.ismcts import ISMCTSAgent

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_ismcts_pinned import ITERATIONS, positions


def test_playout_bot_parses_is_checked_and_is_off_by_default(tmp_path):
    assert make_agent("ismcts", 1).playout_bot == "none"
    assert make_agent("ismcts", 1, playout_bot="tuned").playout_bot == "tuned"
    from pax_hispanica.sim.runner import parse_bots
    spec = parse_bots("ismcts:iterations=5:playout_bot=tuned", 1)[0]
    assert spec["options"]["playout_bot"] == "tuned"
    bad = tmp_path / "p.json"
    bad.write_text(json.dumps({"params": {"bid_sharez": 0.5}}))
    with pytest.raises(ValueError, match="bid_sharez"):
        make_agent("ismcts", 1, playout_bot=str(bad))
    with pytest.raises(OSError):
        make_agent("ismcts", 1, playout_bot=str(tmp_path / "missing.json"))


def test_playout_bot_plays_only_the_own_seat_with_the_preset(monkeypatch):
    seats = []
    real = ISMCTSAgent._own_playout_action

    def spy(self, state, me, legal):
        seats.append((me, legal[0]["action"]["seat"] if legal[0].get("kind") == "range"
                      else legal[0]["options"][0]["seat"]))
        return real(self, state, me, legal)

    monkeypatch.setattr(ISMCTSAgent, "_own_playout_action", spy)
    made = 0
    for view, legal in positions()[:6]:
        bot = make_agent("ismcts", 7, iterations=20, playout_bot="tuned")
        bot.decide(view, legal)
        if bot._own_bot is not None:          # made when a playout first reaches the own seat
            made += 1
            assert bot._own_bot.params == {**DEFAULTS, **preset("tuned")}
    assert made, "no search made its own seat's playout bot"
    assert seats, "the own seat never moved in a playout"
    assert all(me == s for me, s in seats)


def test_playout_bot_changes_play_and_is_deterministic_for_a_seed():
    differ = 0
    for i, (view, legal) in enumerate(positions()):
        base = make_agent("ismcts", 1000 + i, iterations=ITERATIONS)
        base.decide(view, legal)
        runs = []
        for _ in range(2):
            bot = make_agent("ismcts", 1000 + i, iterations=ITERATIONS, playout_bot="tuned")
            action = bot.decide(view, legal)
            runs.append((action, bot.explain()["alternatives"]))
        assert runs[0] == runs[1]
        differ += runs[0][1] != base.explain()["alternatives"]
    assert differ >= 1
