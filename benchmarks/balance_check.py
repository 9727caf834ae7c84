"""Issue 36's balance targets, measured over several master seeds and pooled (docs/bots.md,
"reference-8"):

    python benchmarks/balance_check.py --out /tmp/bal8 --seeds 801,802,803 --games 150
    python benchmarks/balance_check.py --out /tmp/bal8 --report          # the tables again

For every player count (--players) and kind of table (--kinds):

* ``shuffled``: heuristic self-play, a random set of nations per game (a nation apart from its seat);
* ``default``: heuristic self-play with the ruleset's nations by seat, as `paxh play` deals them;
* ``mixed``: ISMCTS at 25 iterations, the heuristic bot and (3+ players) a random bot, seats
  rotating, shuffled nations;

it runs `paxh simulate --json` once per master seed (resumable: a run whose file exists is not run
again; files in --out, outside the tree) and prints, pooled over the seeds, each nation's wins
with its 95% Wilson interval, the largest |nation - chance| and |seat - chance| in points, the
largest share of the wins taken by one final legality, battles and sacks per game, and the cards
played in fewer than 5% of the pooled games. Extra `--set NAME=VALUE` go to every run (a variant).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pooled_nations import wilson

KINDS = {
    "shuffled": ("heuristic", "shuffle"),
    "default": ("heuristic", "default"),
    "mixed": ("ismcts:iterations=25,heuristic,random,heuristic,random", "shuffle"),
}


def bots_for(kind: str, players: int) -> str:
    bots = KINDS[kind][0].split(",")
    if kind == "mixed" and players == 2:
        bots = ["ismcts:iterations=25", "heuristic"]
    return ",".join((bots * players)[:players])


def run(out: Path, kind: str, players: int, seed: int, games: int, sets: list[str], workers: int) -> Path:
    path = out / f"{kind}_p{players}_s{seed}.json"
    if path.exists() and path.stat().st_size:
        return path
    cmd = [sys.executable, "-m", "pax_hispanica.cli", "simulate", "--players", str(players), "--games", str(games),
           "--seed", str(seed), "--bots", bots_for(kind, players), "--nations", KINDS[kind][1], "--json",
           "--workers", str(workers)]
    for s in sets:
        cmd += ["--set", s]
    print(f"running {kind} {players}p seed {seed} ({games} games)", file=sys.stderr, flush=True)
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)
    return path


def pooled(paths: list[Path]) -> dict:
    wins, games, seat_w, seat_g, leg = Counter(), Counter(), Counter(), Counter(), Counter()
    played: Counter = Counter()
    total = 0
    battles = sacks = 0.0
    players = 0
    for p in paths:
        d = json.loads(p.read_text())
        n = d["completed"]
        total += n
        players = max(d["players"])
        for k, v in d["win_rate"]["nation"].items():
            wins[k] += v["wins"]
            games[k] += v["games"]
        for k, v in d["win_rate"]["seat"].items():
            seat_w[k] += v["wins"]
            seat_g[k] += v["games"]
        for k, v in d["win_rate"]["legality"].items():
            leg[k] += v["wins"]
        ev = d["engagement"]["events"]
        battles += (ev.get("battles") or {}).get("mean", 0.0) * n
        sacks += (ev.get("sacks") or {}).get("mean", 0.0) * n
        for card, c in d["engagement"]["cards"].items():
            played[card] += c["games_with"]["count"]       # games in which the card was played
    chance = 1 / players if players else 0.0
    rare = sorted(c for c in played if played[c] < 0.05 * total)
    top = max(leg, key=lambda k: leg[k]) if leg else None
    return {
        "games": total, "players": players,
        "nations": {k: (wins[k], games[k], *wilson(wins[k], games[k])) for k in sorted(games)},
        "nation_gap": 100 * max(abs(wins[k] / games[k] - chance) for k in games) if games else None,
        "seat_gap": 100 * max(abs(seat_w[k] / seat_g[k] - chance) for k in seat_g) if seat_g else None,
        "legality_top": (top, 100 * leg[top] / sum(leg.values())) if top else None,
        "battles": battles / total if total else None, "sacks": sacks / total if total else None,
        "rare_cards": rare,
    }


def report(out: Path, players: list[int], kinds: list[str]) -> None:
    print("| table | players | games | nations: win % (95% Wilson) | largest nation gap | largest seat gap "
          "| top legality of wins | battles / sacks a game | cards in < 5% of games |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind in kinds:
        for n in players:
            paths = sorted(out.glob(f"{kind}_p{n}_s*.json"))
            if not paths:
                continue
            r = pooled(paths)
            nat = ", ".join(f"{k} {100 * w / g:.1f} ({100 * lo:.0f}–{100 * hi:.0f})" for k, (w, g, lo, hi) in r["nations"].items())
            leg = f"{r['legality_top'][0]} {r['legality_top'][1]:.0f}%" if r["legality_top"] else "-"
            print(f"| {kind} | {n} | {r['games']} | {nat} | {r['nation_gap']:.1f} | {r['seat_gap']:.1f} | {leg} "
                  f"| {r['battles']:.2f} / {r['sacks']:.2f} | {', '.join(r['rare_cards']) or 'none'} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True, help="folder for the runs' JSON (outside the tree)")
    ap.add_argument("--players", default="2,3,4,5", help="comma list of player counts")
    ap.add_argument("--kinds", default="shuffled,default,mixed", help=f"comma list of {', '.join(KINDS)}")
    ap.add_argument("--seeds", default="801,802,803", help="comma list of master seeds")
    ap.add_argument("--games", type=int, default=150, help="games per run (per seed, count and kind)")
    ap.add_argument("--set", dest="sets", action="append", default=[], help="NAME=VALUE for every run (repeatable)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--report", action="store_true", help="only print the tables of the runs already in --out")
    a = ap.parse_args(argv)
    players = [int(x) for x in a.players.split(",")]
    kinds = [k for k in a.kinds.split(",") if k]
    bad = [k for k in kinds if k not in KINDS]
    if bad:
        ap.error(f"unknown kind {bad[0]!r}; use {', '.join(KINDS)}")
    a.out.mkdir(parents=True, exist_ok=True)
    if not a.report:
        for kind in kinds:
            for n in players:
                for seed in (int(s) for s in a.seeds.split(",")):
                    run(a.out, kind, n, seed, a.games, a.sets, a.workers)
    report(a.out, players, kinds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
