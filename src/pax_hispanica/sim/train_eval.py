"""``paxh train-eval``: positions from simulated games, labelled with who won, fitted by the
conditional logit of bots/learned.py.

Data: games through the simulator's runner (local workers or Dask), every ``every``-th
position's public features (bots/learned.seat_features), each labelled with the game's
winner. A ``holdout`` share of the games, drawn by a hash of the game's index (whole games, so that no position of a
game is on both sides) is kept out of training and scores the model against the
hand-written evaluation ISMCTS used before (a softmax of score estimates plus future
earnings, bots/features.py), by log-loss and by how often the most likely seat won.

Fit: the mean log-loss of the softmax over seats plus an L2 penalty, minimised by
full-batch gradient descent with Adam from zero weights: deterministic for a given data
set, so the same command and seed give the same weights.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..bots.learned import FEATURES, LearnedEvaluation
from ..bots.base import stable_seed
from .runner import execute, make_specs

Progress = Callable[[int, int], None]
DEFAULT_TABLES = ("heuristic", "heuristic,heuristic,random")
LABELS = ("winner", "ranking")


@dataclass
class Data:
    rows: list[list[list[float]]]        # position -> seat -> features
    winners: list[int]
    games: list[int]                     # the game each position comes from
    errors: int = 0
    rankings: list[list[int]] | None = None   # each position's game's final ranking, best first

    def ranking(self, i: int) -> list[int]:
        """Position i's final ranking; with winners only, the winner first and the rest unranked."""
        if self.rankings is not None:
            return self.rankings[i]
        return [self.winners[i]]

    def __len__(self) -> int:
        return len(self.winners)


def generate(games: int, players: tuple[int, ...] = (3, 4, 5), tables: tuple[str, ...] = DEFAULT_TABLES,
             every: int = 6, seed: int = 0, workers: int = 1, dask_address: str | None = None,
             progress: Progress | None = None, nations: str = "shuffle") -> Data:
    """``games`` games in all, spread evenly over the player counts and tables."""
    cells = [(p, t) for p in players for t in tables]
    specs: list[dict[str, Any]] = []
    for k, (p, t) in enumerate(cells):
        share = games // len(cells) + (1 if k < games % len(cells) else 0)
        for s in make_specs(p, share, t, stable_seed("train-eval", seed, p, t), nations=nations):
            s["positions_every"] = every
            s["index"] = len(specs)
            specs.append(s)
    results = execute(specs, workers=workers, dask_address=dask_address, progress=progress)
    rankings: list[list[int]] = []
    data = Data([], [], [], rankings=rankings)
    for r in sorted(results, key=lambda r: r["index"]):
        if r.get("error") or r.get("winner") is None:
            data.errors += 1
            continue
        for pos in r.get("positions") or []:
            data.rows.append(pos)
            data.winners.append(int(r["winner"]))
            rankings.append([int(s) for s in r.get("ranking") or [r["winner"]]])
            data.games.append(int(r["index"]))
    return data


def _groups(data: Data, idx: list[int], label: str = "winner") -> list[tuple[np.ndarray, np.ndarray]]:
    """Positions grouped by player count: (X of shape positions x seats x features, R), R the
    labels of shape positions x stages: the winner alone (``label="winner"``), or the final
    ranking's first n-1 places (``"ranking"``), the stages of a Plackett-Luce likelihood."""
    if label not in LABELS:
        raise ValueError(f"label must be one of {', '.join(LABELS)}, not {label!r}")
    by_n: dict[int, list[int]] = {}
    for i in idx:
        by_n.setdefault(len(data.rows[i]), []).append(i)
    out = []
    for n, ids in sorted(by_n.items()):
        x = np.asarray([data.rows[i] for i in ids], dtype=float)
        if label == "ranking" and data.rankings is not None and all(len(data.ranking(i)) >= n - 1 for i in ids):
            r = np.asarray([data.ranking(i)[:n - 1] for i in ids], dtype=int).reshape(len(ids), n - 1)
        else:
            r = np.asarray([data.winners[i] for i in ids], dtype=int).reshape(len(ids), 1)
        out.append((x, r))
    return out


def _log_softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    out: np.ndarray = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return out


def _stage_probs(z: np.ndarray, r: np.ndarray, j: int) -> np.ndarray:
    """Stage j of the Plackett-Luce likelihood: the softmax of z over the seats not yet placed
    (r[:, :j] are placed), minus 1 at the seat placed j-th: the gradient of -log P(stage j) in z."""
    zz = z.copy()
    rows = np.arange(len(r))
    for k in range(j):
        zz[rows, r[:, k]] = -np.inf
    p: np.ndarray = np.exp(_log_softmax(zz))
    p[rows, r[:, j]] -= 1.0
    return p


