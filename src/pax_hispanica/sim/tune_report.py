"""What ``paxh tune`` hands a designer: the best trials as ready ``--set`` lines, the
best one as a ruleset folder (a copy of the tuned ruleset with its numbers changed),
``tune.json`` with every trial, and ``tune.html`` with Optuna's own plots (optimisation
history, parameter importances, Pareto front of a multi-objective study)."""
from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path
from typing import Any

RULESET_DIR = "ruleset"
HTML_FILE = "tune.html"
JSON_FILE = "tune.json"
BEST_DIR = "best"


def best_trials(study: Any, k: int = 5) -> list[Any]:
    """The Pareto front (multi-objective) or the k lowest scores, best first."""
    import optuna

    done = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    if len(study.directions) > 1:
        return sorted(study.best_trials, key=lambda t: sum(t.values))[:k] if done else []
    return sorted(done, key=lambda t: t.value)[:k]


def set_line(params: dict[str, Any], baseline: dict[str, Any] | None = None) -> str:
    """``--set a=1 --set b=2``: only the numbers that differ from the baseline (all when none given)."""
    items = [(k, v) for k, v in sorted(params.items()) if baseline is None or baseline.get(k) != v]
    return " ".join(f"--set {k}={v}" for k, v in items) or "(the ruleset as it is)"


def _write_card_costs(path: Path, params: dict[str, Any]) -> set[str]:
    """PRJ-67: each `card_cost.<id>` of ``params`` written as the `cost` of that entry of
    market.toml (the first `cost =` line after its `id =` line); the names written."""
    from .. import rulesets as rsmod

    prefix = rsmod.CARD_COST
    costs = {k[len(prefix):]: v for k, v in params.items() if k.startswith(prefix)}
    if not costs:
        return set()
    lines = path.read_text(encoding="utf-8").splitlines()
    entry, done = None, set()
    for i, line in enumerate(lines):
        m = re.match(r'\s*id\s*=\s*"([^"]*)"', line)
        if m:
            entry = m.group(1)
            continue
        m = re.match(r"(\s*cost\s*=\s*)(\d+)(.*)$", line)
        if m and entry in costs and entry not in done:
            lines[i] = f"{m.group(1)}{costs[entry]}{m.group(3)}"
            done.add(entry)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {f"{prefix}{e}" for e in done}


def _param_places(schema: dict[str, Any], params: dict[str, Any]) -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, str]]]:
    """Where each parameter is written: name -> (section, key) for every ruleset number, and
    for a number by player count of `params` (PRJ-68 kings_crown_share.<N>, PRJ-75
    crown_colonies.<N>, PRJ-78 smuggler_bribe.<N>) its key in that count's table."""
    where = {}
    for section, keys in schema.items():
        for key in keys:
            where[f"supply_{key}" if section == "supply" else key] = (section, key)
    per_count = {}
    for name in params:
        m = re.fullmatch(r"(crown_colonies|kings_crown_share|smuggler_bribe)\.([2-5])", name)
        if m:
            table = "setup" if m.group(1) == "crown_colonies" else "treasure"
            per_count[name] = (f"{table}.by_players.{m.group(2)}", m.group(1))
    return where, per_count


def _set_numbers(lines: list[str], params: dict[str, Any],
                 places: tuple[dict[str, tuple[str, str]], dict[str, tuple[str, str]]]) -> set[str]:
    """Write each of `params` on its lines of ruleset.toml (in place, comments kept); the names written."""
    where, per_count = places
    section = ""
    seen = set()
    for i, line in enumerate(lines):
        m = re.match(r"\s*\[([^\]]+)\]", line)
        if m:
            section = m.group(1).strip()
            continue
        m = re.match(r"(\s*)([A-Za-z_][A-Za-z0-9_]*)(\s*=\s*)([^#]*?)(\s*(#.*)?)$", line)
        if not m:
            continue
        for name, (sec, key) in where.items():
            if name in params and key == m.group(2) and (section == sec or section.startswith(f"{sec}.by_players.")):
                lines[i] = f"{m.group(1)}{key}{m.group(3)}{_toml(params[name])}{m.group(5)}"
                seen.add(name)
        for name, (sec, key) in per_count.items():
            if section == sec and key == m.group(2):
                lines[i] = f"{m.group(1)}{key}{m.group(3)}{_toml(params[name])}{m.group(5)}"
                seen.add(name)
    return seen


