"""A learned evaluation of a position: which seat will win, from public facts only.

The model is a conditional logit (a softmax over the seats of a linear score):
P(seat i wins) = exp(w . x_i) / sum_j exp(w . x_j), where x_i are seat i's features below,
standardised. It is the hand-written evaluation's shape (a softmax of score estimates,
bots/features.py) with its weights learned from the outcomes of simulated games:
- the softmax over seats fits any player count and is unchanged by adding the same number
  to every seat, as a position's value should be;
- inference is a dot product of a few dozen numbers per seat in pure Python, a few
  microseconds, cheap enough for every ISMCTS cut-off;
- its weights read as feature importances (docs/bots.md).
Training is sim/train_eval.py (`paxh train-eval`); the shipped weights are
data/learned_eval.json, with the command and seed that reproduce them.

Every feature reads the engine's public summary (api.summary) or a view's public parts,
so evaluating a sampled state reveals nothing a seat could not see.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..engine.vocab import YEARS, Legality
from .features import CARGO_DISCOUNT, chest_prestige, future_prestige, legality_worth, scores_from_public


# a seat's own facts; each also enters multiplied by the game's progress (0 at the start,
# 1 at the end), so that money or an income card can weigh differently early and late
BASE_FEATURES = ("prestige", "money", "colony_prestige", "income", "hand", "extra_ships", "tableau",
                 "chests_aboard", "cargo_worth", "in_europe",
                 "legality_conquistador", "legality_privateer", "legality_smuggler", "legality_plunder",
                 "estimate", "future", "turn_position")
FEATURES = BASE_FEATURES + tuple(f"{f}_x_progress" for f in BASE_FEATURES) + ("lead",)
# the legalities in the order of their features (the shipped weights' columns)
LEGALITIES = tuple(Legality(f.removeprefix("legality_").upper()) for f in BASE_FEATURES if f.startswith("legality_"))


def progress(summary: dict[str, Any], cycles: int) -> float:
    """How far the game is, 0..1: cycles done plus the Year's share of the cycle (CYC-1)."""
    cycle = int(summary.get("cycle") or 1)
    year = summary.get("year")
    y = YEARS.index(year) if year in YEARS else 0
    return min(1.0, max(0.0, ((cycle - 1) + y / len(YEARS)) / max(1, cycles)))


def seat_features(summary: dict[str, Any], rs: Any, chest: dict[str, Any] | None = None,
                  worth: dict[str, Any] | None = None) -> list[list[float]]:
    """One feature vector per seat, in FEATURES order, from the public summary."""
    chest = chest or chest_prestige(rs)
    worth = worth or legality_worth(rs)
    players = summary.get("players") or []
    n = len(players)
    estimates = scores_from_public(summary, chest, rs.money_per_prestige)
    future = future_prestige(summary, rs, worth)
    order = list(summary.get("order") or range(n))
    t = progress(summary, rs.cycles)
    mpp = rs.money_per_prestige
    rows = []
    for i, p in enumerate(players):
        fleet = p.get("fleet") or {}
        cargo = fleet.get("cargo") or []
        chests = sum(1 for c in cargo if c == "chest")
        legality = fleet.get("legality")
        hand = p.get("hand_count", p.get("hand"))
        hand = len(hand) if isinstance(hand, list) else (hand or 0)
        seat = p.get("seat", i)
        base = [float(p.get("prestige") or 0), (p.get("money") or 0) / mpp, float(p.get("colony_prestige") or 0),
                float(p.get("income") or 0), float(hand), float(max(0, (fleet.get("ships") or 1) - 1)),
                float(len(p.get("tableau") or [])), float(chests),
                chests * chest.get(legality, 1.0) * CARGO_DISCOUNT,  # type: ignore[arg-type]  # None: 1
                1.0 if fleet.get("zone") == "europe" else 0.0,
                *(1.0 if legality == leg else 0.0 for leg in LEGALITIES),
                estimates[i], future[i] if i < len(future) else 0.0,
                (order.index(seat) / max(1, n - 1)) if seat in order else 0.0]
        rows.append(base + [b * t for b in base])
    total = [e + f for e, f in zip(estimates, future)]
    for i, row in enumerate(rows):
        others = [x for j, x in enumerate(total) if j != i]
        row.append(total[i] - (max(others) if others else 0.0))
    return rows


@dataclass(frozen=True)
class LearnedEvaluation:
    """Weights of the conditional logit over FEATURES, with the standardisation used in training."""
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    meta: dict[str, Any]

    def __post_init__(self) -> None:
        if self.features != FEATURES:
            raise ValueError("learned evaluation: the weights file's features are not this code's "
                             f"({len(self.features)} vs {len(FEATURES)}); retrain with `paxh train-eval`")
        if not (len(self.mean) == len(self.scale) == len(self.weights) == len(FEATURES)):
            raise ValueError("learned evaluation: mean, scale and weights must have one number per feature")

    def logits(self, rows: list[list[float]]) -> list[float]:
        w, m, s = self.weights, self.mean, self.scale
        return [math.fsum(wk * (x - mk) / sk for wk, x, mk, sk in zip(w, row, m, s)) for row in rows]

    def values(self, summary: dict[str, Any], rs: Any, chest: dict[str, Any] | None = None, worth: dict[str, Any] | None = None,
               temperature: float = 1.0) -> list[float]:
        """Each seat's probability of winning, summing to 1: softmax(logits / temperature),
        so temperature 1 is the fitted model and a smaller one sharpens it."""
        z = self.logits(seat_features(summary, rs, chest, worth))
        if not z:
            return []
        if temperature != 1.0:
            t = max(float(temperature), 1e-6)
            z = [v / t for v in z]
        top = max(z)
        ex = [math.exp(v - top) for v in z]
        total = sum(ex)
        return [e / total for e in ex]

    def importances(self) -> list[tuple[str, float]]:
        """|weight| per standardised feature, largest first: how much one standard deviation
        of the feature moves a seat's log-odds of winning."""
        return sorted(zip(self.features, (abs(w) for w in self.weights)), key=lambda kv: -kv[1])

    def to_json(self) -> dict[str, Any]:
        return {"model": "conditional-logit", "features": list(self.features), "mean": list(self.mean),
                "scale": list(self.scale), "weights": list(self.weights), "meta": self.meta}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LearnedEvaluation:
        if data.get("model") != "conditional-logit":
            raise ValueError(f"learned evaluation: unknown model {data.get('model')!r}")
        return cls(tuple(data["features"]), tuple(map(float, data["mean"])), tuple(map(float, data["scale"])),
                   tuple(map(float, data["weights"])), dict(data.get("meta") or {}))


SHIPPED = "learned_eval.json"
_cache: dict[str, LearnedEvaluation] = {}


def load(path: str | Path | None = None) -> LearnedEvaluation:
    """The shipped weights (data/learned_eval.json), or a file `paxh train-eval` wrote."""
    key = str(path) if path else SHIPPED
    model = _cache.get(key)
    if model is None:
        if path:
            data = json.loads(Path(path).read_text())
        else:
            data = json.loads(resources.files("pax_hispanica").joinpath("data", SHIPPED).read_text())
        model = _cache[key] = LearnedEvaluation.from_json(data)
    return model
