"""The decisions where an ISMCTS configuration leaves its prior, with what it weighed (a script).

    .venv/bin/python benchmarks/ismcts_left_prior.py --bot ismcts:iterations=800:root=halving:eval=value \
        --games 3 --seed 700 --every 23 --limit 8

Plays games of four heuristic bots (seeds `--seed`, `--seed`+1, ...) and, at every `--every`th
decision with more than one action, asks `--bot` (a fresh bot, seed 1) for its move on that
seat's view. Where it differs from the heuristic prior's move it prints the Year, the Cycle,
both moves and the five alternatives the search weighed most (visits, mean value). A strength
run needs hundreds of games; this shows in a minute *what* a search changes, e.g. whether its
cut-off evaluation prefers money now to a card that pays later.
"""
from __future__ import annotations

import argparse
import json

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.bots.base import count_actions


def bot_options(spec: str) -> tuple[str, dict[str, str]]:
    kind, *opts = spec.split(":")
    return kind, dict(o.split("=", 1) for o in opts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="ismcts:iterations=800:root=halving:eval=value")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=700)
    ap.add_argument("--every", type=int, default=23, help="ask at every Nth decision with a choice")
    ap.add_argument("--limit", type=int, default=8, help="stop after this many decisions that left the prior")
    args = ap.parse_args()
    kind, opts = bot_options(args.bot)
    asked = left = 0
    for g in range(args.games):
        state = api.new_game(api.Config(players=args.players), args.seed + g)
        heuristics = [make_agent("heuristic", seed=s) for s in range(args.players)]
        step = 0
        while not api.is_over(state) and left < args.limit:
            seat = api.acting(state)[0]
            legal = api.legal_actions(state, seat)
            if step % args.every == args.every // 2 and count_actions(legal) > 1:
                view = api.view(state, seat, include_state=True)
                bot = make_agent(kind, seed=1, **opts)
                action = bot.decide(view, legal)
                why = bot.explain()
                asked += 1
                if action != why.get("heuristic_choice"):
                    left += 1
                    print(f"game {args.seed + g}, {view.get('year')} Year of Cycle {view.get('cycle')}, seat {seat}")
                    print(f"  played    {json.dumps(action)}")
                    print(f"  its prior {json.dumps(why.get('heuristic_choice'))}")
                    for alt in why["alternatives"]:
                        print(f"    {alt['visits']:5} visits, value {alt['value']}: {json.dumps(alt['action'])}")
            state, _ = api.apply(state, heuristics[seat].decide(api.view(state, seat), legal))
            step += 1
        if left >= args.limit:
            break
    print(f"{left} of {asked} decisions asked left the prior")


if __name__ == "__main__":
    main()
