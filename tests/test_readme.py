"""The README is one page (issue 39): at most 200 lines, starting with the two commands, exactly;
the figures live in docs/benchmarks.md, the rest in the docs/ pages it links to."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_one_page():
    assert len(README.splitlines()) <= 200, len(README.splitlines())


def test_the_readme_starts_with_the_start_and_the_test_command():
    lines = README.splitlines()
    assert lines[0].startswith("# ")
    first_block = README.split("```bash\n", 1)[1].split("```", 1)[0].splitlines()
    assert [line.split("#")[0].strip() for line in first_block] == ["bash scripts/start.sh", "bash scripts/test.sh"]
    assert README.index("```bash") < README.index("\n## ")       # before any section
    assert "bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text()       # CI runs the README's test command


def test_the_readme_links_every_docs_page_it_names():
    for target in re.findall(r"\]\((docs/[^)#]+)", README):
        assert (ROOT / target).exists(), target
    assert "docs/benchmarks.md" in README


def test_the_compiled_engine_is_the_default_in_every_doc():
    """It was once opt-in (`PAXH_COMPILE=1`); since setup.sh builds it, no doc or docstring says so."""
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "src" / "pax_hispanica").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        for stale in ("PAXH_COMPILE=1", "opt-in compiled", "opt-in build", "the compiled engine is opt-in"):
            assert stale not in text, (path, stale)
