"""The decision types (engine/decisions.py, issue 13): the sealed sets, determinize's
resampling of others' sealed choices (AUC-3 bids, BAT-3 Battle Cards) and what the web
and the bots know of sealed choices all come from the declared types, never from a list
of their own."""

from __future__ import annotations

import re
import types
import typing
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import pytest

import pax_hispanica
from pax_hispanica import api
from pax_hispanica.engine.decisions import DECISIONS, Decision, secret_domain
from pax_hispanica.sim import corpus

SRC = Path(pax_hispanica.__file__).resolve().parent       # the sources, whichever engine is loaded


@cache
def sealed_positions() -> tuple:
    """Every position of the corpus whose pending decision is sealed, with at least one seat
    committed and one still to choose (up to 300 of each decision type)."""
    found: dict[str, list] = {}
    for _f, entry in corpus.load():
        record = entry["record"]
        g = api.replay({**record, "actions": []})
        for action in record["actions"]:
            st = g.state
            dec = st.stack[-1] if st.stack else None
            if dec and dec.get("sealed") and dec["committed"] and api.acting(st):
                found.setdefault(dec["d"], [])
                if len(found[dec["d"]]) < 300:
                    found[dec["d"]].append(st)
            g.act(action)
    return tuple((name, st) for name, states in found.items() for st in states)


def test_PRJ_1_the_sealed_sets_are_the_declared_sealed_decisions():
    declared = {name for name, d in DECISIONS.items() if d.sealed}
    assert api.SEALED_DECISIONS == declared == {"bid", "support"}        # AUC-3 and BAT-3
    assert api.SEALED_ACTION_TYPES == {k for n in declared for k in DECISIONS[n].actions} == {"bid", "support"}
    assert all(api.is_sealed_action(k) for k in api.SEALED_ACTION_TYPES)
    assert not any(api.is_sealed_action(k) for n, d in DECISIONS.items() if not d.sealed for k in d.actions)
    assert not api.is_sealed_action("undo") and not api.is_sealed_action(None)
    assert api.is_sealed_decision("support") and not api.is_sealed_decision("voyage")
    assert [d["name"] for d in api.decision_types() if d["sealed"]] == sorted(declared)
    for name in declared:
        assert DECISIONS[name].secret_field in DECISIONS[name].actions[name]


def test_PRJ_1_a_pending_decision_is_saved_sealed_exactly_when_its_type_is():
    for _f, entry in corpus.load()[:20]:
        record = entry["record"]
        g = api.replay({**record, "actions": []})
        for action in record["actions"]:
            dec = g.state.stack[-1]
            assert bool(dec.get("sealed")) == DECISIONS[dec["d"]].sealed == api.is_sealed_decision(dec["d"])
            if action["type"] != "undo":
                assert api.is_sealed_action(action["type"]) == DECISIONS[dec["d"]].sealed, action
            g.act(action)


def test_AUC_3_BAT_3_a_secret_domain_is_exactly_what_the_seat_may_choose():
    """The domain, computed from public facts only, is the set of the secret field's values
    among the seat's legal actions; every seat's information state gives the same domain."""
    positions = sealed_positions()
    assert {name for name, _st in positions} == {"bid", "support"}
    for name, st in positions:
        dec = st.stack[-1]
        field = DECISIONS[name].secret_field
        for s in api.acting(st):
            legal = [a[field] for a in api.iter_actions(api.legal_actions(st, s))]
            domain = list(secret_domain(api.information_state(st, None), dec, s))
            assert sorted(domain, key=str) == sorted(legal, key=str) and len(set(domain)) == len(domain)
            for viewer in range(st.n):
                assert list(secret_domain(api.information_state(st, viewer), dec, s)) == domain


