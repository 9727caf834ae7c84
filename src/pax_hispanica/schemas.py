"""The published JSON Schemas of the data files (data/schema/), written and checked here.

The engine declares the schemas (`engine.schema.rendered`, from the pydantic models of
`engine.ruleset_schema` and `engine.scenario_schema`) and reads or writes no files; this
module compares them with the files in data/schema/ and writes them.

``python -m pax_hispanica.schemas --write`` regenerates them (a test checks that they are up
to date); ``--check`` only compares.
"""

from __future__ import annotations

import sys

from .engine.schema import rendered
from .rulesets import DATA

SCHEMA_DIR = DATA / "schema"


def stale() -> list[str]:
    """The published schema files that differ from the models (or are missing)."""
    return [name for name, text in rendered().items()
            if not (SCHEMA_DIR / name).exists() or (SCHEMA_DIR / name).read_text() != text]


def main(argv: list[str]) -> int:
    if argv == ["--write"]:
        SCHEMA_DIR.mkdir(parents=True, exist_ok=True)
        for name, text in rendered().items():
            (SCHEMA_DIR / name).write_text(text)
        print(f"wrote {len(rendered())} schemas to {SCHEMA_DIR}")
        return 0
    if argv == ["--check"]:
        bad = stale()
        print("up to date" if not bad else f"out of date: {bad}; run with --write")
        return 1 if bad else 0
    print("usage: python -m pax_hispanica.schemas --write | --check")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
