"""The engine and its API type-check with mypy (issue 13 asks for --strict later; this
keeps today's clean default run from regressing)."""
from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "pax_hispanica"


def test_engine_and_api_type_check(tmp_path):
    from mypy import api as mypy_api
    out, err, status = mypy_api.run([str(SRC / "engine"), str(SRC / "api.py"), "--cache-dir", str(tmp_path),
                                     "--no-error-summary", "--hide-error-context"])
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 0 and not errors, "\n".join(errors[:30]) or err
