"""Writing a simulation to a directory: per-game JSON Lines, the summary as
JSON, PNG plots (matplotlib, Agg backend) and one self-contained HTML report
that shows the tables, embeds the plots and, when explanations were logged,
summarises why the bots played as they did."""
from __future__ import annotations

import base64
import html
import json
from pathlib import Path
from typing import Any

GAMES_FILE = "games.jsonl"
EXPLANATIONS_FILE = "explanations.jsonl"
SUMMARY_FILE = "summary.json"
REPORT_FILE = "report.html"


def write_jsonl(results: list[dict[str, Any]], path: Path) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r, sort_keys=True) + "\n" for r in results)


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write_all(results: list[dict[str, Any]], summary: dict[str, Any], out: str | Path, meta: dict[str, Any] | None = None) -> dict[str, Path]:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    explanations = []
    plain = []
    for r in results:
        r = dict(r)
        ex = r.pop("explanations", None)
        if ex is not None:
            for e in ex:
                explanations.append({"game": r["index"], **e})
        plain.append(r)
    write_jsonl(plain, out / GAMES_FILE)
    written["games"] = out / GAMES_FILE
    if explanations:
        write_jsonl(explanations, out / EXPLANATIONS_FILE)
        written["explanations"] = out / EXPLANATIONS_FILE
    (out / SUMMARY_FILE).write_text(json.dumps({"meta": meta or {}, **summary}, indent=2, sort_keys=True))
    written["summary"] = out / SUMMARY_FILE
    plots = write_plots(results, summary, out)
    written.update({f"plot:{k}": v for k, v in plots.items()})
    from . import interactive
    inter = interactive.write(summary, out)
    if inter is not None:
        written["interactive"] = inter
    page = render_html(summary, plots, meta or {})
    if inter is not None:
        page = page.replace("<h2>Pace and engagement</h2>", "<h2>Pace and engagement</h2>" + interactive.link(), 1)
    (out / REPORT_FILE).write_text(page, encoding="utf-8")
    written["report"] = out / REPORT_FILE
    return written


# -- plots ---------------------------------------------------------------

