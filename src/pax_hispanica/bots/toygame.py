"""A tiny game with the same API surface as ``pax_hispanica.api`` (docs/api.md),
for testing bots and the simulator without the full engine:
sealed bids, secret hands, a hidden deck.  The bot and simulator tests use it
where the real engine would make them slow or where a hand-checkable game is
needed; the real engine is exercised by the other tests.

Rules: N players, $5 each, a secret hand of 2 cards (values 1..5).  Each of
ROUNDS rounds a lot (a card, face up) is auctioned with sealed bids 0..money;
highest bid wins (ties: lowest seat), pays the Pool and scores the lot's value.
Then each player in seat order may play one hand card (scoring its value) or
pass.  Score = points + money // 2; ties broken by seat (lowest wins).
"""
from __future__ import annotations

from copy import deepcopy
import random
from dataclasses import dataclass, field
from typing import Any

ROUNDS = 4
SEALED_ACTION_TYPES = frozenset({"bid"})     # the toy's bids are simultaneous and secret (as api's)
DECK = [v for v in range(1, 6) for _ in range(4)]


class IllegalAction(Exception):
    def __init__(self, code: str, rule: str, message: str) -> None:
        super().__init__(message)
        self.code, self.rule, self.message = code, rule, message


@dataclass
class Config:
    players: int = 4
    nations: Any = None
    ruleset: str = "toy"
    options: dict[str, Any] = field(default_factory=dict)


def new_game(config: Config, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    deck = DECK[:]
    rng.shuffle(deck)
    n = config.players
    hands = [[deck.pop(), deck.pop()] for _ in range(n)]
    return {"n": n, "round": 0, "phase": "bid", "lot": deck.pop(), "deck": deck,
            "hands": hands, "money": [5] * n, "points": [0] * n, "bids": {},
            "turn": 0, "played": [], "over": False}


def acting(s: dict[str, Any]) -> tuple[Any, ...]:
    if s["over"]:
        return ()
    if s["phase"] == "bid":
        return tuple(p for p in range(s["n"]) if p not in s["bids"])
    return (s["turn"],)


def legal_actions(s: dict[str, Any], seat: int) -> list[Any]:
    if seat not in acting(s):
        return []
    if s["phase"] == "bid":
        return [{"kind": "range", "decision": "bid", "rule": "TOY-1",
                 "action": {"seat": seat, "type": "bid"}, "field": "amount",
                 "min": 0, "max": s["money"][seat]}]
    opts = [{"seat": seat, "type": "play", "card": c} for c in sorted(set(s["hands"][seat]))]
    opts.append({"seat": seat, "type": "pass"})
    return [{"kind": "choice", "decision": "play", "rule": "TOY-2", "options": opts}]


def expand(descriptors: list[Any]) -> list[Any]:
    out: list[Any] = []
    for d in descriptors:
        if d["kind"] == "choice":
            out.extend(dict(o) for o in d["options"])
        else:
            for v in range(d["min"], d["max"] + 1):
                a = dict(d["action"])
                a[d["field"]] = v
                out.append(a)
    return out


def apply(s: dict[str, Any], action: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    seat: Any = action.get("seat")
    if seat not in acting(s):
        raise IllegalAction("not_your_turn", "TOY-0", "not your turn")
    if action not in expand(legal_actions(s, seat)):
        raise IllegalAction("not_legal", "TOY-0", f"not legal: {action}")
    s = deepcopy(s)
    events = []
    if action["type"] == "bid":
        s["bids"][seat] = action["amount"]
        events.append({"type": "ChoiceCommitted", "seat": seat, "to": None})
        if len(s["bids"]) == s["n"]:
            best = max(s["bids"].values())
            win = min(p for p, b in s["bids"].items() if b == best)
            s["money"][win] -= best
            s["points"][win] += s["lot"]
            events.append({"type": "BidsRevealed", "bids": dict(s["bids"]), "winner": win, "to": None})
            s["bids"] = {}
            s["phase"] = "play"
            s["turn"] = 0
    else:
        if action["type"] == "play":
            s["hands"][seat].remove(action["card"])
            s["points"][seat] += action["card"]
            s["played"].append(action["card"])
        events.append({"type": "Played", **action, "to": None})
        s["turn"] += 1
        if s["turn"] == s["n"]:
            s["round"] += 1
            s["played"].append(s["lot"])
            if s["round"] == ROUNDS or not s["deck"]:
                s["over"] = True
            else:
                s["lot"] = s["deck"].pop()
                s["phase"] = "bid"
                for p in range(s["n"]):
                    s["money"][p] += 1
    return s, events


def view(s: dict[str, Any], viewer: Any) -> dict[str, Any]:
    return {"viewer": viewer, "n": s["n"], "round": s["round"], "phase": s["phase"],
            "lot": s["lot"], "money": list(s["money"]), "points": list(s["points"]),
            "hand": list(s["hands"][viewer]) if viewer is not None else None,
            "hand_sizes": [len(h) for h in s["hands"]],
            "committed": sorted(s["bids"]),
            "own_bid": s["bids"].get(viewer) if viewer is not None else None,
            "turn": s["turn"], "played": list(s["played"]), "over": s["over"],
            "deck_size": len(s["deck"])}


def information_state(s: dict[str, Any], viewer: Any) -> dict[str, Any]:
    """What `viewer` may know: its view, which is what determinize samples from (the contract's
    information state, pax_hispanica.contract.Engine)."""
    return view(s, viewer)


def copy(s: dict[str, Any]) -> dict[str, Any]:
    """An equal state sharing nothing with `s` (the contract's copy)."""
    return deepcopy(s)


def determinize(v: dict[str, Any], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    unknown = DECK[:]
    for c in (v["hand"] or []) + v["played"] + [v["lot"]]:
        unknown.remove(c)
    rng.shuffle(unknown)
    hands = []
    for p in range(v["n"]):
        if p == v["viewer"]:
            hands.append(list(v["hand"]))
        else:
            hands.append([unknown.pop() for _ in range(v["hand_sizes"][p])])
    deck = [unknown.pop() for _ in range(v["deck_size"])]
    bids = {}
    for p in v["committed"]:
        bids[p] = v["own_bid"] if p == v["viewer"] else rng.randint(0, v["money"][p])
    return {"n": v["n"], "round": v["round"], "phase": v["phase"], "lot": v["lot"],
            "deck": deck, "hands": hands, "money": list(v["money"]),
            "points": list(v["points"]), "bids": bids, "turn": v["turn"],
            "played": list(v["played"]), "over": v["over"]}


def is_over(s: dict[str, Any]) -> bool:
    ret: bool = s["over"]
    return ret


def scores(s: dict[str, Any]) -> list[Any]:
    return [s["points"][p] + s["money"][p] // 2 for p in range(s["n"])]


def result(s: dict[str, Any]) -> dict[str, Any]:
    sc = scores(s)
    ranking = sorted(range(s["n"]), key=lambda p: (-sc[p], p))
    return {"winner": ranking[0], "scores": sc, "ranking": ranking}


def summary(s: dict[str, Any]) -> dict[str, Any]:
    return {"round": s["round"], "scores": scores(s)}
