"""`paxh train-value`: the data pipeline and the fit of the value model (analysis/value.py).

Data (`collect`):
- recorded games: every record of the corpus (tests/corpus/*.jsonl: seeded bot games of 2-5
  players, scenario games, games played through the web server), replayed;
- self-play: `games` new games of heuristic bots, 2-5 players, nations shuffled, set up by the
  simulator (`sim.runner.make_specs`: seeds, rotated seats, nations) over a few tables (all
  heuristic; the tuned preset among default ones; one random seat), played to a record.
Every `every`-th position of a game (from an offset drawn by the game's id) is kept, seen from
the seat acting there (`api.view`), as one feature row per seat (`value.seat_features`),
labelled with the game's winner.

Splits are by whole games, drawn by a hash of the game's id: 70% train, 10% calibration (the
temperature, and the hand-written evaluation's temperature), 20% test (the report). The fit
minimises the log-loss of the winner (softmax over the seats) plus an L2 penalty, by full-batch
Adam from a seeded start: the same command and seed give the same weights.

The report on the test games: Brier score (multi-class: the sum over seats of (p - won)^2, the
mean over positions), log-loss, how often the likeliest seat won, the reliability table (every
(position, seat) probability in ten bins: mean predicted against how often those seats won) and
its expected calibration error, by player count and by stage of the game; for the model, the
same model without the hidden layer (a conditional logit), the hand-written evaluation at
ISMCTS's temperature 1 and at its fitted temperature, and the constant 1/n.
"""
from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import api
from ..bots import make_agent
from ..bots.base import SeatLogs, stable_seed
from ..contract import SearchEngine
from . import value as V
from .game import seat_view

Array = npt.NDArray[np.float64]
Progress = Callable[[int, int], None]
JsonDict = dict[str, Any]

ENGINE: SearchEngine[api.State] = api
"""The engine, typed against the contract (pax_hispanica.contract): the nine operations, and the
bots' logs (`redact`, through SeatLogs). mypy --strict checks that nothing else is asked of it;
tests/engine/test_api_contract.py that the module reads of `api` itself only names of the helper
groups (replay, Game, Config)."""

DEFAULT_TABLES = ("heuristic", "heuristic:preset=tuned,heuristic", "heuristic,heuristic,heuristic,heuristic,random")
MAX_ACTIONS = 20_000
SPLIT = {"train": 70, "calibration": 10, "test": 20}      # percent of the games


@dataclass
class Positions:
    """Positions of many games: feature rows per seat, the winner, the game and the progress."""
    rows: list[list[list[float]]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    progress: list[float] = field(default_factory=list)
    sources: dict[str, int] = field(default_factory=dict)     # games per source
    errors: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.winners)

    def extend(self, other: Positions) -> None:
        self.rows += other.rows
        self.winners += other.winners
        self.games += other.games
        self.progress += other.progress
        for k, v in other.sources.items():
            self.sources[k] = self.sources.get(k, 0) + v
        self.errors += other.errors


def split_of(game: str) -> str:
    """The split a game belongs to, from a hash of its id."""
    r = stable_seed("value-split", game) % 100
    if r < SPLIT["train"]:
        return "train"
    return "calibration" if r < SPLIT["train"] + SPLIT["calibration"] else "test"


def positions_of_record(record: JsonDict, game: str, every: int, source: str) -> Positions:
    """Every `every`-th position of a finished record (from an offset drawn by the game's id),
    seen from the seat acting there, labelled with the winner."""
    out = Positions()
    actions = list(record.get("actions") or [])
    g = api.replay({**record, "actions": []})
    offset = stable_seed("value-offset", game) % max(1, every)
    kept: list[tuple[list[list[float]], float]] = []
    for k in range(len(actions) + 1):
        if k % every == offset and not ENGINE.is_over(g.state):
            seats = ENGINE.acting(g.state)
            v = ENGINE.view(g.state, seats[0] if seats else None)
            kept.append((V.seat_features(v), V.view_progress(v)))
        if k < len(actions):
            g.act(actions[k])
    res = ENGINE.result(g.state)
    if not ENGINE.is_over(g.state) or res is None:
        out.errors.append(f"{game}: not finished")
        return out
    for rows, prog in kept:
        out.rows.append(rows)
        out.winners.append(int(res["winner"]))
        out.games.append(game)
        out.progress.append(prog)
    out.sources[source] = 1
    return out


