"""`paxh train-value` and `paxh analyse`: Typer command functions (cli.py registers them)."""
from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import Annotated, Literal

import typer

Lang = Literal["en", "ca"]          # analysis/messages.py LANGS (tests/analysis/test_analysis.py)
Search = Literal["tree", "rollout"]   # analysis/game.py SEARCHES


def canonical_command(*, games: int, players: str, tables: str, every: int, hidden: int, l2: float, steps: int,
                      rate: float, seed: int, corpus: Path | None, out: Path | str) -> str:
    """The command that reproduces a run: every option that changes the weights, spelt out even
    at its default, quoted for a POSIX shell (--workers, --plot and --json change nothing)."""
    parts = ["paxh", "train-value", "--games", str(games), "--players", players, "--tables", tables,
             "--every", str(every), "--hidden", str(hidden), "--l2", repr(float(l2)), "--steps", str(steps),
             "--rate", repr(float(rate)), "--seed", str(seed),
             *(["--corpus", str(corpus)] if corpus is not None else ["--no-corpus"]), "--out", str(out)]
    return " ".join(shlex.quote(p) for p in parts)


def train_value_command(
    games: Annotated[int, typer.Option("--games", "-g", min=0, help="Self-play games of heuristic bots, spread over the player counts and tables.")] = 3000,
    players: Annotated[str, typer.Option("--players", "-p", help="Player counts of the self-play games, comma separated.")] = "2,3,4,5",
    tables: Annotated[str, typer.Option("--tables", help="Self-play bot tables separated by ';', each as `paxh simulate --bots` (repeated over the seats, rotated).")] = ";".join(
        ("heuristic", "heuristic:preset=tuned,heuristic", "heuristic,heuristic,heuristic,heuristic,random")),
    every: Annotated[int, typer.Option("--every", min=1, help="Keep every k-th position of a game.")] = 5,
    hidden: Annotated[int, typer.Option("--hidden", min=0, help="Hidden tanh units per seat (0: a conditional logit).")] = 8,
    l2: Annotated[float, typer.Option("--l2", min=0.0, help="L2 penalty on the weights.")] = 1e-3,
    steps: Annotated[int, typer.Option("--steps", min=1, help="Full-batch Adam steps.")] = 600,
    rate: Annotated[float, typer.Option("--rate", min=0.0, help="Adam's step size.")] = 0.03,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seeds the games and the fit: the same command gives the same weights.")] = 0,
    corpus: Annotated[Path | None, typer.Option("--corpus", help="A folder of corpus JSON-lines files whose games are added (tests/corpus).")] = Path("tests/corpus"),
    no_corpus: Annotated[bool, typer.Option("--no-corpus", help="Learn from self-play alone.")] = False,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local worker processes for the self-play games.")] = 1,
    out: Annotated[Path, typer.Option("--out", help="Where to write the model (JSON); `paxh analyse --model` reads it.")] = Path("out/value_model.json"),
    plot: Annotated[Path | None, typer.Option("--plot", help="Also draw the reliability diagram to this PNG (needs matplotlib).")] = None,
    json_mode: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Learn the win probability of every position (the value model of `paxh analyse`) from the
    corpus's recorded games and self-play games of heuristic bots; report its calibration and
    Brier score on held-out games against the hand-written evaluation, and write the weights."""
    from . import train as tr
    try:
        counts = tuple(int(p) for p in players.split(",") if p.strip())
        if not counts or any(not 2 <= c <= 5 for c in counts):
            raise ValueError("--players: player counts from 2 to 5")
        table_list = tuple(t.strip() for t in tables.split(";") if t.strip())
        if not table_list:
            raise ValueError("--tables: at least one table")
    except ValueError as e:
        typer.echo(f"paxh train-value: {e}", err=True)
        raise typer.Exit(2) from e
    source = None if no_corpus else corpus
    command = canonical_command(games=games, players=",".join(map(str, counts)), tables=";".join(table_list),
                                every=every, hidden=hidden, l2=l2, steps=steps, rate=rate, seed=seed,
                                corpus=source, out=out)
    t0 = time.perf_counter()
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] > 10 or done == total:
            last[0] = now
            print(f"  {done}/{total} self-play games, {now - t0:.0f} s", file=sys.stderr, flush=True)
    data = tr.collect(games, counts, table_list, every, seed, source, workers, progress)
    play_seconds = time.perf_counter() - t0
    meta = {"command": command, "seed": seed, "play_seconds": round(play_seconds, 1)}
    model, report = tr.train(data, hidden=hidden, l2=l2, steps=steps, rate=rate, seed=seed, meta=meta)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(model.to_json(), separators=(",", ":")) + "\n")
    if plot is not None and not tr.plot_reliability(report, plot):
        typer.echo("paxh train-value: matplotlib is not installed; no plot drawn", err=True)
    if json_mode:
        typer.echo(json.dumps({"command": command, **meta, "report": report}, indent=1))
    else:
        typer.echo(tr.reliability_text(report))
        typer.echo(f"\nplaying {play_seconds:.0f} s, fit {report['fit_seconds']} s; wrote {out}\n{command}")


def analyse_command(
    record: Annotated[Path, typer.Argument(help="A finished game's record (JSON), as `paxh play --save` or the web game's record.")],
    seat: Annotated[int, typer.Option("--seat", min=0, max=4, help="The seat whose decisions are reviewed.")] = 0,
    budget: Annotated[int, typer.Option("--budget", min=0, help="ISMCTS iterations per decision for the best move; 0: the heuristic bot.")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Seeds the bot: the same record, budget and seed give the same analysis.")] = 0,
    search: Annotated[Search, typer.Option("--search", help="The best move's search: ISMCTS's tree (about 0.1 s a decision at 200 iterations), or `rollout`, its strongest preset, playouts to the end of the game (seconds a decision).")] = "tree",
    model: Annotated[Path | None, typer.Option("--model", help="A value model `paxh train-value` wrote (default: the shipped one).")] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language of the words.")] = "en",
    json_mode: Annotated[bool, typer.Option("--json", help="Print the analysis as one JSON object.")] = False,
    svg: Annotated[Path | None, typer.Option("--svg", help="Also draw the win-probability chart to this SVG file.")] = None,
) -> None:
    """Analyse a finished game: each seat's win probability through the game (Years marked), the
    reviewed seat's every decision against the strongest bot's choice with its cost in win
    probability (inaccuracy, mistake, blunder), and the key moments, in words."""
    from .. import api
    from . import game as ga
    from . import render, value
    try:
        data = json.loads(record.read_text())
        rec = data.get("record", data) if isinstance(data, dict) else data
        vm = value.load(model) if model else None
        result = ga.analyse(rec, seat=seat, budget=budget, seed=seed, model=vm, search=search)
    except (OSError, ValueError, api.IllegalAction) as e:
        typer.echo(f"paxh analyse: {e}", err=True)
        raise typer.Exit(2) from e
    if svg is not None:
        svg.write_text(render.chart_svg(result, lang))
    if json_mode:
        typer.echo(json.dumps(result.to_json(lang), ensure_ascii=False, indent=1))
    else:
        typer.echo(render.text(result, lang))
