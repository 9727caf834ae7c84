"""A win probability for every position: each seat's chance of winning, from one seat's view.

`win_probabilities(view)` reads a view (`api.view(state, seat)`, a seat's information state, or
the spectator's) and returns one probability per seat, summing to 1. Only the view's public
facts enter (Prestige, money, colonies, fleets, cargo, tableaux, hand sizes, the Year), so a
seat's view and the spectator's give the same numbers and nothing hidden can leak through it.

The model (`ValueModel`) scores each seat with the same small function of that seat's features,
a linear term plus a one-hidden-layer tanh network, and takes the softmax over the seats:

    logit_i = u . x_i + v . tanh(W x_i + b),   P(i wins) = exp(logit_i / T) / sum_j exp(logit_j / T)

with x_i seat i's standardised features (FEATURES), and T a temperature fitted on held-out
games (temperature scaling: the calibration step). The softmax over the seats fits every
player count and is unchanged when every seat gains the same. With no hidden units it is the
conditional logit of bots/learned.py, on more features. Inference is pure Python (no numpy),
so the web server and the CLI need no extra; training is analysis/train.py (`paxh
train-value`), and the shipped weights are data/value_model.json with the command and seed that
made them.

`handwritten_probabilities(view, temperature)` is the hand-written evaluation the bots use at
ISMCTS's cut-offs (bots/features.py: estimated final score plus future earnings), turned into
probabilities by a softmax with a temperature; the report compares the two on the same games.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from collections.abc import Mapping, Sequence

from .. import api
from ..bots.features import CARGO_DISCOUNT, chest_prestige, future_prestige, legality_worth, scores_from_public

_np: Any
try:                    # numpy (the sim and rl extras) makes inference faster; without it, pure Python
    import numpy
    _np = numpy
except ImportError:     # pragma: no cover - the web extra alone
    _np = None

JsonDict = dict[str, Any]

LEGALITIES = ("CONQUISTADOR", "PRIVATEER", "SMUGGLER", "PLUNDER")
YEARS = ("goods", "auction", "play", "sail")           # CYC-1

# a seat's own facts; each also enters multiplied by the game's progress (0 at the start, 1 at
# the end), so that money, an income card or cargo at sea can weigh differently early and late
BASE_FEATURES = (
    "prestige", "money", "colony_prestige", "income", "hand", "extra_ships", "tableau",
    "chests_aboard", "cargo_worth", "meeples_aboard", "in_europe",
    "legality_conquistador", "legality_privateer", "legality_smuggler", "legality_plunder",
    "colonies", "colony_chests", "forts", "havens",
    "estimate", "future", "turn_position", "estimate_lead", "prestige_lead",
)
FEATURES = BASE_FEATURES + tuple(f"{f}_x_progress" for f in BASE_FEATURES)

SHIPPED = "value_model.json"
MODEL_KIND = "seat-softmax-mlp"


def progress(view: Mapping[str, Any], cycles: int) -> float:
    """How far the game is, 0..1: cycles done plus the Year's share of the cycle (CYC-1)."""
    if view.get("over"):
        return 1.0
    cycle = int(view.get("cycle") or 1)
    year = view.get("year")
    y = YEARS.index(year) if year in YEARS else 0
    return min(1.0, max(0.0, ((cycle - 1) + y / len(YEARS)) / max(1, cycles)))


def view_progress(view: Mapping[str, Any]) -> float:
    """`progress` of a view, with its ruleset's number of cycles (CYC-2)."""
    return progress(view, _ruleset_tables(view).cycles)


@dataclass(frozen=True)
class _Tables:
    """What the features read of a ruleset, worked out once per ruleset."""
    mpp: float
    cycles: int
    chest: dict[str, float]
    worth: dict[str, float]
    rs: Any


_tables: dict[tuple[str, str, str], _Tables] = {}


def _ruleset_tables(view: Mapping[str, Any]) -> _Tables:
    key = (str(view.get("ruleset_version")), str(view.get("ruleset", "reference")),
           json.dumps(view.get("ruleset_params") or {}, sort_keys=True))
    t = _tables.get(key)
    if t is None:
        rs = api.view_ruleset(dict(view))
        t = _tables[key] = _Tables(float(rs.money_per_prestige), int(rs.cycles), chest_prestige(rs),
                                   legality_worth(rs), rs)
    return t


