"""The loaders stay readable: no function of the ruleset and scenario loaders (the engine's
builders and checks, and pax_hispanica.rulesets and .schemas, which read and write the files),
or of their declared schemas, rates worse than C in cyclomatic complexity (radon: A-C are 1-20)."""

from __future__ import annotations

from pathlib import Path

import pytest
from radon.complexity import cc_rank, cc_visit

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "pax_hispanica"
MODULES = ["engine/ruleset.py", "engine/scenario.py", "engine/schema.py", "engine/ruleset_schema.py",
           "engine/scenario_schema.py", "rulesets.py", "schemas.py"]


def _all(blocks):
    """Every function, method and closure (radon nests methods in classes, closures in functions)."""
    for b in blocks:
        yield b
        yield from _all(getattr(b, "methods", []))
        yield from _all(getattr(b, "closures", []))


@pytest.mark.parametrize("module", MODULES)
def test_no_loader_function_rates_worse_than_C(module):
    blocks = list(_all(cc_visit((PACKAGE / module).read_text())))
    assert blocks, module
    worse = [f"{b.fullname} {cc_rank(b.complexity)} ({b.complexity})" for b in blocks
             if cc_rank(b.complexity) > "C"]
    assert worse == [], f"{module}: split these up: {worse}"
