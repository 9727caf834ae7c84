"""Reading a position: estimated final scores, used by the heuristic bot and to
score ISMCTS playouts that are cut short.

Everything here reads public information only (the spectator view or the
engine's public summary), so it can be applied to a bot's own view too.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ..contract import Sampling

from ..engine.vocab import CONQUISTADOR, PLUNDER, PRIVATEER, SMUGGLER


def score_estimates(api: Sampling[Any], state: Any, chest: dict[str, Any] | None = None,
                    money_per_prestige: float | None = None) -> list[float]:
    """Each seat's estimated final score for a (possibly sampled) state."""
    summ = api.summary(state)
    return scores_from_public(summ if isinstance(summ, dict) else {}, chest, money_per_prestige)


@lru_cache(maxsize=1)
def _reference() -> Any:
    """The reference ruleset, for callers that do not say which ruleset they read."""
    from .. import api
    return api.load_ruleset("reference")


def reference_chest_prestige() -> dict[str, float]:
    """Prestige a Chest aboard is worth once unloaded in Europe under the reference ruleset
    (TRS-5 with its numbers, money at its `money_per_prestige`); `chest_prestige(ruleset)`
    computes it for any ruleset or variant."""
    return chest_prestige(_reference())


def chest_prestige(rs: Any) -> dict[str, float]:
    """TRS-5 per Chest unloaded in Europe, in Prestige ($ at `money_per_prestige`)."""
    mpp = rs.money_per_prestige
    return {CONQUISTADOR: float(rs.conquistador_prestige),
            PRIVATEER: rs.privateer_prestige + rs.privateer_money / mpp,
            SMUGGLER: rs.smuggler_money / mpp,
            PLUNDER: rs.plunder_money / mpp + 1 / rs.plunder_chests_per_prestige}
# $ per cycle left of sailing under each legality, tuned with TRS-5's numbers (whose Chest
# values are TRS_5_CHEST); `legality_worth` rescales them by the ruleset's own Chest values, so
# that a bot follows a variant (PRJ-31) or PRJ-32 when it weighs legalities.
LEGALITY_WORTH = {CONQUISTADOR: 3.0, PRIVATEER: 2.5, SMUGGLER: 2.0, PLUNDER: 2.0}
TRS_5_CHEST = {CONQUISTADOR: 2.0, PRIVATEER: 1.2, SMUGGLER: 0.6, PLUNDER: 0.9}


def legality_worth(rs: Any) -> dict[str, float]:
    chest = chest_prestige(rs)
    return {leg: w * chest[leg] / TRS_5_CHEST[leg] for leg, w in LEGALITY_WORTH.items()}


def future_prestige(data: dict[str, Any], rs: Any, worth: dict[str, float] | None = None) -> list[float]:
    """What each seat's lasting assets will still earn, in Prestige: Goods Year
    earnings (GDS-7: card income and its colonies' earnings) and the worth of
    its legality, for the cycles left (this one counted half).  Without it a
    search that looks a few decisions ahead sees an income card, a Patente or
    a colony as money spent and nothing gained."""
    left = max(0, rs.cycles - int(data.get("cycle", rs.cycles))) + 0.5
    worth = worth or legality_worth(rs)
    out = []
    for p in data.get("players") or []:
        earnings = (p.get("income", 0) or 0) + (p.get("colony_prestige", 0) or 0) * rs.colony_income
        legality = worth.get((p.get("fleet") or {}).get("legality"), 0.0)  # type: ignore[arg-type]  # None: no fleet, worth 0
        out.append((earnings + legality) * left / rs.money_per_prestige)
    return out


CARGO_DISCOUNT = 0.7
SHIP_PRESTIGE = 0.4
HAND_PRESTIGE = 0.2
# eval=worth (ISMCTS): the share of a card's worth (hand_card_worth) counted while it is in hand;
# below 1, because a card in hand may yet go unplayed (its conditions, money, the game's end)
HAND_WORTH_SHARE = 0.8


