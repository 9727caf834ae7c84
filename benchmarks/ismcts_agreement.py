"""How often ISMCTS plays its prior's move, and how often another configuration would choose
differently at the same decisions (a script; issue 17's diagnosis).

    .venv/bin/python benchmarks/ismcts_agreement.py --bot ismcts:iterations=50 \
        --shadow ismcts:iterations=50:eval=learned --shadow ismcts:iterations=50:eval=learned:temperature=0.3 \
        --games 5 --start 1000 --seed 1

Plays the games of benchmarks/strength_ab.py (game i: `--bot` in seat i mod 4 against three
heuristic bots, the same seeds), and at each of the bot's decisions where its search visited
two or more root actions, asks each `--shadow` configuration (built with the bot's own seed,
so only the options differ) for its choice on the same view, legal actions and log. Counts:
how often the bot played the heuristic's choice (its root prior), how often each shadow agreed
with the bot and with the heuristic, and by action type where the shadow differed. A strength
test needs hundreds of games to show a few points; this shows in a few games whether an
option can matter at all: a configuration that plays the bot's move in 98% of its decisions
cannot win many more games than the bot.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import strength_ab

from pax_hispanica.bots import make_agent
from pax_hispanica.bots.ismcts import ISMCTSAgent
from pax_hispanica.sim.runner import parse_bots, play_game


def _key(action: dict | None) -> str:
    return json.dumps(action, sort_keys=True)


def run(bot: str, shadows: list[str], games: int, start: int = 0, seed: int = 1, players: int = 4,
        opponents: str = "heuristic") -> dict:
    shadow_specs = [parse_bots(s, 1)[0] for s in shadows]
    for s in shadow_specs:
        if s["kind"] != "ismcts":
            raise ValueError(f"--shadow: an ismcts configuration, not {s['label']!r}")
    counts: collections.Counter = collections.Counter()
    by_type: collections.Counter = collections.Counter()
    differ: dict[str, collections.Counter] = {s: collections.Counter() for s in shadows}
    original = ISMCTSAgent.decide
    busy = [False]

    def decide(self, view, legal, log=None):
        action = original(self, view, legal, log=log)
        if busy[0]:
            return action
        ex = self._explanation or {}
        if len(ex.get("alternatives") or []) < 2:
            return action
        busy[0] = True
        try:
            heuristic = ex.get("heuristic_choice")
            kind = action.get("type")
            counts["decisions"] += 1
            by_type[kind] += 1
            counts["bot=heuristic"] += _key(action) == _key(heuristic)
            for label, spec in zip(shadows, shadow_specs):
                other = make_agent("ismcts", self.seed, **spec["options"])
                choice = original(other, view, legal, log=log)
                counts[f"{label}=bot"] += _key(choice) == _key(action)
                counts[f"{label}=heuristic"] += _key(choice) == _key(heuristic)
                if _key(choice) != _key(action):
                    differ[label][kind] += 1
        finally:
            busy[0] = False
        return action

    ISMCTSAgent.decide = decide
    try:
        for i in range(start, start + games):
            play_game(strength_ab.spec(bot, opponents, players, i, seed))
    finally:
        ISMCTSAgent.decide = original
    n = counts["decisions"]
    share = lambda k: round(counts[k] / n, 4) if n else None  # noqa: E731
    return {"bot": bot, "games": games, "start": start, "seed": seed, "decisions": n,
            "bot_played_heuristic": share("bot=heuristic"),
            "shadows": {s: {"agrees_with_bot": share(f"{s}=bot"), "agrees_with_heuristic": share(f"{s}=heuristic"),
                            "differs_by_type": dict(differ[s])} for s in shadows},
            "decisions_by_type": dict(by_type)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", required=True, help="the ISMCTS configuration that plays, e.g. ismcts:iterations=50")
    ap.add_argument("--shadow", action="append", required=True, help="an ISMCTS configuration asked at the same "
                                                                      "decisions (repeat for several)")
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--start", type=int, default=1000, help="the first game's index (strength_ab.py's numbering)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponents", default="heuristic")
    args = ap.parse_args(argv)
    print(json.dumps(run(args.bot, args.shadow, args.games, args.start, args.seed, args.players, args.opponents),
                     indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
