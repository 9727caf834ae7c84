"""The event reference (docs/events.md) is generated from engine/events.py, and the engine
emits exactly the declared types, fields and rules (issue 18)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pax_hispanica import api
from pax_hispanica.engine.events import EVENTS, reference_markdown
from pax_hispanica.engine.flow import Out

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "src" / "pax_hispanica" / "engine"
CORPUS = ROOT / "tests" / "corpus"


def test_docs_events_md_is_the_generated_reference():
    assert (ROOT / "docs" / "events.md").read_text(encoding="utf-8") == reference_markdown(), \
        "regenerate with: python scripts/make_event_docs.py"


def test_every_emitted_type_is_declared_and_every_declared_type_is_emitted():
    emitted = set()
    for path in ENGINE.rglob("*.py"):
        emitted |= set(re.findall(r'\.emit\(\s*"([A-Za-z]+)"', path.read_text(encoding="utf-8")))
    assert emitted == set(EVENTS), (emitted ^ set(EVENTS))


def test_every_event_of_the_corpus_has_its_declared_fields_rule_and_audience():
    seen = set()
    for f in sorted(CORPUS.glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            for e in api.replay(json.loads(line)["record"]).events:
                decl = EVENTS[e["type"]]
                seen.add(e["type"])
                assert set(e) - {"seq", "type", "rule", "page"} == decl.keys, e["type"]
                assert e["rule"] in decl.rules, e
                assert ("to" in e) == (decl.seen_by != "everyone"), e["type"]
    assert len(seen) >= len(EVENTS) - 3, set(EVENTS) - seen      # the corpus meets nearly every type


def _state():
    """A real State to emit on (compiled, Out checks it is given one): a new game's."""
    return api.new_game(api.Config(players=3), 1).copy()


@pytest.mark.parametrize("bad", [
    ("FleetMoved", "SAIL-1", {"seat": 0, "zone": "cuba", "moves_lft": 1}),        # a misspelt field
    ("FleetMoved", "SAIL-1", {"seat": 0, "zone": "cuba"}),                       # a missing field
    ("FleetMoved", "BAT-4", {"seat": 0, "zone": "cuba", "moves_left": 1}),      # not its rule
    ("FleetMovd", "SAIL-1", {"seat": 0}),                                        # not a type
])
def test_an_undeclared_event_field_type_or_rule_is_refused_at_emit(bad):
    type_, rule, fields = bad
    st = _state()
    seq = st.event_seq
    with pytest.raises(AssertionError):
        Out(st).emit(type_, rule, **fields)
    out = Out(st)
    out.emit("FleetMoved", "SAIL-1", seat=0, zone="cuba", moves_left=1)   # the declared one passes
    assert [e["type"] for e in out.events] == ["FleetMoved"] and out.events[0]["seq"] == st.event_seq == seq + 1


def _event_field_doc(event_type: str, field: str) -> str:
    """The meaning docs/events.md gives to `field` in `event_type`'s table."""
    text = (ROOT / "docs" / "events.md").read_text(encoding="utf-8")
    section = text.split(f"\n## {event_type}\n", 1)[1].split("\n## ", 1)[0]
    row = next(line for line in section.splitlines() if line.startswith(f"| `{field}` |"))
    return row.split("|")[2].strip()


def test_LAB_1_docs_events_md_says_who_is_paid_for_employing_as_the_engine_pays():
    """issue 36: the doc said `CitizenEmployed.paid` went to "the Cathedral's owner"; LAB-1 and
    the engine pay the Pool. The doc's payee is checked against the money the engine moves."""
    from support import scenario
    doc = _event_field_doc("CitizenEmployed", "paid")
    assert "to the Pool" in doc and "Cathedral" not in doc, doc
    assert "0 for the Crown" in doc, doc
    employ = {"seat": 0, "type": "labour", "source": "employ", "site": "venezuela.caracas_cathedral"}
    g = scenario({"year": "goods", "step": "labour_acquisition", "order": [0, 1, 2],
                  "players": [{"money": 3}, {"money": 3}, {"money": 3}],
                  "colonies": {"venezuela.caracas": {"owner": 0, "labour": None},
                               "venezuela.curacao": {"owner": 0, "labour": None},
                               "venezuela.margarita": {"owner": "crown", "labour": None}},
                  "sites": {"venezuela.caracas_cathedral": 3}},
                 nations=["english", "french", "courland"])
    before = g.state
    cost = before.rs.employ_cost
    assert cost > 0
    ev = g.act({**employ, "colony": "venezuela.caracas"})
    assert [e["paid"] for e in ev if e["type"] == "CitizenEmployed"] == [cost]
    assert g.state.money[0] == before.money[0] - cost                     # the colony's owner paid
    assert g.state.money[1:] == before.money[1:]                          # no player was paid
    assert g.state.burned == before.burned + cost                         # the Pool was
    ev = g.act({**employ, "colony": "venezuela.curacao"})                 # then the Crown's, automatic
    employed = {e["colony"]: e["paid"] for e in ev if e["type"] == "CitizenEmployed"}
    assert employed == {"venezuela.curacao": cost, "venezuela.margarita": 0}   # the Crown never pays
    assert g.state.burned == before.burned + 2 * cost


def test_every_event_type_has_a_summary_for_the_reference():
    assert all(isinstance(e.summary, str) and e.summary.strip() for e in EVENTS.values())