def corpus_records(corpus: Path) -> Iterator[tuple[str, JsonDict]]:
    """(id, record) of every game of the corpus's JSON-lines files."""
    for path in sorted(corpus.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                entry = json.loads(line)
                yield f"corpus:{entry['id']}", entry["record"]


def self_play_specs(games: int, players: Sequence[int], tables: Sequence[str], seed: int) -> list[JsonDict]:
    """The simulator's game specs (seed, bots by seat rotated, nations shuffled), spread evenly
    over the player counts and tables."""
    from ..sim.runner import make_specs
    cells = [(p, t) for p in players for t in tables]
    specs: list[JsonDict] = []
    for k, (p, t) in enumerate(cells):
        share = games // len(cells) + (1 if k < games % len(cells) else 0)
        bots = ",".join((t.split(",") * p)[:p])
        for s in make_specs(p, share, bots, stable_seed("train-value", seed, p, t), nations="shuffle"):
            s["id"] = f"self:{seed}:{p}:{t}:{s['index']}"
            specs.append(s)
    return specs


def play_record(spec: JsonDict) -> JsonDict:
    """One self-play game of a simulator spec, to its record."""
    extra = {k: spec[k] for k in ("nations", "params") if spec.get(k)}
    g = api.Game.new(api.Config(players=spec["players"], **extra), seed=spec["seed"])
    agents = [make_agent(b["kind"], stable_seed("bot", spec["seed"], seat), **b["options"])
              for seat, b in enumerate(spec["bots"])]
    logs = SeatLogs(ENGINE, agents, g.events)
    while not ENGINE.is_over(g.state):
        seat = ENGINE.acting(g.state)[0]
        agent = agents[seat]
        view = seat_view(ENGINE, g.state, seat, bool(getattr(agent, "uses_information_state", False)))
        logs.add(g.act(logs.decide(agent, seat, view, ENGINE.legal_actions(g.state, seat))))
        if len(g.record["actions"]) > MAX_ACTIONS:
            raise RuntimeError(f"game not over after {MAX_ACTIONS} actions")
    return g.record


def _self_play_positions(args: tuple[JsonDict, int]) -> Positions:
    spec, every = args
    try:
        return positions_of_record(play_record(spec), spec["id"], every, "self-play")
    except Exception as exc:
        out = Positions()
        out.errors.append(f"{spec['id']}: {type(exc).__name__}: {exc}")
        return out


def collect(games: int, players: Sequence[int] = (2, 3, 4, 5), tables: Sequence[str] = DEFAULT_TABLES,
            every: int = 5, seed: int = 0, corpus: Path | None = None, workers: int = 1,
            progress: Progress | None = None) -> Positions:
    """The training positions: the corpus's games (if `corpus` is a folder) and `games`
    self-play games."""
    data = Positions()
    if corpus is not None and corpus.is_dir():
        for gid, record in corpus_records(corpus):
            try:
                data.extend(positions_of_record(record, gid, every, "corpus"))
            except Exception as exc:
                data.errors.append(f"{gid}: {type(exc).__name__}: {exc}")
    specs = self_play_specs(games, players, tables, seed) if games else []
    jobs = [(s, every) for s in specs]
    done = 0
    if workers > 1 and len(jobs) > 1:
        with get_context("fork").Pool(workers) as pool:
            results: Iterable[Positions] = pool.imap(_self_play_positions, jobs, chunksize=8)
            for r in results:
                data.extend(r)
                done += 1
                if progress:
                    progress(done, len(jobs))
    else:
        for job in jobs:
            data.extend(_self_play_positions(job))
            done += 1
            if progress:
                progress(done, len(jobs))
    return data


# ---------------------------------------------------------------- arrays and the fit

@dataclass
class Arrays:
    x: Array            # positions x 5 seats x features (absent seats zero)
    mask: Array         # positions x 5: 1 for a seat of the game
    y: npt.NDArray[np.int64]        # the winner
    progress: Array
    players: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.y)

    def take(self, idx: npt.NDArray[np.int64]) -> Arrays:
        return Arrays(self.x[idx], self.mask[idx], self.y[idx], self.progress[idx], self.players[idx])


SEATS = 5


def arrays(data: Positions) -> Arrays:
    p, f = len(data), len(V.FEATURES)
    x = np.zeros((p, SEATS, f))
    mask = np.zeros((p, SEATS))
    for i, rows in enumerate(data.rows):
        x[i, :len(rows)] = rows
        mask[i, :len(rows)] = 1.0
    return Arrays(x, mask, np.asarray(data.winners, dtype=np.int64), np.asarray(data.progress, dtype=float),
                  mask.sum(axis=1).astype(np.int64))


