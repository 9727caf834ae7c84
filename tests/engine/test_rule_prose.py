"""Rule modules read like the rulebook (issue 39): no engine module or api.py cites an issue
("issue 13", "Issue 14's seventh round"); why a hot path looks as it does is written in
docs/benchmarks.md, "Fast paths"."""

from __future__ import annotations

import re
from pathlib import Path

import pax_hispanica

PKG = Path(pax_hispanica.__file__).resolve().parent
CITATION = re.compile(r"\bissue\s+\d+", re.IGNORECASE)


def test_engine_modules_cite_no_issue():
    files = sorted(PKG.glob("engine/**/*.py")) + [PKG / "api.py"]
    found = [f"{p.relative_to(PKG.parent)}:{i}: {line.strip()}"
             for p in files for i, line in enumerate(p.read_text().splitlines(), 1) if CITATION.search(line)]
    assert not found, ("rule modules carry no issue numbers: say why in a few words, or move the reason to "
                       "docs/benchmarks.md, \"Fast paths\":\n" + "\n".join(found))


def test_the_fast_paths_section_exists():
    doc = (PKG.parent.parent / "docs" / "benchmarks.md").read_text()
    assert "## Fast paths" in doc
