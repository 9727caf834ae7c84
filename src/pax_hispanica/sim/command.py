"""``paxh simulate``: a Typer command function (the CLI module registers it)."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..bots import KINDS as BOT_KINDS
from ..bots.base import DEFAULT_API
from . import output
from .runner import parse_params, run
from .sweep import parse_sweep
from .stats import report

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID


def simulate_command(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=5, help="Seats per game (2-5).")] = 4,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Master seed; each game's seed derives from it and the game index.")] = 0,
    bots: Annotated[str, typer.Option("--bots", help=f"Comma list of bots, one per seat: {', '.join(BOT_KINDS)}, each with options as KIND[:key=value...], e.g. ismcts:iterations=N:seconds=S:cutoff=N. Missing seats are random.")] = "",
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local worker processes.")] = 1,
    dask: Annotated[str | None, typer.Option("--dask", help="Address of a running Dask scheduler (tcp://host:port); overrides --workers.")] = None,
    json_mode: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")] = False,
    out: Annotated[Path | None, typer.Option("--out", help="Directory for games.jsonl, summary.json, report.html and PNG plots.")] = None,
    log_explanations: Annotated[bool, typer.Option("--log-explanations", help="Record every bot decision's explanation (written to OUT/explanations.jsonl).")] = False,
    nations: Annotated[str, typer.Option("--nations", help="Nations by seat: 'default' (the ruleset's order), 'shuffle' (a random set per game, from its seed), or a comma list.")] = "default",
    ruleset: Annotated[str, typer.Option("--ruleset", help="Ruleset name or folder (a copy of src/pax_hispanica/data/reference with its numbers or cards changed).")] = "reference",
    set_params: Annotated[list[str] | None, typer.Option("--set", metavar="NAME=VALUE", help="Override one ruleset number by name for every game, NAME=VALUE (repeatable): --set crown_colony_prestige=1 --set conquistador_prestige=1. `paxh rules --params` lists them.")] = None,
    sweep: Annotated[str | None, typer.Option("--sweep", help="Compare values of one ruleset number on the same games, NAME=V1,V2,...: --sweep conquistador_prestige=1,2 prints win rates side by side (with --out: one folder per value, sweep.json and sweep_nation.png).")] = None,
    fixed_seats: Annotated[bool, typer.Option("--fixed-seats", help="Keep the --bots order in every game (default: rotate the bots one seat per game).")] = False,
    api_module: Annotated[str, typer.Option("--api", hidden=True, help="Engine API module (testing).")] = DEFAULT_API,
) -> None:
    """Play many bot games and summarise them: win rates with 95% confidence
    intervals by seat, bot, nation and legality, first-player advantage,
    score and length distributions, card win rates."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    err = Console(stderr=True)
    if log_explanations and out is None:
        err.print("[yellow]--log-explanations needs --out DIR; explanations will not be written.[/]")
    try:
        params = parse_params(set_params)
        _check_ruleset(ruleset, params, api_module)
        if sweep:
            name, values = parse_sweep(sweep)
            for v in values:
                _check_ruleset(ruleset, {**params, name: v}, api_module)
    except ValueError as exc:
        from rich.markup import escape     # an error's text may hold [brackets]
        err.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    if sweep:
        _sweep(err, name, values, players, games, bots, seed, workers, dask, json_mode, out, nations,
               fixed_seats, ruleset, params, api_module)
        return
    show_bar = (not json_mode) or sys.stderr.isatty()
    t0 = time.perf_counter()
    try:
        with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=err, disable=not show_bar, transient=json_mode) as bar:
            task = bar.add_task("games", total=games)
            results = run(players, games, bots or None, seed, workers=workers, dask_address=dask,
                          progress=lambda done, total: bar.update(task, completed=done),
                          rotate=not fixed_seats, api=api_module, nations=nations,
                          ruleset=ruleset, params=params,
                          log_explanations=log_explanations and out is not None)
    except ValueError as exc:
        from rich.markup import escape     # an error's text may hold [brackets]
        err.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    wall = time.perf_counter() - t0
    from ..bots.base import load_api
    from .engagement import card_names
    summary = report(results, card_names(load_api(api_module), ruleset, params))
    summary["house_rules"] = house_rules_of(api_module, ruleset, params)     # PRJ-81
    summary["wall_seconds"] = round(wall, 6)
    summary["games_per_second"] = round(games / wall, 6) if wall > 0 else None
    meta = {"players": players, "games": games, "seed": seed, "bots": bots or "random",
            "workers": workers, "dask": dask, "rotate": not fixed_seats, "nations": nations}
    if ruleset != "reference":
        meta["ruleset"] = ruleset
    if params:
        meta["params"] = params
    if summary["house_rules"]:
        meta["house_rules"] = [f"{h['rule']} ({h['param']}): {h['change']}" for h in summary["house_rules"]]
    if out is not None:
        output.write_all(results, summary, out, meta)
    if json_mode:
        typer.echo(json.dumps(summary, sort_keys=True))
    else:
        _print_summary(summary, out, params)
    if summary["errors"]:
        raise typer.Exit(1)


