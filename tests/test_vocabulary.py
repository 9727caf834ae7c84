"""One vocabulary (issue 39): the game's words — legalities, years, decision types, decks,
meeples, nations — are declared once, in engine/vocab.py (the decision types by their classes in
engine/decisions.py), with their order, and every layer imports them.

The scan reads every module of src/ and fails on a tuple, list, set or dict (its keys) written
out with the words of one group again: three or more of them making up at least half of its
strings (for the two decks: both, and nothing else), naming the file, the line and what to import
instead. `typing.Literal[...]` types are left to tests/engine/test_vocab.py, which checks each
one against the vocabulary (a Literal cannot be built from a tuple).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pax_hispanica
from pax_hispanica.engine import vocab

PKG = Path(pax_hispanica.__file__).resolve().parent
SRC = PKG.parent

GROUPS: dict[str, tuple[frozenset[str], str]] = {
    "legalities": (frozenset(map(str, vocab.LEGALITIES)), "vocab.LEGALITIES / vocab.Legality"),
    "years": (frozenset(map(str, vocab.YEARS)), "vocab.YEARS / vocab.Year"),
    "decision types": (frozenset(vocab.decision_names()), "vocab.decision_names() (engine/decisions.py's registry)"),
    "decks": (frozenset(map(str, vocab.DECKS)), "vocab.DECKS / vocab.Deck"),
    "meeples": (frozenset(map(str, vocab.MEEPLES)), "vocab.MEEPLES, vocab.PEOPLE, vocab.GONE / vocab.Meeple"),
    "nations": (frozenset(map(str, vocab.NATIONS)), "vocab.NATIONS / vocab.Nation"),
}

VOCABULARY_MODULES = {"engine/vocab.py"}

# Modules (or folders, ending in "/") not yet moved to the vocabulary, each with why; the test
# also fails when none of an entry's files writes a list out any more (then take it off).
NOT_YET: dict[str, str] = {
    "analysis/": "a package another change is writing; it imports the vocabulary when it lands",
}


def _not_yet(rel: str) -> str | None:
    return next((entry for entry in NOT_YET if rel == entry or (entry.endswith("/") and rel.startswith(entry))), None)


def _is_literal_type(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    parent = parents.get(node)
    if not isinstance(parent, ast.Subscript):
        return False
    v = parent.value
    return (isinstance(v, ast.Name) and v.id == "Literal") or (isinstance(v, ast.Attribute) and v.attr == "Literal")


def written_out(source: str) -> list[tuple[int, str, list[str]]]:
    """(line, group, words) for each literal of `source` that spells out a group's words."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            elts: list[ast.expr | None] = list(node.elts)
        elif isinstance(node, ast.Dict):
            elts = list(node.keys)
        else:
            continue
        if _is_literal_type(node, parents):
            continue
        strings = [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        for group, (words, _) in GROUPS.items():
            hits = sorted({s for s in strings if s in words})
            if len(words) < 3:
                spelt = sorted(strings) == sorted(words)          # the whole group, and nothing else
            else:
                spelt = len(hits) >= 3 and 2 * sum(s in words for s in strings) >= len(strings)
            if spelt:
                found.append((node.lineno, group, hits))
    return found


def _modules() -> list[Path]:
    return sorted(p for p in PKG.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_module_writes_the_vocabulary_out_again():
    offences = []
    for path in _modules():
        rel = str(path.relative_to(PKG))
        if rel in VOCABULARY_MODULES or _not_yet(rel):
            continue
        for line, group, hits in written_out(path.read_text()):
            offences.append(f"src/pax_hispanica/{rel}:{line}: the {group} {', '.join(hits)} written out again; "
                            f"import {GROUPS[group][1]} from pax_hispanica.engine.vocab instead")
    assert not offences, "\n".join(offences)


def test_the_not_yet_list_is_honest():
    for entry, why in NOT_YET.items():
        files = [p for p in _modules() if _not_yet(str(p.relative_to(PKG))) == entry]
        if files:
            assert any(written_out(p.read_text()) for p in files), \
                f"{entry} no longer writes the vocabulary out: take it off NOT_YET ({why})"


@pytest.mark.parametrize("source, group", [
    ("X = ('PLUNDER', 'SMUGGLER', 'PRIVATEER')", "legalities"),
    ("for y in ['goods', 'auction', 'play', 'sail']: pass", "years"),
    ("D = {'labour': 1, 'initiate': 2, 'bid': 3}", "decision types"),
    ("for d in ('market', 'haven'): pass", "decks"),
    ("G = {'citizen': 0, 'indigenous': 0, 'slave': 0, 'chest': 0}", "meeples"),
    ("N = ['english', 'french', 'dutch']", "nations"),
])
def test_the_scan_sees_a_list_written_out(source, group):
    assert [g for _, g, _ in written_out(source)] == [group]


def test_the_scan_leaves_literal_types_and_unrelated_keys():
    assert written_out("Year = Literal['goods', 'auction', 'play', 'sail']") == []
    assert written_out("P = {'game': 1, 'setup': 2, 'goods': 3, 'auction': 4, 'hand': 5, 'sail': 6, 'x': 7}") == []
    assert written_out("S = ('market', 'market_discard', 'haven', 'hands')") == []


def test_the_reference_nations_are_the_vocabularys():
    from pax_hispanica import api
    assert tuple(api.load_ruleset("reference").nation_order) == tuple(map(str, vocab.NATIONS))


def test_the_decision_types_are_the_registry_in_the_years_order():
    assert vocab.decision_names() == ("labour", "initiate", "bid", "play_turn", "reduce_hand", "voyage", "support")


def test_TRS_1_the_pages_order_is_a_permutation_of_the_legalities():
    assert sorted(vocab.BY_CROWN_FAVOUR) == sorted(vocab.LEGALITIES) and len(set(vocab.BY_CROWN_FAVOUR)) == 4
    assert vocab.BY_CROWN_FAVOUR[0] == vocab.CONQUISTADOR and vocab.BY_CROWN_FAVOUR[-1] == vocab.PLUNDER
