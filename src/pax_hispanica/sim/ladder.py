"""``paxh ladder``: a round robin of bot configurations in mixed tables, rated with
openskill (Weng-Lin, Plackett-Luce model), the library the online ratings use.

Tables: every combination of ``players`` configurations out of the ladder's (with
repetition when the ladder has fewer configurations than seats, keeping only tables with
at least two different ones), played in turn, the seats rotating one step each time a
table comes round again, so every configuration meets every other and sits in every seat.

Rating a game: each seat is rated as its own player, ranked by the game's final ranking
(the rulebook's tie-break makes it strict). A configuration with several seats at one
table is the mean of its seats' updated ratings (mu and sigma), so one game moves it once.
The ratings are fitted in game order, several passes over the games if asked (``passes``),
from openskill's default prior (mu 25, sigma 25/3)."""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..bots.base import stable_seed
from .runner import execute, parse_bots

Progress = Callable[[int, int], None]


def parse_ladder(text: str) -> list[str]:
    """``"random,heuristic,ismcts:iterations=50"`` -> the configurations, each checked by the
    simulator's own bot parser; at least two, each once."""
    items = [b.strip() for b in text.split(",") if b.strip()]
    if len(items) < 2:
        raise ValueError("--bots: a ladder needs at least two bot configurations, e.g. random,heuristic")
    if len(set(items)) != len(items):
        raise ValueError(f"--bots: a configuration is named twice ({text!r})")
    for item in items:
        parse_bots(item, 1)          # refuses an unknown kind or a malformed option
    return items


def tables(configs: list[str], players: int) -> list[tuple[str, ...]]:
    """Every table of the round robin, in a fixed order."""
    if len(configs) >= players:
        return list(itertools.combinations(configs, players))
    return [t for t in itertools.combinations_with_replacement(configs, players) if len(set(t)) > 1]