def _bar_with_ci(ax: Any, table: dict[str, Any], title: str, baseline: float | None = None) -> None:
    keys = list(table)
    rates = [table[k]["rate"] or 0.0 for k in keys]
    lo = [r - table[k]["ci95"][0] for k, r in zip(keys, rates)]
    hi = [table[k]["ci95"][1] - r for k, r in zip(keys, rates)]
    ax.bar(range(len(keys)), rates, yerr=[lo, hi], capsize=4, color="#4c72b0")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(keys, rotation=30 if max((len(k) for k in keys), default=0) > 6 else 0, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(title)
    if baseline is not None:
        ax.axhline(baseline, color="grey", linestyle="--", linewidth=1, label="chance")
        ax.legend(loc="upper right")


def write_plots(results: list[dict[str, Any]], summary: dict[str, Any], out: Path) -> dict[str, Path]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ok = [r for r in results if not r.get("error")]
    plots: dict[str, Path] = {}
    chance = _chance(summary, ok)

    def save(fig: Any, name: str) -> None:
        path = out / f"{name}.png"
        fig.tight_layout()
        fig.savefig(path, dpi=90)
        plt.close(fig)
        plots[name] = path

    for name, title in (("seat", "Win rate by seat"), ("bot", "Win rate by bot"),
                        ("nation", "Win rate by nation"), ("legality", "Win rate by final legality")):
        table = summary["win_rate"].get(name) or {}
        if table:
            fig, ax = plt.subplots(figsize=(6, 3.5))
            _bar_with_ci(ax, table, title, chance)
            save(fig, f"win_rate_by_{name}")
    eng = summary.get("engagement") or {}
    if any(r.get("scores") for r in ok):
        save(_plot_scores(plt, ok), "scores")
    if ok:
        save(_plot_length(plt, ok), "length")
    cards = summary.get("cards") or {}
    if cards:
        save(_plot_cards(plt, cards, chance), "cards")
    curve = eng.get("prestige_by_cycle") or []
    if curve:
        save(_plot_curve(plt, curve), "prestige_curve")
    events = eng.get("events") or {}
    if events:
        save(_plot_events(plt, events), "events")
    return plots


def _chance(summary: dict[str, Any], ok: list[dict[str, Any]]) -> float | None:
    """A seat's chance to win by luck alone: the report's, else the mean of 1/players over the games."""
    chance: float | None = summary["first_player"].get("chance")
    if chance is None and ok:
        chance = sum(1 / r["players"] for r in ok) / len(ok)
    return chance


def _plot_scores(plt: Any, ok: list[dict[str, Any]]) -> Any:
    fig, ax = plt.subplots(figsize=(6, 3.5))
    all_scores = [x for r in ok for x in (r.get("scores") or [])]
    win_scores = [r["scores"][r["winner"]] for r in ok if r.get("scores")]
    bins = max(5, min(30, len(set(all_scores))))
    ax.hist(all_scores, bins=bins, alpha=0.6, label="all seats")
    ax.hist(win_scores, bins=bins, alpha=0.6, label="winners")
    ax.set_xlabel("final score (Prestige)")
    ax.set_ylabel("count")
    ax.set_title("Score distribution")
    ax.legend()
    return fig


def _plot_length(plt: Any, ok: list[dict[str, Any]]) -> Any:
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.hist([r["decisions"] for r in ok], bins=20, color="#55a868")
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    return fig


def _plot_cards(plt: Any, cards: dict[str, Any], chance: float | None) -> Any:
    top = list(cards.items())[:25]
    fig, ax = plt.subplots(figsize=(7, max(3, 0.28 * len(top) + 1)))
    names = [k for k, _ in top][::-1]
    rates = [v["rate"] or 0 for _, v in top][::-1]
    err = [[r - v["ci95"][0] for r, (_, v) in zip(rates, top[::-1])],
           [v["ci95"][1] - r for r, (_, v) in zip(rates, top[::-1])]]
    ax.barh(range(len(names)), rates, xerr=err, capsize=3, color="#c44e52")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=8)
    ax.set_xlim(0, 1)
    if chance:
        ax.axvline(chance, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("win rate of the player who played it (95% CI)")
    ax.set_title("Cards (most played first)")
    return fig


def _plot_curve(plt: Any, curve: list[dict[str, Any]]) -> Any:
    fig, ax = plt.subplots(figsize=(6, 3.5))
    xs = [c["cycle"] for c in curve]
    for key, label in (("leader", "leader"), ("mean", "mean of the seats"), ("last", "last")):
        ys = [c[key]["mean"] for c in curve]
        lo = [c[key]["mean"] - c[key]["ci95"][0] for c in curve]
        hi = [c[key]["ci95"][1] - c[key]["mean"] for c in curve]
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label=label)
    ax.set_xticks(xs)
    ax.set_xlabel("end of cycle")
    ax.set_ylabel("Prestige (mean, 95% CI)")
    ax.set_title("Prestige curve")
    ax.legend()
    return fig


def _plot_events(plt: Any, events: dict[str, Any]) -> Any:
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    names = list(events)[::-1]
    ms = [events[k]["mean"] or 0 for k in names]
    err = [[m - events[k]["ci95"][0] for m, k in zip(ms, names)], [events[k]["ci95"][1] - m for m, k in zip(ms, names)]]
    ax.barh(range(len(names)), ms, xerr=err, capsize=3, color="#8172b2")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=8)
    ax.set_xlabel("per game (mean, 95% CI)")
    ax.set_title("What happens in a game")
    return fig


# -- HTML ----------------------------------------------------------------

def _fmt_rate(r: Any) -> str:
    return "" if r is None else f"{r:.3f}"


def _table(title: str, table: dict[str, Any], first_col: str) -> str:
    if not table:
        return ""
    rows = "".join(
        f"<tr><td>{html.escape(str(k))}</td><td>{v['wins']}</td><td>{v['games']}</td>"
        f"<td>{_fmt_rate(v['rate'])}</td>"
        f"<td>{v['ci95'][0]:.3f} – {v['ci95'][1]:.3f}</td></tr>"
        for k, v in table.items())
    return (f"<h3>{html.escape(title)}</h3><table><tr><th>{first_col}</th><th>wins</th>"
            f"<th>games</th><th>win rate</th><th>95% CI</th></tr>{rows}</table>")


def _dist(title: str, d: dict[str, Any]) -> str:
    if not d or not d.get("n"):
        return ""
    cols = ["n", "mean", "sd", "min", "p10", "p25", "median", "p75", "p90", "max"]
    return (f"<tr><td>{html.escape(title)}</td>" + "".join(f"<td>{d[c]:g}</td>" for c in cols) + "</tr>")


