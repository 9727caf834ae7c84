"""PRJ-7: the table of each action type's fields (engine.core.ACTION_FIELDS) covers every
action the rules ever offer, and nothing outside it is accepted. The table is derived from
the decision types (engine/decisions.py): every legal action is one that its pending
decision declares, with the declared fields and JSON types."""

from __future__ import annotations

from collections import Counter

import pytest

from pax_hispanica import api
from pax_hispanica.engine import core
from pax_hispanica.engine.core import ACTION_FIELDS, check_shape
from pax_hispanica.engine.decisions import DECISIONS, NONE
from pax_hispanica.sim import corpus
from support import random_game, treasure_seeking_game

# Accepted only to be refused with the rule that forbids it, never offered: a colony may not
# stay vacant while a source of labour exists (LAB-3), and one without a source stays vacant
# by itself (labour_acquisition), so no legal action is ever a leave_vacant.
NEVER_OFFERED = {("labour", "leave_vacant")}


def fits_its_decision(st, a: dict) -> tuple[str, str]:
    """`a`, a legal action in `st`, is one its pending decision declares: a declared type, only
    declared fields, each of a declared JSON type, and a field left out only where null is
    allowed. Returns (decision, action type)."""
    name = st.stack[-1]["d"]
    declared = DECISIONS[name].actions
    assert a["type"] in declared, (name, a)
    fields = declared[a["type"]]
    assert set(a) - {"seat", "type"} <= set(fields), (name, a)
    for f, types in fields.items():
        if f in a:
            assert type(a[f]) in types, (name, a, f)
        else:
            assert NONE in types, (name, a, f)
    return name, a["type"]


def test_PRJ_7_the_field_table_is_derived_from_the_decision_types():
    merged: dict = {"undo": {}}
    for dec in DECISIONS.values():
        for kind, fields in dec.actions.items():
            assert merged.setdefault(kind, dict(fields)) == dict(fields), kind   # one table per type
    assert merged == ACTION_FIELDS
    assert frozenset(merged) == core.ACTION_TYPES
    assert 2 + max(len(f) for f in merged.values()) == core.MAX_KEYS
    assert core.ENGINE_ACTIONS == {"undo": {}}          # undo, the engine's own, declared once
    assert all("undo" not in dec.actions for dec in DECISIONS.values())


def test_PRJ_7_each_decision_declares_its_name_rule_and_actions():
    rules = set(api.RULES)
    for name, dec in DECISIONS.items():
        assert dec.name == name and dec.rule in rules and dec.actions, name
    described = {d["name"]: d for d in api.decision_types()}
    assert list(described) == list(DECISIONS)
    assert described["bid"] == {"name": "bid", "rule": "AUC-3", "sealed": True, "secret_field": "amount",
                                "actions": {"bid": {"amount": ["integer"]}}}
    assert described["play_turn"]["actions"]["play"] == {"card": ["string"], "target": ["string", "null"]}
    assert {k for d in described.values() for k in d["actions"]} | {"undo"} == set(ACTION_FIELDS)


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4), (4, 2 ** 127 + 5)])
def test_PRJ_7_every_legal_action_of_random_games_fits_the_field_table(players, seed):
    seen: dict[str, set] = {}
    pairs: set = set()

    def check(before, action, after, events):
        for st in (before, after):
            for s in api.acting(st):
                for a in api.iter_actions(api.legal_actions(st, s)):
                    fields = set(a) - {"seat", "type"}
                    assert fields <= set(ACTION_FIELDS[a["type"]]), a
                    assert check_shape(st, a) == s
                    pairs.add(fits_its_decision(st, a))
                    seen.setdefault(a["type"], set()).update(fields)

    random_game(players, seed, bot_seed=seed % 1000, on_step=check)
    assert {"bid", "initiate", "pass", "end_voyage", "move"} <= set(seen)
    assert {("bid", "bid"), ("initiate", "pass"), ("play_turn", "end_turn"), ("voyage", "move")} <= pairs


def declared_pairs() -> set:
    return {(name, kind) for name, dec in DECISIONS.items() for kind in dec.actions}


def test_PRJ_7_games_that_sail_and_fight_offer_only_declared_actions():
    """The rarer actions (attack, support, enslave, unload, Havens) in games that seek them."""
    pairs: set = set()

    def check(before, action, after, events):
        for s in api.acting(after):
            for a in api.iter_actions(api.legal_actions(after, s)):
                pairs.add(fits_its_decision(after, a))

    for players, seed in [(3, 21), (4, 22)]:
        treasure_seeking_game(players, seed, check)
    assert {("voyage", "attack"), ("voyage", "load_chests"), ("support", "support")} <= pairs