def _masked_log_softmax(z: Array, mask: Array) -> Array:
    z = np.where(mask > 0, z, -1e30)
    z = z - z.max(axis=1, keepdims=True)
    return np.asarray(z - np.log(np.exp(z).sum(axis=1, keepdims=True)), dtype=float)


@dataclass
class Params:
    u: Array
    w: Array
    b: Array
    v: Array

    def flat(self) -> list[Array]:
        return [self.u, self.w, self.b, self.v]


def forward(x: Array, p: Params) -> tuple[Array, Array]:
    """(logits positions x seats, hidden activations)."""
    h = np.tanh(x @ p.w.T + p.b)
    return x @ p.u + h @ p.v, h


def fit(a: Arrays, hidden: int, l2: float, steps: int, rate: float, seed: int,
        mean: Array, scale: Array) -> Params:
    """Full-batch Adam on the mean log-loss of the winner plus l2 * |weights|^2."""
    rng = np.random.default_rng(seed)
    f = a.x.shape[2]
    xs = (a.x - mean) / scale * a.mask[:, :, None]
    p = Params(np.zeros(f), rng.normal(0.0, 0.3 / math.sqrt(f), (hidden, f)), np.zeros(hidden),
               rng.normal(0.0, 0.1, hidden))
    onehot = np.zeros_like(a.mask)
    onehot[np.arange(len(a.y)), a.y] = 1.0
    m = [np.zeros_like(t) for t in p.flat()]
    s = [np.zeros_like(t) for t in p.flat()]
    b1, b2, n = 0.9, 0.999, len(a.y)
    for t in range(1, steps + 1):
        z, h = forward(xs, p)
        dz = (np.exp(_masked_log_softmax(z, a.mask)) * a.mask - onehot) / n
        du = np.einsum("ps,psf->f", dz, xs) + 2 * l2 * p.u
        dv = np.einsum("ps,psh->h", dz, h) + 2 * l2 * p.v
        da = dz[:, :, None] * p.v * (1 - h * h)
        dw = np.einsum("psh,psf->hf", da, xs) + 2 * l2 * p.w
        db = da.sum(axis=(0, 1))
        for k, (param, g) in enumerate(zip(p.flat(), [du, dw, db, dv])):
            m[k] = b1 * m[k] + (1 - b1) * g
            s[k] = b2 * s[k] + (1 - b2) * g * g
            param -= rate * (m[k] / (1 - b1 ** t)) / (np.sqrt(s[k] / (1 - b2 ** t)) + 1e-8)
    return p


def fit_temperature(logits: Array, a: Arrays) -> float:
    """The temperature minimising the log-loss of the winner (golden-section search on log T)."""
    def loss(log_t: float) -> float:
        lp = _masked_log_softmax(logits / math.exp(log_t), a.mask)
        return float(-lp[np.arange(len(a.y)), a.y].mean())
    lo, hi = math.log(0.05), math.log(20.0)
    g = (math.sqrt(5) - 1) / 2
    c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    for _ in range(60):
        if loss(c) < loss(d):
            hi = d
        else:
            lo = c
        c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    return round(math.exp((lo + hi) / 2), 4)


# ---------------------------------------------------------------- scores

BINS = 10


def probabilities(logits: Array, a: Arrays, temperature: float = 1.0) -> Array:
    return np.exp(_masked_log_softmax(logits / temperature, a.mask)) * a.mask


def brier(p: Array, a: Arrays) -> float:
    """Multi-class Brier score: sum over the seats of (p - won)^2, mean over positions."""
    onehot = np.zeros_like(p)
    onehot[np.arange(len(a.y)), a.y] = 1.0
    return float((((p - onehot) ** 2) * a.mask).sum(axis=1).mean())


def reliability(p: Array, a: Arrays, bins: int = BINS) -> list[JsonDict]:
    """Every (position, seat) probability in `bins` equal bins of [0, 1]: how many, the mean
    predicted, and how often those seats won."""
    onehot = np.zeros_like(p)
    onehot[np.arange(len(a.y)), a.y] = 1.0
    sel = a.mask > 0
    pp, yy = p[sel], onehot[sel]
    which = np.minimum((pp * bins).astype(int), bins - 1)
    out = []
    for k in range(bins):
        s = which == k
        cnt = int(s.sum())
        out.append({"bin": f"{k / bins:.1f}-{(k + 1) / bins:.1f}", "count": cnt,
                    "predicted": round(float(pp[s].mean()), 4) if cnt else None,
                    "observed": round(float(yy[s].mean()), 4) if cnt else None})
    return out


