"""What the tuner (sim/tune.py) minimises: each objective is a figure measured from a
simulation's summary (sim/stats.py ``report``) and a target read from a TOML file
(the default is ``tune_targets.toml`` next to this module).

A figure ``x`` becomes a loss ``>= 0`` that is 0 when the target is met:

* kind ``max`` (at most the target):  ``max(0, x - target) / scale``
* kind ``min`` (at least the target): ``max(0, target - x) / scale``
* kind ``near`` (close to the target): ``|x - target| / scale``

A trial's score is ``sum(weight * loss)``; with a multi-objective sampler each
``group`` (balance, pace, skill) is one objective, the weighted sum of its members.
The formulas of the figures are in ``FIGURES`` and in docs/bots.md ("Tuning").
"""
from __future__ import annotations

import statistics
import tomllib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

DEFAULT_TARGETS = Path(__file__).with_name("tune_targets.toml")


def _chance(s: dict[str, Any]) -> float:
    return 1 / max(s["players"]) if s.get("players") else 0.0


def _spread(table: dict[str, Any], chance: float) -> float | None:
    """max over the groups of |win rate - chance|."""
    rates = [v["rate"] for v in (table or {}).values() if v.get("rate") is not None]
    return max(abs(r - chance) for r in rates) if rates else None


def _legality_top_share(s: dict[str, Any], results: list[dict[str, Any]]) -> float | None:
    """The largest share of the wins taken by one final legality (the winner's Flagship)."""
    legs = [r["legalities"][r["winner"]] for r in results
            if not r.get("error") and r.get("legalities") and r.get("winner") is not None]
    if not legs:
        return None
    return max(Counter(legs).values()) / len(legs)


def _eng(key: str, field: str = "mean") -> Callable[[dict[str, Any], list[dict[str, Any]]], float | None]:
    return lambda s, _r: ((s.get("engagement") or {}).get(key) or {}).get(field)


def _event_mean(name: str) -> Callable[[dict[str, Any], list[dict[str, Any]]], float | None]:
    """The mean count per game of one kind of event (sim/engagement.py's ``events``)."""
    return lambda s, _r: (((s.get("engagement") or {}).get("events") or {}).get(name) or {}).get("mean")


def _forced_or_pass(s: dict[str, Any], _r: list[dict[str, Any]]) -> float | None:
    e = s.get("engagement") or {}
    if not e.get("forced") or not e["forced"]["of"]:
        return None
    return float((e["forced"]["count"] + e["passes"]["count"]) / e["forced"]["of"])


def _rare_cards(s: dict[str, Any]) -> float | None:
    e = s.get("engagement") or {}
    if "cards_rarely_played" not in e or not e.get("cards"):
        return None
    return len(e["cards_rarely_played"]) / len(e["cards"])


# name -> (figure from (summary, results), the formula in words)
FIGURES: dict[str, tuple[Callable[[dict[str, Any], list[dict[str, Any]]], float | None], str]] = {
    "nation_spread": (lambda s, r: _spread(s["win_rate"].get("nation"), _chance(s)),
                      "max over nations of |win rate - 1/n|"),
    "seat_spread": (lambda s, r: _spread(s["win_rate"].get("seat"), _chance(s)),
                    "max over seats of |win rate - 1/n|"),
    "first_player": (lambda s, r: abs(s["first_player"]["rate"] - s["first_player"]["chance"])
                     if s["first_player"].get("rate") is not None else None,
                     "|win rate of the seat first in Player Order - 1/n|"),
    "legality_spread": (lambda s, r: _legality_top_share(s, r),
                        "largest share of the wins taken by one final legality"),
    "early_end": (_eng("ended_by_prestige", "share"), "share of games ended early by Prestige"),
    "winner_score": (lambda s, r: s["scores"]["winner"].get("median"), "median score of the winner"),
    "lead_changes": (_eng("lead_changes"), "mean lead changes per game"),
    "forced_or_pass": (_forced_or_pass, "share of decisions that were forced (one legal action) or a pass"),
    "cards_per_player": (_eng("cards_per_player"), "mean cards played per player per game"),
    "money_unspent": (_eng("money_unspent_end"), "mean money a player holds at the end"),
    "cards_rarely_played": (lambda s, r: _rare_cards(s), "share of the ruleset's cards played in fewer than 5% of games"),
    "battles": (_event_mean("battles"), "mean battles per game (BAT-1..5)"),
    "sacks": (_event_mean("sacks"), "mean colonies sacked per game (BAT-5, TRS-2)"),
}


