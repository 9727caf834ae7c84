"""``interactive.html`` beside a simulator report: the pace and engagement figures as plotly
charts (zoom, hover for the exact value and interval). A separate file because plotly.js is
about 4.5 MB, and report.html stays a small self-contained page with PNGs (sim/output.py)."""
from __future__ import annotations

import html
from pathlib import Path
from typing import Any

FILE = "interactive.html"


def _bars(go: Any, table: dict[str, Any], title: str, value: str = "mean", sub: str | None = None) -> Any:
    names = list(table)

    def get(v: Any) -> Any:
        return v[sub] if sub else v
    vals = [get(table[k])[value] or 0 for k in names]
    lo = [v - get(table[k])["ci95"][0] for v, k in zip(vals, names)]
    hi = [get(table[k])["ci95"][1] - v for v, k in zip(vals, names)]
    fig = go.Figure(go.Bar(x=vals, y=names, orientation="h",
                           error_x={"type": "data", "symmetric": False, "array": hi, "arrayminus": lo}))
    fig.update_layout(title=title, height=max(300, 22 * len(names) + 120), yaxis={"autorange": "reversed"},
                      margin={"l": 220})
    return fig


def write(summary: dict[str, Any], out: Path) -> Path | None:
    """Write OUT/interactive.html; None when plotly is missing or there is nothing to show."""
    eng = summary.get("engagement") or {}
    if not eng:
        return None
    try:
        import plotly.graph_objects as go  # type: ignore[import-untyped]  # plotly ships no types
    except ImportError:
        return None
    figs = []
    curve = eng.get("prestige_by_cycle") or []
    if curve:
        fig = go.Figure()
        for key, label in (("leader", "leader"), ("mean", "mean of the seats"), ("last", "last")):
            ys = [c[key]["mean"] for c in curve]
            fig.add_trace(go.Scatter(x=[c["cycle"] for c in curve], y=ys, name=label, mode="lines+markers",
                                     error_y={"type": "data", "symmetric": False,
                                              "array": [c[key]["ci95"][1] - y for c, y in zip(curve, ys)],
                                              "arrayminus": [y - c[key]["ci95"][0] for c, y in zip(curve, ys)]}))
        fig.update_layout(title="Prestige at the end of each cycle (mean, 95% CI)", xaxis={"title": "cycle", "dtick": 1},
                          yaxis_title="Prestige")
        figs.append(fig)
    if eng.get("events"):
        figs.append(_bars(go, eng["events"], "What happens: per game (mean, 95% CI)"))
    if eng.get("actions"):
        figs.append(_bars(go, eng["actions"], "Actions chosen: share of decisions (95% CI)", "share",
                          "share_of_decisions"))
    if eng.get("cards"):
        figs.append(_bars(go, eng["cards"], "Cards: share of games where someone played it (95% CI)", "share",
                          "games_with"))
    if not figs:
        return None
    parts = ["<!doctype html><html lang='en'><head><meta charset='utf-8'>",
             "<title>Pax Hispanica simulation: pace and engagement</title></head>",
             "<body style='font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto'>",
             f"<h1>Pace and engagement ({eng['games']} games)</h1>",
             ("<p>Interactive version of the section of <a href='report.html'>report.html</a>; "
              "definitions in docs/bots.md, Engagement statistics.</p>")]
    for i, fig in enumerate(figs):
        parts.append(fig.to_html(full_html=False, include_plotlyjs=(i == 0)))
    parts.append("</body></html>")
    path = out / FILE
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def link() -> str:
    return f"<p>Interactive charts (plotly): <a href='{html.escape(FILE)}'>{html.escape(FILE)}</a>.</p>"