def _mark_tuned(lines: list[str]) -> None:
    """The ruleset's version gets "+tuned"."""
    for i, line in enumerate(lines):
        m = re.match(r'(\s*version\s*=\s*)"([^"]*)"(.*)$', line)
        if m:
            lines[i] = f'{m.group(1)}"{m.group(2)}+tuned"{m.group(3)}'
            break


def write_ruleset(source: str | Path, params: dict[str, Any], dest: Path, note: str = "") -> Path:
    """Copy the ruleset folder and write ``params`` into its ruleset.toml (each key in its
    section, [setup.by_players.N] overrides included, since a --set value holds for every
    player count); comments are kept. Checked by loading the copy."""
    from .. import rulesets as rsmod

    src = Path(source) if "/" in str(source) else rsmod.DATA / str(source)
    # PRJ-83: a named set of house rules is written out as its numbers (the variant's on top)
    params = {k: v for k, v in rsmod.expand_house_rules(str(source), params).items() if k != "house_rules"}
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(src, dest)
    path = dest / "ruleset.toml"
    lines = path.read_text(encoding="utf-8").splitlines()
    seen = _set_numbers(lines, params, _param_places(rsmod.PARAMS, params))
    _mark_tuned(lines)
    seen |= _write_card_costs(dest / "market.toml", params)
    missing = sorted(set(params) - seen)
    if missing:
        raise ValueError(f"ruleset.toml of {src} has no line for {', '.join(missing)}")
    header = f"# Written by `paxh tune`{': ' + note if note else ''}. Changed: {set_line(params)}\n"
    path.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    loaded = rsmod.load_ruleset(str(dest.resolve()))
    held = {**loaded.params, **rsmod.card_cost_params(loaded)}
    wrong = {k: v for k, v in params.items() if held.get(k) != v}
    if wrong:
        raise ValueError(f"the written ruleset does not hold {wrong}")
    return dest


def _toml(v: Any) -> str:
    return json.dumps(v) if isinstance(v, str) else str(v)


def trial_rows(study: Any) -> list[dict[str, Any]]:
    out = []
    for t in study.trials:
        res = t.user_attrs.get("result") or t.user_attrs.get("first_batch") or {}
        out.append({"number": t.number, "state": t.state.name.lower(), "params": t.params,
                    "values": list(t.values) if t.values is not None else None,
                    "intermediate": {str(k): v for k, v in t.intermediate_values.items()},
                    "losses": res.get("losses"), "groups": res.get("groups"), "figures": res.get("figures"),
                    "skill_rates": res.get("skill_rates"), "errors": res.get("errors"),
                    "games": res.get("games"), "failure": t.user_attrs.get("error")})
    return out


def write(study: Any, out: Path, source_ruleset: str, baseline: dict[str, Any], lines: list[str],
          replay: Any = None) -> dict[str, Any]:
    """tune.json, tune.html and the best trial's ruleset folder in ``out``; with ``replay``
    (trial -> (results, summary)), the best trial's games as a simulator report in OUT/best/."""
    out.mkdir(parents=True, exist_ok=True)
    best = best_trials(study)
    summary = {"study": study.study_name, "config": study.user_attrs.get("config"), "baseline": baseline,
               "objectives": lines,
               "best": [{"number": t.number, "values": list(t.values), "params": t.params,
                         "set": set_line(t.params, baseline)} for t in best],
               "trials": trial_rows(study)}
    if best:
        summary["ruleset"] = str(write_ruleset(source_ruleset, best[0].params, out / RULESET_DIR,
                                               f"trial {best[0].number} of study {study.study_name}"))
        if replay is not None:
            from . import output
            results, sim_summary = replay(best[0])
            output.write_all(results, sim_summary, out / BEST_DIR,
                             {"tune_trial": best[0].number, "params": best[0].params, "games": len(results)})
            summary["best_report"] = str(out / BEST_DIR / output.REPORT_FILE)
    (out / JSON_FILE).write_text(json.dumps(summary, indent=2, sort_keys=True, default=str))
    (out / HTML_FILE).write_text(render_html(study, summary), encoding="utf-8")
    return summary