def hand_card_worth(heuristic: Any, rs: Any, ruleset_of_view: dict[str, Any], card: str, legality: str,
                    ships: int, cycle: int) -> float:
    """What a card in hand will bring its holder, in Prestige, before `HAND_WORTH_SHARE`: the
    heuristic's flat value of the card for a fleet of this legality and size with the cycles left
    (HeuristicAgent.card_value with now=False, what its bids read) less the card's cost to play
    (CARD-1), never below nothing, at the ruleset's `money_per_prestige`. A flat figure per card
    would price a Grandeza and a Galleon alike, and a search would sell the one to keep money."""
    view = dict(ruleset_of_view, cycle=cycle)
    me = {"seat": None, "fleet": {"legality": legality, "ships": ships}}
    flat = float(heuristic.card_value(view, me, card, now=False))
    cost = float(rs.cards[card].cost)
    return max(0.0, flat - cost) / float(rs.money_per_prestige)


def scores_from_public(data: dict[str, Any], chest: dict[str, Any] | None = None,
                       money_per_prestige: float | None = None) -> list[float]:
    """Estimated final scores from a public dict (the engine's summary or a
    view): Prestige + money / `money_per_prestige` (CYC-3: the ruleset's rate,
    $6 in the reference since PRJ-36) + what the colonies would score (CYC-3; the
    King's colonies score nothing, PRJ-30) + Chests aboard (`chest`: Prestige per
    Chest by legality, `chest_prestige(ruleset)`).  Without the two, the reference
    ruleset's are used; a bot passes its game's ruleset's, so that a variant
    (PRJ-31) is read at its own rate."""
    chest = chest or reference_chest_prestige()
    mpp = float(money_per_prestige or _reference().money_per_prestige)
    players = data.get("players")
    if isinstance(players, list) and players and isinstance(players[0], dict):
        owned: dict[str, Any] = {}
        for c in data.get("colonies") or []:
            owned[c.get("owner")] = owned.get(c.get("owner"), 0) + 1
        out = []
        for p in players:
            prestige = p.get("prestige", 0) or 0
            money = p.get("money", 0) or 0
            colonies = p.get("colony_prestige")      # CYC-3 as the engine scores it (PRJ-30)
            if colonies is None:
                colonies = p.get("colonies")
                colonies = len(colonies) if isinstance(colonies, list) else owned.get(p.get("seat"), 0)
            fleet = p.get("fleet") or {}
            chests = sum(1 for x in fleet.get("cargo") or [] if x == "chest")
            cargo = chests * chest.get(fleet.get("legality"), 1.0) * CARGO_DISCOUNT  # type: ignore[arg-type]  # None: 1
            # assets that turn into Prestige later: extra Galleons, cards in hand
            ships = max(0, (fleet.get("ships") or 1) - 1) * SHIP_PRESTIGE
            hand = p.get("hand_count", p.get("hand"))
            hand = len(hand) if isinstance(hand, list) else (hand or 0)
            out.append(float(prestige) + money / mpp + float(colonies) + cargo + ships + HAND_PRESTIGE * hand)
        return out
    if "scores" in data:
        return [float(x) for x in data["scores"]]
    raise ValueError("cannot read scores from the public data: keys " + ", ".join(sorted(data)))


def final_totals(result: Mapping[str, Any], money_per_prestige: float) -> list[float]:
    """Each seat's final Prestige plus its money at the ruleset's rate (CYC-3's score and its
    tie-break in one number), from api.result of a finished game."""
    mpp = float(money_per_prestige)
    return [float(p) + m / mpp for p, m in zip(result.get("scores") or [], result.get("money") or [])]


def softmax_values(scores: list[float], temperature: float = 3.0) -> list[float]:
    """Turn score estimates into win-probability-like values summing to 1."""
    if not scores:
        return []
    t = max(temperature, 1e-6)
    top = max(scores)
    ex = [math.exp((s - top) / t) for s in scores]
    total = sum(ex)
    return [e / total for e in ex]
