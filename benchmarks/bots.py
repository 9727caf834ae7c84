"""Bot and simulator benchmarks (a script, not a timed test).

    .venv/bin/python benchmarks/bots.py                 # the figures in docs/bots.md (about 20 minutes)
    .venv/bin/python benchmarks/bots.py --quick         # a smoke run in about a minute
    .venv/bin/python benchmarks/bots.py --json
    .venv/bin/python benchmarks/bots.py --compare-rng   # ISMCTS iterations/s, old vs new generator

Reports:
  1. heuristic vs 3 random (4 players, bots rotate seats): heuristic win rate, 95% CI
  2. ISMCTS vs 3 heuristic at a time budget per decision: ISMCTS win rate, 95% CI
  3. ISMCTS iterations per second (positions of random games, evenly from the four years)
  4. simulation games per second (4 random bots) with 1 and 2 workers, median of interleaved
     pairs, next to the machine's own two-process ceiling (a pure-Python loop)
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

from pax_hispanica import sim
from pax_hispanica.bots import make_agent


def match(bots: str, games: int, seed: int, workers: int, nations: str | None = None) -> dict:
    t0 = time.perf_counter()
    results = sim.run(4, games, bots, seed=seed, workers=workers, nations=nations)
    wall = time.perf_counter() - t0
    s = sim.report(results)
    return {"bots": bots, "nations": nations or "default", "games": games, "seed": seed, "workers": workers,
            "errors": s["errors"], "win_rate": s["win_rate"]["bot"], "bot_scores": s["bot_scores"],
            "wall_seconds": round(wall, 2), "decisions_per_game": s["decisions_per_game"]}


YEARS = ("goods", "auction", "play", "sail")


def ismcts_speed(positions: int, seconds: float, seed: int) -> dict:
    """Positions drawn evenly from the four years (issue 13: every 37th decision alone gave
    15 auction, 4 play, 1 sail and no goods positions in 20); Goods Year decisions with a
    choice are rare, so any of them is taken."""
    from pax_hispanica import api
    rnd = make_agent("random", seed)
    rates, per_year = [], {}
    want = {y: positions // 4 + (i < positions % 4) for i, y in enumerate(YEARS)}
    pos = 0
    g = 0
    while pos < positions:
        state = api.new_game(api.Config(players=4), seed=seed + g)
        g += 1
        step = 0
        while not api.is_over(state) and pos < positions:
            seat = api.acting(state)[0]
            legal = api.legal_actions(state, seat)
            view = api.view(state, seat, include_state=True)     # ISMCTS determinizes it
            year = view["year"]
            if (step % 37 == 5 or year == "goods") and want[year] and api.count_actions(legal) > 1:
                want[year] -= 1
                bot = make_agent("ismcts", seed + pos, seconds=seconds)
                bot.decide(view, legal)
                ex = bot.explain()
                rate = ex["iterations"] / max(ex["seconds"], 1e-9)
                rates.append(rate)
                per_year.setdefault(str(view.get("year", "?")), []).append(rate)
                pos += 1
            state, _ = api.apply(state, rnd.decide(view, legal))
            step += 1
    return {"positions": len(rates), "seconds_per_decision": seconds,
            "iterations_per_second_median": round(statistics.median(rates), 1),
            "iterations_per_second_min": round(min(rates), 1),
            "iterations_per_second_max": round(max(rates), 1),
            "median_by_year": {k: round(statistics.median(v), 1) for k, v in sorted(per_year.items())}}


def _positions(n: int, seed: int) -> list:
    """(view, legal) pairs of random games with more than one legal action, drawn evenly from
    the four years as ismcts_speed draws them (every 37th decision, or any of the Goods Year)."""
    from pax_hispanica import api
    rnd = make_agent("random", seed)
    out, g = [], 0
    want = {y: n // 4 + (i < n % 4) for i, y in enumerate(YEARS)}
    while len(out) < n:
        state = api.new_game(api.Config(players=4), seed=seed + g)
        g += 1
        step = 0
        while not api.is_over(state) and len(out) < n:
            seat = api.acting(state)[0]
            legal = api.legal_actions(state, seat)
            view = api.view(state, seat, include_state=True)     # ISMCTS determinizes it
            year = view["year"]
            if (step % 37 == 5 or year == "goods") and want[year] and api.count_actions(legal) > 1:
                want[year] -= 1
                out.append((view, legal))
            state, _ = api.apply(state, rnd.decide(view, legal))
            step += 1
    return out


def compare_rng(positions: int, iterations: int, rounds: int, seed: int) -> dict:
    """ISMCTS iterations per second (a fixed iteration budget on the same positions) with the
    old generator (SplitMix64, benchmarks/_splitmix.py) and the engine's keyed one (PRJ-1),
    alternating the order every round; medians over rounds of CPU time."""
    import _splitmix
    pos = _positions(positions, seed)
    rates: dict[str, list] = {"splitmix": [], "keyed": []}
    for r in range(rounds):
        for name in (("splitmix", "keyed") if r % 2 == 0 else ("keyed", "splitmix")):
            report = _splitmix.use(name)
            if name == "splitmix":
                swap = report
            t0 = time.process_time()
            for i, (view, legal) in enumerate(pos):
                make_agent("ismcts", seed + i, iterations=iterations).decide(view, legal)
            rates[name].append(positions * iterations / (time.process_time() - t0))
    _splitmix.use("keyed")
    # what the comparison covers: said with its figures, not skipped in silence
    print("compare-rng: swapped " + ", ".join(swap["swapped"]) + "; not swapped: "
          + "; ".join(f"{k}: {v}" for k, v in swap["not_swapped"].items()), file=sys.stderr)
    return {"positions": positions, "iterations_per_decision": iterations, "rounds": rounds,
            **{name: {"iterations_per_second_median": round(statistics.median(v), 1),
                      "all": [round(x, 1) for x in v]} for name, v in rates.items()},
            "generator_swap": {"swapped": swap["swapped"], "not_swapped": swap["not_swapped"]}}


def _rate(games: int, workers: int, seed: int) -> float:
    t0 = time.perf_counter()
    sim.run(4, games, "random", seed=seed, workers=workers)
    return games / (time.perf_counter() - t0)


def _burn(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i % 7
    return s


def _ceiling_once(n: int = 3_000_000) -> float:
    """How much faster two busy processes finish two equal pure-Python loops than
    one process finishes both: what this machine gives two workers at best."""
    from concurrent.futures import ProcessPoolExecutor
    t0 = time.perf_counter()
    _burn(n), _burn(n)
    one = time.perf_counter() - t0
    with ProcessPoolExecutor(2) as pool:
        pool.submit(_burn, 1).result()          # the pool is started before the clock
        t0 = time.perf_counter()
        list(pool.map(_burn, [n, n]))
        two = time.perf_counter() - t0
    return one / two


def throughput(games: int, repeats: int, seed: int) -> dict:
    """Games per second with 1 and 2 workers, measured in interleaved pairs (1 then 2, on the
    same seeds) so that a slow spell of the shared machine hits both; with each pair, the
    machine's own ceiling for two processes (a pure-Python loop, no simulator)."""
    one, two, ratios, ceilings = [], [], [], []
    for r in range(repeats):
        a, b = _rate(games, 1, seed + r), _rate(games, 2, seed + r)
        one.append(a)
        two.append(b)
        ratios.append(b / a)
        ceilings.append(_ceiling_once())
    med = statistics.median
    return {"games": games, "repeats": repeats,
            "1": {"games_per_second_median": round(med(one), 2), "all": [round(x, 2) for x in one]},
            "2": {"games_per_second_median": round(med(two), 2), "all": [round(x, 2) for x in two]},
            "speedup": round(med(two) / med(one), 2),
            "speedup_median_of_pairs": round(med(ratios), 2),
            "machine_ceiling_median": round(med(ceilings), 2),
            "machine_ceiling_all": [round(x, 2) for x in ceilings]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="small numbers, a smoke run")
    p.add_argument("--json", action="store_true")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=2, help="processes for the bot matches")
    p.add_argument("--heuristic-games", type=int, default=400)
    p.add_argument("--ismcts-games", type=int, default=40, help="games of the ISMCTS match (about 15 min on 2 CPUs)")
    p.add_argument("--ismcts-nations", default="default",
                   help="';'-separated nation settings for the ISMCTS match (default: the ruleset's order)")
    p.add_argument("--ismcts-bot", default="ismcts:seconds=1", help="the ISMCTS bot spec for the match")
    p.add_argument("--nations", default="default,english,french,dutch,courland",
                   help="';'-separated nation settings for the heuristic-vs-random match (default: the ruleset's "
                        "order, then the four nations other than the Spanish)")
    p.add_argument("--speed-positions", type=int, default=20)
    p.add_argument("--throughput-games", type=int, default=200)
    p.add_argument("--throughput-repeats", type=int, default=7, help="interleaved 1-worker / 2-worker pairs")
    p.add_argument("--compare-rng", action="store_true",
                   help="only: ISMCTS iterations/s with the old and the new generator, interleaved")
    p.add_argument("--compare-iterations", type=int, default=100)
    p.add_argument("--compare-rounds", type=int, default=5)
    p.add_argument("--skip", default="", help="comma list of sections to skip: heuristic,ismcts,speed,throughput")
    a = p.parse_args()
    if a.quick:
        a.heuristic_games, a.ismcts_games, a.speed_positions, a.throughput_games = 40, 2, 4, 40
        a.throughput_repeats = 2
        a.ismcts_bot = "ismcts:seconds=0.1"
    if a.compare_rng:
        print(json.dumps(compare_rng(a.speed_positions, a.compare_iterations, a.compare_rounds, a.seed), indent=1))
        return
    skip = set(filter(None, a.skip.split(",")))
    out: dict = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                             "platform": platform.platform()},
                 "command": " ".join([os.path.relpath(sys.executable)] + sys.argv)}
    def log(*x):
        return print(*x, file=sys.stderr, flush=True)
    settings = [None if x == "default" else x for x in (n.strip() for n in a.nations.split(";")) if x]
    if a.nations == "default,english,french,dutch,courland":
        settings = [None, "english,french,dutch,courland"]
    if "heuristic" not in skip:
        for nat in settings:
            log(f"heuristic vs 3 random, nations {nat or 'default'} ...")
            out.setdefault("heuristic_vs_random", []).append(
                match("heuristic,random,random,random", a.heuristic_games, a.seed, a.workers, nat))
    if "ismcts" not in skip:
        for nat in [None if x == "default" else x for x in (n.strip() for n in a.ismcts_nations.split(";")) if x]:
            log(f"{a.ismcts_bot} vs 3 heuristic, nations {nat or 'default'} ...")
            out.setdefault("ismcts_vs_heuristic", []).append(
                match(f"{a.ismcts_bot},heuristic,heuristic,heuristic", a.ismcts_games, a.seed, a.workers, nat))
    if "speed" not in skip:
        log("ISMCTS iterations per second ...")
        out["ismcts_speed"] = ismcts_speed(a.speed_positions, 1.0 if not a.quick else 0.2, a.seed)
    if "throughput" not in skip:
        log("games per second, 1 and 2 workers ...")
        out["throughput"] = throughput(a.throughput_games, a.throughput_repeats, a.seed)
    if a.json:
        print(json.dumps(out, indent=2))
    else:
        print(render(out))


