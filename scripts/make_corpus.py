"""Regenerate the corpus of recorded games, tests/corpus/ (docs/api.md, "The corpus").

Run it on purpose when a rule, the randomness or the state's serialisation changes, then
review `git diff --stat tests/corpus/` and rerun the corpus tests:

    .venv/bin/python scripts/make_corpus.py            # bots + scenarios; web games kept
    .venv/bin/python scripts/make_corpus.py --web 6    # also play 6 new web games (replaces them)

Everything but the web games is deterministic (fixed seeds): running it twice gives identical
files. The web games carry the server's secret seeds; they are kept as recorded and only
their result and state hash are recomputed, unless --web N replaces them with N new ones.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from pax_hispanica.sim import corpus  # noqa: E402 -- after sys.path is set


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--web", type=int, default=0, help="play N new games through the web server (replaces web.jsonl)")
    ap.add_argument("--only", choices=["bots", "scenarios", "web"], help="regenerate only this group")
    args = ap.parse_args()
    corpus.CORPUS.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    if args.only in (None, "bots"):
        for n in (2, 3, 4, 5):
            k = corpus.write(corpus.CORPUS / f"bots_{n}p.jsonl", corpus.bot_entries(n))
            print(f"bots_{n}p.jsonl: {k} games ({time.perf_counter() - t0:.0f} s)", flush=True)
    if args.only in (None, "scenarios"):
        k = corpus.write(corpus.CORPUS / "scenarios.jsonl", corpus.scenario_entries())
        print(f"scenarios.jsonl: {k} games", flush=True)
    if args.only in (None, "web"):
        path = corpus.CORPUS / "web.jsonl"
        if args.web:
            from pax_hispanica.sim import corpus_web
            k = corpus.write(path, corpus_web.web_entries(args.web))
            print(f"web.jsonl: {k} new games played through the web server", flush=True)
        elif path.exists():
            k = corpus.write(path, [corpus.refresh(e) for e in corpus.load_file(path)])
            print(f"web.jsonl: {k} games kept as recorded (result and hash recomputed)", flush=True)
    import rule_coverage
    cov = rule_coverage.cover(corpus.load())
    (corpus.CORPUS / "rule_coverage.txt").write_text(cov.table())
    print(f"rule_coverage.txt written; rules that never fire: {', '.join(cov.never()) or 'none'}")
    print(f"done in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
