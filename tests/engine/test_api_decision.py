"""api.decision: the documented shape (docs/api.md, "Decisions"), and None for a seat not asked."""

from __future__ import annotations

import random
import re
import typing
from pathlib import Path

import pytest

from pax_hispanica import api
from pax_hispanica.engine.decisions import DECISIONS, DecisionContext

DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def _context_type(dec) -> type:
    """The TypedDict a decision type saves (its Decision[Context] base)."""
    for base in getattr(type(dec), "__orig_bases__", ()):
        args = typing.get_args(base)
        if args:
            return args[0]
    return DecisionContext


def _public_keys(dec) -> set[str]:
    """What api.decision shows of a decision: its saved context with "d" named "decision";
    a sealed one also lists the committed seats' hashes (PRJ-1)."""
    keys = set(typing.get_type_hints(_context_type(dec))) - {"d"} | {"decision"}
    return keys | ({"hashes"} if dec.sealed else set())


CONTEXT = {name: _public_keys(dec) - {"decision", "rule", "seats"} for name, dec in DECISIONS.items()}
RULE = {name: dec.rule for name, dec in DECISIONS.items()}


def _documented() -> dict[str, tuple[str, set[str]]]:
    """docs/api.md's table of decisions: name -> (rule, context keys named in backticks)."""
    text = DOCS.read_text(encoding="utf-8")
    table = text[text.index("| decision | rule | context"):].split("\n\n", 1)[0]
    out = {}
    for row in table.splitlines()[2:]:
        name, rule, context = (c.strip() for c in row.strip("|").split("|"))
        out[name.strip("`")] = (rule, set(re.findall(r"`([a-z_]+)`", context)))
    return out


def _states(games: int = 12):
    for seed in range(games):
        n = 2 + seed % 4
        g = api.Game.new(api.Config(players=n), seed=seed)
        r = random.Random(seed)
        while not api.is_over(g.state):
            yield g.state
            s = api.acting(g.state)[0]
            legal = api.legal_actions(g.state, s)
            g.act(api.nth_action(legal, r.randrange(api.count_actions(legal))))
        yield g.state


def _reduce_hand_state():
    from tests.support import scenario
    cards = [c for c, card in api.load_ruleset("reference").cards.items() if card.deck == "market"][:8]
    g = scenario({"year": "play", "step": "hand_limit_at_year_end",
                  "players": [{"hand": cards}, {}, {}]})
    return g.state


def test_the_documented_table_is_the_registry_s_declared_contexts():
    """docs/api.md's table of api.decision's shapes names exactly what each declared type saves."""
    documented = _documented()
    assert set(documented) == set(DECISIONS)
    for name, (rule, keys) in documented.items():
        assert rule == RULE[name], name
        assert keys == CONTEXT[name], (name, keys ^ CONTEXT[name])


@pytest.mark.parametrize("name", sorted(DECISIONS))
def test_api_decision_shape_per_decision_type(name):
    """Each decision type: {"decision", "rule", "seats", ...its context}, for every seat asked;
    None for every seat not asked."""
    seen = 0
    states = [_reduce_hand_state()] if name == "reduce_hand" else _states()
    for st in states:
        pub = api.decision(st, None)
        if pub is None:
            assert api.acting(st) == ()
            assert all(api.decision(st, s) is None for s in range(st.n))
            continue
        if pub["decision"] != name:
            continue
        seen += 1
        assert pub["rule"] == RULE[name]
        assert set(pub) - {"decision", "rule", "seats"} <= CONTEXT[name], set(pub) - CONTEXT[name]
        assert set(api.acting(st)) <= set(pub["seats"])
        for s in range(st.n):
            asked = api.decision(st, s)
            assert (asked == pub) if s in api.acting(st) else (asked is None), (name, s)
        if seen >= 30:
            break
    assert seen, f"no {name} decision met"


def test_api_decision_none_when_the_game_is_over():
    *_, last = _states(1)
    assert api.is_over(last) and api.decision(last, None) is None and api.decision(last, 0) is None
