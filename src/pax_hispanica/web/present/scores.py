"""The end of a game as a score table (issue 14): Prestige by category and player, each with the
rule that scores it, the winner and the tie-break used (CYC-3). Built from the public events
(TreasureScored, PrestigeGained, FinalScoring) and the engine's result; whatever Prestige the
events do not explain (a scenario's starting Prestige) is its own row, so the columns always
add up to the final score."""
from __future__ import annotations

from typing import Any

from pax_hispanica.engine.vocab import BY_CROWN_FAVOUR
from pax_hispanica.web.present.i18n import Tr

LEGALITIES = tuple(map(str, BY_CROWN_FAVOUR))


def score_table(events: list[Any], result: dict[str, Any] | None, tr: Tr) -> dict[str, Any] | None:
    if not result or not isinstance(result.get("scores"), list):
        return None
    scores = result["scores"]
    n = len(scores)
    treasure = {lg: [0] * n for lg in LEGALITIES}
    treasure_rules: dict[str, set[Any]] = {lg: set() for lg in LEGALITIES}
    chests = {lg: [0] * n for lg in LEGALITIES}
    cards, money_conv, colonies, money = [0] * n, [0] * n, [0] * n, list(result.get("money") or [0] * n)
    for e in events:
        if not isinstance(e, dict) or (not isinstance(e.get("seat"), int) and e.get("type") != "FinalScoring"):
            continue
        t = e.get("type")
        if t == "TreasureScored" and e.get("legality") in treasure and 0 <= e["seat"] < n:
            treasure[e["legality"]][e["seat"]] += int(e.get("prestige") or 0)
            chests[e["legality"]][e["seat"]] += int(e.get("chests") or 0)
            treasure_rules[e["legality"]].add(e.get("rule") or "TRS-5")
        elif t == "PrestigeGained" and 0 <= e["seat"] < n:
            cards[e["seat"]] += int(e.get("amount") or 0)
        elif t == "FinalScoring":
            for b in e.get("breakdown") or []:
                s = b.get("seat")
                if isinstance(s, int) and 0 <= s < n:
                    money_conv[s] = int(b.get("from_money") or 0)
                    colonies[s] = int(b.get("from_colonies") or 0)
                    if "money" in b:
                        money[s] = b["money"]
    rows: list[dict[str, Any]] = []
    for lg in LEGALITIES:
        if any(chests[lg]) or any(treasure[lg]):
            rows.append({"key": f"treasure_{lg.lower()}", "label": tr("score_treasure", legality=tr.word(lg)),
                         "rules": sorted(treasure_rules[lg]), "values": treasure[lg],
                         "notes": [tr.n("chests", c) for c in chests[lg]]})
    rows.append({"key": "cards", "label": tr("score_cards"), "rules": ["CARD-1"], "values": cards})
    rows.append({"key": "money", "label": tr("score_money"), "rules": ["CYC-3"], "values": money_conv,
                 "notes": [tr("money_amount", n=m) for m in money]})
    rows.append({"key": "colonies", "label": tr("score_colonies"), "rules": ["CYC-3", "PRJ-30"], "values": colonies})
    explained = [sum(r["values"][s] for r in rows) for s in range(n)]
    other = [scores[s] - explained[s] for s in range(n)]
    if any(other):
        rows.insert(0, {"key": "other", "label": tr("score_other"), "rules": [], "values": other})
    winner = result.get("winner")
    best = max(scores)
    leaders = [s for s in range(n) if scores[s] == best]
    tie = None
    if len(leaders) > 1:
        top_money = max(money[s] for s in leaders)
        rich = [s for s in leaders if money[s] == top_money]
        tie = tr("tie_money", seats=", ".join(tr.seat(s) for s in leaders)) if len(rich) == 1 else \
            tr("tie_order", seats=", ".join(tr.seat(s) for s in rich))
    return {"seats": [tr.seat(s) for s in range(n)], "rows": rows, "totals": scores, "money_left": money,
            "money_left_text": [tr("money_amount", n=m) for m in money],
            "winner": winner, "winner_name": tr.seat(winner), "tie": tie, "reason": tr.word(result.get("reason"))}
