"""Calibration of the cut-off evaluations on fresh games: log-loss of the winner by temperature
(a script; issue 17's diagnosis).

    .venv/bin/python benchmarks/learned_calibration.py --games 150 --players 3,4,5 --tables heuristic --seed 91

Plays `--games` games per player count through `paxh train-eval`'s generator (sim/train_eval.py,
every `--every`-th position), and scores the learned evaluation (softmax(logits / T), bots/learned.py,
the shipped weights or `--weights`) and the hand-written one (softmax((estimate + future) / T),
ISMCTS's default at T = 1) at each temperature T: the log-loss of the game's winner, and the mean
standard deviation of the logits across the seats of a position (how spread the values are).
A T below 1 that lowers the log-loss means the values are too flat for these games.
"""
from __future__ import annotations

import argparse
import json

import numpy as np

from pax_hispanica.bots import learned
from pax_hispanica.bots.learned import FEATURES
from pax_hispanica.sim import train_eval as te

TEMPERATURES = (0.3, 0.4, 0.5, 0.6, 0.7, 0.85, 1.0)


def log_loss(z: np.ndarray, winners: np.ndarray, t: float) -> float:
    z = z / t
    z = z - z.max(1, keepdims=True)
    lp = z - np.log(np.exp(z).sum(1, keepdims=True))
    return float(-lp[np.arange(len(z)), winners].mean())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=150, help="games per player count")
    ap.add_argument("--players", default="3,4,5")
    ap.add_argument("--tables", default="heuristic", help="bot tables separated by ';' (as paxh train-eval)")
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--seed", type=int, default=91)
    ap.add_argument("--weights", default=None, help="a weights file (default: the shipped ones)")
    args = ap.parse_args(argv)
    model = learned.load(args.weights)
    w, m, s = (np.array(x) for x in (model.weights, model.mean, model.scale))
    ie, ifu = FEATURES.index("estimate"), FEATURES.index("future")
    tables = tuple(t for t in args.tables.split(";") if t)
    out = {"command": vars(args), "by_players": {}}
    for p in (int(x) for x in args.players.split(",")):
        d = te.generate(args.games, (p,), tables, every=args.every, seed=args.seed)
        x, winners = np.array(d.rows), np.array(d.winners)
        z = {"learned": ((x - m) / s) @ w, "handwritten": x[:, :, ie] + x[:, :, ifu]}
        out["by_players"][p] = {"positions": len(d), **{
            name: {"logit_sd": round(float(v.std(1).mean()), 3),
                   "log_loss": {str(t): round(log_loss(v, winners, t), 4) for t in TEMPERATURES}}
            for name, v in z.items()}}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
