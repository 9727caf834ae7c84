"""Benchmark results stay out of the repository (issue 39): benchmarks/results keeps only the
summary of the result sets that left it, and no script or doc writes or cites anything else there
(new runs write under out/, which git ignores, or outside the checkout)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_benchmarks_results_tracks_only_its_summary():
    tracked = subprocess.run(["git", "ls-files", "benchmarks/results"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    assert tracked == ["benchmarks/results/SUMMARY.md"]
    ignored = subprocess.run(["git", "check-ignore", "-q", "benchmarks/results/new_run.jsonl"], cwd=ROOT)
    assert ignored.returncode == 0                      # a new result written there is not picked up


def test_no_script_or_doc_names_a_result_file_but_the_summary():
    files = [*ROOT.glob("benchmarks/*.py"), *ROOT.glob("scripts/*"), *ROOT.glob("docs/*.md"), ROOT / "README.md",
             *(ROOT / "src").rglob("*.py")]
    for path in files:
        if path.is_file():
            for m in re.finditer(r"benchmarks/results/([\w*-][^\s`)]*)", path.read_text(encoding="utf-8", errors="replace")):
                assert m[1].startswith("SUMMARY.md"), (path, m[0])
