"""``paxh train-eval``: a Typer command function (the CLI registers it); the work is in sim/train_eval.py."""
from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import Annotated, Literal

import typer


def canonical_command(*, games: int, players: str, tables: str, every: int, holdout: float, l2: float,
                      steps: int, label: str, seed: int, out: Path | str) -> str:
    """The command that reproduces a run, from its parsed options: every option that changes
    the weights, in one order, spelt out even at its default (so a later change of a default
    does not change what the command means), quoted for a POSIX shell. It does not depend on
    how the command was called (`paxh`, `python -m`, a test's CliRunner: sys.argv differs).
    --workers and --dask are left out: they change where the games are played, not which."""
    parts = ["paxh", "train-eval", "--games", str(games), "--players", players, "--tables", tables,
             "--every", str(every), "--holdout", repr(float(holdout)), "--l2", repr(float(l2)),
             "--steps", str(steps), "--label", label, "--seed", str(seed), "--out", str(out)]
    return " ".join(shlex.quote(p) for p in parts)


def train_eval_command(
    games: Annotated[int, typer.Option("--games", "-g", min=2, help="Games to learn from, spread over the player counts and tables.")] = 2000,
    players: Annotated[str, typer.Option("--players", "-p", help="Player counts, comma separated.")] = "3,4,5",
    tables: Annotated[str, typer.Option("--tables", help="Bot tables separated by ';', each as `paxh simulate --bots` (repeated over the seats).")] = "heuristic;heuristic,heuristic,random",
    every: Annotated[int, typer.Option("--every", min=1, help="Keep every k-th position of a game.")] = 6,
    holdout: Annotated[float, typer.Option("--holdout", min=0.0, max=0.9, help="Share of the games kept out of training, to score the model.")] = 0.2,
    l2: Annotated[float, typer.Option("--l2", min=0.0, help="L2 penalty on the standardised weights.")] = 1e-3,
    steps: Annotated[int, typer.Option("--steps", min=1, help="Gradient steps (Adam, full batch).")] = 1500,
    label: Annotated[Literal["ranking", "winner"], typer.Option("--label", help="What a position learns from: `ranking` (the game's whole final ranking, a Plackett-Luce likelihood: the winner among all seats, the second among the rest, ...) or `winner` (the winner alone).")] = "ranking",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seeds every game: the same command gives the same weights.")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local worker processes.")] = 1,
    dask: Annotated[str | None, typer.Option("--dask", help="A Dask scheduler (tcp://host:port) for the games.")] = None,
    out: Annotated[Path, typer.Option("--out", help="Where to write the weights (JSON; out/ is ignored by git); ISMCTS reads it with ismcts:eval=PATH.")] = Path("out/learned_eval.json"),
    json_mode: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Learn ISMCTS's cut-off evaluation from simulated games: positions labelled with who won,
    a conditional logit over the seats' public features. Scores it on held-out games against
    the hand-written evaluation and writes the weights."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from . import train_eval as te
    from .runner import parse_bots
    from .tune import parse_player_counts

    err = Console(stderr=True)
    try:
        counts = parse_player_counts(players)
        table_list = tuple(t.strip() for t in tables.split(";") if t.strip())
        if not table_list:
            raise ValueError("--tables: at least one table")
        for t in table_list:
            parse_bots(t, 5)
        if label not in te.LABELS:
            raise ValueError(f"--label: one of {', '.join(te.LABELS)}, not {label!r}")
    except ValueError as exc:
        from rich.markup import escape     # an error's text may hold [brackets]
        err.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    t0 = time.perf_counter()
    show_bar = (not json_mode) or sys.stderr.isatty()
    with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TimeRemainingColumn(), console=err, disable=not show_bar, transient=json_mode) as bar:
        task = bar.add_task("games", total=games)
        data = te.generate(games, counts, table_list, every=every, seed=seed, workers=workers, dask_address=dask,
                           progress=lambda done, total: bar.update(task, completed=done))
    play_seconds = time.perf_counter() - t0
    command = canonical_command(games=games, players=",".join(map(str, counts)), tables=";".join(table_list),
                                every=every, holdout=holdout, l2=l2, steps=steps, label=label, seed=seed, out=out)
    meta = {"command": command, "seed": seed, "games": games, "players": list(counts), "tables": list(table_list),
            "every": every, "holdout": holdout, "label": label, "positions": len(data), "play_seconds": round(play_seconds, 1)}
    try:
        model, report = te.train(data, holdout=holdout, l2=l2, steps=steps, meta=meta, label=label)
    except ValueError as exc:
        from rich.markup import escape     # an error's text may hold [brackets]
        err.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(model.to_json(), indent=1) + "\n")
    report = {**report, "out": str(out), "bytes": out.stat().st_size, "play_seconds": round(play_seconds, 1),
              "importances": [[f, round(v, 4)] for f, v in model.importances()[:10]]}
    if json_mode:
        typer.echo(json.dumps(report, sort_keys=True))
        return
    typer.echo(f"{len(data)} positions from {games - data.errors} games ({data.errors} failed) in {play_seconds:.1f} s; "
               f"fit in {report['fit_seconds']} s; {report['bytes']} bytes written to {out}")
    if report["learned"]:
        for name in ("learned", "handwritten"):
            r = report[name]
            typer.echo(f"  {name:<12} held-out log-loss {r['log_loss']:.4f}, likeliest seat won {100 * r['accuracy']:.1f}% "
                       f"({r['positions']} positions of {report['test_games']} games)")
        typer.echo(f"  {'chance':<12} held-out log-loss {report['chance_log_loss']:.4f}")
    typer.echo("largest weights (per standard deviation): " +
               ", ".join(f"{f} {v:+.3f}" for f, v in sorted(((f, w) for f, w in zip(model.features, model.weights)),
                                                             key=lambda kv: -abs(kv[1]))[:8]))