def _img(path: Path, alt: str) -> str:
    """The plot inside the page (a data URI), so that report.html is one file to share;
    the PNG stays next to it."""
    data = base64.b64encode(Path(path).read_bytes()).decode("ascii")
    return f"<img src='data:image/png;base64,{data}' alt='{html.escape(alt)}' title='{html.escape(Path(path).name)}'>"


def _why_html(why: dict[str, Any]) -> str:
    """The logged explanations: which rules of thumb each bot applied."""
    if not why:
        return ""
    parts = ["<h2>Why the bots play what they play</h2>",
             "<p>From the logged explanations (<code>--log-explanations</code>, every decision in "
             "<code>explanations.jsonl</code>).</p>"]
    for bot, e in why.items():
        extra = ""
        if "mean_iterations" in e:
            extra += f"; {e['mean_iterations']:g} search iterations per decision on average"
        if "agrees_with_heuristic" in e:
            extra += (f"; chose the heuristic bot's move in {100 * e['agrees_with_heuristic']:.1f}% "
                      f"of {e['searched_decisions']} searched decisions")
        parts.append(f"<h3>{html.escape(bot)}</h3><p>{e['decisions']} decisions{extra}.</p>")
        for key, title in (("rules_of_thumb", "rule of thumb"), ("action_types", "action")):
            rows = "".join(f"<tr><td>{html.escape(k)}</td><td>{v['count']}</td><td>{100 * v['share']:.1f}%</td></tr>"
                           for k, v in e[key].items())
            parts.append(f"<table><tr><th>{title}</th><th>decisions</th><th>share</th></tr>{rows}</table>")
    return "\n".join(parts)


# Ruleset options that change a rule rather than a number, and the project decision of each
VARIANT_RULES = {("plunder_loading", "sack_or_own"): "PRJ-38: a PLUNDER fleet also loads its own colonies' Chests, free "
                                                     "(TRS-2: only by sacking)",
                 ("employ_range", "anywhere"): "LAB-2: a colony employs from any Cathedral, not only its land zone's",
                 ("prestige_goal", "standing"): "PRJ-56: the Prestige goal counts the score CYC-3 would give (held "
                                                "Prestige, money and colonies), not only Prestige held (CYC-2)"}


def variant_rules(params: dict[str, Any]) -> list[str]:
    """The variant rules a run's overrides (PRJ-31) turn on, in words."""
    return [VARIANT_RULES[(k, v)] for k, v in sorted(params.items()) if (k, v) in VARIANT_RULES]


def render_html(summary: dict[str, Any], plots: dict[str, Path], meta: dict[str, Any]) -> str:
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<title>Pax Hispanica simulation report</title><style>",
        "body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}",
        "table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}",
        "td:first-child,th:first-child{text-align:left}img{max-width:100%;margin:.5em 0}code{background:#f4f4f4}",
        "</style></head><body><h1>Pax Hispanica simulation report</h1>",
    ]
    parts += _run_html(summary, meta)
    parts += _first_player_html(summary["first_player"])
    parts += _win_rates_html(summary, plots)
    parts += _scores_html(summary, plots)
    parts.append("<h2>Cards</h2><p>For each card: among the players who played it in a game, how often that player won.</p>")
    parts.append(_table("Win rate of the player who played the card", summary.get("cards") or {}, "card"))
    if "cards" in plots:
        parts.append(_img(plots["cards"], "cards"))
    parts.append(engagement_html(summary.get("engagement") or {}, plots))
    parts.append(_why_html(summary.get("why") or {}))
    parts.append("</body></html>")
    return "\n".join(p for p in parts if p)