def test_AUC_3_BAT_3_determinize_draws_others_sealed_choices_within_their_domain():
    seen: dict[str, set] = {"bid": set(), "support": set()}
    for name, st in sealed_positions()[::3]:
        dec = st.stack[-1]
        committed = [s for s, _h in dec["committed"]]
        for viewer in [None, *dec["seats"]]:
            info = api.information_state(st, viewer)
            for k in range(3):
                sample = api.determinize(info, k)
                for s in committed:
                    if s == viewer:                    # one's own choice is known, not drawn
                        assert sample.secrets[s] == st.secrets[s]
                        continue
                    assert sample.secrets[s] in secret_domain(info, dec, s), (name, s, sample.secrets[s])
                    seen[name].add(sample.secrets[s])
                assert set(sample.secrets) == set(committed)
    assert seen["support"] == {"attacker", "target"}
    assert len(seen["bid"]) > 5


def _declared_elsewhere(real: Decision) -> Decision:
    """A decision type that is `real` in every way but its secret domain: ("declared",)."""

    class Declared(Decision):
        name, rule, actions = real.name, real.rule, real.actions
        sealed, secret_field = real.sealed, real.secret_field

        def legal(self, st, dec, seat):
            return real.legal(st, dec, seat)

        def act(self, st, dec, action, out):
            real.act(st, dec, action, out)

        def secret_domain(self, info, dec, seat):
            return ("declared",)

    return Declared()


@pytest.mark.parametrize("name", ["bid", "support"])
def test_PRJ_1_determinize_draws_from_the_declared_domain_and_nowhere_else(name, monkeypatch):
    """Declare a sealed decision with another domain and determinize follows it: it keeps no
    copy of its own (no "bid" branch). The registry entry is replaced by a decision type of
    another domain (a subclass of Decision, as the engine's own): no engine code is patched,
    so the test means the same whether the engine is compiled or not."""
    monkeypatch.setitem(DECISIONS, name, _declared_elsewhere(DECISIONS[name]))
    positions = [st for n, st in sealed_positions() if n == name][:20]
    assert positions
    for st in positions:
        for k in range(2):
            sample = api.determinize(api.information_state(st, None), k)
            assert set(sample.secrets.values()) == {"declared"}


def context_of(dec) -> type:
    """The TypedDict a decision type declares for its saved context (Decision[...])."""
    return next(typing.get_args(b)[0] for b in type(dec).__orig_bases__ if typing.get_origin(b) is Decision)


def fits_hint(value, hint) -> bool:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(fits_hint(value, a) for a in args)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(fits_hint(v, args[0]) for v in value)
        return len(value) == len(args) and all(fits_hint(v, a) for v, a in zip(value, args))
    if hint is type(None):
        return value is None
    return type(value) is hint                   # exact: True is not an int here


def test_every_saved_decision_is_a_plain_dict_of_its_declared_context():
    """What each decision type declares for mypy (its TypedDict) is what the stack holds: a plain
    dict with "d", "seats", "rule" first, every required key, no other key, each value of its
    declared type (the voyage's progress included: PRJ-16 battled, TRS-4 taken, PRJ-30 royal)."""
    declared = {}
    for name, d in DECISIONS.items():
        hints = typing.get_type_hints(context_of(d), include_extras=True)
        declared[name] = hints, {k for k, h in hints.items() if typing.get_origin(h) is typing.NotRequired}
    seen: set = set()
    for _f, entry in corpus.load():
        record = entry["record"]
        g = api.replay({**record, "actions": []})
        for action in [*record["actions"], None]:
            for dec in g.state.stack:
                assert type(dec) is dict
                hints, optional = declared[dec["d"]]
                assert list(dec)[:3] == ["d", "seats", "rule"]
                assert set(hints) - optional <= set(dec) <= set(hints), (dec["d"], set(dec) ^ set(hints))
                for k, v in dec.items():
                    h = hints[k]
                    h = typing.get_args(h)[0] if k in optional else h
                    assert fits_hint(v, h), (dec["d"], k, v, h)
                seen.add(dec["d"])
                seen.update(f"{dec['d']}.{k}" for k in set(dec) & optional)
            if action is not None:
                g.act(action)
    assert set(DECISIONS) | {"voyage.royal"} <= seen