def loss(groups: list[tuple[np.ndarray, np.ndarray]], w: np.ndarray, l2: float = 0.0) -> float:
    """The fit's objective: the mean over positions of -log P(labels), P the softmax over the
    seats not yet placed at each stage, plus l2 * |w|^2 (X already standardised)."""
    total = sum(len(r) for _x, r in groups)
    out = 0.0
    for x, r in groups:
        z = x @ w
        rows = np.arange(len(r))
        for j in range(r.shape[1]):
            zz = z.copy()
            for k in range(j):
                zz[rows, r[:, k]] = -np.inf
            out -= float(_log_softmax(zz)[rows, r[:, j]].sum())
    return out / total + l2 * float(w @ w)


def gradient(groups: list[tuple[np.ndarray, np.ndarray]], w: np.ndarray, l2: float = 0.0,
             total: int | None = None) -> np.ndarray:
    """The gradient of `loss` in w."""
    total = total or sum(len(r) for _x, r in groups)
    grad = 2 * l2 * w
    for x, r in groups:
        z = x @ w
        p = sum(_stage_probs(z, r, j) for j in range(r.shape[1]))
        grad = grad + np.einsum("ps,psf->f", p, x) / total
    return grad


def fit(groups: list[tuple[np.ndarray, np.ndarray]], l2: float = 1e-3, steps: int = 1500,
        rate: float = 0.05) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, scale, weights) of the standardised conditional logit; each group's labels are
    one stage (the winner: a softmax over the seats) or several (the ranking: Plackett-Luce,
    the winner among all seats, then the second among the rest, ...)."""
    flat = np.concatenate([x.reshape(-1, x.shape[2]) for x, _y in groups])
    mean = flat.mean(axis=0)
    scale = flat.std(axis=0)
    scale[scale < 1e-9] = 1.0           # a feature constant in the data carries no weight
    std = [((x - mean) / scale, y) for x, y in groups]
    total = sum(len(y) for _x, y in std)
    w = np.zeros(flat.shape[1])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    b1, b2 = 0.9, 0.999
    for t in range(1, steps + 1):
        grad = gradient(std, w, l2, total)
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= rate * (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + 1e-8)
    return mean, scale, w


def scores(groups: list[tuple[np.ndarray, np.ndarray]], logits: Callable[[np.ndarray], np.ndarray]) -> dict[str, Any]:
    """Mean log-loss of the winner and the share of positions whose likeliest seat won."""
    loss, hits, total = 0.0, 0, 0
    for x, r in groups:
        y = r[:, 0]
        lp = _log_softmax(logits(x))
        loss -= float(lp[np.arange(len(y)), y].sum())
        hits += int((lp.argmax(axis=1) == y).sum())
        total += len(y)
    return {"log_loss": round(loss / total, 4) if total else None,
            "accuracy": round(hits / total, 4) if total else None, "positions": total}


def handwritten_logits(temperature: float = 1.0) -> Callable[[np.ndarray], np.ndarray]:
    """ISMCTS's hand-written evaluation: softmax((estimate + future) / temperature)."""
    est, fut = FEATURES.index("estimate"), FEATURES.index("future")
    return lambda x: (x[:, :, est] + x[:, :, fut]) / temperature


def train(data: Data, holdout: float = 0.2, l2: float = 1e-3, steps: int = 1500,
          meta: dict[str, Any] | None = None, label: str = "winner") -> tuple[LearnedEvaluation, dict[str, Any]]:
    if len(data) == 0:
        raise ValueError("no positions to train on: play more games or lower --every")
    # held-out games drawn by a hash of their index, so every player count and table is in both
    test_games = {g for g in set(data.games) if stable_seed("holdout", g) % 10_000 < holdout * 10_000}
    if len(test_games) == len(set(data.games)):
        test_games = set()
    train_idx = [i for i, g in enumerate(data.games) if g not in test_games]
    test_idx = [i for i, g in enumerate(data.games) if g in test_games]
    t0 = time.perf_counter()
    mean, scale, w = fit(_groups(data, train_idx, label), l2=l2, steps=steps)
    seconds = time.perf_counter() - t0
    test = _groups(data, test_idx) if test_idx else []      # scored on the winner, whatever the label
    def learned(x: np.ndarray) -> np.ndarray:
        z: np.ndarray = ((x - mean) / scale) @ w
        return z
    report = {"train_positions": len(train_idx), "test_positions": len(test_idx),
              "train_games": len({data.games[i] for i in train_idx}),
              "test_games": len({data.games[i] for i in test_idx}),
              "fit_seconds": round(seconds, 2), "l2": l2, "steps": steps, "label": label,
              "learned": scores(test, learned) if test else None,
              "handwritten": scores(test, handwritten_logits()) if test else None,
              "chance_log_loss": round(chance_log_loss(test), 4) if test else None,
              "errors": data.errors}
    model = LearnedEvaluation(FEATURES, tuple(float(x) for x in mean), tuple(float(x) for x in scale),
                              tuple(round(float(x), 6) for x in w), {**(meta or {}), "report": report})
    return model, report


def chance_log_loss(groups: list[tuple[np.ndarray, np.ndarray]]) -> float:
    """The log-loss of knowing nothing (1/n per seat), for the report."""
    total = sum(len(y) for _x, y in groups)
    return sum(len(y) * math.log(x.shape[1]) for x, y in groups) / total if total else float("nan")