def game_tables(configs: list[str], players: int, games: int) -> list[list[str]]:
    """The seats of each game: the tables in turn, rotated one seat per round."""
    ts = tables(configs, players)
    out = []
    for i in range(games):
        t, r = ts[i % len(ts)], (i // len(ts)) % players
        out.append([t[(s - r) % players] for s in range(players)])
    return out


def make_specs(configs: list[str], players: int, games: int, seed: int, **kw: Any) -> list[dict[str, Any]]:
    from .runner import make_specs as runner_specs

    specs = []
    for i, seats in enumerate(game_tables(configs, players, games)):
        # each game its own master seed, so a table's games are not the same deal again
        spec = runner_specs(players, 1, ",".join(seats), stable_seed("ladder", seed, i), rotate=False, **kw)[0]
        spec["index"] = i
        specs.append(spec)
    return specs


@dataclass
class Standing:
    config: str
    mu: float
    sigma: float
    games: int = 0
    wins: float = 0.0           # a game's win, shared between the config's seats at the table
    seats: int = 0

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: openskill's conservative estimate, the ladder's order."""
        return self.mu - 3 * self.sigma

    @property
    def interval(self) -> tuple[float, float]:
        """A 95% interval of the skill under the model (mu +- 1.96 sigma)."""
        return (self.mu - 1.96 * self.sigma, self.mu + 1.96 * self.sigma)


@dataclass
class Ladder:
    configs: list[str]
    model: Any = None
    standings: dict[str, Standing] = field(default_factory=dict)
    rated: int = 0
    errors: int = 0

    def __post_init__(self) -> None:
        from openskill.models import PlackettLuce

        if self.model is None:
            self.model = PlackettLuce()
        for c in self.configs:
            r = self.model.rating(name=c)
            self.standings[c] = Standing(c, r.mu, r.sigma)

    def rate(self, result: dict[str, Any], count: bool = True) -> None:
        """One finished game: ``result`` from the runner (bots by seat, ranking best first)."""
        if result.get("error") or not result.get("ranking"):
            self.errors += count
            return
        bots, ranking = result["bots"], result["ranking"]
        place = {seat: i for i, seat in enumerate(ranking)}
        teams = [[self.model.rating(mu=self.standings[b].mu, sigma=self.standings[b].sigma, name=b)]
                 for b in bots]
        new = self.model.rate(teams, ranks=[place[s] for s in range(len(bots))])
        moved: dict[str, list[Any]] = {}
        for seat, team in enumerate(new):
            moved.setdefault(bots[seat], []).append(team[0])
        for b, rs in moved.items():
            st = self.standings[b]
            st.mu = math.fsum(r.mu for r in rs) / len(rs)
            st.sigma = math.fsum(r.sigma for r in rs) / len(rs)
            if count:
                st.games += 1
                st.seats += len(rs)
                st.wins += sum(1 for s, bb in enumerate(bots) if bb == b and s == ranking[0])
        self.rated += count

    def table(self) -> list[Standing]:
        return sorted(self.standings.values(), key=lambda s: (-s.ordinal, s.config))


GAME_KEYS = ("index", "seed", "bots", "ranking", "scores", "winner", "error")   # a game's line in games.jsonl


def kept_games(specs: list[dict[str, Any]], kept: Iterable[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The games of an earlier run (games.jsonl's lines) that are games of these specs: the same
    index, seed and seats, and finished without an error (an error is played again)."""
    want = {s["index"]: (s["seed"], [b["label"] for b in s["bots"]]) for s in specs}
    out: dict[int, dict[str, Any]] = {}
    for r in kept:
        i = r.get("index")
        if isinstance(i, int) and want.get(i) == (r.get("seed"), r.get("bots")) and not r.get("error") and r.get("ranking"):
            out[i] = r
    return out


def run(configs: list[str], players: int = 4, games: int = 60, seed: int = 0, passes: int = 1,
        workers: int = 1, dask_address: str | None = None, progress: Progress | None = None,
        kept: Iterable[dict[str, Any]] = (), on_results: Callable[[list[dict[str, Any]]], None] | None = None,
        **spec_kw: Any) -> tuple[Ladder, list[dict[str, Any]]]:
    """Play the ladder's games and fit the ratings; returns the ladder and the games' results.
    ``kept``: the games of an earlier run of the same ladder (``kept_games``), not played again,
    so a long ladder (slow bots) can be stopped and resumed; the same seeds give the same games,
    so the ratings are those of one uninterrupted run. ``on_results``: each newly played game as
    it finishes (one game a task then, so that a stopped run loses only the games being played)."""
    specs = make_specs(configs, players, games, seed, **spec_kw)
    have = kept_games(specs, kept)
    todo = [s for s in specs if s["index"] not in have]

    def tick(done: int, total: int) -> None:
        if progress is not None:
            progress(done + len(have), total + len(have))

    played = execute(todo, workers=workers, dask_address=dask_address, progress=tick, on_results=on_results,
                     chunk_size=1 if on_results is not None else None)
    if progress is not None and not todo:
        progress(len(have), len(have))
    results = sorted([*have.values(), *played], key=lambda r: r["index"])
    ladder = Ladder(configs)
    for p in range(max(1, passes)):
        for r in results:
            ladder.rate(r, count=(p == 0))
    return ladder, results


def summary(ladder: Ladder, players: int, seed: int) -> dict[str, Any]:
    return {"players": players, "seed": seed, "games": ladder.rated, "errors": ladder.errors,
            "model": type(ladder.model).__name__,
            "ratings": [{"bot": s.config, "mu": round(s.mu, 3), "sigma": round(s.sigma, 3),
                         "ordinal": round(s.ordinal, 3), "low": round(s.interval[0], 3),
                         "high": round(s.interval[1], 3), "games": s.games,
                         "win_share": round(s.wins / s.seats, 4) if s.seats else None}
                        for s in ladder.table()]}


def text_table(data: dict[str, Any]) -> str:
    lines = [f"{'bot':<32} {'rating':>7} {'95% interval':>16} {'mu':>7} {'sigma':>6} {'games':>6} {'win/seat':>8}"]
    for r in data["ratings"]:
        ws = "-" if r["win_share"] is None else f"{100 * r['win_share']:.1f}%"
        lines.append(f"{r['bot']:<32} {r['ordinal']:7.2f} {r['low']:7.2f} .. {r['high']:6.2f} "
                     f"{r['mu']:7.2f} {r['sigma']:6.2f} {r['games']:6d} {ws:>8}")
    lines.append(f"{data['games']} games of {data['players']} players, seed {data['seed']}; rating = mu - 3 sigma "
                 f"(openskill {data['model']}); errors: {data['errors']}")
    return "\n".join(lines)


def plot_html(data: dict[str, Any]) -> str:
    """The ratings with their 95% intervals, one self-contained plotly page."""
    import plotly.graph_objects as go  # type: ignore[import-untyped]  # plotly ships no types

    rs = list(reversed(data["ratings"]))
    fig = go.Figure(go.Scatter(
        x=[r["mu"] for r in rs], y=[r["bot"] for r in rs], mode="markers",
        error_x={"type": "data", "symmetric": False, "array": [r["high"] - r["mu"] for r in rs],
                 "arrayminus": [r["mu"] - r["low"] for r in rs]},
        marker={"size": 10}, name="mu (95% interval)"))
    fig.update_layout(title=f"Bot ladder: {data['games']} games of {data['players']} players (openskill)",
                      xaxis_title="skill (mu)", height=160 + 40 * len(rs), margin={"l": 220})
    return str(fig.to_html(include_plotlyjs=True, full_html=True))


def lobby_data(data: dict[str, Any], command: str, date: str) -> dict[str, Any]:
    """The small file the web lobby names its bots by (``--data``; the package ships
    data/ladder.json, read by ``bots.ladder_rating``): each configuration's rating, with the
    command and the date that made it."""
    return {"command": command, "date": date, "players": data["players"], "games": data["games"],
            "seed": data["seed"], "model": data["model"], "rating": "mu - 3 sigma (openskill)",
            "ratings": {r["bot"]: {k: r[k] for k in ("ordinal", "mu", "sigma", "low", "high", "games", "win_share")}
                        for r in data["ratings"]}}



def plot_svg(data: dict[str, Any]) -> str:
    """The same plot as a small static SVG (no JavaScript; docs/bots.md shows it): each
    configuration's mu with its 95% interval, and its rating (mu - 3 sigma) as a tick."""
    rs = data["ratings"]
    lo = min([r["low"] for r in rs] + [r["ordinal"] for r in rs])
    hi = max(r["high"] for r in rs)
    lo, hi = math.floor(lo / 5) * 5, math.ceil(hi / 5) * 5
    left, width, row, top = 260, 420, 26, 40
    height = top + row * len(rs) + 40

    def x(v: float) -> float:
        return float(left + (v - lo) / max(hi - lo, 1e-9) * width)

    def esc(t: str) -> str:
        return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 30}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{left}" y="20" font-size="13">Bot ladder: {data["games"]} games of {data["players"]} players '
           f'(openskill {esc(str(data["model"]))})</text>']
    for k in range(int(lo), int(hi) + 1, 5):
        out.append(f'<line x1="{x(k):.1f}" y1="{top - 8}" x2="{x(k):.1f}" y2="{height - 30}" stroke="#ddd"/>'
                   f'<text x="{x(k):.1f}" y="{height - 14}" text-anchor="middle" fill="#555">{k}</text>')
    for i, r in enumerate(rs):
        y = top + row * i + row / 2
        out.append(f'<text x="{left - 10}" y="{y + 4:.1f}" text-anchor="end">{esc(r["bot"])}</text>'
                   f'<line x1="{x(r["low"]):.1f}" y1="{y:.1f}" x2="{x(r["high"]):.1f}" y2="{y:.1f}" stroke="#1f77b4" stroke-width="2"/>'
                   f'<circle cx="{x(r["mu"]):.1f}" cy="{y:.1f}" r="4" fill="#1f77b4"/>'
                   f'<line x1="{x(r["ordinal"]):.1f}" y1="{y - 6:.1f}" x2="{x(r["ordinal"]):.1f}" y2="{y + 6:.1f}" stroke="#d62728" stroke-width="2"/>')
    out.append(f'<text x="{left}" y="{height - 1}" fill="#555" font-size="11">dot: mu, bar: 95% interval, '
               f'red tick: rating mu - 3 sigma</text></svg>')
    return "\n".join(out) + "\n"