def test_PRJ_7_saving_a_decision_knows_every_tuple_field_of_the_declared_contexts():
    """decisions.saved_decision / loaded_decision name the fields that hold tuples (no generic
    walk, issue 13): exactly the tuple-typed fields of the declared contexts, and the only
    vocabulary field (a bid's deck) is loaded as its member. Saving and loading round-trip."""
    from pax_hispanica.engine.decisions import TUPLE_FIELDS, loaded_decision, saved_decision
    from pax_hispanica.engine.vocab import Deck
    tuples, words = set(), set()
    for d in DECISIONS.values():
        for k, h in typing.get_type_hints(context_of(d)).items():
            h = typing.get_args(h)[0] if typing.get_origin(h) is typing.NotRequired else h
            if typing.get_origin(h) is tuple:
                tuples.add(k)
            elif h is Deck:
                words.add(k)
    assert tuples == set(TUPLE_FIELDS) and words == {"deck"}
    dec = {"d": "bid", "seats": (2, 0), "rule": "AUC-3", "sealed": True, "committed": ((2, "ab"),), "id": "bid.1.4",
           "initiator": 2, "deck": Deck.HAVEN, "pos": 1, "card": None}
    saved = saved_decision(dec)
    assert saved == {**dec, "seats": [2, 0], "committed": [[2, "ab"]]} and list(saved) == list(dec)
    back = loaded_decision(saved)
    assert back == dec and type(back["deck"]) is Deck and type(back["committed"][0]) is tuple

# ---- the outer layers know sealed choices only through the API ---------------------------------

SEALED_LIST = re.compile(r"""(["'])bid\1.*(["'])support\2|(["'])support\3.*(["'])bid\4|SEALED_TYPES\s*=""")


def test_PRJ_1_the_web_and_the_bots_have_no_list_of_sealed_types_of_their_own():
    """Grep: no literal set of the sealed names outside the engine. The toy game of the bot
    tests is another game and declares its own (SEALED_ACTION_TYPES, as the API does)."""
    files = [p for folder in ("web", "bots", "sim") for p in (SRC / folder).rglob("*.py")]
    files += [SRC / "cli.py", SRC / "tui.py"]
    assert any(p.name == "ismcts.py" for p in files)
    assert any(p.parts[-2:] == ("play", "service.py") for p in files)     # the web's game service
    hits = [f"{p.relative_to(SRC)}:{i}: {line.strip()}" for p in files if p.name != "toygame.py"
            for i, line in enumerate(p.read_text().splitlines(), 1) if SEALED_LIST.search(line)]
    assert hits == []
    assert SEALED_LIST.search('SEALED = frozenset({"bid", "support"})')       # the pattern itself works


def test_PRJ_1_the_web_reads_sealed_actions_from_the_api(monkeypatch):
    """A client behind only by others' sealed choices is up to date (web/play/service.py): the web
    asks api.is_sealed_action, so what counts as sealed follows the engine's declaration."""
    pytest.importorskip("sqlalchemy")
    from pax_hispanica.web.play.service import Service

    live = SimpleNamespace(version=2, record={"actions": [{"seat": 0, "type": "initiate"},
                                                          {"seat": 1, "type": "bid", "amount": 3}]})
    assert Service._only_sealed_since(live, 1, 0)
    assert not Service._only_sealed_since(live, 0, 0)
    monkeypatch.setattr(api, "SEALED_ACTION_TYPES", frozenset({"initiate", "bid"}))
    assert Service._only_sealed_since(live, 0, 2)


def test_PRJ_1_ismcts_reads_sealed_actions_from_the_api():
    """ISMCTS treats another seat's secret choice as chance by the API's SEALED_ACTION_TYPES."""
    from pax_hispanica.bots import toygame
    from pax_hispanica.bots.ismcts import ISMCTSAgent

    read: list[str] = []

    class Spy:
        def __getattr__(self, attr):
            read.append(attr)
            return getattr(toygame, attr)

    g = toygame.new_game(toygame.Config(players=3), 4)
    agent = ISMCTSAgent(seed=1, api=Spy(), iterations=30)
    agent.decide(toygame.view(g, 0), toygame.legal_actions(g, 0))
    assert "SEALED_ACTION_TYPES" in read