def ece(table: list[JsonDict]) -> float:
    """Expected calibration error of a reliability table: the count-weighted mean |predicted - observed|."""
    total = sum(r["count"] for r in table)
    return float(sum(r["count"] * abs(r["predicted"] - r["observed"]) for r in table if r["count"]) / max(1, total))


def score(p: Array, a: Arrays) -> JsonDict:
    rows = np.arange(len(a.y))
    table = reliability(p, a)
    return {"brier": round(brier(p, a), 4),
            "log_loss": round(float(-np.log(np.maximum(p[rows, a.y], 1e-12)).mean()), 4),
            "accuracy": round(float((np.where(a.mask > 0, p, -1).argmax(axis=1) == a.y).mean()), 4),
            "ece": round(ece(table), 4), "reliability": table}


def by_group(p: Array, a: Arrays) -> JsonDict:
    """Brier by player count and by stage (progress thirds)."""
    out: JsonDict = {"players": {}, "stage": {}}
    for n in sorted(set(a.players.tolist())):
        idx = np.flatnonzero(a.players == n)
        out["players"][str(n)] = {"positions": len(idx), "brier": round(brier(p[idx], a.take(idx)), 4),
                                  "constant": round(1 - 1 / n, 4)}
    for name, lo, hi in (("early", 0.0, 1 / 3), ("middle", 1 / 3, 2 / 3), ("late", 2 / 3, 1.01)):
        idx = np.flatnonzero((a.progress >= lo) & (a.progress < hi))
        if len(idx):
            out["stage"][name] = {"positions": len(idx), "brier": round(brier(p[idx], a.take(idx)), 4)}
    return out


def constant_probabilities(a: Arrays) -> Array:
    return np.asarray(a.mask / a.mask.sum(axis=1, keepdims=True), dtype=float)


def handwritten_logits(a: Arrays) -> Array:
    return a.x[:, :, V.ESTIMATE] + a.x[:, :, V.FUTURE]


def held_out_report(models: dict[str, tuple[Params, float]], mean: Array, scale: Array, hw_t: float,
                ate: Arrays) -> JsonDict:
    """Every evaluation scored on the test positions: the fitted models calibrated and at T = 1,
    the hand-written evaluation at its fitted temperature and at 1, the constant 1/n."""
    test: JsonDict = {}
    for name, (p, temp) in models.items():
        z, _ = forward((ate.x - mean) / scale, p)
        test[name] = {"temperature": temp, **score(probabilities(z, ate, temp), ate),
                      "by": by_group(probabilities(z, ate, temp), ate)}
        test[name + "_uncalibrated"] = _without_table(score(probabilities(z, ate), ate))
    hw = handwritten_logits(ate)
    test["handwritten_fitted"] = {"temperature": hw_t, **score(probabilities(hw, ate, hw_t), ate),
                                  "by": by_group(probabilities(hw, ate, hw_t), ate)}
    test["handwritten_t1"] = {"temperature": 1.0, **score(probabilities(hw, ate), ate)}
    test["constant"] = _without_table(score(constant_probabilities(ate), ate))
    return test


def _without_table(scores: JsonDict) -> JsonDict:
    return {k: v for k, v in scores.items() if k != "reliability"}


# ---------------------------------------------------------------- training

