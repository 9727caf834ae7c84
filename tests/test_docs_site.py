"""The documentation site builds with `mkdocs build --strict` (issue 18): a broken link, a
missing page or a bad mkdocstrings reference fails here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mkdocs_build_strict(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    reference = (tmp_path / "site" / "reference" / "index.html").read_text(encoding="utf-8")
    for name in ("replay", "legal_actions", "view", "decision", "verify_log"):       # mkdocstrings ran
        assert f'id="pax_hispanica.api.{name}"' in reference, name
    assert (tmp_path / "site" / "events" / "index.html").exists()
    assert (tmp_path / "site" / "schema" / "scenario.schema.json").exists()
