"""mypy --strict beyond the engine (issue 39, "Types and lint in CI"): the packages and modules of
STRICT type-check under `mypy --strict` with pyproject.toml's [tool.mypy] (tests/engine/test_types.py
checks the engine, api.py and the loaders). It grew package by package and is now the whole of
src/pax_hispanica.

    .venv/bin/mypy --strict src/pax_hispanica      # the whole package: what is left to do
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "pax_hispanica"
STRICT = ("",)      # the whole of src/pax_hispanica (the engine's own test checks it apart too)


def test_the_strict_packages_pass_mypy_strict(tmp_path):
    from mypy import api as mypy_api
    out, err, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"), "--strict",
                                     "--cache-dir", str(tmp_path), "--no-error-summary", "--hide-error-context",
                                     *(str(SRC / p) for p in STRICT)])
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 0 and not errors, f"{len(errors)} mypy errors:\n" + ("\n".join(errors[:50]) or out + err)


def test_a_type_ignore_of_a_strict_package_names_its_code():
    """As in the engine: `# type: ignore[code]` on the line it excuses, never bare or file-wide."""
    for p in STRICT:
        for path in sorted((SRC / p).rglob("*.py")) if (SRC / p).is_dir() else [SRC / p]:
            text = path.read_text()
            assert "mypy: ignore" not in text, path
            for n, line in enumerate(text.splitlines(), 1):
                if "type: ignore" in line:
                    assert re.search(r"#\s*type:\s*ignore\[[a-z-]+(, *[a-z-]+)*\]", line), f"{path.name}:{n}: {line}"
