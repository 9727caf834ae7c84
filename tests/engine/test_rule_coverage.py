"""Every rule ID of docs/rules.md (api.RULES) fires at least once over the corpus
(tests/corpus/, issue 13). How a firing is counted (events, decisions asked, refused
probes, witnessed situations) is explained in tests/rule_coverage.py.

The table of counts is checked in as tests/corpus/rule_coverage.txt (so a review sees
which rules the corpus exercises, and how much) and must match the corpus: regenerate
both with scripts/make_corpus.py. Show it with `pytest -rA tests/engine/test_rule_coverage.py`.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import rule_coverage

from pax_hispanica import api
from pax_hispanica.sim import corpus

ROOT = Path(__file__).resolve().parents[2]
TABLE = corpus.CORPUS / "rule_coverage.txt"


@pytest.fixture(scope="module")
def coverage() -> rule_coverage.Coverage:
    return rule_coverage.cover(corpus.load())


def test_every_rule_fires_somewhere_in_the_corpus(coverage):
    table = coverage.table()
    print("\n" + table)
    never = coverage.never()
    assert never == [], (f"rules that never fire in tests/corpus/: {', '.join(never)}; add a scenario "
                         f"(docs/scenarios/) that makes each fire, then run scripts/make_corpus.py\n{table}")


def test_the_checked_in_table_is_the_corpus_table(coverage):
    assert TABLE.exists(), "tests/corpus/rule_coverage.txt missing: run scripts/make_corpus.py"
    assert TABLE.read_text() == coverage.table(), \
        "tests/corpus/rule_coverage.txt is stale: run scripts/make_corpus.py and review the diff"


def test_the_exempt_list_names_known_rules_with_reasons():
    assert set(rule_coverage.EXEMPT) <= set(api.RULES)
    assert all(reason.strip() for reason in rule_coverage.EXEMPT.values())


def test_docs_rules_md_lists_exactly_api_rules():
    text = (ROOT / "docs" / "rules.md").read_text()
    ids = set(re.findall(r"^\| ([A-Z]+-\d+) \|", text, re.MULTILINE)) | set(re.findall(r"^- \*\*([A-Z]+-\d+) ", text, re.MULTILINE))
    assert ids == set(api.RULES), (sorted(ids - set(api.RULES)), sorted(set(api.RULES) - ids))


def test_the_cited_rule_of_every_event_is_known(coverage):
    for column in rule_coverage.COLUMNS:
        assert set(coverage.counts[column]) <= set(api.RULES), column


def _described_rules(description: str) -> set[str]:
    """The rule IDs a scenario's description names before its first colon ("PRJ-5, BAT-4:",
    "BAT-1..BAT-5:")."""
    head = description.split(":", 1)[0]
    out: set[str] = set()
    for part in re.split(r",\s*", head):
        m = re.fullmatch(r"([A-Z]+)-(\d+)\.\.\1-(\d+)", part.strip())
        if m:
            out |= {f"{m[1]}-{k}" for k in range(int(m[2]), int(m[3]) + 1)}
        elif re.fullmatch(r"[A-Z]+-\d+", part.strip()):
            out.add(part.strip())
    return out


@pytest.mark.parametrize("path", corpus.scenario_files(), ids=lambda p: p.stem)
def test_each_scenario_makes_the_rules_it_names_fire(path):
    """The scenarios written for rare rules (docs/scenarios.md) make exactly those rules fire
    on their own actions, before any bot plays on."""
    import json
    scenario = json.loads(path.read_text())
    named = _described_rules(scenario.get("description", ""))
    assert named <= set(api.RULES), named - set(api.RULES)
    assert named, f"{path.name}: its description names no rule ID before its first colon"
    game = api.from_scenario(scenario)
    cov = rule_coverage.Coverage()
    rule_coverage.cover_record(path.stem, game.record, cov)
    assert [r for r in sorted(named) if cov.total(r) == 0] == []
