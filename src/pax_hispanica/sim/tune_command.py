"""``paxh tune``: a Typer command function (the CLI module registers it); the work is
in sim/tune.py (the study) and sim/tune_report.py (what it writes)."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from ..bots.base import DEFAULT_API


def _config(params: str, games_per_trial: int, players: str, seed: int, workers: int, dask: str | None,
            targets: Path | None, sampler: str, skill: str, ranges: list[str] | None, set_params: list[str] | None,
            ruleset: str, nations: str, no_prune: bool, api_module: str) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """The study's configuration from the options, its search space and the fixed numbers;
    ValueError (or OSError for a targets file) for options that do not go together."""
    from . import objectives as ob
    from . import tune
    from .runner import parse_params

    if sampler not in tune.SAMPLERS:
        raise ValueError(f"--sampler {sampler!r}: use {', '.join(tune.SAMPLERS)}")
    if nations not in ("default", "shuffle"):
        raise ValueError(f"--nations {nations!r}: use default or shuffle")
    if skill not in ("off", "heuristic", "ismcts", "matrix"):
        raise ValueError(f"--skill {skill!r}: use off, heuristic, ismcts or matrix")
    counts = tune.parse_player_counts(players)
    names = [p.strip() for p in params.split(",") if p.strip()]
    space = tune.search_space(ruleset, names, tune.parse_ranges(ranges), api=api_module)
    fixed = parse_params(set_params)
    clash = sorted(set(fixed) & set(space))
    if clash:
        raise ValueError(f"--set and --params both name {', '.join(clash)}")
    cfg = tune.TuneConfig(space=space, players=counts[0] if len(counts) == 1 else counts, games=games_per_trial, seed=seed, workers=workers,
                          dask=dask, ruleset=ruleset, base_params=fixed, targets=ob.load_targets(targets),
                          skill=skill, sampler=sampler, prune=not no_prune, nations=nations, api=api_module)
    return cfg, space, fixed


def tune_command(
    params: Annotated[str, typer.Option("--params", help="Comma list of int parameters to search, or 'all' (`paxh rules --params`; a card's cost card_cost.<id>, the King's share by count kings_crown_share.<N>, the SMUGGLER's bribe by count smuggler_bribe.<N> and the Crown colonies by count crown_colonies.<N> only when named, PRJ-67, PRJ-68, PRJ-75, PRJ-78).")] = "all",
    trials: Annotated[int, typer.Option("--trials", "-n", min=1, help="Trials to run now (added to a resumed study).")] = 20,
    games_per_trial: Annotated[int, typer.Option("--games-per-trial", "-g", min=2, help="Games per table of the targets file, per trial.")] = 20,
    players: Annotated[str, typer.Option("--players", "-p", help="A player count (2-5), or a comma list such as 3,4,5: every table is then played at each count and the losses averaged.")] = "4",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seeds the sampler and every trial's games.")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local worker processes for a trial's games.")] = 1,
    dask: Annotated[str | None, typer.Option("--dask", help="A Dask scheduler (tcp://host:port): each trial's games spread over it.")] = None,
    study: Annotated[str | None, typer.Option("--study", help="Optuna storage, e.g. sqlite:///tune.db: the study is kept there and resumed (default: OUT/study.db with --out, else in memory).")] = None,
    study_name: Annotated[str, typer.Option("--study-name", help="The study's name in the storage.")] = "paxh-tune",
    targets: Annotated[Path | None, typer.Option("--targets", help="Targets and weights (TOML); default: src/pax_hispanica/sim/tune_targets.toml.")] = None,
    sampler: Annotated[Literal["tpe", "cmaes", "nsga2"], typer.Option("--sampler", help="Optuna's sampler: nsga2 is multi-objective, one objective per group.")] = "tpe",
    skill: Annotated[Literal["off", "heuristic", "ismcts", "matrix"], typer.Option("--skill", help="The skill-depth tables: heuristic plays heuristic against random; ismcts adds ISMCTS at the targets' budget against itself at half of it, and at half against heuristic; matrix plays every pair of the four; off plays none.")] = "heuristic",
    ranges: Annotated[list[str] | None, typer.Option("--range", metavar="NAME=LOW..HIGH", help="Narrow a parameter's range, NAME=LOW..HIGH (repeatable).")] = None,
    set_params: Annotated[list[str] | None, typer.Option("--set", metavar="NAME=VALUE", help="Fixed numbers for every trial, NAME=VALUE (repeatable).")] = None,
    ruleset: Annotated[str, typer.Option("--ruleset", help="Ruleset name or folder to tune.")] = "reference",
    nations: Annotated[Literal["default", "shuffle"], typer.Option("--nations", help="Nations by seat: default is the ruleset's order, shuffle a random set per game (which separates nation from seat).")] = "default",
    no_prune: Annotated[bool, typer.Option("--no-prune", help="Play every trial to the end.")] = False,
    out: Annotated[Path | None, typer.Option("--out", help="Folder for tune.json, tune.html and the best trial's ruleset folder.")] = None,
    json_mode: Annotated[bool, typer.Option("--json", help="Print the summary (best trials) as JSON.")] = False,
    api_module: Annotated[str, typer.Option("--api", hidden=True)] = DEFAULT_API,
) -> None:
    """Search ruleset numbers with Optuna for a game that meets the targets: balance (win
    rates by nation, seat, legality, first player), pace and skill depth. One line per trial."""
    try:
        import optuna  # noqa: F401
    except ImportError as exc:
        typer.echo(f"paxh tune needs optuna ({exc}); pip install -e '.[sim]'", err=True)
        raise typer.Exit(2) from None
    from . import objectives as ob
    from . import tune, tune_report

    try:
        cfg, space, fixed = _config(params, games_per_trial, players, seed, workers, dask, targets, sampler, skill,
                                    ranges, set_params, ruleset, nations, no_prune, api_module)
    except (ValueError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if study is None and out is not None:
        out.mkdir(parents=True, exist_ok=True)
        study = f"sqlite:///{(out / 'study.db').resolve()}"
    t0 = time.perf_counter()
    def echo(line: str) -> None:
        return typer.echo(f"[{time.perf_counter() - t0:7.1f}s] {line}", err=True)
    try:
        st = tune.run_study(cfg, trials, storage=study, name=study_name, echo=echo)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    baseline = {k: v["value"] for k, v in space.items()}
    lines = ob.describe(cfg.targets)
    if out is not None:
        from ..bots.base import load_api
        from .engagement import card_names
        from .stats import report

        def replay(trial: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
            results = tune.replay_table(cfg, trial.params, trial.number)
            return results, report(results, card_names(load_api(api_module), ruleset, {**fixed, **trial.params}))

        summary = tune_report.write(st, out, ruleset, baseline, lines, replay=replay)
    else:
        summary = {"study": st.study_name, "baseline": baseline,
                   "best": [{"number": t.number, "values": list(t.values), "params": t.params,
                             "set": tune_report.set_line(t.params, baseline)} for t in tune_report.best_trials(st)]}
    if json_mode:
        typer.echo(json.dumps({k: v for k, v in summary.items() if k != "trials"}, sort_keys=True, default=str))
        return
    typer.echo(f"{len(st.trials)} trials in study {st.study_name!r}; best:")
    for b in summary["best"]:
        typer.echo(f"  trial {b['number']}: {', '.join(f'{v:.3f}' for v in b['values'])}   {b['set']}")
    if out is not None:
        typer.echo(f"report: {out / tune_report.HTML_FILE}; ruleset folder: {summary.get('ruleset')}")
