"""``paxh ladder``: a Typer command function (the CLI registers it); the work is in sim/ladder.py."""
from __future__ import annotations

import contextlib
import datetime
import json
import shlex
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from .output import GAMES_FILE

DEFAULT_LADDER = "random,heuristic,ismcts:iterations=50,ismcts:iterations=200"


def _game_line(result: dict[str, Any]) -> str:
    from .ladder import GAME_KEYS
    return json.dumps({k: result.get(k) for k in GAME_KEYS}) + "\n"


def _read_games(path: Path) -> list[dict[str, Any]]:
    """games.jsonl's lines (a line cut short by a stopped run is skipped)."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        with contextlib.suppress(json.JSONDecodeError):
            row = json.loads(line)
            if isinstance(row, dict):
                rows.append(row)
    return rows


@contextlib.contextmanager
def _game_log(out: Path | None, kept: list[dict[str, Any]]) -> Iterator[Callable[[list[dict[str, Any]]], None] | None]:
    """With --out: games.jsonl written as the games finish (the kept ones first), so a stopped run
    leaves what it played for --resume."""
    if out is None:
        yield None
        return
    out.mkdir(parents=True, exist_ok=True)
    with (out / GAMES_FILE).open("w") as fh:
        fh.writelines(_game_line(r) for r in kept)
        fh.flush()

        def log(batch: list[dict[str, Any]]) -> None:
            fh.writelines(_game_line(r) for r in batch)
            fh.flush()
        yield log


def ladder_command(
    bots: Annotated[str, typer.Option("--bots", "-b", help="The configurations to rate, comma separated, as `paxh simulate --bots` names a bot.")] = DEFAULT_LADDER,
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=5, help="Seats per table.")] = 4,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games in all, the round robin's tables in turn.")] = 60,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seeds every game: the same command gives the same ladder.")] = 0,
    passes: Annotated[int, typer.Option("--passes", min=1, max=20, help="Fit the ratings over the games this many times (more passes: less dependence on game order).")] = 1,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local worker processes.")] = 1,
    dask: Annotated[str | None, typer.Option("--dask", help="A Dask scheduler (tcp://host:port).")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Folder for ladder.json, ladder.html and ladder.svg (the plot) and games.jsonl.")] = None,
    json_mode: Annotated[bool, typer.Option("--json", help="Print the ratings as JSON.")] = False,
    data_file: Annotated[Path | None, typer.Option("--data", help="Also write the ratings, the command and the date to this small JSON file (the web lobby names its bots by src/pax_hispanica/data/ladder.json).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Keep the games already in --out's games.jsonl (the same seed, bots and seats) and play only the rest: a long ladder can be stopped and run again. Every game is written there as it finishes.")] = False,
) -> None:
    """Rate bot configurations against each other: a round robin in mixed tables, seats
    rotated, fitted with openskill (Plackett-Luce). Prints each bot's rating (mu - 3 sigma)
    with a 95% interval."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from . import ladder as lad

    err = Console(stderr=True)
    try:
        configs = lad.parse_ladder(bots)
    except ValueError as exc:
        from rich.markup import escape     # an error's text may hold [brackets]
        err.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    if resume and out is None:
        err.print("[red]error:[/] --resume needs --out (the folder whose games.jsonl holds the games played so far)")
        raise typer.Exit(2)
    kept = _read_games(out / GAMES_FILE) if resume and out is not None else []
    t0 = time.perf_counter()
    show_bar = (not json_mode) or sys.stderr.isatty()
    with Progress(TextColumn("ladder"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TimeRemainingColumn(), console=err, disable=not show_bar, transient=json_mode) as bar:
        task = bar.add_task("games", total=games)
        with _game_log(out, kept) as log:
            ladder, results = lad.run(configs, players, games, seed, passes=passes, workers=workers,
                                      dask_address=dask, progress=lambda done, total: bar.update(task, completed=done),
                                      kept=kept, on_results=log)
    data = lad.summary(ladder, players, seed)
    reused = len(lad.kept_games(lad.make_specs(configs, players, games, seed), kept)) if kept else 0
    # the command that reproduces these ratings (from the options, whoever called the function)
    command = " ".join(["paxh ladder", "--bots", shlex.quote(",".join(configs)), "--players", str(players),
                        "--games", str(games), "--seed", str(seed), "--passes", str(passes)]
                       + (["--out", shlex.quote(str(out))] if out is not None else [])
                       + (["--data", shlex.quote(str(data_file))] if data_file is not None else []))
    date = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
    data.update({"bots": configs, "passes": passes, "seconds": round(time.perf_counter() - t0, 1),
                 "command": command, "date": date})
    if data_file is not None:
        data_file.parent.mkdir(parents=True, exist_ok=True)
        data_file.write_text(json.dumps(lad.lobby_data(data, command, date), indent=1, sort_keys=True) + "\n")
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "ladder.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        (out / "ladder.html").write_text(lad.plot_html(data))
        (out / "ladder.svg").write_text(lad.plot_svg(data))
        with (out / GAMES_FILE).open("w") as fh:      # all the games, in order (the log's, rewritten)
            for r in results:
                fh.write(_game_line(r))
    if json_mode:
        typer.echo(json.dumps(data, sort_keys=True))
        return
    typer.echo(lad.text_table(data))
    if out is not None:
        typer.echo(f"written: {out / 'ladder.json'}, {out / 'ladder.html'}, {out / 'ladder.svg'}, {out / GAMES_FILE}"
                   + (f" ({reused} games kept from the earlier run)" if resume else ""))
    if ladder.errors:
        raise typer.Exit(1)
