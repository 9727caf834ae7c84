"""ISMCTS iterations/s, old bots against new on the same engine, in one interleaved run (issue 40).

    mkdir -p /tmp/bots-old && git archive <old commit> src/pax_hispanica/bots | tar -x -C /tmp/bots-old
    .venv/bin/python benchmarks/ismcts_bots_ab.py --old /tmp/bots-old/src/pax_hispanica/bots --rounds 7

benchmarks/fast_paths.py compares two whole checkouts, each with its own engine: a copy
elsewhere does not load the compiled engine built for this one (its manifest names this
checkout's sources), so a change of bots/ alone would be measured against the pure engine.
Here the old bots/ folder is imported as a package of its own (pax_hispanica._bots_old, its
relative imports reaching the same contract and engine), and each round runs one worker
process per side (the order alternating between rounds) on whatever engine this checkout
loads (api.COMPILED is printed). A worker times, in process CPU time, a fresh bot with
`--iterations` on each of tests/bots/test_ismcts_pinned.py's 16 positions (4 a Year), from
empty memos, after one warm-up decision: fast_paths.py's `ismcts` measure. The figures are
medians over rounds. Every worker also records each decision and its explanation (visits and
values of the five most visited root actions): the run fails if old and new ever differ.

Instruction counts (load-free) of one worker's searches, part 2 of callgrind's output:

    PYTHONHASHSEED=0 valgrind --tool=callgrind --dump-before=getppid --callgrind-out-file=/tmp/cg.out \
        .venv/bin/python benchmarks/ismcts_bots_ab.py --worker [--old DIR]; grep summary /tmp/cg.out.2
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLOCK = time.process_time


def _bots(old: str | None):
    """The ismcts module: this checkout's, or the old folder's as pax_hispanica._bots_old."""
    if not old:
        from pax_hispanica.bots import ismcts
        return ismcts
    import pax_hispanica
    name = "pax_hispanica._bots_old"
    spec = importlib.util.spec_from_file_location(name, Path(old) / "__init__.py",
                                                  submodule_search_locations=[old])
    pkg = importlib.util.module_from_spec(spec)
    sys.modules[name] = pkg
    spec.loader.exec_module(pkg)
    pax_hispanica._bots_old = pkg
    return importlib.import_module(name + ".ismcts")


def options(bot: str) -> dict:
    """`--bot`'s ISMCTS options ("root=halving:playout=heuristic"), as paxh simulate reads them."""
    from pax_hispanica.sim.runner import parse_bots
    return parse_bots("ismcts" + (":" + bot if bot else ""), 1)[0]["options"]


def worker(old: str | None, iterations: int, bot_options: str = "") -> dict:
    from pax_hispanica import api
    ismcts = _bots(old)
    sys.path.insert(0, str(HERE.parent / "tests" / "bots"))
    import test_ismcts_pinned as pinned
    positions = pinned.positions()
    opts = options(bot_options)
    ismcts.ISMCTSAgent(1, iterations=5, **opts).decide(*positions[0])       # warm up
    ismcts._SHARED_MEMOS.clear()
    spent: dict[str, list[float]] = {}
    decided = []
    os.getppid()            # callgrind --dump-before=getppid: the searches are the second part
    for i, (view, legal) in enumerate(positions):
        bot = ismcts.ISMCTSAgent(1000 + i, iterations=iterations, **opts)
        t0 = CLOCK()
        action = bot.decide(view, legal)
        t = CLOCK() - t0
        spent.setdefault(view["year"], []).append(t)
        decided.append([action, bot.explain()["alternatives"]])
    os.getppid()
    total = sum(sum(ts) for ts in spent.values())
    out = {"compiled": api.COMPILED, "ismcts": len(positions) * iterations / total, "decided": decided}
    out.update({f"ismcts_{y}": len(ts) * iterations / sum(ts) for y, ts in spent.items()})
    return out


def _run(old: str | None, iterations: int, bot_options: str) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--iterations", str(iterations),
           "--bot", bot_options]
    if old:
        cmd += ["--old", old]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=dict(os.environ))
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", help="the old src/pax_hispanica/bots folder (a copy)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--bot", default="", help="the searches' options beside iterations, as in paxh simulate: "
                                              "root=halving:playout=heuristic:cutoff=3000:model=1:final=soft:z=1")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    options(a.bot)                      # a bad option is refused here, before any worker starts
    if a.worker:
        print(json.dumps(worker(a.old, a.iterations, a.bot)))
        return 0
    if not a.old:
        ap.error("--old is required")
    runs: dict[str, list[dict]] = {"old": [], "new": []}
    for r in range(a.rounds):
        for side in (("old", "new") if r % 2 == 0 else ("new", "old")):
            runs[side].append(_run(a.old if side == "old" else None, a.iterations, a.bot))
            print(f"round {r + 1}/{a.rounds} {side}: {runs[side][-1]['ismcts']:,.0f} iterations/s",
                  file=sys.stderr, flush=True)
    same = all(x["decided"] == runs["old"][0]["decided"] for side in runs.values() for x in side)
    measures = [k for k in runs["old"][0] if k.startswith("ismcts")]
    print(f"engine compiled: {runs['old'][0]['compiled']}; {a.rounds} rounds, {a.iterations} iterations "
          f"{'(' + a.bot + ') ' if a.bot else ''}on each of 16 positions; the same decisions and explanations: {same}")
    print("| measure (median) | old | new | new/old | new/old per round (median) |\n|---|---|---|---|---|")
    for m in measures:
        o = statistics.median(x[m] for x in runs["old"])
        n = statistics.median(x[m] for x in runs["new"])
        per = statistics.median(y[m] / x[m] for x, y in zip(runs["old"], runs["new"]))
        print(f"| {m} | {o:,.0f} | {n:,.0f} | {n / o:.3f} | {per:.3f} |")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
