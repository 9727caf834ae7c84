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
    seats = _Seats()
    for r in ok:
        seats.add(r)
    pairs = seats.pairs
    max_players = max((r["players"] for r in results), default=0)
    by_seat = _grouped(pairs["seat"])
    by_bot = _grouped(pairs["bot"])
    cards = _grouped(seats.cards)
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
                     "nation": _grouped(pairs["nation"]), "legality": _grouped(pairs["legality"]),
                     "start_legality": _grouped(pairs["start_legality"]),
                     "bot_nation": _grouped(pairs["bot_nation"])},
        "bot_scores": seats.bot_means(),
        "first_player": _first_player(ok),
        "scores": _score_distributions(ok),
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


class _Seats:
    """Every seat of the finished games: (key, won) pairs by table (seat, bot, nation, legality
    at the end and at setup, bot and nation), scores and ranks by bot, and (card, won) pairs of
    the cards each seat played."""

    def __init__(self) -> None:
        self.pairs: dict[str, list[tuple[Any, bool]]] = {
            k: [] for k in ("seat", "bot", "nation", "legality", "start_legality", "bot_nation")}
        self.bot_scores: dict[str, list[float]] = defaultdict(list)
        self.bot_ranks: dict[str, list[float]] = defaultdict(list)
        self.cards: list[tuple[Any, bool]] = []

    def add(self, r: dict[str, Any]) -> None:
        for s in range(r["players"]):
            self._seat(r, s, s == r["winner"])

    def _seat(self, r: dict[str, Any], s: int, won: bool) -> None:
        pairs, bot = self.pairs, r["bots"][s]
        pairs["seat"].append((s, won))
        pairs["bot"].append((bot, won))
        if r.get("nations"):
            pairs["nation"].append((r["nations"][s], won))
            pairs["bot_nation"].append((f"{bot} / {r['nations'][s]}", won))
        if r.get("scores"):
            self.bot_scores[bot].append(r["scores"][s])
        if r.get("ranking"):
            self.bot_ranks[bot].append(r["ranking"].index(s) + 1)
        if r.get("legalities"):
            pairs["legality"].append((r["legalities"][s], won))
        if r.get("start_legalities"):
            pairs["start_legality"].append((r["start_legalities"][s], won))
        for card in sorted({card_base(c) for c in r["cards_played"][s]}):
            self.cards.append((card, won))

    def bot_means(self) -> dict[str, Any]:
        """Each bot's mean score and mean rank (1 the winner)."""
        def mean(xs: list[float]) -> float | None:
            return round(statistics.fmean(xs), 6) if xs else None
        return {b: {"mean_score": mean(self.bot_scores[b]), "mean_rank": mean(self.bot_ranks[b])}
                for b in sorted(set(self.bot_scores) | set(self.bot_ranks))}


def _first_player(ok: list[dict[str, Any]]) -> dict[str, Any]:
    """How often the seat first in Player Order at setup won, against the chance 1/players."""
    games = [r for r in ok if r.get("first_seat") is not None]
    wins = sum(int(r["first_seat"] == r["winner"]) for r in games)
    chance = [1 / r["players"] for r in games]
    return {**rate(wins, len(games)), "chance": round(statistics.fmean(chance), 6) if chance else None}


def _score_distributions(ok: list[dict[str, Any]]) -> dict[str, Any]:
    """The final scores of all seats and of the winners, and the winning margins."""
    all_scores: list[float] = []
    winner_scores: list[float] = []
    margins: list[float] = []
    for r in ok:
        sc, w = r.get("scores") or [], r["winner"]
        if sc:
            all_scores.extend(sc)
            winner_scores.append(sc[w])
            others = [x for i, x in enumerate(sc) if i != w]
            if others:
                margins.append(sc[w] - max(others))
    return {"all": distribution(all_scores), "winner": distribution(winner_scores), "margin": distribution(margins)}


def without_timings(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}