def _advance(bar: Progress, task: TaskID, start: int, done: int, _total: int) -> None:
    bar.update(task, completed=start + done)


def _sweep(err: Console, name: str, values: list[Any], players: int, games: int, bots: str, seed: int, workers: int,
           dask: str | None, json_mode: bool, out: Path | None, nations: str, fixed_seats: bool, ruleset: str,
           params: dict[str, Any], api_module: str) -> None:
    """Play the same games once per value of one parameter and compare (sim/sweep.py)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from . import sweep as sw

    rows, errors, house = [], 0, {}
    show_bar = (not json_mode) or sys.stderr.isatty()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, disable=not show_bar, transient=json_mode) as bar:
        task = bar.add_task("sweep", total=games * len(values))
        for i, value in enumerate(values):
            bar.update(task, description=f"{name}={value}")
            variant = {**params, name: value}
            results = run(players, games, bots or None, seed, workers=workers, dask_address=dask,
                          progress=partial(_advance, bar, task, i * games),
                          rotate=not fixed_seats, api=api_module, nations=nations, ruleset=ruleset,
                          params=variant)
            summary = report(results)
            errors += summary["errors"]
            rows.append(sw.row(value, summary))
            house[str(value)] = house_rules_of(api_module, ruleset, variant)     # PRJ-81, by value
            if out is not None:
                meta = {"players": players, "games": games, "seed": seed, "bots": bots or "random",
                        "nations": nations, "params": variant}
                if house[str(value)]:      # PRJ-81: named in that value's report
                    summary["house_rules"] = house[str(value)]
                output.write_all(results, summary, Path(out) / f"{name}={value}", meta)
    data = {"parameter": name, "values": values, "base_params": params, "players": players, "games": games,
            "seed": seed, "bots": bots or "random", "nations": nations, "rows": rows, "house_rules": house}
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
        (Path(out) / "sweep.json").write_text(json.dumps(data, indent=2, sort_keys=True))
        sw.plot(name, rows, Path(out) / "sweep_nation.png")
    if json_mode:
        typer.echo(json.dumps(data, sort_keys=True))
    else:
        from rich.table import Table
        con = Console()
        for key in ("nation", "legality"):
            cols, cells = sw.table(name, rows, key)
            t = Table(title=f"{name}: win rate by {key} (95% CI), {games} games per value, same seeds")
            for c in cols:
                t.add_column(c, justify="left" if c == "value" else "right")
            for line in cells:
                t.add_row(*line)
            con.print(t)
        if out is not None:
            con.print(f"sweep: {Path(out) / 'sweep.json'}, {Path(out) / 'sweep_nation.png'}")
    if errors:
        raise typer.Exit(1)


def house_rules_of(api_module: str, ruleset: str, params: dict[str, Any] | None) -> list[dict[str, Any]]:
    """PRJ-81: the seed sentences a run's ruleset and variant change (house rules), as dicts
    (param, rule, sentence, change); [] for an API without rulesets."""
    from ..bots.base import load_api
    api = load_api(api_module)
    if not hasattr(api, "house_rules"):
        return []
    return [h._asdict() for h in api.house_rules(ruleset, params or None)]


def _check_ruleset(ruleset: str, params: dict[str, Any], api_module: str) -> None:
    """Refuse a missing ruleset or a bad variant before any game starts."""
    from ..bots.base import load_api
    api = load_api(api_module)
    if not hasattr(api, "load_ruleset"):
        return
    refused: type[Exception] = getattr(api, "RulesetError", ValueError)
    try:
        api.load_ruleset(ruleset, params or None)
    except refused as exc:
        raise ValueError(f"ruleset {ruleset!r}: {exc}") from None


def _rate_table(title: str, columns: tuple[str, str, str], rows: list[tuple[str, str, str, dict[str, Any]]]) -> Any:
    """A rich table of win rates: the key, two counts, the rate and its 95% interval."""
    from rich.table import Table

    t = Table(title=title)
    for col in (*columns, "rate", "95% CI"):
        t.add_column(col, justify="left" if col == columns[0] else "right")
    for k, a, b, v in rows:
        t.add_row(k, a, b, f"{v['rate']:.3f}", f"{v['ci95'][0]:.3f}-{v['ci95'][1]:.3f}")
    return t


def _print_engagement(con: Console, eng: dict[str, Any]) -> None:
    lc, fd, ep = eng["lead_changes"], eng["forced"], eng["ended_by_prestige"]
    con.print(f"pace: {lc['mean']:.2f} lead changes per game (95% CI {lc['ci95'][0]:.2f}-{lc['ci95'][1]:.2f}); "
              f"{100 * fd['share']:.1f}% forced decisions; {100 * ep['share']:.1f}% of games ended early by Prestige; "
              f"{eng['cards_per_player']['mean']:.2f} cards played per player")
    first = (eng.get("first_cycle_cards") or {}).get("by_nation") or {}
    if first:
        con.print("cards in cycle 1 (games where the nation played one / could pay for one): " + "; ".join(
            f"{k} {100 * v['played']['share']:.0f}% / {100 * v['could_play']['share']:.0f}%"
            for k, v in first.items()))


def _print_summary(summary: dict[str, Any], out: Path | None, params: dict[str, Any] | None = None) -> None:
    from rich.console import Console

    con = Console()
    con.print(f"[b]{summary['games']}[/] games, {summary['errors']} errors, "
              f"{summary['decisions_per_game']:.1f} decisions per game, "
              f"{summary['seconds_per_game'] * 1000:.1f} ms per game "
              f"({summary['games_per_second']:.1f} games/s wall)")
    for key, title in (("seat", "seat"), ("bot", "bot"), ("nation", "nation"), ("legality", "legality")):
        table_data = summary["win_rate"].get(key) or {}
        if table_data:
            con.print(_rate_table(f"win rate by {title}", (title, "wins", "games"), [
                (k, str(v["wins"]), str(v["games"]), v) for k, v in table_data.items()]))
    if summary.get("bot_scores"):
        con.print("mean score / rank by bot: " + "; ".join(
            f"{b} {v['mean_score']:.2f} / {v['mean_rank']:.2f}" for b, v in summary["bot_scores"].items()
            if v["mean_score"] is not None))
    cards = list((summary.get("cards") or {}).items())[:10]
    if cards:
        con.print(_rate_table("cards most played: win rate of the player who played them", ("card", "played", "won"),
                              [(k, str(v["games"]), str(v["wins"]), v) for k, v in cards]))
    fp = summary["first_player"]
    if fp["games"]:
        con.print(f"first player won {fp['rate']:.3f} (95% CI {fp['ci95'][0]:.3f}-{fp['ci95'][1]:.3f}; chance {fp['chance']:.3f})")
    from .output import variant_rules
    for rule in variant_rules(params or {}):
        con.print(f"variant rule: {rule}")
    for h in summary.get("house_rules") or []:       # PRJ-81: a seed sentence this variant changes
        con.print(f"HOUSE RULE {h['rule']} ({h['param']}): {h['change']} (the seed: {h['sentence']})", markup=False)
    eng = summary.get("engagement")
    if eng:
        _print_engagement(con, eng)
    for e in summary["error_examples"]:
        from rich.markup import escape     # an error's text may hold [brackets]
        con.print(f"[red]game {e['index']} (seed {e['seed']}): {escape(str(e['error']))}[/]")
    if out is not None:
        con.print(f"report: {out / output.REPORT_FILE}")
