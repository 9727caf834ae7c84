"""A `GameAnalysis` as text (the CLI) and its chart as a standalone SVG (no script, no fonts)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from . import messages as M
from .game import ROLLOUT_BOT, GameAnalysis

COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98")


def action_text(a: GameAnalysis, action: Mapping[str, Any], lang: str = "en") -> str:
    """A move in words, as the web and terminal games say it (web/present/i18n.py's catalogues),
    its places and cards named: "Sail to Atlantic Ocean", "Bid $3", "Play Galleon on Havana"."""
    from ..web.present.i18n import Tr
    seats = [M.nation(a.nations[s] if s < len(a.nations) else None, s, lang) for s in range(a.players)]
    return Tr(lang, seats, dict(a.names)).action(dict(action))


# GameAnalysis.bot -> the message that names it
BOT_WORDS = {"ismcts": "bot_ismcts", ROLLOUT_BOT: "bot_rollout", "heuristic": "bot_heuristic"}


def text(a: GameAnalysis, lang: str = "en") -> str:
    M.check_lang(lang)
    who = M.nation(a.nations[a.seat] if a.seat < len(a.nations) else None, a.seat, lang)
    names = [M.nation(nat, s, lang) for s, nat in enumerate(a.nations)]
    bot = M.say(BOT_WORDS.get(a.bot, "bot_heuristic"), lang, budget=a.budget, seed=a.seed)
    counts = a.counts()
    lines = [M.say("title", lang, who=who, of_who=M.of(who, lang), seat=a.seat, players=a.players),
             M.say("engine", lang, bot=bot),
             M.say("result", lang, who=names[a.winner]) if a.winner is not None else M.say("unfinished", lang),
             M.say("summary", lang, decisions=len(a.decisions), average=M.percent(a.average_cost(), lang), **counts),
             "", M.say("chart", lang)]
    width = max(8, *(len(n) for n in names))
    lines.append(f"{'#':>5}  {'':<28}" + "".join(f"{n:>{width + 1}}" for n in names))
    starts = {y.index: y for y in a.years}
    for p in a.chart:
        if p.index in starts or p.index == len(a.chart) - 1:
            label = M.say("year_mark", lang, cycle=p.cycle, year=M.YEARS[lang].get(p.year, p.year)) \
                if p.index in starts else M.say("end", lang)
            lines.append(f"{p.index:>5}  {label:<28}" + "".join(f"{M.percent(x, lang):>{width + 1}}" for x in p.probabilities))
    lines += ["", M.say("decisions", lang)]
    for d in a.decisions:
        flag = f"  {M.MARKS[lang][d.mark]}" if d.mark else ""
        best = "" if d.best == d.played else f"; {M.say('best', lang)}: {action_text(a, d.best, lang)} ({M.percent(d.value_best, lang)})"
        lines.append(f"{d.index:>5}  {d.cycle}/{M.YEARS[lang].get(d.year, d.year):<11} {d.decision:<11} "
                     f"{M.say('played', lang)}: {action_text(a, d.played, lang)} ({M.percent(d.value_played, lang)}){best}{flag}")
    lines += ["", M.say("key_moments", lang)]
    if not a.key_moments:
        lines.append(M.say("no_moments", lang))
    for k in a.key_moments:
        lines.append(f"{k.index:>5}  {k.cycle}/{M.YEARS[lang].get(k.year, k.year):<11} {k.text[lang]}")
    return "\n".join(lines)


def chart_svg(a: GameAnalysis, lang: str = "en", width: int = 720, height: int = 260) -> str:
    """The win-probability chart: one line per seat; every Year a vertical rule where it begins
    (its initial at the top, its cycle and name in the rule's title), each cycle's first Year a
    strong one numbered below; the reviewed seat's mistakes and blunders dotted."""
    M.check_lang(lang)
    left, right, top, bottom = 40, 120, 10, 30
    w, h = width - left - right, height - top - bottom
    last = max(1, len(a.chart) - 1)

    def x(i: int) -> float:
        return left + w * i / last

    def y(p: float) -> float:
        return top + h * (1 - p)
    title = escape(M.say("chart", lang))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" aria-label="{title}">',
           f"<title>{title}</title>",
           f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="none" stroke="#888"/>']
    for q in (0.25, 0.5, 0.75):
        out.append(f'<line x1="{left}" x2="{left + w}" y1="{y(q):.1f}" y2="{y(q):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 4}" y="{y(q) + 4:.1f}" font-size="10" text-anchor="end">{M.percent(q, lang)}</text>')
    seen: set[int] = set()
    for mark in a.years:                  # every Year ruled where it begins, named in its title
        first = mark.cycle not in seen    # a cycle's first Year: a strong rule and the cycle's number below
        seen.add(mark.cycle)
        xx = x(mark.index)
        year = M.YEARS[lang].get(mark.year, mark.year)
        dash = "" if first else ' stroke-dasharray="3 3"'
        out.append(f'<line class="year-mark" data-year="{escape(mark.year)}" x1="{xx:.1f}" x2="{xx:.1f}" y1="{top}" '
                   f'y2="{top + h}" stroke="{"#777" if first else "#bbb"}"{dash}>'
                   f'<title>{escape(M.say("year_mark", lang, cycle=mark.cycle, year=year))}</title></line>')
        out.append(f'<text x="{xx + 2:.1f}" y="{top + 9}" font-size="8" fill="#666">{escape(year[:1])}</text>')
        if first:
            out.append(f'<text x="{xx + 2:.1f}" y="{top + h + 14}" font-size="10">{mark.cycle}</text>')
    for s in range(a.players):
        pts = " ".join(f"{x(p.index):.1f},{y(p.probabilities[s]):.1f}" for p in a.chart)
        colour = COLOURS[s % len(COLOURS)]
        width_line = 2.5 if s == a.seat else 1.2
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="{width_line}"/>')
        name = escape(M.nation(a.nations[s] if s < len(a.nations) else None, s, lang))
        out.append(f'<text x="{left + w + 8}" y="{top + 14 + 16 * s}" font-size="12" fill="{colour}">{name}</text>')
    for d in a.decisions:
        if d.mark in ("mistake", "blunder"):
            p = a.chart[d.index + 1].probabilities[a.seat] if d.index + 1 < len(a.chart) else 0.0
            out.append(f'<circle cx="{x(d.index + 1):.1f}" cy="{y(p):.1f}" r="4" '
                       f'fill="{"#e74c3c" if d.mark == "blunder" else "#f39c12"}"><title>'
                       f'{escape(M.MARKS[lang][d.mark])}: {escape(action_text(a, d.played, lang))}</title></circle>')
    out.append("</svg>")
    return "\n".join(out)
