"""What the analysis page shows, from a job's stored analysis (GameAnalysis.to_json()):

- `chart_svg`: the win-probability chart as inline SVG (one line per seat, each with its own
  colour and dash; every Year ruled, each cycle's first Year strongly, and numbered; the reviewed seat's marked moves
  dotted), with a title and a description for screen readers;
- `decisions`: each decision of the reviewed seat: the move played and the strongest bot's, in
  the game's own words (present/i18n.Tr.action), the chances after each, the cost and its mark;
- `moments`: the key moments in words (the analysis package's English and Catalan templates);
- `hint_words`: the Hint's explanation (a bot's explain()) in words.
"""
from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from pax_hispanica.analysis import MARKS, YEARS
from pax_hispanica.analysis.messages import of, say, span
from pax_hispanica.web.present.i18n import Tr

COLOURS = ("#b03a2e", "#1f4e9c", "#117a65", "#9c4f00", "#6c3483")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2")
MARK_COLOUR = {"inaccuracy": "#b7950b", "mistake": "#ca6f1e", "blunder": "#c0392b"}


def percent(p: float, lang: str) -> str:
    v = round(100 * float(p))
    return f"{v} %" if lang == "ca" else f"{v}%"


def year_name(year: str, lang: str) -> str:
    return YEARS.get(lang, YEARS["en"]).get(year, year)


def mark_name(mark: str | None, lang: str) -> str:
    return MARKS.get(lang, MARKS["en"]).get(mark, "") if mark else ""


def chart_svg(a: dict[str, Any], names: list[str], tr: Tr, width: int = 760, height: int = 280) -> Markup:
    lang = tr.lang
    left, right, top, bottom = 58, 12, 12, 44
    w, h = width - left - right, height - top - bottom
    chart = a.get("chart") or []
    last = max(1, len(chart) - 1)

    def x(i: int) -> float:
        return left + w * i / last

    def y(p: float) -> float:
        return top + h * (1 - p)

    seat = int(a.get("seat", 0))
    title = tr("analysis_chart")
    final = chart[-1]["probabilities"] if chart else []
    desc = tr("analysis_chart_desc", seat=names[seat] if seat < len(names) else seat,
              chance=percent(final[seat], lang) if seat < len(final) else "?", steps=last)
    out = [f'<svg class="win-chart" viewBox="0 0 {width} {height}" role="img" aria-labelledby="chart-title chart-desc" '
           f'preserveAspectRatio="xMidYMid meet">',
           f'<title id="chart-title">{escape(title)}</title><desc id="chart-desc">{escape(desc)}</desc>',
           f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="#fff" stroke="#555"/>']
    for q in (0.25, 0.5, 0.75, 1.0):
        out.append(f'<line x1="{left}" x2="{left + w}" y1="{y(q):.1f}" y2="{y(q):.1f}" stroke="#d5d5d5"/>')
        out.append(f'<text x="{left - 5}" y="{y(q) + 4:.1f}" font-size="11" text-anchor="end" fill="#333">'
                   f'{escape(percent(q, lang))}</text>')
    seen: set[int] = set()
    for mark in a.get("years") or []:
        goods = mark["cycle"] not in seen      # a cycle's first Year: a strong rule and its number
        seen.add(mark["cycle"])
        xx = x(mark["index"])
        dotted = "" if goods else ' stroke-dasharray="2 3"'
        out.append(f'<line class="year-mark" data-year="{escape(mark["year"])}" x1="{xx:.1f}" x2="{xx:.1f}" '
                   f'y1="{top}" y2="{top + h}" stroke="{"#666" if goods else "#c8c8c8"}"{dotted}><title>{escape(mark["cycle"])} · '
                   f'{escape(year_name(mark["year"], lang))}</title></line>')
        if goods:
            out.append(f'<text x="{xx + 3:.1f}" y="{top + h + 16}" font-size="11" fill="#333">{mark["cycle"]}</text>')
    out.append(f'<text x="{left + w / 2:.1f}" y="{height - 4}" font-size="11" text-anchor="middle" fill="#333">'
               f'{escape(tr("analysis_cycles"))}</text>')
    for s in range(int(a.get("players", 0))):
        pts = " ".join(f"{x(p['index']):.1f},{y(p['probabilities'][s]):.1f}" for p in chart)
        dash = DASHES[s % len(DASHES)]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline class="seat-line" data-seat="{s}" points="{pts}" fill="none" '
                   f'stroke="{COLOURS[s % len(COLOURS)]}" stroke-width="{3 if s == seat else 1.6}"'
                   f'{dashed}/>')
    for d in a.get("decisions") or []:
        if d.get("mark") and d["index"] + 1 < len(chart):
            p = chart[d["index"] + 1]["probabilities"][seat]
            out.append(f'<circle class="chart-mark" cx="{x(d["index"] + 1):.1f}" cy="{y(p):.1f}" r="4.5" '
                       f'fill="{MARK_COLOUR[d["mark"]]}" stroke="#fff"><title>{escape(mark_name(d["mark"], lang))}'
                       f' · {d["index"] + 1}</title></circle>')
    out.append("</svg>")
    return Markup("".join(out))


