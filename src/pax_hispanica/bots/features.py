"""Reading a position: estimated final scores, used by the heuristic bot and to
score ISMCTS playouts that are cut short.

Everything here reads public information only (the spectator view or the
engine's public summary), so it can be applied to a bot's own view too.
"""
from __future__ import annotations

import math
from typing import Any


def score_estimates(api: Any, state: Any) -> list[float]:
    """Each seat's estimated final score for a (possibly sampled) state."""
    summ = api.summary(state)
    return scores_from_public(summ if isinstance(summ, dict) else {})


def scores_from_public(data: dict) -> list[float]:
    """Estimated final scores from a public dict (summary or view)."""
    if "players" in data and isinstance(data["players"], list) and data["players"] \
            and isinstance(data["players"][0], dict):
        out = []
        rules = data.get("rules") or {}
        mpp = rules.get("money_per_prestige", 5) or 5
        for p in data["players"]:
            prestige = p.get("prestige", p.get("score", 0)) or 0
            money = p.get("money", 0) or 0
            colonies = p.get("colonies", 0)
            if isinstance(colonies, list):
                colonies = len(colonies)
            cargo = p.get("chests_carried", 0) or 0
            out.append(float(prestige) + money / mpp + float(colonies or 0) + 0.5 * cargo)
        return out
    if "scores" in data:
        return [float(x) for x in data["scores"]]
    if "prestige" in data:
        money = data.get("money") or [0] * len(data["prestige"])
        return [float(p) + m / 5 for p, m in zip(data["prestige"], money)]
    raise ValueError("cannot read scores from the public data: keys " + ", ".join(sorted(data)))


def softmax_values(scores: list[float], temperature: float = 3.0) -> list[float]:
    """Turn score estimates into win-probability-like values summing to 1."""
    if not scores:
        return []
    t = max(temperature, 1e-6)
    top = max(scores)
    ex = [math.exp((s - top) / t) for s in scores]
    total = sum(ex)
    return [e / total for e in ex]
