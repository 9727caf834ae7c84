"""The golden trace of what a seat is told: seeded random-bot games at every player count, and
at every decision, for each seat asked, the pending decision as everyone sees it
(api.decision), the options the rules forbid with their reason and rule (api.unavailable,
HID-1), the battles it may fight or support with their Strengths (api.battle_previews), what it
knows of the hands and decks (api.known_cards, HID-2), and the engine's own refusal, code, rule
and message, of each forbidden option it is shown (PRJ-7: errors are for people; the reason a
page shows must be the engine's). Checked in as tests/golden/reasons_*.txt: any change to a
reason, a refusal's words or what a seat may know changes the text and fails this test, as the
golden game trace does for the events.

When a change is intended, regenerate on purpose and review the diff:

    PAXH_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/engine/test_golden_reasons.py
    git diff tests/golden/
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from pax_hispanica import api
from support import check_golden

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
GAMES = [("reasons_2p_seed31.txt", 2, 31), ("reasons_3p_seed32.txt", 3, 32),
         ("reasons_4p_seed33.txt", 4, 33), ("reasons_5p_seed34.txt", 5, 34)]


def _j(v: object) -> str:
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _known(known: dict) -> str:
    """known_cards compactly: per seat the known hand cards (sorted) and how many are unknown;
    per deck its count, top, sure and unsure cards (sorted)."""
    hands = ";".join(f"{s}:{','.join(sorted(h['known']))}+{h['unknown']}" for s, h in enumerate(known["hands"]))
    decks = ";".join(f"{name}:{d.get('count')}/{d.get('top')}/{','.join(sorted(d['cards']))}/{','.join(sorted(d['unsure']))}"
                     for name, d in sorted(known["decks"].items()))
    return f"hands {hands} | decks {decks}"


def _decisions(g: api.Game, seed: int):
    """The seeded bot's game, one decision at a time: (seat, action) before `g` takes it, the bot
    random.Random(seed) picking a seat among api.acting, then an action among api.expand."""
    bot = random.Random(seed)
    while not api.is_over(g.state):
        seat = bot.choice(api.acting(g.state))
        action = bot.choice(api.expand(api.legal_actions(g.state, seat)))
        yield seat, action
        g.act(action)


def _refusal(state: api.State, action: dict) -> str:
    try:
        api.apply(state, action)
    except api.IllegalAction as e:
        return f"{e.code} [{e.rule}] {e.message}"
    return "ACCEPTED"          # a reason offered for an action the engine takes: shown, never hidden


def trace(players: int, seed: int) -> str:
    g = api.Game.new(api.Config(players=players), seed)
    lines = [f"# What each seat is told: {players} players, seed {seed}, ruleset {g.state.rs.version}; the bot:",
             f"# random.Random({seed}) picks a seat among api.acting, then an action among api.expand(api.legal_actions).",
             "# Regenerate on purpose: PAXH_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/engine/test_golden_reasons.py",
             "# '@ n seat s decision' per seat asked before the n-th action; under it '  x' each forbidden option,",
             "# '    ! ' the engine's refusal of it; '  battle' the previews; '  knows' api.known_cards when it changes."]
    last_known: dict[int, str] = {}
    for n, _ in enumerate(_decisions(g, seed)):
        state = g.state
        for seat in api.acting(state):
            view = api.view(state, seat)
            lines.append(f"@ {n} seat {seat} {_j(api.decision(state, seat))}")
            for u in api.unavailable(view):
                lines.append(f"  x {u['decision']} {_j(u['action'])} {u['code']} [{u['rule']}] {_j(u['params'])}")
                lines.append(f"    ! {_refusal(state, u['action'])}")
            for target, p in sorted(api.battle_previews(view, seat).items()):
                lines.append(f"  battle {target} {_j(p)}")
            knows = _known(api.known_cards(view, api.redact(g.events, seat)))
            if knows != last_known.get(seat):       # written when it changes (a change anywhere shows)
                lines.append(f"  knows {knows}")
                last_known[seat] = knows
    lines.append(f"= result {_j(api.result(g.state))}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("fname,players,seed", GAMES)
def test_HID_1_golden_reasons_previews_and_knowledge_of_seeded_games_are_unchanged(fname, players, seed):
    check_golden(GOLDEN / fname, trace(players, seed), "What a seat is told changed: a reason, a refusal's "
                 "words, a preview or what it knows.")


def test_PRJ_7_every_reason_shown_is_refused_by_the_engine():
    """No option is shown as forbidden that the engine would take: each reason of the golden
    games is followed by the engine's refusal of its action (their text is read back)."""
    checked = 0
    for fname, *_ in GAMES:
        lines = (GOLDEN / fname).read_text().splitlines()
        for reason, refusal in itertools.pairwise(lines):
            if reason.startswith("  x "):
                checked += 1
                assert refusal.startswith("    ! ") and refusal != "    ! ACCEPTED", (fname, reason)
    assert checked > 50, checked


# ---- the refusals' words: every refusal the engine gives to actions a client might send ----------
REFUSALS = "refusals.txt"


def _perturbed(state: api.State, seat: int, action: dict) -> list[dict]:
    """Actions a client might send instead of a legal one: another seat's, each field off by a
    lot, unknown, missing or of the wrong type, an extra field, another type's fields."""
    out = [{**action, "seat": (seat + 1) % state.n}, {**action, "extra": 1}, {"seat": seat, "type": "undo"},
           {"seat": seat, "type": "pass"}, {"seat": seat, "type": "bid", "amount": 0},
           {"seat": seat, "type": "support", "side": "neutral"}, {"seat": seat, "type": "end_voyage"}]
    for k, v in action.items():
        if k in ("seat", "type"):
            continue
        out.append({x: y for x, y in action.items() if x != k})
        if isinstance(v, bool):
            out += [{**action, k: not v}, {**action, k: 1}, {**action, k: None}]
        elif isinstance(v, int):
            out += [{**action, k: v + 1000}, {**action, k: -1}, {**action, k: "1"}, {**action, k: None}]
        elif isinstance(v, str):
            out += [{**action, k: "nowhere"}, {**action, k: 7}, {**action, k: None}]
    return out


def refusals() -> str:
    """Each distinct refusal (code, rule, words) over the golden games' positions, with how many
    of the perturbed actions got it; the same action sent twice where it was accepted (a sealed
    choice cannot be changed, a turn cannot be replayed) counts too."""
    seen: dict[str, int] = {}

    def note(state: api.State, action: dict) -> None:
        line = _refusal(state, action)
        if line != "ACCEPTED":
            seen[line] = seen.get(line, 0) + 1

    for _, players, seed in GAMES:
        g = api.Game.new(api.Config(players=players), seed)
        for seat, action in _decisions(g, seed):
            for wrong in _perturbed(g.state, seat, action):
                note(g.state, wrong)
            after = api.apply(g.state, action)[0]
            if not api.is_over(after):
                note(after, action)
    lines = ["# Every refusal of the actions tests/engine/test_golden_reasons.py sends (its _perturbed),",
             "# as 'count  code [rule] message'. Regenerate on purpose: PAXH_UPDATE_GOLDEN=1 .venv/bin/python -m pytest",
             "# tests/engine/test_golden_reasons.py"]
    lines += [f"{n:6d}  {line}" for line, n in sorted(seen.items(), key=lambda x: x[0])]
    return "\n".join(lines) + "\n"


def test_PRJ_7_golden_refusals_codes_rules_and_words_are_unchanged():
    check_golden(GOLDEN / REFUSALS, refusals(), "A refusal changed: its code, rule or words, or which actions "
                 "get it.", context=1)