def _figures(study: Any) -> list[tuple[str, Any]]:
    """Optuna's plots (plotly); each is skipped when the study cannot draw it yet."""
    from optuna import visualization as vis

    multi = len(study.directions) > 1
    names = (study.user_attrs.get("config") or {}).get("groups") or []
    plots: list[tuple[str, Any]] = []
    tries: list[tuple[str, Any]] = []
    if multi:
        tries.append(("Pareto front", lambda: vis.plot_pareto_front(study, target_names=names or None)))
        for i, g in enumerate(names):
            tries.append((f"optimisation history: {g}",
                          lambda i=i, g=g: vis.plot_optimization_history(study, target=lambda t: t.values[i], target_name=g)))
            tries.append((f"parameter importances: {g}",
                          lambda i=i, g=g: vis.plot_param_importances(study, target=lambda t: t.values[i], target_name=g)))
    else:
        tries.append(("optimisation history", lambda: vis.plot_optimization_history(study)))
        tries.append(("parameter importances", lambda: vis.plot_param_importances(study)))
        tries.append(("intermediate values (pruning)", lambda: vis.plot_intermediate_values(study)))
        tries.append(("slices", lambda: vis.plot_slice(study)))
    import warnings
    for title, make in tries:
        try:
            with warnings.catch_warnings():     # Optuna's notes on experimental plots, not the user's business
                warnings.simplefilter("ignore")
                plots.append((title, make()))
        except Exception:  # any failure, e.g. importances need two finished trials and a varying parameter
            continue
    return plots


def render_html(study: Any, summary: dict[str, Any]) -> str:
    parts = ["<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Pax Hispanica tuning report</title>",
             ("<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
              "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px}code{background:#f4f4f4}</style>"),
             "</head><body><h1>Pax Hispanica tuning report</h1>",
             (f"<p>Study <code>{html.escape(study.study_name)}</code>: {len(study.trials)} trials "
              f"({', '.join(f'{n} {s}' for s, n in _states(study).items())}). Settings: "
              f"<code>{html.escape(json.dumps(summary.get('config'), sort_keys=True))}</code></p>"),
             "<h2>Objectives</h2><ul>" + "".join(f"<li>{html.escape(x)}</li>" for x in summary["objectives"]) + "</ul>",
             ("<h2>Best trials</h2><p>Ready to try: <code>paxh simulate ... --set NAME=VALUE</code>; the best one is also "
              f"the ruleset folder <code>{html.escape(str(summary.get('ruleset', '')))}</code> "
              "(<code>paxh simulate --ruleset FOLDER</code>).</p><table><tr><th>trial</th><th>values</th><th>--set</th></tr>")]
    for b in summary["best"]:
        parts.append(f"<tr><td>{b['number']}</td><td>{', '.join(f'{v:.3f}' for v in b['values'])}</td>"
                     f"<td><code>{html.escape(b['set'])}</code></td></tr>")
    parts.append("</table>")
    if summary.get("best_report"):
        parts.append(f"<p>The best trial's games of the first table, with win rates, pace and engagement: "
                     f"<a href='{BEST_DIR}/report.html'>{BEST_DIR}/report.html</a>.</p>")
    first = True
    for title, fig in _figures(study):
        parts.append(f"<h2>{html.escape(title)}</h2>")
        # the first plot carries plotly.js so that the page is one file that opens offline
        parts.append(fig.to_html(full_html=False, include_plotlyjs=first))
        first = False
    parts.append("<h2>Every trial</h2><table><tr><th>trial</th><th>state</th><th>values</th><th>params</th></tr>")
    for t in summary["trials"]:
        vals = ", ".join(f"{v:.3f}" for v in t["values"]) if t["values"] else \
            ("first half: " + ", ".join(f"{v:.3f}" for v in t["intermediate"].values()) if t["intermediate"] else "")
        parts.append(f"<tr><td>{t['number']}</td><td>{t['state']}</td><td>{vals}</td>"
                     f"<td><code>{html.escape(json.dumps(t['params'], sort_keys=True))}</code></td></tr>")
    parts.append("</table></body></html>")
    return "\n".join(parts)


def _states(study: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in study.trials:
        out[t.state.name.lower()] = out.get(t.state.name.lower(), 0) + 1
    return out
