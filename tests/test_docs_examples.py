"""Every ```python block of the README and docs/ runs (issue 18): the blocks of one file run
in order in one namespace, in a scratch folder that sees the project's docs/ (so examples may
open docs/scenarios/... and write files without touching the checkout)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _blocks(path: Path) -> list[str]:
    return BLOCK.findall(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", [p for p in FILES if _blocks(p)], ids=lambda p: p.name)
def test_every_python_example_runs(path, tmp_path, monkeypatch):
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": f"docs_{path.stem}"}
    for i, code in enumerate(_blocks(path)):
        try:
            exec(compile(code, f"{path.name}[block {i + 1}]", "exec"), namespace)
        except Exception as e:               # name the block: the traceback alone says "<string>"
            raise AssertionError(f"{path.name}, python block {i + 1} fails: {e!r}") from e


def test_the_api_reference_has_examples():
    assert len(_blocks(ROOT / "docs" / "api.md")) >= 3


def test_no_placeholder_is_left_in_the_docs():
    """A figure written as a placeholder (README_AB_PLACEHOLDER, STRENGTH_PLACEHOLDER, ...) to be
    filled after a run once reached main; the README and docs/ name no placeholder."""
    found = [f"{p.name}:{n}" for p in FILES for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\b[A-Z][A-Z_]*_PLACEHOLDER\b", line)]
    assert not found, found