def _run_html(summary: dict[str, Any], meta: dict[str, Any]) -> list[str]:
    """What was run: the options, the variant's rules and house rules, the counts, the errors."""
    parts = []
    if meta:
        parts.append("<p>" + ", ".join(f"<b>{html.escape(str(k))}</b>: <code>{html.escape(str(v))}</code>"
                                       for k, v in meta.items()) + "</p>")
    rules = variant_rules((meta or {}).get("params") or {})
    if rules:
        parts.append("<p><b>Variant rules</b> (not the reference's): " + "; ".join(html.escape(r) for r in rules) + ".</p>")
    house = summary.get("house_rules") or []
    if house:        # PRJ-81: the seed sentences this run's variant changes
        parts.append("<p id='house-rules'><b>House rules</b> (a seed sentence changed, PRJ-81; never the default): "
                     + "; ".join(html.escape(f"{h['rule']} ({h['param']}): {h['change']}; the seed: {h['sentence']}")
                                 for h in house) + ".</p>")
    parts.append(
        f"<p>{summary['games']} games ({summary['completed']} completed, {summary['errors']} with errors); "
        f"players: {summary['players']}; mean decisions per game: {summary['decisions_per_game']:.1f}; "
        f"{summary['seconds_per_game']:.3f} s per game.</p>")
    if summary["error_examples"]:
        parts.append("<h2>Errors</h2><ul>" + "".join(
            f"<li>game {e['index']} (seed {e['seed']}): {html.escape(e['error'])}</li>"
            for e in summary["error_examples"]) + "</ul>")
    return parts


def _first_player_html(fp: dict[str, Any]) -> list[str]:
    if fp["games"]:
        return ["<h2>First-player advantage</h2>",
                f"<p>The seat first in Player Order at setup won {fp['wins']} of {fp['games']} games: "
                f"{fp['rate']:.3f} (95% CI {fp['ci95'][0]:.3f}–{fp['ci95'][1]:.3f}); chance is {fp['chance']:.3f}.</p>"]
    return ["<h2>First-player advantage</h2>",
            "<p>The engine's view does not expose the Player Order; see win rate by seat.</p>"]


def _win_rates_html(summary: dict[str, Any], plots: dict[str, Path]) -> list[str]:
    parts = ["<h2>Win rates</h2>"]
    for key, title, col in (("seat", "By seat", "seat"), ("bot", "By bot", "bot"),
                            ("nation", "By nation", "nation"), ("legality", "By legality at the end", "legality"),
                            ("start_legality", "By legality at setup", "legality"),
                            ("bot_nation", "By bot and nation", "bot / nation")):
        parts.append(_table(title, summary["win_rate"].get(key) or {}, col))
        if f"win_rate_by_{key}" in plots:
            parts.append(_img(plots[f"win_rate_by_{key}"], title))
    if summary.get("bot_scores"):
        parts.append("<h3>Mean score and rank by bot</h3><table><tr><th>bot</th><th>mean score</th><th>mean rank</th></tr>"
                     + "".join(f"<tr><td>{html.escape(b)}</td><td>{v['mean_score']}</td><td>{v['mean_rank']}</td></tr>"
                               for b, v in summary["bot_scores"].items()) + "</table>")
    return parts


def _scores_html(summary: dict[str, Any], plots: dict[str, Path]) -> list[str]:
    parts = ["<h2>Scores and length</h2><table><tr><th></th>" + "".join(
        f"<th>{c}</th>" for c in ["n", "mean", "sd", "min", "p10", "p25", "median", "p75", "p90", "max"]) + "</tr>"]
    parts.append(_dist("score, all seats", summary["scores"]["all"]))
    parts.append(_dist("score, winner", summary["scores"]["winner"]))
    parts.append(_dist("winning margin", summary["scores"]["margin"]))
    parts.append(_dist("decisions per game", summary["length"]["decisions"]))
    parts.append(_dist("cycles per game", summary["length"]["cycles"]))
    parts.append("</table>")
    for name in ("scores", "length"):
        if name in plots:
            parts.append(_img(plots[name], name))
    return parts


def _ci(d: dict[str, Any] | None, pct: bool = False) -> str:
    """"mean (lo–hi)" of a mean_ci or share dict."""
    if not d:
        return "—"
    v = d.get("share", d.get("mean"))
    if v is None:
        return "—"
    lo, hi = d["ci95"]
    if pct:
        return f"{100 * v:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"
    return f"{v:.2f} ({lo:.2f}–{hi:.2f})"


