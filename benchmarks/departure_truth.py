"""Whether a search's departures from its prior are better moves, by paired rollouts (a script).

    nice -n 10 .venv/bin/python benchmarks/departure_truth.py \
        --bot ismcts:iterations=200:root=halving:eval=worth \
        --bot ismcts:iterations=800:root=halving:eval=worth \
        --games 20 --seed 900 --rollouts 60 --out out/departures/worth.jsonl --resume

A strength run compares whole games, so a few good or bad moves among fifty drown in the deal's
luck: hundreds of games to see a few points. This asks about the moves themselves. It plays
games of four default heuristic bots (seeds `--seed`, `--seed`+1, ...); at every `--every`th
decision with a choice it asks each `--bot` (a fresh bot, seed 1, the seat's view and log) for
its move. Where one of them leaves its prior (the heuristic move it started from), every move
proposed there is played out `--rollouts` times to the end of the game, each rollout paired over
the moves: the same sample of what the seat cannot see (api.determinizer with the seat's known
cards; it reshuffles the decks below their tops and draws fresh dice) and the same default
heuristic bots then playing every seat (they do not draw on their seeds). A move's worth is
the share of its rollouts the seat wins: what the move is worth against the heuristic bots (the
opponents of the strength runs) if everyone plays on as they do, which is what a one-step
improvement of the heuristic has to beat. Each departure is one JSON line (`--out`), a game
ending with a line {"game": g, "done": true}; `--resume` skips the games done.

The summary, per bot: the departures, and the mean paired difference of the win share of its
move less its prior's, with a 95% interval over the departures, the same for the seat's final
margin over the best other seat (Prestige, money at the ruleset's rate: finer than a win, which
a seat far behind never gets either way); and the win share's by the kind of decision.
A search whose departures are worth more than nothing on average improves on its prior; one
whose departures at 800 iterations are worth more than at 200 gains from thinking time.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path
from typing import Any

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.bots.base import count_actions, stable_seed


def bot_options(spec: str) -> tuple[str, dict[str, str]]:
    kind, *opts = spec.split(":")
    return kind, dict(o.split("=", 1) for o in opts)


def play_out(state: Any, seat: int, players: int, r: int) -> tuple[int, float]:
    """The game played on from `state` by default heuristic bots seeded by `r`: 1 when `seat`
    wins, and its margin: its Prestige and money (at the ruleset's rate) less the best other's.
    The default heuristic does not draw on its seed, so rollouts differ by their samples (the
    decks below their tops, the others' unknown cards, the state's dice), not by `r`."""
    bots = [make_agent("heuristic", seed=stable_seed("rollout", r, s)) for s in range(players)]
    guard = 0
    while not api.is_over(state) and guard < 2000:
        who = api.acting(state)[0]
        legal = api.legal_actions(state, who)
        state = api.apply_trusted(state, bots[who].decide(api.view(state, who), legal))
        guard += 1
    res = api.result(state) or {}
    mpp = float(api.load_ruleset("reference").money_per_prestige)
    totals = [sc + m / mpp for sc, m in zip(res.get("scores") or [0] * players, res.get("money") or [0] * players)]
    return int(res.get("winner") == seat), totals[seat] - max(t for i, t in enumerate(totals) if i != seat)


def worths(view: dict[str, Any], known: dict[str, Any], seat: int, moves: list[dict[str, Any]], players: int,
           rollouts: int, key: int) -> tuple[list[list[int]], list[list[float]]]:
    """Each move's rollout outcomes (1: the seat won) and margins, rollout r of every move on the
    same sample."""
    sample = api.determinizer(view, known)
    won: list[list[int]] = [[] for _ in moves]
    margin: list[list[float]] = [[] for _ in moves]
    for r in range(rollouts):
        base = sample(stable_seed("truth", key, r))
        for i, move in enumerate(moves):
            w, m = play_out(api.apply_trusted(api.copy(base), move), seat, players, stable_seed(key, r))
            won[i].append(w)
            margin[i].append(round(m, 3))
    return won, margin


def kind_of(move: dict[str, Any]) -> str:
    return str(move.get("type"))


def summary(rows: list[dict[str, Any]], bots: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for b in bots:
        diffs: list[float] = []
        margins: list[float] = []
        by_kind: dict[str, list[float]] = {}
        for row in rows:
            if "moves" not in row:
                continue
            moves = [json.dumps(m, sort_keys=True) for m in row["moves"]]
            mine = json.dumps(row["choices"][b], sort_keys=True)
            prior = json.dumps(row["prior"], sort_keys=True)
            if mine == prior:
                continue
            w = row["outcomes"]
            d = statistics.fmean(w[moves.index(mine)]) - statistics.fmean(w[moves.index(prior)])
            diffs.append(d)
            if "margins" in row:
                m = row["margins"]
                margins.append(statistics.fmean(m[moves.index(mine)]) - statistics.fmean(m[moves.index(prior)]))
            by_kind.setdefault(f"{kind_of(row['prior'])}->{kind_of(row['choices'][b])}", []).append(d)
        n = len(diffs)
        mean = statistics.fmean(diffs) if diffs else None
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else None
        mm = statistics.fmean(margins) if margins else None
        mhalf = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else None
        out[b] = {"departures": n, "mean_gain": None if mean is None else round(mean, 4),
                  "ci95": None if mean is None or half is None else [round(mean - half, 4), round(mean + half, 4)],
                  "mean_margin_gain": None if mm is None else round(mm, 3),
                  "margin_ci95": None if mm is None or mhalf is None else [round(mm - mhalf, 3), round(mm + mhalf, 3)],
                  "by_kind": {k: {"n": len(v), "mean_gain": round(statistics.fmean(v), 4)}
                              for k, v in sorted(by_kind.items(), key=lambda kv: -len(kv[1]))}}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", action="append", required=True, help="a bot configuration (repeatable)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=900)
    ap.add_argument("--every", type=int, default=11, help="ask at every Nth decision with a choice")
    ap.add_argument("--rollouts", type=int, default=60, help="paired rollouts per move at a departure")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--resume", action="store_true", help="keep the games already in --out")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    if args.resume and args.out.exists():
        rows = [json.loads(x) for x in args.out.read_text().splitlines() if x.strip()]
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("")
    done = {r["game"] for r in rows if r.get("done")}
    rows = [r for r in rows if r["game"] in done]      # a game cut short is played again whole
    args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    specs = [(b, *bot_options(b)) for b in args.bot]
    with args.out.open("a") as f:
        for g in range(args.games):
            if g in done:
                continue
            state = api.new_game(api.Config(players=args.players), args.seed + g)
            heuristics = [make_agent("heuristic", seed=s) for s in range(args.players)]
            events: list[Any] = []
            step = 0
            while not api.is_over(state):
                seat = api.acting(state)[0]
                legal = api.legal_actions(state, seat)
                if step % args.every == args.every // 2 and count_actions(legal) > 1:
                    view = api.view(state, seat, include_state=True)
                    own_log = api.redact(events, seat)
                    choices, prior = {}, None
                    for name, kind, opts in specs:
                        bot = make_agent(kind, seed=1, **opts)
                        choices[name] = bot.decide(view, legal, log=own_log)
                        prior = bot.explain().get("heuristic_choice", prior)
                    if prior is not None and any(c != prior for c in choices.values()):
                        moves = [prior] + [c for i, c in enumerate(choices.values())
                                           if c != prior and c not in list(choices.values())[:i]]
                        known = api.known_cards(view, own_log)
                        outcomes, margins = worths(view, known, seat, moves, args.players, args.rollouts,
                                          stable_seed("departure", args.seed + g, step))
                        row = {"game": g, "step": step, "seat": seat, "year": view.get("year"),
                               "cycle": view.get("cycle"), "prior": prior, "choices": choices, "moves": moves,
                               "outcomes": outcomes, "margins": margins}
                        f.write(json.dumps(row) + "\n")
                        f.flush()
                        rows.append(row)
                state, evs = api.apply(state, heuristics[seat].decide(api.view(state, seat), legal))
                events.extend(evs)
                step += 1
            f.write(json.dumps({"game": g, "done": True}) + "\n")
            f.flush()
            rows.append({"game": g, "done": True})
            print(json.dumps({"game": g, **summary(rows, args.bot)}), flush=True)
    print(json.dumps(summary(rows, args.bot), indent=1))


if __name__ == "__main__":
    main()
