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


# Prestige a Chest aboard is worth once unloaded in Europe (TRS-5 defaults,
# money at $5 per Prestige), discounted because it is not home yet.
CHEST_PRESTIGE = {"CONQUISTADOR": 2.0, "PRIVATEER": 1.2, "SMUGGLER": 0.6, "PLUNDER": 0.9}
CARGO_DISCOUNT = 0.7
SHIP_PRESTIGE = 0.4
HAND_PRESTIGE = 0.2


def scores_from_public(data: dict) -> list[float]:
    """Estimated final scores from a public dict (the engine's summary or a
    view): Prestige + money / $5 + 1 per colony (CYC-3) + Chests aboard."""
    players = data.get("players")
    if isinstance(players, list) and players and isinstance(players[0], dict):
        owned: dict = {}
        for c in data.get("colonies") or []:
            owned[c.get("owner")] = owned.get(c.get("owner"), 0) + 1
        out = []
        for p in players:
            prestige = p.get("prestige", 0) or 0
            money = p.get("money", 0) or 0
            colonies = p.get("colonies")
            if isinstance(colonies, list):
                colonies = len(colonies)
            elif colonies is None:
                colonies = owned.get(p.get("seat"), 0)
            fleet = p.get("fleet") or {}
            chests = sum(1 for x in fleet.get("cargo") or [] if x == "chest")
            cargo = chests * CHEST_PRESTIGE.get(fleet.get("legality"), 1.0) * CARGO_DISCOUNT
            # assets that turn into Prestige later: extra Galleons, cards in hand
            ships = max(0, (fleet.get("ships") or 1) - 1) * SHIP_PRESTIGE
            hand = p.get("hand_count", p.get("hand"))
            hand = len(hand) if isinstance(hand, list) else (hand or 0)
            out.append(float(prestige) + money / 5 + float(colonies) + cargo + ships + HAND_PRESTIGE * hand)
        return out
    if "scores" in data:
        return [float(x) for x in data["scores"]]
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