def test_PRJ_7_the_corpus_offers_every_declared_action_and_nothing_else():
    """Over every position of the recorded games (tests/corpus/): every legal action fits its
    decision's declaration, and every declared action of every decision is offered somewhere
    (but those accepted only to be refused), so no declaration is dead."""
    offered: Counter = Counter()
    for _f, entry in corpus.load():
        record = entry["record"]
        g = api.replay({**record, "actions": []})
        for action in record["actions"]:
            st = g.state
            for s in api.acting(st):
                legal = api.legal_actions(st, s)
                for i in range(min(api.count_actions(legal), 200)):
                    offered[fits_its_decision(st, api.nth_action(legal, i))] += 1
            g.act(action)
    assert set(offered) == declared_pairs() - NEVER_OFFERED, offered


def test_LAB_3_leave_vacant_is_declared_only_to_be_refused_with_its_rule():
    """Never offered, yet of a declared shape: a player who asks gets LAB-3's refusal, not PRJ-7's."""
    assert declared_pairs() >= NEVER_OFFERED
    record = next(e["record"] for _f, e in corpus.load() if any(a["type"] == "labour" for a in e["record"]["actions"]))
    g = api.replay(record, upto=next(i for i, a in enumerate(record["actions"]) if a["type"] == "labour"))
    dec = g.state.stack[-1]
    action = {"seat": dec["seats"][0], "type": "leave_vacant", "colony": dec["colonies"][0]}
    assert check_shape(g.state, action) == dec["seats"][0]
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, action)
    assert (e.value.code, e.value.rule) == ("source_exists", "LAB-3")


DUMMY = {str: "x", int: 1, bool: False, type(None): None}


def test_PRJ_7_a_decision_refuses_exactly_the_action_types_it_does_not_declare():
    """A well-shaped action of a type the pending decision does not declare is refused as
    `wrong_action`; one it declares never is (whatever else may be wrong with it). So a
    decision's `act` and its declaration agree."""
    tried: Counter = Counter()
    for _f, entry in corpus.load()[::4]:
        record = entry["record"]
        g = api.replay({**record, "actions": []})
        for action in record["actions"]:
            st = g.state
            name = st.stack[-1]["d"]
            if tried[name] < 30 and action["type"] != "undo":
                tried[name] += 1
                seat = api.acting(st)[0]
                for kind, fields in ACTION_FIELDS.items():
                    if kind == "undo":
                        continue
                    probe = {"seat": seat, "type": kind, **{f: DUMMY[types[0]] for f, types in fields.items()}}
                    try:
                        api.apply(st, probe)
                        refused = None
                    except api.IllegalAction as e:
                        refused = e.code
                    assert (refused == "wrong_action") == (kind not in DECISIONS[name].actions), (name, probe, refused)
            g.act(action)
    assert set(tried) == set(DECISIONS)


def test_PRJ_7_a_string_field_of_exactly_the_limit_passes_the_shape_check_and_one_more_is_refused():
    st = api.new_game(api.Config(players=2), seed=3)
    at_limit = {"seat": 0, "type": "play", "card": "x" * core.MAX_STR}
    assert check_shape(st, at_limit) == 0                 # the shape is fine (the rules refuse the card)
    with pytest.raises(api.IllegalAction) as e:
        check_shape(st, {**at_limit, "card": "x" * (core.MAX_STR + 1)})
    assert e.value.code == "malformed" and e.value.rule == "PRJ-7" and str(core.MAX_STR) in str(e.value)


class _Str(str):
    """A str subclass: hashes and compares as its text, but is not JSON's string type."""


@pytest.mark.parametrize("key", [_Str("card"), 1, (1, 2)], ids=["a str subclass", "an int", "a tuple"])
def test_PRJ_7_a_field_name_that_is_not_exactly_a_string_is_refused(key):
    """Only what JSON can carry: a field named by a str subclass equal to a declared field
    ("card") is refused like any unknown field, before any rule reads it."""
    st = api.new_game(api.Config(players=2), seed=3)
    assert check_shape(st, {"seat": 0, "type": "play", "card": "x"}) == 0
    with pytest.raises(api.IllegalAction) as e:
        check_shape(st, {"seat": 0, "type": "play", key: "x"})
    assert e.value.code == "malformed" and e.value.rule == "PRJ-7" and "has no field" in str(e.value)
