"""The summary of a simulation: win rates with 95% confidence intervals by
seat, bot, nation and legality; first-player advantage; score and length
distributions; the win rate of the players who played each card.

Every figure is computed from the per-game results alone, in plain Python,
so the same results always give the same summary (timings apart).
"""
from __future__ import annotations

import math
import re
import statistics
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from .engagement import summarise as summarise_engagement
from .why import summarise as summarise_explanations

Z95 = 1.959963984540054
TIMING_KEYS = ("seconds_per_game", "total_seconds", "games_per_second")


def wilson(k: int, n: int, z: float = Z95) -> list[float]:
    """Wilson score interval for k successes in n trials (95% by default)."""
    if n == 0:
        return [0.0, 1.0]
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return [round(max(0.0, centre - half), 6), round(min(1.0, centre + half), 6)]


def rate(k: int, n: int) -> dict[str, Any]:
    return {"wins": k, "games": n, "rate": round(k / n, 6) if n else None, "ci95": wilson(k, n)}


def distribution(values: Iterable[float]) -> dict[str, Any]:
    xs = sorted(float(v) for v in values)
    if not xs:
        return {"n": 0}
    def q(f: float) -> float:
        return _quantile(xs, f)
    return {"n": len(xs), "mean": round(statistics.fmean(xs), 6),
            "sd": round(statistics.stdev(xs), 6) if len(xs) > 1 else 0.0,
            "min": xs[0], "p10": q(0.10), "p25": q(0.25), "median": q(0.5),
            "p75": q(0.75), "p90": q(0.90), "max": xs[-1]}


def _quantile(xs: list[float], f: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    pos = (len(xs) - 1) * f
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return round(xs[lo] + (xs[hi] - xs[lo]) * (pos - lo), 6)


def card_base(card: Any) -> str:
    """A card's id without its copy suffix ("galeon-3" -> "galeon")."""
    return re.sub(r"-\d+$", "", str(card))


def _grouped(pairs: list[tuple[Any, bool]]) -> dict[str, Any]:
    wins: dict[Any, int] = defaultdict(int)
    games: dict[Any, int] = defaultdict(int)
    for key, won in pairs:
        games[key] += 1
        wins[key] += int(won)
    return {str(k): rate(wins[k], games[k]) for k in sorted(games, key=lambda x: (str(type(x)), x))}


def report(results: list[dict[str, Any]], card_names: list[str] | None = None) -> dict[str, Any]:
    """Summarise per-game results (as returned by ``sim.run``); ``card_names`` (the
    ruleset's cards) lets the engagement section list the cards never played."""
    ok = [r for r in results if not r.get("error")]
    failed = [r for r in results if r.get("error")]
    seat_pairs, bot_pairs, nation_pairs, leg_pairs, start_leg_pairs = [], [], [], [], []
    bot_nation_pairs: list[tuple[Any, bool]] = []
    bot_scores: dict[str, list[float]] = defaultdict(list)
    bot_ranks: dict[str, list[float]] = defaultdict(list)
    first_wins = first_games = 0
    first_chance: list[float] = []
    card_pairs: list[tuple[Any, bool]] = []
    all_scores: list[float] = []
    winner_scores: list[float] = []
    margins: list[float] = []
    max_players = max((r["players"] for r in results), default=0)
    for r in ok:
        n, w = r["players"], r["winner"]
        for s in range(n):
            won = s == w
            seat_pairs.append((s, won))
            bot_pairs.append((r["bots"][s], won))
            if r.get("nations"):
                nation_pairs.append((r["nations"][s], won))
                bot_nation_pairs.append((f"{r['bots'][s]} / {r['nations'][s]}", won))
            if r.get("scores"):
                bot_scores[r["bots"][s]].append(r["scores"][s])
            if r.get("ranking"):
                bot_ranks[r["bots"][s]].append(r["ranking"].index(s) + 1)
            if r.get("legalities"):
                leg_pairs.append((r["legalities"][s], won))
            if r.get("start_legalities"):
                start_leg_pairs.append((r["start_legalities"][s], won))
            for card in sorted({card_base(c) for c in r["cards_played"][s]}):
                card_pairs.append((card, won))
        if r.get("first_seat") is not None:
            first_games += 1
            first_wins += int(r["first_seat"] == w)
            first_chance.append(1 / n)
        sc = r.get("scores") or []
        if sc:
            all_scores.extend(sc)
            winner_scores.append(sc[w])
            others = [x for i, x in enumerate(sc) if i != w]
            if others:
                margins.append(sc[w] - max(others))
    by_seat = _grouped(seat_pairs)
    by_bot = _grouped(bot_pairs)
    cards = _grouped(card_pairs)
    cards = dict(sorted(cards.items(), key=lambda kv: (-kv[1]["games"], kv[0])))
    seconds = [r.get("seconds", 0.0) for r in results]
    total_seconds = sum(seconds)
    out: dict[str, Any] = {
        "games": len(results),
        "completed": len(ok),
        "errors": len(failed),
        "error_examples": [{"index": r["index"], "seed": r["seed"], "error": r["error"]} for r in failed[:5]],
        "players": sorted({r["players"] for r in results}),
        "decisions_per_game": round(statistics.fmean(r["decisions"] for r in ok), 6) if ok else 0.0,
        "wins_by_seat": {str(s): by_seat.get(str(s), {"wins": 0})["wins"] for s in range(max_players)},
        "win_rate_by_bot": {k: v["rate"] for k, v in by_bot.items()},
        "win_rate": {"seat": by_seat, "bot": by_bot,
                     "nation": _grouped(nation_pairs), "legality": _grouped(leg_pairs),
                     "start_legality": _grouped(start_leg_pairs),
                     "bot_nation": _grouped(bot_nation_pairs)},
        "bot_scores": {b: {"mean_score": round(statistics.fmean(bot_scores[b]), 6) if bot_scores[b] else None,
                           "mean_rank": round(statistics.fmean(bot_ranks[b]), 6) if bot_ranks[b] else None}
                       for b in sorted(set(bot_scores) | set(bot_ranks))},
        "first_player": {**rate(first_wins, first_games),
                         "chance": round(statistics.fmean(first_chance), 6) if first_chance else None},
        "scores": {"all": distribution(all_scores), "winner": distribution(winner_scores),
                   "margin": distribution(margins)},
        "length": {"decisions": distribution(r["decisions"] for r in ok),
                   "cycles": distribution(r["cycles"] for r in ok if isinstance(r.get("cycles"), int))},
        "cards": cards,
        "seconds_per_game": round(total_seconds / len(results), 6) if results else 0.0,
        "total_seconds": round(total_seconds, 6),
    }
    engagement = summarise_engagement(results, card_names)
    if engagement:
        out["engagement"] = engagement
    why = summarise_explanations(results)
    if why:
        out["why"] = why
    return out


def without_timings(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}