def engagement_html(eng: dict[str, Any], plots: dict[str, Path]) -> str:
    """Pace and engagement (sim/engagement.py): the figures with their 95% intervals."""
    if not eng:
        return ""
    rows = [("lead changes per game", _ci(eng["lead_changes"])),
            ("decisions per game", _ci(eng["decisions_per_game"])),
            ("cycles per game", _ci(eng["cycles_per_game"])),
            ("games ended early by Prestige", _ci(eng["ended_by_prestige"], True)),
            ("forced decisions (one legal action)", _ci(eng["forced"], True)),
            ("passes", _ci(eng["passes"], True)),
            ("cards played per player", _ci(eng["cards_per_player"])),
            ("money unspent at the end, per player", _ci(eng["money_unspent_end"]))]
    parts = ["<h2>Pace and engagement</h2>",
             f"<p>{eng['games']} games. Means with a 95% normal-approximation interval; shares with a "
             "95% Wilson interval (docs/bots.md, Engagement statistics).</p><table>"
             + "".join(f"<tr><td>{html.escape(k)}</td><td>{v}</td></tr>" for k, v in rows) + "</table>"]
    if "prestige_curve" in plots:
        parts.append(_img(plots["prestige_curve"], "Prestige curve"))
    parts.append("<h3>Prestige at the end of each cycle</h3><table><tr><th>cycle</th><th>games</th>"
                 "<th>leader</th><th>mean</th><th>last</th></tr>" + "".join(
                     f"<tr><td>{c['cycle']}</td><td>{c['games']}</td><td>{_ci(c['leader'])}</td>"
                     f"<td>{_ci(c['mean'])}</td><td>{_ci(c['last'])}</td></tr>" for c in eng["prestige_by_cycle"])
                 + "</table>")
    parts.append(_happens_html(eng))
    if "events" in plots:
        parts.append(_img(plots["events"], "events"))
    parts.append("<h3>Actions chosen</h3><table><tr><th>action</th><th>per game</th><th>share of decisions</th></tr>"
                 + "".join(f"<tr><td>{html.escape(k)}</td><td>{_ci(v)}</td><td>{_ci(v['share_of_decisions'], True)}</td></tr>"
                           for k, v in (eng.get("actions") or {}).items()) + "</table>")
    parts += _first_cycle_html(eng.get("first_cycle_cards") or {})
    if eng.get("cards_rarely_played"):
        parts.append("<p>Played in fewer than 5% of games: " + html.escape(", ".join(eng["cards_rarely_played"])) + ".</p>")
    parts.append(_cards_chosen_html(eng.get("cards") or {}))
    return "\n".join(parts)


def _happens_html(eng: dict[str, Any]) -> str:
    """Events, and loads by legality and by rule, per game and the share of games with any."""
    def rows(prefix: str, table: dict[str, Any]) -> str:
        return "".join(f"<tr><td>{prefix}{html.escape(k)}</td><td>{_ci(v)}</td><td>{_ci(v['games_with'], True)}</td></tr>"
                       for k, v in table.items())
    return ("<h3>What happens</h3><table><tr><th>event</th><th>per game</th><th>games where it happens</th></tr>"
            + rows("", eng.get("events") or {}) + rows("loading as ", eng.get("loads_by_legality") or {})
            + rows("loading under ", eng.get("loads_by_rule") or {}) + "</table>")


def _first_cycle_html(first: dict[str, Any]) -> list[str]:
    if not first:
        return []
    return ["<h3>Cards in the first cycle</h3><table><tr><th></th><th>games where it played a card in "
            "cycle 1</th><th>games where it could pay for one</th></tr>" + "".join(
                f"<tr><td>{html.escape(group[3:])} {html.escape(k)}</td><td>{_ci(v['played'], True)}</td>"
                f"<td>{_ci(v['could_play'], True)}</td></tr>"
                for group in ("by_nation", "by_seat") for k, v in (first.get(group) or {}).items())
            + "</table>"]


def _cards_chosen_html(cards: dict[str, Any]) -> str:
    won = all("games_won" in v for v in cards.values()) and bool(cards)
    return ("<h3>Cards chosen</h3><table><tr><th>card</th><th>played per game</th><th>games where played</th>"
            + ("<th>games where won at auction</th><th>of those, games where played</th>" if won else "")
            + "</tr>"
            + "".join(f"<tr><td>{html.escape(k)}</td><td>{_ci(v)}</td><td>{_ci(v['games_with'], True)}</td>"
                      + (f"<td>{_ci(v['games_won'], True)}</td><td>{_ci(v['played_when_won'], True)}</td>" if won else "")
                      + "</tr>"
                      for k, v in cards.items()) + "</table>")