def seat_features(view: Mapping[str, Any]) -> list[list[float]]:
    """One feature vector per seat (seat order), in FEATURES order, from the view's public facts."""
    t = _ruleset_tables(view)
    data = dict(view)
    players: list[JsonDict] = list(view.get("players") or [])
    n = len(players)
    estimates = scores_from_public(data, t.chest, t.mpp)
    future = future_prestige(data, t.rs, t.worth) + [0.0] * n
    order = list(view.get("order") or range(n))
    prog = progress(view, t.cycles)
    owned = _owned(view, n)
    totals = [e + f for e, f in zip(estimates, future)]
    prestige = [float(p.get("prestige") or 0) for p in players]
    rows: list[list[float]] = []
    for i, p in enumerate(players):
        seat = int(p.get("seat", i))
        base = [*_own_facts(p, t), *owned[i], float(len(p.get("havens") or [])), estimates[i], future[i],
                (order.index(seat) / max(1, n - 1)) if seat in order else 0.0,
                totals[i] - _best_other(totals, i), prestige[i] - _best_other(prestige, i)]
        rows.append(base + [b * prog for b in base])
    return rows


def _best_other(xs: Sequence[float], i: int) -> float:
    others = [x for j, x in enumerate(xs) if j != i]
    return max(others) if others else 0.0


def _owned(view: Mapping[str, Any], n: int) -> list[tuple[float, float, float]]:
    """Per seat: colonies owned, the Chests waiting on them, their forts."""
    out = [[0.0, 0.0, 0.0] for _ in range(n)]
    for c in view.get("colonies") or []:
        owner = c.get("owner")
        if isinstance(owner, int) and 0 <= owner < n:
            out[owner][0] += 1.0
            out[owner][1] += float(c.get("chests") or 0)
            out[owner][2] += 1.0 if c.get("fort") else 0.0
    return [(a, b, c) for a, b, c in out]


def _own_facts(p: Mapping[str, Any], t: _Tables) -> list[float]:
    """A player's own facts, FEATURES from prestige to the legality's one-hot."""
    fleet = p.get("fleet") or {}
    cargo = list(fleet.get("cargo") or [])
    chests = sum(1 for c in cargo if c == "chest")
    legality = fleet.get("legality")
    hand = p.get("hand_count", p.get("hand"))
    hand_n = len(hand) if isinstance(hand, list) else int(hand or 0)
    return [float(p.get("prestige") or 0), float(p.get("money") or 0) / t.mpp, float(p.get("colony_prestige") or 0),
            float(p.get("income") or 0), float(hand_n), float(max(0, int(fleet.get("ships") or 1) - 1)),
            float(len(p.get("tableau") or [])), float(chests),
            chests * t.chest.get(str(legality), 1.0) * CARGO_DISCOUNT, float(len(cargo) - chests),
            1.0 if fleet.get("zone") == "europe" else 0.0,
            *(1.0 if legality == leg else 0.0 for leg in LEGALITIES)]


def softmax(z: Sequence[float], temperature: float = 1.0) -> list[float]:
    if not z:
        return []
    t = max(float(temperature), 1e-6)
    top = max(z)
    ex = [math.exp((v - top) / t) for v in z]
    total = sum(ex)
    return [e / total for e in ex]


def final_probabilities(view: Mapping[str, Any]) -> list[float] | None:
    """At the end the winner is known: 1 for the winner, 0 for the others; None before."""
    result = view.get("result")
    if view.get("over") and isinstance(result, dict) and isinstance(result.get("winner"), int):
        n = len(view.get("players") or [])
        return [1.0 if s == result["winner"] else 0.0 for s in range(n)]
    return None