def render(out: dict) -> str:
    lines = [f"machine: {out['machine']['cpus']} CPUs, Python {out['machine']['python']}",
             f"command: {out['command']}", ""]
    for key, bot in (("heuristic_vs_random", "heuristic"), ("ismcts_vs_heuristic", None)):
        for m in out.get(key, []):
            name = bot or next(k for k in m["win_rate"] if k.startswith("ismcts"))
            w = m["win_rate"][name]
            ranks = ", ".join(f"{b} {v['mean_rank']:.2f}" for b, v in m["bot_scores"].items())
            lines.append(f"{m['bots']} (nations {m['nations']}): {name} won {w['wins']}/{w['games']} = "
                         f"{w['rate']:.3f} (95% CI {w['ci95'][0]:.3f}-{w['ci95'][1]:.3f}); mean rank {ranks}; "
                         f"{m['errors']} errors; {m['decisions_per_game']:.0f} decisions/game; {m['wall_seconds']} s")
    if "ismcts_speed" in out:
        s = out["ismcts_speed"]
        lines.append(f"ISMCTS: median {s['iterations_per_second_median']} iterations/s over {s['positions']} "
                     f"positions (min {s['iterations_per_second_min']}, max {s['iterations_per_second_max']}); "
                     f"by year {s['median_by_year']}")
    if "throughput" in out:
        t = out["throughput"]
        lines.append(f"random 4-player games/s, median of {t['repeats']} interleaved pairs of {t['games']} games: "
                     f"1 worker {t['1']['games_per_second_median']}, 2 workers {t['2']['games_per_second_median']} "
                     f"(x{t['speedup']}; median pair x{t['speedup_median_of_pairs']}); this machine's ceiling for "
                     f"two processes x{t['machine_ceiling_median']} (pure-Python loop, {t['machine_ceiling_all']})")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
