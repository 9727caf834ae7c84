"""The golden trace: a seeded 4-player random-bot game written as readable text, one
line per action and per event, checked in as tests/golden/*.txt. Any unintended change
in the rules or the randomness changes the text and fails this test.

When a change is intended, regenerate on purpose and review the diff:

    PAXH_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/engine/test_golden.py
    git diff tests/golden/
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pax_hispanica import api
from support import check_golden

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
GAMES = [("game_4p_seed2024.txt", 4, 2024)]
SKIP_FIELDS = ("seq", "type", "rule", "page")


def _val(v) -> str:
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def event_line(e: dict) -> str:
    fields = " ".join(f"{k}={_val(v)}" for k, v in e.items() if k not in SKIP_FIELDS)
    return f"    #{e['seq']} {e['type']} [{e['rule']}] {fields}".rstrip()


def action_line(i: int, a: dict) -> str:
    fields = " ".join(f"{k}={_val(v)}" for k, v in a.items() if k not in ("seat", "type"))
    return f"> {i}: seat {a['seat']} {a['type']} {fields}".rstrip()


def trace(players: int, seed: int) -> str:
    """The game of a bot that picks with its own random.Random(seed) over every legal action."""
    g = api.Game.new(api.Config(players=players), seed)
    bot = random.Random(seed)
    lines = [f"# Pax Hispanica golden trace: {players} players, seed {seed}, ruleset {g.state.rs.version};",
             f"# bot: random.Random({seed}) picks a seat among api.acting, then an action among "
             "api.expand(api.legal_actions).",
             "# Regenerate on purpose: PAXH_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/engine/test_golden.py",
             "# Lines: '> n: seat s action fields' for the n-th action, '    #seq Event [RULE] fields' for events."]
    lines += [event_line(e) for e in g.events]
    n = 0
    while not api.is_over(g.state):
        seat = bot.choice(api.acting(g.state))
        action = bot.choice(api.expand(api.legal_actions(g.state, seat)))
        n += 1
        lines.append(action_line(n, action))
        lines += [event_line(e) for e in g.act(action)]
    lines.append(f"= result {_val(api.result(g.state))}")
    lines.append(f"= summary {_val(api.summary(g.state))}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("fname,players,seed", GAMES)
def test_golden_trace_of_a_seeded_bot_game_is_unchanged(fname, players, seed):
    check_golden(GOLDEN / fname, trace(players, seed),
                 "The golden game changed: the rules or the randomness behave differently.")


def test_golden_trace_replays_from_its_own_action_lines():
    """The trace's action lines are a record: replaying them gives the trace's result."""
    path = GOLDEN / GAMES[0][0]
    actions, result = [], None
    for line in path.read_text().splitlines():
        if line.startswith("> "):
            _head, _, rest = line.partition(": seat ")
            parts = rest.split(" ")
            a = {"seat": int(parts[0]), "type": parts[1]}
            for f in parts[2:]:
                k, _, v = f.partition("=")
                a[k] = json.loads(v)
            actions.append(a)
        elif line.startswith("= result "):
            result = json.loads(line[len("= result "):])
    g = api.replay({"config": {"players": GAMES[0][1]}, "seed": GAMES[0][2], "actions": actions})
    assert api.result(g.state) == result