@dataclass(frozen=True)
class ValueModel:
    """The fitted model: standardisation, linear and hidden-layer weights, and the calibrated
    temperature. `meta` holds the command, seed and held-out report that made it."""
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    linear: tuple[float, ...]                       # u, one per feature
    hidden: tuple[tuple[float, ...], ...]           # W, hidden x features
    hidden_bias: tuple[float, ...]                  # b
    out: tuple[float, ...]                          # v, one per hidden unit
    temperature: float = 1.0
    meta: JsonDict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.features != FEATURES:
            raise ValueError("value model: the weights file's features are not this code's "
                             f"({len(self.features)} vs {len(FEATURES)}); retrain with `paxh train-value`")
        k = len(FEATURES)
        if not (len(self.mean) == len(self.scale) == len(self.linear) == k):
            raise ValueError("value model: mean, scale and linear weights need one number per feature")
        if len(self.hidden) != len(self.hidden_bias) or len(self.hidden) != len(self.out) \
                or any(len(r) != k for r in self.hidden):
            raise ValueError("value model: the hidden layer's shapes do not match")
        # the standardisation folded into the weights, once: (x - m) / s . w == x . (w / s) - m . (w / s)
        object.__setattr__(self, "_lin", _fold(self.linear, self.mean, self.scale))
        object.__setattr__(self, "_hid", tuple(_fold(r, self.mean, self.scale) for r in self.hidden))
        if _np is not None:
            lw, lc = self._lin          # type: ignore[attr-defined]
            hid = self._hid             # type: ignore[attr-defined]
            hw = _np.asarray([w for w, _c in hid], dtype=float).reshape(len(hid), len(FEATURES)).T
            hc = _np.asarray([c for _w, c in hid], dtype=float) + _np.asarray(self.hidden_bias, dtype=float)
            object.__setattr__(self, "_arrays", (_np.asarray(lw, dtype=float), lc, hw, hc))
            object.__setattr__(self, "_out_arr", _np.asarray(self.out, dtype=float))

    def logits(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """Each seat's score before the temperature (numpy when installed, else pure Python:
        the same numbers to rounding)."""
        if _np is not None:
            x = _np.asarray(rows, dtype=float)
            lw, lc, hw, hc = self._arrays      # type: ignore[attr-defined]
            z = x @ lw + lc + _np.tanh(x @ hw + hc) @ self._out_arr  # type: ignore[attr-defined]
            return [float(v) for v in z]
        return self.logits_pure(rows)

    def logits_pure(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """`logits` without numpy."""
        lin_w, lin_c = self._lin        # type: ignore[attr-defined]
        hid = self._hid                 # type: ignore[attr-defined]
        out = []
        for x in rows:
            z = math.fsum(w * v for w, v in zip(lin_w, x)) + lin_c
            for (hw, hc), b, v in zip(hid, self.hidden_bias, self.out):
                z += v * math.tanh(sum(w * xv for w, xv in zip(hw, x)) + hc + b)
            out.append(z)
        return out

    def probabilities(self, view: Mapping[str, Any]) -> list[float]:
        """Each seat's chance of winning from this view, summing to 1 (the winner's 1 at the end)."""
        final = final_probabilities(view)
        if final is not None:
            return final
        return self.probabilities_of_rows(seat_features(view))

    def probabilities_of_rows(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """The probabilities of `seat_features` rows (calibrated: the fitted temperature)."""
        return softmax(self.logits(rows), self.temperature)

    def to_json(self) -> JsonDict:
        return {"model": MODEL_KIND, "features": list(self.features), "mean": list(self.mean),
                "scale": list(self.scale), "linear": list(self.linear),
                "hidden": [list(r) for r in self.hidden], "hidden_bias": list(self.hidden_bias),
                "out": list(self.out), "temperature": self.temperature, "meta": self.meta}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ValueModel:
        if data.get("model") != MODEL_KIND:
            raise ValueError(f"value model: unknown model {data.get('model')!r}")
        return cls(tuple(data["features"]), _floats(data["mean"]), _floats(data["scale"]), _floats(data["linear"]),
                   tuple(_floats(r) for r in data["hidden"]), _floats(data["hidden_bias"]), _floats(data["out"]),
                   float(data.get("temperature", 1.0)), dict(data.get("meta") or {}))


def _floats(xs: Sequence[Any]) -> tuple[float, ...]:
    return tuple(float(x) for x in xs)


def _fold(w: Sequence[float], mean: Sequence[float], scale: Sequence[float]) -> tuple[tuple[float, ...], float]:
    ws = tuple(wk / sk for wk, sk in zip(w, scale))
    return ws, -math.fsum(wk * mk for wk, mk in zip(ws, mean))


_cache: dict[str, ValueModel] = {}


def load(path: str | Path | None = None) -> ValueModel:
    """The shipped model (data/value_model.json), or a file `paxh train-value` wrote."""
    key = str(path) if path else SHIPPED
    model = _cache.get(key)
    if model is None:
        if path:
            text = Path(path).read_text()
        else:
            text = resources.files("pax_hispanica").joinpath("data", SHIPPED).read_text()
        model = _cache[key] = ValueModel.from_json(json.loads(text))
    return model


def win_probabilities(view: Mapping[str, Any], model: ValueModel | None = None) -> list[float]:
    """Each seat's chance of winning (seat order, summing to 1) from `view`: a seat's view
    (`api.view(state, seat)`) or the spectator's. The shipped model unless one is given."""
    return (model or load()).probabilities(view)


# ISMCTS's cut-off evaluation (bots/ismcts.py) is softmax((estimate + future) / temperature);
# the index of the two in FEATURES, for the trainer's comparison
ESTIMATE, FUTURE = FEATURES.index("estimate"), FEATURES.index("future")


def handwritten_scores(view: Mapping[str, Any]) -> list[float]:
    """The hand-written evaluation's score per seat: estimated final score plus future earnings."""
    rows = seat_features(view)
    return [r[ESTIMATE] + r[FUTURE] for r in rows]


def handwritten_probabilities(view: Mapping[str, Any], temperature: float = 1.0) -> list[float]:
    """The hand-written evaluation as probabilities: softmax(scores / temperature)."""
    final = final_probabilities(view)
    if final is not None:
        return final
    return softmax(handwritten_scores(view), temperature)