def train(data: Positions, hidden: int = 8, l2: float = 1e-3, steps: int = 600, rate: float = 0.03,
          seed: int = 0, meta: JsonDict | None = None) -> tuple[V.ValueModel, JsonDict]:
    if not len(data):
        raise ValueError("no positions to train on")
    a = arrays(data)
    split = np.asarray([split_of(g) for g in data.games])
    tr, ca, te = (np.flatnonzero(split == s) for s in ("train", "calibration", "test"))
    if not len(tr) or not len(ca) or not len(te):
        raise ValueError("too few games for the train, calibration and test splits: play more games")
    atr, aca, ate = a.take(tr), a.take(ca), a.take(te)
    flat = atr.x[atr.mask > 0]
    mean, scale = flat.mean(axis=0), flat.std(axis=0)
    scale[scale < 1e-9] = 1.0
    t0 = time.perf_counter()
    models: dict[str, tuple[Params, float]] = {}
    for name, h in (("model", hidden), ("linear", 0)):
        p = fit(atr, h, l2, steps, rate, seed, mean, scale)
        z_ca, _ = forward((aca.x - mean) / scale, p)
        models[name] = (p, fit_temperature(z_ca, aca))
    seconds = time.perf_counter() - t0
    test = held_out_report(models, mean, scale, fit_temperature(handwritten_logits(aca), aca), ate)
    games = {s: len({data.games[i] for i in idx}) for s, idx in (("train", tr), ("calibration", ca), ("test", te))}
    report: JsonDict = {"positions": {"train": len(tr), "calibration": len(ca), "test": len(te)},
                        "games": games, "sources": dict(data.sources), "errors": len(data.errors),
                        "fit_seconds": round(seconds, 1), "hidden": hidden, "l2": l2, "steps": steps,
                        "rate": rate, "test": test}
    p, temp = models["model"]
    model = V.ValueModel(V.FEATURES, tuple(float(x) for x in mean), tuple(float(x) for x in scale),
                         tuple(round(float(x), 6) for x in p.u), tuple(tuple(round(float(x), 6) for x in r) for r in p.w),
                         tuple(round(float(x), 6) for x in p.b), tuple(round(float(x), 6) for x in p.v),
                         temp, {**(meta or {}), "report": report})
    return model, report


def reliability_text(report: JsonDict) -> str:
    """The report as text: the scores side by side, then the reliability tables."""
    t = report["test"]
    lines = [f"held-out test: {report['games']['test']} games, {report['positions']['test']} positions",
             "", f"{'evaluation':<34} {'Brier':>7} {'log-loss':>9} {'top won':>8} {'ECE':>7}"]
    names = {"model": "value model (calibrated)", "model_uncalibrated": "value model (T = 1)",
             "linear": "conditional logit (calibrated)", "handwritten_fitted": "hand-written (fitted T)",
             "handwritten_t1": "hand-written (T = 1, ISMCTS's)", "constant": "constant 1/n"}
    for key, label in names.items():
        s = t[key]
        temp = f" T={s['temperature']}" if "temperature" in s else ""
        lines.append(f"{label + temp:<34} {s['brier']:>7.4f} {s['log_loss']:>9.4f} {s['accuracy']:>8.1%} {s['ece']:>7.4f}")
    for key in ("model", "handwritten_fitted"):
        lines += ["", f"reliability: {names[key]}", f"{'bin':<9} {'count':>7} {'predicted':>10} {'observed':>9}"]
        for r in t[key]["reliability"]:
            pred = "" if r["predicted"] is None else f"{r['predicted']:.3f}"
            obs = "" if r["observed"] is None else f"{r['observed']:.3f}"
            lines.append(f"{r['bin']:<9} {r['count']:>7} {pred:>10} {obs:>9}")
    lines += ["", "Brier by player count (value model / hand-written fitted / constant):"]
    for n, s in t["model"]["by"]["players"].items():
        hw = t["handwritten_fitted"]["by"]["players"][n]["brier"]
        lines.append(f"  {n} players: {s['brier']:.4f} / {hw:.4f} / {s['constant']:.4f} ({s['positions']} positions)")
    lines.append("Brier by stage (value model / hand-written fitted):")
    for n, s in t["model"]["by"]["stage"].items():
        hw = t["handwritten_fitted"]["by"]["stage"][n]["brier"]
        lines.append(f"  {n}: {s['brier']:.4f} / {hw:.4f} ({s['positions']} positions)")
    return "\n".join(lines)


def plot_reliability(report: JsonDict, path: Path) -> bool:
    """The reliability diagram as a PNG (matplotlib, if installed); False without it."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], color="grey", linestyle=":", label="perfect")
    for key, label in (("model", "value model"), ("handwritten_fitted", "hand-written, fitted T")):
        rows = [r for r in report["test"][key]["reliability"] if r["count"]]
        ax.plot([r["predicted"] for r in rows], [r["observed"] for r in rows], marker="o",
                label=f"{label} (Brier {report['test'][key]['brier']:.3f})")
    ax.set_xlabel("predicted win probability")
    ax.set_ylabel("observed win frequency")
    ax.set_title(f"Reliability on {report['games']['test']} held-out games")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True
