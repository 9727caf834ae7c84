"""Decisions own their concerns (issue 39): a decision type declares, besides its actions, its
why-not reasons, its slot in the RL observation and its words, so adding one is its own module
plus one `register`. A toy decision registers here: what it declares is used (its reasons by
api.unavailable's dispatch, its slot by the observation layout, its words derived from its
name), and what it leaves undeclared is refused at registration with a message saying what to
add, not when a game or an RL episode first reaches it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import pax_hispanica
from pax_hispanica.engine import decisions, why, years  # noqa: F401  (years: the game's decisions registered
# before `registry` takes its copy, so that the copy it puts back holds them: run alone, this file
# imported them only in its first test, and the fixture then put back an empty registry)
from pax_hispanica.engine.decisions import DECISIONS, SLOT_KINDS, Decision, register

LOCALES = Path(pax_hispanica.__file__).resolve().parent / "web" / "locales"


def _toy(**declared: Any) -> type[Decision[Any]]:
    attrs: dict[str, Any] = {"name": "toy_choice", "rule": "PRJ-7", "actions": {"toy": {}}}
    attrs.update(declared)
    return type("Toy", (Decision,), attrs)


@pytest.fixture
def registry():
    before = dict(DECISIONS)
    yield DECISIONS
    DECISIONS.clear()
    DECISIONS.update(before)


def _domain(self, info, dec, seat):
    return [0, 1]


def _reasons(self, board, dec):
    return [why._d("toy_choice", {"seat": board.seat, "type": "toy"}, "toy_reason", "PRJ-7")]


def test_PRJ_7_a_toy_decision_with_its_concerns_declared_registers_and_each_is_used(registry):
    register(_toy(observation=(("count", "number"), ("where", "zone")), reasons=_reasons))
    toy = DECISIONS["toy_choice"]
    assert toy.words() == ("decisions", "toy_choice")
    view = {"viewer": 0, "acting": [0], "over": False, "decision": {"d": "toy_choice", "seats": [0]},
            "players": [{"seat": 0}], "ruleset": "reference"}
    from pax_hispanica import api
    assert why.unavailable(view, api.load_ruleset("reference")) == [
        {"decision": "toy_choice", "action": {"seat": 0, "type": "toy"}, "code": "toy_reason", "rule": "PRJ-7",
         "params": {}}]
    pytest.importorskip("numpy")
    from pax_hispanica.rl.observation import ObservationLayout
    layout = ObservationLayout()
    names = [name for name, *_ in layout.segments]
    assert "toy_choice" in layout.decisions and {"toy_choice.count", "toy_choice.where"} <= set(names)


@pytest.mark.parametrize("declared, message", [
    ({"reasons": _reasons}, "declare `observation`, its slot in the RL encoding: \\(field, kind\\) pairs with kinds from "
                            + re.escape(", ".join(SLOT_KINDS)) + ", or \\(\\) when its name is enough"),
    ({"observation": ()}, "declare its why-not reasons"),
    ({"observation": (("count", "histogram"),), "reasons": _reasons}, "not \\(field, kind\\) with a kind from number"),
    ({"observation": (), "reasons": _reasons, "rule": "XYZ-1"}, "must be a rule ID"),
    ({"observation": (), "reasons": _reasons, "name": "labour"}, "declared twice"),
    ({"observation": (), "reasons": _reasons, "sealed": True}, "a sealed decision declares `secret_field`"),
    # a secret field in every action, but no secret_domain of its own
    ({"observation": (), "reasons": _reasons, "sealed": True, "secret_field": "pick", "actions": {"toy": {"pick": (int,)}}},
     "and `secret_domain`"),
    # its own secret_domain, but an action without the secret field
    ({"observation": (), "reasons": _reasons, "sealed": True, "secret_field": "pick", "secret_domain": _domain,
      "actions": {"toy": {"pick": (int,)}, "pass": {}}}, "a field of each of its actions"),
    ({"observation": (), "reasons": _reasons, "name": None}, "declare `name` and `actions`"),
    ({"observation": (), "reasons": _reasons, "actions": {}}, "declare `name` and `actions`"),
])
def test_PRJ_7_a_toy_decision_leaving_a_concern_undeclared_is_refused_at_registration(registry, declared, message):
    with pytest.raises(ValueError, match=message):
        register(_toy(**declared))
    assert "toy_choice" not in DECISIONS or declared.get("name") == "labour"


def test_PRJ_7_a_decision_with_nothing_to_explain_says_why():
    register_ok = _toy(observation=(), nothing_to_explain="any choice is allowed")
    try:
        register(register_ok)
        assert DECISIONS["toy_choice"].reasons(None, {}) == []
    finally:
        DECISIONS.pop("toy_choice", None)


def test_PRJ_7_every_slot_kind_has_an_observation_encoding():
    pytest.importorskip("numpy")
    from pax_hispanica.rl import observation
    assert set(observation.SLOT_MEANINGS) == set(SLOT_KINDS)


def test_PRJ_7_every_registered_decision_has_its_sentence_in_every_catalogue():
    catalogues = sorted(LOCALES.glob("*/LC_MESSAGES/messages.po"))
    assert catalogues
    for po in catalogues:
        text = po.read_text(encoding="utf-8")
        for dec in DECISIONS.values():
            context, msgid = dec.words()
            entry = re.search(rf'msgctxt "{context}"\nmsgid "{msgid}"\nmsgstr "(.+)"', text)
            assert entry, f"{po.relative_to(LOCALES)}: no sentence for decision {msgid!r} (msgctxt {context!r})"


def test_PRJ_7_the_engines_decisions_declare_every_concern():
    for name, dec in DECISIONS.items():
        assert isinstance(dec.observation, tuple) and all(kind in SLOT_KINDS for _, kind in dec.observation), name
        assert type(dec).reasons is not Decision.reasons or dec.nothing_to_explain, name
    assert decisions.SLOT_KINDS == SLOT_KINDS




def test_PRJ_7_a_decision_class_without_a_name_is_refused_with_the_message_not_an_attribute_error(registry):
    nameless = type("Nameless", (Decision,), {"rule": "PRJ-7", "actions": {"toy": {}}, "observation": ()})
    assert not hasattr(nameless, "name")
    with pytest.raises(ValueError, match=r"decision type 'Nameless' .*: declare `name` and `actions`"):
        register(nameless)
