"""Engine benchmark (a script, not a timed test): one core, uniformly random legal play.

    .venv/bin/python benchmarks/engine.py              # the table in the README
    .venv/bin/python benchmarks/engine.py --quick      # a few seconds
    .venv/bin/python benchmarks/engine.py --json
    .venv/bin/python benchmarks/engine.py --compare-rng  # old SplitMix64 vs the keyed generator (PRJ-1)

Reports, each the median of several runs:
  - decisions per second: a random bot's whole loop per decision (acting, legal_actions,
    count_actions + nth_action, choose, apply), and apply alone;
  - full 4-player random games per second, and the median time of one game;
  - state copy time (State.copy, what apply does first), on positions from every year;
  - snapshot save time (api.snapshot), its size in bytes, and restore time.
Targets (issue 2): a 4-player random game < 50 ms median; goals: 50,000 decisions/s,
copy < 25 us, save < 1 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time

from pax_hispanica import api

PLAYERS = 4


CLOCK = time.process_time       # CPU time of this process: robust when other jobs share the machine


def one_game(seed: int) -> tuple[float, float, int, list]:
    """(total seconds, seconds inside apply, decisions, sampled states) of one random game."""
    bot = random.Random(seed)
    pc = CLOCK
    t0 = pc()
    st = api.new_game(api.Config(players=PLAYERS), seed)
    in_apply = 0.0
    n = 0
    samples = []
    while not st.over:
        seat = bot.choice(api.acting(st))
        legal = api.legal_actions(st, seat)
        action = api.nth_action(legal, bot.randrange(api.count_actions(legal)))   # = bot.choice(expand)
        a0 = pc()
        st, _ = api.apply(st, action)
        in_apply += pc() - a0
        n += 1
        if n % 25 == 0:
            samples.append(st)
    return pc() - t0, in_apply, n, samples


def bench_games(games: int, runs: int, seed: int) -> dict:
    per_game, dps, apply_dps, samples, decisions = [], [], [], [], []
    for r in range(runs):
        tot = ap = 0.0
        dec = 0
        for g in range(games):
            t, a, n, s = one_game(seed + r * games + g)
            per_game.append(t)
            tot += t
            ap += a
            dec += n
            decisions.append(n)
            if r == 0:
                samples.extend(s)
        dps.append(dec / tot)
        apply_dps.append(dec / ap)
    return {"game_ms_median": statistics.median(per_game) * 1e3,
            "games_per_s": 1 / statistics.median(per_game),
            "decisions_per_game": statistics.mean(decisions),
            "decisions_per_s": statistics.median(dps), "apply_per_s": statistics.median(apply_dps),
            "samples": samples}


def timeit(fn, states, repeat: int) -> float:
    """Median over `repeat` passes of the mean time of fn(state) over the states, in seconds."""
    out = []
    pc = CLOCK
    for _ in range(repeat):
        t0 = pc()
        for s in states:
            fn(s)
        out.append((pc() - t0) / len(states))
    return statistics.median(out)


def compare_rng(games: int, runs: int, seed: int) -> dict:
    """Bot-loop decisions/s with the old generator (SplitMix64, benchmarks/_splitmix.py) and the
    engine's keyed one (PRJ-1), in interleaved runs on the same seeds, medians of the runs."""
    import _splitmix
    out: dict[str, list] = {"splitmix": [], "keyed": []}
    games_ms: dict[str, list] = {"splitmix": [], "keyed": []}
    for r in range(runs):
        for name in (("splitmix", "keyed") if r % 2 == 0 else ("keyed", "splitmix")):
            report = _splitmix.use(name)
            if name == "splitmix":
                swap = report
            tot, dec = 0.0, 0
            for g in range(games):
                t, _, n, _ = one_game(seed + r * games + g)
                tot += t
                dec += n
                games_ms[name].append(t * 1e3)
            out[name].append(dec / tot)
    _splitmix.use("keyed")
    # what the comparison covers: said with its figures, not skipped in silence
    print("compare-rng: swapped " + ", ".join(swap["swapped"]) + "; not swapped: "
          + "; ".join(f"{k}: {v}" for k, v in swap["not_swapped"].items()), file=sys.stderr)
    return {**{name: {"decisions_per_s_median": round(statistics.median(v)), "runs": [round(x) for x in v],
                      "game_ms_median": round(statistics.median(games_ms[name]), 2)} for name, v in out.items()},
            "generator_swap": {"swapped": swap["swapped"], "not_swapped": swap["not_swapped"]}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per run")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="10 games x 3 runs")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of process CPU time")
    ap.add_argument("--compare-rng", action="store_true", help="old vs new generator, interleaved")
    a = ap.parse_args(argv)
    global CLOCK
    if a.wall:
        CLOCK = time.perf_counter
    if a.quick:
        a.games, a.runs = 10, 3
    one_game(0)                                   # warm up: ruleset load, imports
    if a.compare_rng:
        res = compare_rng(a.games, a.runs, a.seed)
        print(json.dumps({"games_per_run": a.games, "runs_each": a.runs, **res}, indent=1))
        return 0
    g = bench_games(a.games, a.runs, a.seed)
    states = g.pop("samples")
    copy_s = timeit(lambda s: s.copy(), states, 7)
    save_s = timeit(api.snapshot, states, 7)
    blobs = [api.snapshot(s) for s in states]
    restore_s = timeit(api.restore, blobs, 3)
    sizes = [len(b) for b in blobs]
    res = {**g, "copy_us": copy_s * 1e6, "save_ms": save_s * 1e3, "restore_ms": restore_s * 1e3,
           "snapshot_bytes_median": statistics.median(sizes), "snapshot_bytes_max": max(sizes),
           "states_sampled": len(states), "games": a.games * a.runs, "runs": a.runs,
           "clock": "wall" if a.wall else "cpu", "python": platform.python_version(), "machine": platform.processor() or platform.machine(),
           "command": " ".join([os.path.relpath(sys.executable), "benchmarks/engine.py", *(argv or sys.argv[1:])])}
    if a.json:
        print(json.dumps(res, indent=1))
        return 0
    rows = [
        ("4-player random game (median)", f"{res['game_ms_median']:.1f} ms", "< 50 ms"),
        ("full 4-player games per second", f"{res['games_per_s']:.0f}", ""),
        ("decisions per game (mean)", f"{res['decisions_per_game']:.0f}", ""),
        ("decisions per second (bot loop)", f"{res['decisions_per_s']:,.0f}", "goal 50,000"),
        ("decisions per second (apply only)", f"{res['apply_per_s']:,.0f}", ""),
        ("state copy", f"{res['copy_us']:.1f} us", "goal < 25 us"),
        ("snapshot save (api.snapshot)", f"{res['save_ms']:.3f} ms", "goal < 1 ms"),
        ("snapshot size (median / max)", f"{res['snapshot_bytes_median']:,.0f} / {res['snapshot_bytes_max']:,} B", ""),
        ("snapshot restore (api.restore)", f"{res['restore_ms']:.3f} ms", ""),
    ]
    w = max(len(r[0]) for r in rows)
    print(f"$ {res['command']}")
    print(f"Python {res['python']}, one core ({'wall clock' if a.wall else 'process CPU time'}), "
          f"{res['games']} games in {res['runs']} runs, "
          f"{res['states_sampled']} sampled states\n")
    print(f"| {'measure'.ljust(w)} | result | target |")
    print(f"|{'-' * (w + 2)}|---|---|")
    for name, val, target in rows:
        print(f"| {name.ljust(w)} | {val} | {target} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
