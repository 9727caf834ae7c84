"""Where each nation's score comes from: heuristic self-play games with shuffled nations (the
games of `paxh simulate --nations shuffle --seed SEED`), and per nation the mean per game of
its Treasure (Chests scored, the Prestige and money they gave), loads, battles and sacks, colonies
founded, cards played, auctions won and what they cost, earnings, and the final score's parts.

    python benchmarks/nation_events.py --players 2 --games 400 --seed 77 [--set NAME=VALUE ...]

(docs/bots.md, "The SMUGGLER's bribe by player count".)
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter, defaultdict

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.bots.base import stable_seed
from pax_hispanica.sim.runner import game_seed, parse_params

KEYS = ("win", "chests_scored", "treasure_prestige", "treasure_money", "loads", "battles", "sacks", "founded",
        "cards", "auctions", "paid", "earned", "from_money", "from_colonies", "final")


def play(players: int, nations: list[str], seed: int, params: dict) -> tuple[dict, list[dict]]:
    game = api.Game.new(api.Config(players=players, nations=nations, **({"params": params} if params else {})), seed)
    state, events = game.state, list(game.events)
    bots = [make_agent("heuristic", stable_seed("bot", seed, s)) for s in range(players)]
    while not api.is_over(state):
        seat = api.acting(state)[0]
        action = bots[seat].decide(api.view(state, seat), api.legal_actions(state, seat))
        state, new = api.apply(state, action)
        events.extend(new)
    return api.result(state), events


def tally(players: int, events: list[dict], winner: int) -> dict[int, Counter]:
    c = {s: Counter() for s in range(players)}
    for e in events:
        t = e["type"]
        if t == "TreasureScored":
            c[e["seat"]].update(chests_scored=e["chests"], treasure_prestige=e["prestige"], treasure_money=e["money"])
        elif t == "ChestsLoaded":
            c[e["seat"]]["loads"] += 1
        elif t == "BattleDeclared":
            c[e["attacker"]]["battles"] += 1
        elif t == "ColonySacked":
            c[e["attacker"]]["sacks"] += 1
        elif t == "ColonyFounded":
            c[e["seat"]]["founded"] += 1
        elif t == "CardPlayed":
            c[e["seat"]]["cards"] += 1
        elif t == "AuctionWon":
            c[e["winner"]].update(auctions=1, paid=e["price"])
        elif t == "EarningsPaid":
            c[e["seat"]]["earned"] += e["amount"]
        elif t == "FinalScoring":
            for b in e["breakdown"]:
                c[b["seat"]].update(from_money=b["from_money"], from_colonies=b["from_colonies"], final=b["prestige"])
    c[winner]["win"] = 1
    return c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    params = parse_params(args.set)
    pool = list(api.load_ruleset("reference", params or None).nation_order)
    per: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for i in range(args.games):
        nations = random.Random(stable_seed("nations", args.seed, i)).sample(pool, args.players)
        result, events = play(args.players, nations, game_seed(args.seed, i), params)
        for seat, counts in tally(args.players, events, result["winner"]).items():
            for key in KEYS:
                per[nations[seat]][key].append(counts[key])
    print("nation     games " + " ".join(f"{k:>8.8s}" for k in KEYS))
    for nation, d in sorted(per.items()):
        print(f"{nation:10s} {len(d['win']):5d} " + " ".join(f"{statistics.fmean(d[k]):8.2f}" for k in KEYS))


if __name__ == "__main__":
    main()
