"""A parameter sweep: the same simulation (same seeds, bots and nations) under
several values of one ruleset number (PRJ-31), summarised side by side, so a
designer sees what one change does to the balance.

Because every value replays the same game seeds, differences between the rows
come from the rule, not from luck in choosing the games (paired comparison).
"""
from __future__ import annotations

from typing import Any

from .runner import _number


def parse_sweep(text: str) -> tuple[str, list[Any]]:
    """``"conquistador_prestige=1,2,3"`` -> ("conquistador_prestige", [1, 2, 3])."""
    if "=" not in text:
        raise ValueError(f"--sweep {text!r}: use NAME=V1,V2,..., e.g. --sweep conquistador_prestige=1,2")
    name, values = (x.strip() for x in text.split("=", 1))
    items = [_number(v.strip()) for v in values.split(",") if v.strip()]
    if not name or len(items) < 2:
        raise ValueError(f"--sweep {text!r}: give a parameter and at least two values")
    if len(set(map(str, items))) != len(items):
        raise ValueError(f"--sweep {text!r}: a value is repeated")
    return name, items


def row(value: Any, summary: dict[str, Any]) -> dict[str, Any]:
    """One value's line of the comparison: who wins, how often, how long games last."""
    wr = summary["win_rate"]
    eng = summary.get("engagement") or {}
    def pick(table: dict[str, Any] | None) -> dict[str, Any]:
        return {k: {"rate": v["rate"], "ci95": v["ci95"], "wins": v["wins"], "games": v["games"]}
                for k, v in (table or {}).items()}
    return {
        "value": value,
        "games": summary["games"], "errors": summary["errors"],
        "nation": pick(wr.get("nation")), "legality": pick(wr.get("legality")),
        "bot": pick(wr.get("bot")), "seat": pick(wr.get("seat")),
        "first_player": summary["first_player"].get("rate"),
        "winner_score_mean": summary["scores"]["winner"].get("mean"),
        "margin_mean": summary["scores"]["margin"].get("mean"),
        "decisions_mean": summary["length"]["decisions"].get("mean"),
        "cycles_mean": summary["length"]["cycles"].get("mean"),
        # pace beside balance (sim/engagement.py)
        "lead_changes_mean": (eng.get("lead_changes") or {}).get("mean"),
        "cards_per_player_mean": (eng.get("cards_per_player") or {}).get("mean"),
        "ended_by_prestige": (eng.get("ended_by_prestige") or {}).get("share"),
    }


def table(name: str, rows: list[dict[str, Any]], key: str = "nation") -> tuple[list[str], list[list[str]]]:
    """Columns and text cells for printing: one row per value of `name`, win rate per `key`
    in percent with its 95% interval."""
    groups = sorted({g for r in rows for g in r[key]})
    cols = ["value"] + groups + ["winner score", "cycles", "lead changes", "errors"]
    cells = []
    for r in rows:
        line = [str(r["value"])]
        for g in groups:
            v = r[key].get(g)
            line.append(f"{100 * v['rate']:.0f}% ({100 * v['ci95'][0]:.0f}–{100 * v['ci95'][1]:.0f})"
                        if v and v["rate"] is not None else "—")
        line += [f"{r['winner_score_mean']:.2f}" if r["winner_score_mean"] is not None else "—",
                 f"{r['cycles_mean']:.2f}" if r["cycles_mean"] is not None else "—",
                 f"{r['lead_changes_mean']:.2f}" if r.get("lead_changes_mean") is not None else "—", str(r["errors"])]
        cells.append(line)
    return cols, cells


def plot(name: str, rows: list[dict[str, Any]], path: Any, key: str = "nation") -> None:
    """Win rate per `key` against the swept value, with 95% intervals (PNG)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = sorted({g for r in rows for g in r[key]})
    xs = list(range(len(rows)))
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    for i, g in enumerate(groups):
        pts = [(x, r[key][g]) for x, r in zip(xs, rows) if g in r[key] and r[key][g]["rate"] is not None]
        if not pts:
            continue
        off = (i - (len(groups) - 1) / 2) * 0.04       # side by side, so the intervals do not hide each other
        ax.errorbar([x + off for x, _ in pts], [v["rate"] for _, v in pts],
                    yerr=[[v["rate"] - v["ci95"][0] for _, v in pts], [v["ci95"][1] - v["rate"] for _, v in pts]],
                    marker="o", capsize=3, label=g)
    ax.set_xticks(xs)
    ax.set_xticklabels([str(r["value"]) for r in rows])
    ax.set_xlabel(name)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(f"Win rate by {key} as {name} changes")
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