def legend(a: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    return [{"seat": s, "name": names[s] if s < len(names) else str(s), "colour": COLOURS[s % len(COLOURS)],
             "dash": DASHES[s % len(DASHES)], "reviewed": s == a.get("seat")} for s in range(int(a.get("players", 0)))]


def year_table(a: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """The chart's values where each cycle begins and at the end (the chart as a table)."""
    chart = a.get("chart") or []
    rows: list[dict[str, Any]] = []
    seen: set[int] = set()
    for mark in a.get("years") or []:
        if mark["cycle"] not in seen and mark["index"] < len(chart):
            seen.add(mark["cycle"])
            rows.append({"label": f'{mark["cycle"]} · {year_name(mark["year"], lang)}',
                         "cells": [percent(p, lang) for p in chart[mark["index"]]["probabilities"]]})
    if chart:
        rows.append({"label": None, "cells": [percent(p, lang) for p in chart[-1]["probabilities"]]})
    return rows


def decisions(a: dict[str, Any], tr: Tr) -> list[dict[str, Any]]:
    lang = tr.lang
    out = []
    for d in a.get("decisions") or []:
        same = d["played"] == d["best"]
        out.append({"index": d["index"] + 1, "when": f'{d["cycle"]} · {year_name(d["year"], lang)}',
                    "decision": tr.decision({"decision": d["decision"]}),
                    "played": tr.action(d["played"]), "best": None if same else tr.action(d["best"]),
                    "value_played": percent(d["value_played"], lang), "value_best": percent(d["value_best"], lang),
                    "cost": percent(d["cost"], lang) if d["cost"] >= 0.005 else "—",
                    "mark": d.get("mark"), "mark_name": mark_name(d.get("mark"), lang)})
    return out


def moment_text(k: dict[str, Any], names: list[str], tr: Tr | None, lang: str) -> str:
    """A key moment's sentence: the stored one; a move no event tells (kind "swing") said by the
    page's own words, the game's deed ("Spanish (Ana) sailed to the Atlantic Ocean") and how the
    chance moved, so an analysis stored before moves had words shows no ids either."""
    stored: str = (k.get("text") or {}).get(lang) or (k.get("text") or {}).get("en", "")
    action = (k.get("params") or {}).get("action")
    seat = k.get("seat")
    if tr is None or k.get("kind") != "swing" or not isinstance(action, dict) \
            or not isinstance(seat, int) or not 0 <= seat < len(names):
        return stored
    before, after = float(k["before"]), float(k["after"])
    change = say("chance_rose" if after > before else "chance_fell", lang, who=names[seat],
                 of_who=of(names[seat], lang), range=span(before, after, lang))
    text = say("moment", lang, what=tr.deed(action), change=change)
    return text[:1].upper() + text[1:]


def moments(a: dict[str, Any], names: list[str], lang: str, tr: Tr | None = None) -> list[dict[str, Any]]:
    return [{"index": k["index"] + 1, "when": f'{k["cycle"]} · {year_name(k["year"], lang)}',
             "text": moment_text(k, names, tr, lang),
             "swing": f'{percent(k["before"], lang)} → {percent(k["after"], lang)}',
             "who": names[k["seat"]] if isinstance(k.get("seat"), int) and k["seat"] < len(names) else ""}
            for k in a.get("key_moments") or []]


def summary(a: dict[str, Any], lang: str) -> dict[str, Any]:
    s = a.get("summary") or {}
    return {"decisions": s.get("decisions", 0), "inaccuracy": s.get("inaccuracy", 0), "mistake": s.get("mistake", 0),
            "blunder": s.get("blunder", 0), "average": percent(s.get("average_cost", 0.0), lang)}


def hint_words(action: dict[str, Any], why: dict[str, Any], view: dict[str, Any] | None, tr: Tr) -> dict[str, Any]:
    """The Hint in words: the move, how the bot chose it, and the other moves it weighed."""
    lang = tr.lang
    move = tr.action(action, view)
    alternatives = []
    for alt in (why.get("alternatives") or [])[:4]:
        if not isinstance(alt, dict) or not isinstance(alt.get("action"), dict):
            continue
        value = alt.get("value")
        alternatives.append(tr("hint_alternative", move=tr.action(alt["action"], view), visits=alt.get("visits", 0),
                               chance=percent(value, lang) if isinstance(value, (int, float)) else "?"))
    if why.get("iterations") is not None:
        how = tr("hint_searched", iterations=why.get("iterations"))
    else:
        how = tr("hint_rule_of_thumb")
    prior = why.get("heuristic_choice")
    thumb = tr("hint_heuristic", move=tr.action(prior, view)) if isinstance(prior, dict) and prior != action else None
    return {"move": move, "how": how, "heuristic": thumb, "alternatives": alternatives}
