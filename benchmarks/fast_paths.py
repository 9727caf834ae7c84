"""Issue 13's fast paths, old code against new, side by side in one interleaved run.

    git worktree add --detach /tmp/paxh-base <old commit>
    .venv/bin/python benchmarks/fast_paths.py --old /tmp/paxh-base --rounds 5
    .venv/bin/python benchmarks/fast_paths.py --old /tmp/paxh-base --rounds 1 --quick

Each round runs one worker process per checkout (the order alternates between rounds),
each with only its checkout's `src` on PYTHONPATH; the figures are medians over rounds of
process CPU time, so a slow spell of the shared machine hits both sides alike. A worker
measures, on the same seeds for both:
  - loop: the bare engine loop (acting, legal_actions, count_actions + nth_action, apply),
    decisions per second over random 4-player games, after three warm-up games of other seeds;
    loop_keeping: the same games keeping every 7th state while timed (how "loop" was measured
    until 2026-12-05; the states are the positions of the per-call measures below);
    loop_trusted: the same loop with api.apply_trusted where the checkout has it (the search
    path), else apply;
  - simulate: `paxh simulate`'s loop (sim.run, four random bots, one worker), decisions/s;
  - view / view_lean / information_state / copy / to_dict / restore / determinize: µs per call, the median over
    positions of random games (every 7th decision) of the mean of repeated calls, every
    call for the seat to act; `view` is api.view's default (with the masked state before
    issue 13's default change, without it after), `view_state` is include_state=True,
    `view_lean` is include_state=False, `view_shared` copy=False (PRJ-65; a checkout without it:
    its default view); to_dict is State.to_dict (what api.snapshot dumps),
    restore is api.restore of that snapshot; determinize reads a view with its state; sample is
    one more sample of the same view (api.determinizer's, else determinize);
  - ismcts: iterations per second at a fixed budget on positions drawn evenly from the four
    years (tests/bots/test_ismcts_pinned.py's positions: 4 goods, 4 auction, 4 play, 4 sail);
    ismcts_goods, ..., ismcts_sail: the same run's rate on each year's 4 positions;
    ismcts_log: the same positions, each with its seat's own log, given to a bot that reads
    it (`uses_log`, as paxh simulate does; a checkout without it decides without the log).
`--only ismcts,ismcts_log` measures just those (the others are left out of the table).

Each checkout loads the compiled engine of $PAXH_COMPILED_DIR (else its venv's) only where
that build was made from its very sources; `--old-compiled DIR` / `--new-compiled DIR` give
each side a build of its own (scripts/compile_engine.py build --dir DIR, run from that
checkout), and the table says whether each side's workers ran compiled (api.COMPILED) and
whether the ISMCTS decisions (action and root visits at every position) were the same on
both sides in every round:

    python benchmarks/fast_paths.py --old /tmp/speed-base --old-compiled /tmp/paxc-base \
        --new-compiled /tmp/paxc-speed --rounds 9 --only ismcts
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLOCK = time.process_time
YEARS = ("goods", "auction", "play", "sail")
ISMCTS = ("ismcts", *(f"ismcts_{y}" for y in YEARS), "ismcts_log")
MEASURES = ("loop", "loop_keeping", "loop_trusted", "simulate", "view", "view_state", "view_lean", "view_shared", "information_state", "copy",
            "to_dict", "restore", "determinize", "sample", *ISMCTS)
UNITS = {"loop": "decisions/s", "loop_keeping": "decisions/s", "loop_trusted": "decisions/s", "simulate": "decisions/s",
         **{m: "iterations/s" for m in ISMCTS}}


# ---- the worker: runs against whichever pax_hispanica is on its path -----------------------
def _random_game(api, seed: int, every: int = 0, trusted: bool = False) -> tuple[int, float, list]:
    import random
    bot = random.Random(seed)
    step = getattr(api, "apply_trusted", None) if trusted else None
    if step is None:
        def step(st, a):
            return api.apply(st, a)[0]
    t0 = CLOCK()
    st = api.new_game(api.Config(players=4), seed)
    n, samples = 0, []
    while not st.over:
        seat = bot.choice(api.acting(st))
        legal = api.legal_actions(st, seat)
        st = step(st, api.nth_action(legal, bot.randrange(api.count_actions(legal))))
        n += 1
        if every and n % every == 0 and not st.over:
            samples.append(st)
    return n, CLOCK() - t0, samples


def _per_call_us(fn, states: list, repeat: int) -> float:
    times = []
    for st in states:
        t0 = CLOCK()
        for _ in range(repeat):
            fn(st)
        times.append((CLOCK() - t0) / repeat * 1e6)
    return statistics.median(times)


def _ismcts_positions(api, per_year: int) -> list:
    sys.path.insert(0, str(HERE.parent / "tests" / "bots"))
    import test_ismcts_pinned as pinned  # the new checkout's positions, read through either engine
    pinned.PER_YEAR = per_year
    return pinned.positions()


def _ismcts_log_positions(api, per_year: int) -> list:
    """test_ismcts_pinned.positions' (view, legal) pairs, each with its seat's log."""
    from pax_hispanica.bots import make_agent
    rnd = make_agent("random", 11)
    want = {y: per_year for y in ("goods", "auction", "play", "sail")}
    out: list = []
    seed = 500
    while any(want.values()):
        g = api.Game.new(api.Config(players=4), seed=seed)
        seed += 1
        step = 0
        while not api.is_over(g.state):
            state = g.state
            seat = api.acting(state)[0]
            legal = api.legal_actions(state, seat)
            view = api.view(state, seat, include_state=True)
            if (step % 23 == 7 or view["year"] == "goods") and want[view["year"]] and api.count_actions(legal) > 1:
                want[view["year"]] -= 1
                out.append((view, legal, api.redact(g.events, seat)))
            g.act(rnd.decide(view, legal))
            step += 1
    return out


def _ismcts_rate(api, positions: list, iterations: int, per_year: dict | None = None,
                 decisions: list | None = None) -> float:
    """Iterations/s over all the positions; `per_year` (if given) gets each year's rate too,
    `decisions` (if given) each position's action and its root's visits."""
    from pax_hispanica.bots import ismcts, make_agent
    getattr(ismcts, "_SHARED_MEMOS", {}).clear()    # each rate from empty memos (kept per process since round 7)
    spent: dict = {}
    for i, (view, legal, *log) in enumerate(positions):
        bot = make_agent("ismcts", 1000 + i, iterations=iterations)
        t0 = CLOCK()
        if log and getattr(bot, "uses_log", False):
            action = bot.decide(view, legal, log=log[0])
        else:
            action = bot.decide(view, legal)
        t1 = CLOCK()
        if decisions is not None:
            decisions.append([action, [[a["action"], a["visits"]] for a in bot.explain()["alternatives"]]])
        n, t = spent.get(view["year"], (0, 0.0))
        spent[view["year"]] = (n + 1, t + t1 - t0)
    if per_year is not None:
        per_year.update({f"ismcts_{y}": n * iterations / t for y, (n, t) in spent.items()})
    return sum(n for n, _ in spent.values()) * iterations / sum(t for _, t in spent.values())


def worker(quick: bool, only: frozenset = frozenset(MEASURES)) -> dict:
    from pax_hispanica import api, sim
    from pax_hispanica.bots import make_agent
    out: dict = {"engine": api.__file__, "compiled": getattr(api, "COMPILED", False), "decisions": []}
    iterations = 30 if quick else 100
    if only <= set(ISMCTS):
        make_agent("ismcts", 1, iterations=5).decide(*_ismcts_positions(api, 1)[0])     # warm up
        if only & set(ISMCTS[:-1]):
            out["ismcts"] = _ismcts_rate(api, _ismcts_positions(api, 1 if quick else 4), iterations, out,
                                         out["decisions"])
        if "ismcts_log" in only:
            out["ismcts_log"] = _ismcts_rate(api, _ismcts_log_positions(api, 1 if quick else 4), iterations)
        return out
    try:
        info = api.information_state
    except AttributeError:                  # before issue 13
        from pax_hispanica.engine.view import masked_state as info
    games = 6 if quick else 20
    for g in range(3):                      # warm up: ruleset load, imports, the allocator's first
        _random_game(api, 10_000 + g)       # arenas (other seeds: no salt of the games below is cached)
    dec = secs = 0.0
    for g in range(games):
        n, t, _ = _random_game(api, 1 + g)
        dec, secs = dec + n, secs + t
    out["loop"] = dec / secs
    # the same games again, keeping every 7th state (the positions measured below) while timed, as
    # this benchmark measured "loop" until 2026-12-05: the kept states (each holding its undo
    # history) cost the loop the collector's and the allocator's time, not the engine's
    for memo in ("salt", "_salt_pads", "_salt_key"):      # as the first pass: no salt of these games cached
        getattr(getattr(sys.modules.get("pax_hispanica.engine.keys"), memo, None), "cache_clear", lambda: None)()
    dec = secs = 0.0
    samples: list = []
    for g in range(games):
        n, t, s = _random_game(api, 1 + g, every=7)
        dec, secs = dec + n, secs + t
        samples += s
    out["loop_keeping"] = dec / secs
    dec = secs = 0.0
    for g in range(games):
        n, t, _ = _random_game(api, 1 + g, trusted=True)
        dec, secs = dec + n, secs + t
    out["loop_trusted"] = dec / secs
    t0 = CLOCK()
    results = sim.run(4, games, "random", seed=7, workers=1)
    out["simulate"] = sum(r["decisions"] for r in results) / (CLOCK() - t0)
    states = samples[:: 2 if quick else 1]
    repeat = 20 if quick else 50
    def seat(st):
        return api.acting(st)[0]
    out["view"] = _per_call_us(lambda st: api.view(st, seat(st)), states, repeat)
    out["view_state"] = _per_call_us(lambda st: api.view(st, seat(st), include_state=True), states, repeat)
    out["view_lean"] = _per_call_us(lambda st: api.view(st, seat(st), include_state=False), states, repeat)
    # view(..., copy=False) (PRJ-65) where the checkout has it, else its default view
    import inspect
    shared = {"copy": False} if "copy" in inspect.signature(api.view).parameters else {}
    out["view_shared"] = _per_call_us(lambda st: api.view(st, seat(st), **shared), states, repeat)
    out["information_state"] = _per_call_us(lambda st: info(st, seat(st)), states, repeat)
    out["copy"] = _per_call_us(lambda st: st.copy(), states, repeat * 4)
    out["to_dict"] = _per_call_us(lambda st: st.to_dict(), states, repeat)
    snaps = {id(st): api.snapshot(st) for st in states}
    out["restore"] = _per_call_us(lambda st: api.restore(snaps[id(st)]), states, repeat)
    views = {id(st): api.view(st, seat(st), include_state=True) for st in states}
    out["determinize"] = _per_call_us(lambda st: api.determinize(views[id(st)], 12345), states, repeat)
    # one more sample of a view already sampled (what an ISMCTS iteration pays): through
    # api.determinizer where the checkout has it, else determinize itself
    make = getattr(api, "determinizer", None)
    samplers = {k: (make(v) if make else (lambda seed, v=v: api.determinize(v, seed))) for k, v in views.items()}
    out["sample"] = _per_call_us(lambda st: samplers[id(st)](12345), states, repeat)
    positions = _ismcts_positions(api, 1 if quick else 4)
    out["ismcts"] = _ismcts_rate(api, positions, iterations, out, out["decisions"])
    out["ismcts_log"] = _ismcts_rate(api, _ismcts_log_positions(api, 1 if quick else 4), iterations)
    out["states"], out["ismcts_positions"] = len(states), len(positions)
    return out


# ---- the driver ------------------------------------------------------------------------------
def _run(tree: Path, quick: bool, only: str | None = None, compiled: Path | None = None) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    if compiled is not None:
        env["PAXH_COMPILED_DIR"] = str(compiled)
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker"] + (["--quick"] if quick else []) + (
        ["--only", only] if only else [])
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _fmt(x: float, unit: str) -> str:
    return f"{x:.1f} µs" if unit == "µs" else f"{x:,.0f} {unit}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, help="a checkout of the code before (e.g. a temporary git worktree)")
    ap.add_argument("--new", type=Path, default=HERE.parent, help="the checkout measured against it (this one)")
    ap.add_argument("--old-compiled", type=Path, help="the old checkout's compiled engine (PAXH_COMPILED_DIR)")
    ap.add_argument("--new-compiled", type=Path, help="the new checkout's compiled engine (PAXH_COMPILED_DIR)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--only", help="a comma list of measures (only ismcts and ismcts_log may be measured alone)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    only = frozenset(a.only.split(",")) if a.only else frozenset(MEASURES)
    if not only <= set(MEASURES) or (a.only and not only <= set(ISMCTS)):
        ap.error("--only takes ismcts, ismcts_<year> and/or ismcts_log")
    if a.worker:
        print(json.dumps(worker(a.quick, only)))
        return 0
    if a.old is None:
        ap.error("--old is required")
    runs: dict[str, list[dict]] = {"old": [], "new": []}
    for r in range(a.rounds):
        for side in (("old", "new") if r % 2 == 0 else ("new", "old")):
            runs[side].append(_run(a.old if side == "old" else a.new, a.quick, a.only,
                                   a.old_compiled if side == "old" else a.new_compiled))
            print(f"round {r + 1}/{a.rounds} {side} done", file=sys.stderr, flush=True)
    measures = [m for m in MEASURES if m in only]
    med = {side: {m: statistics.median(x[m] for x in rs) for m in measures} for side, rs in runs.items()}
    # the ratio of each round's new to its old, the median over rounds (a slow spell hits one round)
    per_round = {m: statistics.median(n[m] / o[m] for o, n in zip(runs["old"], runs["new"])) for m in measures}
    compiled = {side: sorted({bool(x["compiled"]) for x in rs}) for side, rs in runs.items()}
    same = all(o["decisions"] == n["decisions"] for o, n in zip(runs["old"], runs["new"]))
    res = {"rounds": a.rounds, "quick": a.quick, "python": sys.version.split()[0], "medians": med,
           "per_round": per_round, "compiled": compiled, "same_decisions": same,
           "runs": runs, "command": " ".join([os.path.relpath(sys.executable), "benchmarks/fast_paths.py",
                                              *(argv if argv is not None else sys.argv[1:])])}
    if a.json:
        print(json.dumps(res, indent=1))
        return 0
    print(f"$ {res['command']}\n")
    print(f"compiled: old {compiled['old']}, new {compiled['new']}; ISMCTS decisions the same in every round: {same}\n")
    print("| measure | old | new | new/old | per round |\n|---|---|---|---|---|")
    for m in measures:
        o, n = med["old"][m], med["new"][m]
        unit = UNITS.get(m, "µs")
        ratio = n / o if unit != "µs" else o / n
        pr = per_round[m] if unit != "µs" else 1 / per_round[m]
        print(f"| {m} | {_fmt(o, unit)} | {_fmt(n, unit)} | ×{ratio:.2f} {'faster' if ratio >= 1 else 'slower'} "
              f"| ×{pr:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