def load_targets(path: str | Path | None = None) -> dict[str, Any]:
    """The targets file, with defaults filled in (weight 1, scale 1, group balance)."""
    data = tomllib.loads(Path(path or DEFAULT_TARGETS).read_text(encoding="utf-8"))
    objs = {}
    for name, spec in (data.get("objectives") or {}).items():
        if name not in FIGURES and name != "skill":
            raise ValueError(f"targets: unknown objective {name!r}; known: {', '.join([*FIGURES, 'skill'])}")
        kind = spec.get("kind", "max")
        if kind not in ("max", "min", "near"):
            raise ValueError(f"targets: objective {name!r} kind must be max, min or near")
        objs[name] = {"weight": float(spec.get("weight", 1.0)), "target": float(spec.get("target", 0.0)),
                      "scale": float(spec.get("scale", 1.0)) or 1.0, "kind": kind,
                      "group": str(spec.get("group", "balance"))}
    data["objectives"] = objs
    tables = data.get("tables") or {"selfplay": {"bots": "heuristic", "weight": 1.0}}
    for k, v in tables.items():
        if v.get("nations", "") not in ("", "default", "shuffle"):
            raise ValueError(f"targets: table {k!r}: nations must be default or shuffle")
    # a table may fix its own nations ("default": the ruleset's order, which `paxh play` uses;
    # "shuffle"), so that one study weighs both; without it the study's --nations
    data["tables"] = {k: {"bots": str(v["bots"]), "weight": float(v.get("weight", 1.0)),
                          "nations": str(v.get("nations", ""))} for k, v in tables.items()}
    data.setdefault("skill", {})
    return data


def loss(value: float | None, spec: dict[str, Any]) -> float:
    """The loss of one figure (a missing figure -- e.g. no game finished -- is the worst case, 1)."""
    if value is None:
        return 1.0
    t, sc = float(spec["target"]), float(spec["scale"])
    if spec["kind"] == "max":
        return max(0.0, value - t) / sc
    if spec["kind"] == "min":
        return max(0.0, t - value) / sc
    return abs(value - t) / sc


def figures(summary: dict[str, Any], results: list[dict[str, Any]]) -> dict[str, float | None]:
    out = {}
    for name, (f, _doc) in FIGURES.items():
        try:
            v = f(summary, results)
        except (KeyError, TypeError, ZeroDivisionError):
            v = None
        out[name] = None if v is None else round(float(v), 6)
    return out


def table_losses(summary: dict[str, Any], results: list[dict[str, Any]], targets: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float]]:
    """(figures, losses) of one table's games for every objective but skill."""
    figs = figures(summary, results)
    return figs, {n: loss(figs.get(n), spec) for n, spec in targets["objectives"].items() if n != "skill"}


def skill_figure(pair_rates: dict[str, float | None], targets: dict[str, Any]) -> tuple[float | None, dict[str, Any]]:
    """Skill depth: the mean over the bot pairs of max(0, target - share of games won by the
    stronger bot); each pair's target is in [skill.pairs]. A pair played at several player
    counts is keyed "pair@Np" and each count is one term of the mean."""
    pairs = (targets.get("skill") or {}).get("pairs") or {}
    gaps = {}
    for key, rate in pair_rates.items():
        spec = pairs.get(key.split("@")[0])
        # a pair the file does not name: the stronger should at least beat chance clearly
        target = float(spec.get("target", 0.6)) if isinstance(spec, dict) else 0.6
        gaps[key] = 1.0 if rate is None else max(0.0, target - rate)
    return (statistics.fmean(gaps.values()) if gaps else None), gaps


def combine(per_table: dict[str, dict[str, Any]], table_weights: dict[str, float], skill_loss: float | None,
            targets: dict[str, Any]) -> tuple[dict[str, float], dict[str, float]]:
    """Each objective's loss (weighted mean over the tables) and each group's weighted sum."""
    total_w = sum(table_weights[t] for t in per_table) or 1.0
    losses: dict[str, float] = {}
    for name in targets["objectives"]:
        if name == "skill":
            continue
        losses[name] = sum(table_weights[t] * per_table[t][name] for t in per_table) / total_w
    if "skill" in targets["objectives"] and skill_loss is not None:
        losses["skill"] = skill_loss
    groups: dict[str, float] = {}
    for name, spec in targets["objectives"].items():
        if spec["weight"] <= 0 or name not in losses:
            continue
        groups[spec["group"]] = groups.get(spec["group"], 0.0) + spec["weight"] * losses[name]
    return losses, groups


def describe(targets: dict[str, Any]) -> list[str]:
    """One line per active objective, for the report."""
    lines = []
    for name, spec in targets["objectives"].items():
        if spec["weight"] <= 0:
            continue
        doc = FIGURES[name][1] if name in FIGURES else "mean over bot pairs of max(0, target - stronger's win share)"
        op = {"max": "at most", "min": "at least", "near": "near"}[spec["kind"]]
        lines.append(f"{name} ({spec['group']}, weight {spec['weight']:g}): {doc}, {op} {spec['target']:g} "
                     f"(loss scaled by {spec['scale']:g})")
    return lines

