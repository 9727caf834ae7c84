"""Planting a blunder in a recorded game, for tests/analysis: one decision replaced by a clearly
losing legal one, the rest of the record kept while it stays legal."""
from __future__ import annotations

from typing import Any

from pax_hispanica import api


def plant_overbid(record: dict[str, Any], seat: int, min_money: int = 6) -> tuple[dict[str, Any], int]:
    """The record with the first bid of `seat` made when it had at least `min_money` replaced by a
    bid of all its money (the top of the legal range), and the index of that action. The actions
    after it are kept while they are legal; the record stops at the first that is not."""
    actions = list(record["actions"])
    g = api.replay({**record, "actions": []})
    for i, a in enumerate(actions):
        if a.get("seat") == seat and a.get("type") == "bid":
            money = api.view(g.state, seat)["players"][seat]["money"]
            top = max(int(d.get("max", 0)) for d in api.legal_actions(g.state, seat) if d.get("decision") == "bid")
            if money >= min_money and top >= min_money and top > a["amount"] + 3:
                planted = [*actions[:i], {**a, "amount": top}]
                h = api.replay({**record, "actions": planted})
                for b in actions[i + 1:]:
                    try:
                        h.act(b)
                    except api.IllegalAction:
                        break
                    planted.append(b)
                return {**record, "actions": planted}, i
        g.act(a)
    raise LookupError(f"seat {seat} never bid with ${min_money} or more")
