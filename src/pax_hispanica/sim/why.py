"""Why the bots play what they play: the logged explanations of a simulation
(``--log-explanations``) summarised per bot, so a designer sees which rules of
thumb drive the heuristic bot and how often the search overrules it."""
from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from typing import Any


def summarise(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """bot label -> decisions, its rules of thumb and action types (count and share)
    and, for a search bot, mean iterations and how often it chose what the
    heuristic would have. Empty when no explanations were logged."""
    rules: dict[str, Counter[Any]] = defaultdict(Counter)
    kinds: dict[str, Counter[Any]] = defaultdict(Counter)
    iterations: dict[str, list[int]] = defaultdict(list)
    agree: dict[str, list[bool]] = defaultdict(list)
    for r in results:
        for e in r.get("explanations") or ():
            bot, why = e["bot"], e.get("why") or {}
            rules[bot][why.get("rule_of_thumb", "?")] += 1
            kinds[bot][e["action"].get("type", "?")] += 1
            if "iterations" in why:
                iterations[bot].append(why["iterations"])
                if why.get("heuristic_choice") is not None:
                    agree[bot].append(why["heuristic_choice"] == e["action"])
    out: dict[str, dict[str, Any]] = {}
    for bot in sorted(rules):
        n = sum(rules[bot].values())
        entry: dict[str, Any] = {
            "decisions": n,
            "rules_of_thumb": _shares(rules[bot], n),
            "action_types": _shares(kinds[bot], n),
        }
        if iterations[bot]:
            entry["mean_iterations"] = round(statistics.fmean(iterations[bot]), 2)
        if agree[bot]:
            entry["agrees_with_heuristic"] = round(sum(agree[bot]) / len(agree[bot]), 6)
            entry["searched_decisions"] = len(agree[bot])
        out[bot] = entry
    return out


def _shares(counts: Counter[Any], n: int) -> dict[str, dict[str, float]]:
    return {k: {"count": c, "share": round(c / n, 6)}
            for k, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))}
