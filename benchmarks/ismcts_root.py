"""What decides ISMCTS's root choice: the visit shares against the prior and the values (a script;
issue 17, third round).

    .venv/bin/python benchmarks/ismcts_root.py --bot ismcts:iterations=50 --games 3 --start 1000 --seed 1

Plays the games of benchmarks/strength_ab.py (game i: `--bot` in seat i mod 4 against three
heuristic bots, the same seeds) and, at each of the bot's decisions where the search visited
two or more root actions, reads the whole root: each child's visits, availability and mean
value for the bot's seat. It reports, as medians and 90th percentiles over the decisions:
- the prior's (the heuristic's choice) share of the visits and how often it was played;
- the spread of the root children's mean values (max - min among children with 3+ visits) and
  the best other child's mean minus the prior's;
- the two bonuses of UCB at the end of the search: the exploration term
  c * sqrt(ln(avail) / visits) of the prior's child and of a typical other child, and the
  prior's progressive bias prior / sqrt(1 + visits);
- how often the child with the highest mean value (3+ visits) is not the prior's, i.e. how
  often the values alone would have chosen differently.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import strength_ab

from pax_hispanica.bots.ismcts import ISMCTSAgent, action_key
from pax_hispanica.sim.runner import play_game


def _q(values: list[float], p: float) -> float | None:
    if not values:
        return None
    v = sorted(values)
    return round(v[min(len(v) - 1, int(p * len(v)))], 4)


def run(bot: str, games: int, start: int = 0, seed: int = 1, players: int = 4, min_visits: int = 3) -> dict:
    rows: list[dict] = []
    original_decide, original_iterate = ISMCTSAgent.decide, ISMCTSAgent._iterate

    def _iterate(self, state, root, me, root_keys, rng, n):
        self._diag_root = root
        if getattr(self, "_diag_id", None) is not root:
            self._diag_id, self._diag_sq = root, {}
        before = {k: c.visits for k, c in root.children.items()}
        got = original_iterate(self, state, root, me, root_keys, rng, n)
        for k, c in root.children.items():
            if c.visits != before.get(k, 0):       # the child this iteration went through
                s1, s2, m = self._diag_sq.get(k, (0.0, 0.0, 0.0))
                x = c.reward[me] - m                # this iteration's value for the bot's seat
                self._diag_sq[k] = (s1 + x, s2 + x * x, c.reward[me])
        return got

    def decide(self, view, legal, log=None):
        self._diag_root = None
        action = original_decide(self, view, legal, log=log)
        root = self._diag_root
        if root is None:
            return action
        me = action["seat"]
        kids = {k: c for k, c in root.children.items() if c.visits}
        if len(kids) < 2:
            return action
        total = sum(c.visits for c in kids.values())
        pk = self._prior_key
        prior = kids.get(pk)
        means = {k: c.reward[me] / c.visits for k, c in kids.items()}
        well = {k: m for k, m in means.items() if kids[k].visits >= min_visits}
        others = [k for k in kids if k != pk]
        c = self.exploration
        row = {"type": action.get("type"), "children": len(kids), "iterations": total,
               "played_prior": action_key(action) == pk,
               "prior_share": prior.visits / total if prior else 0.0,
               "top_share": max(k.visits for k in kids.values()) / total,
               "mean_value": means.get(pk, statistics.fmean(means.values())),
               "spread": (max(well.values()) - min(well.values())) if len(well) >= 2 else 0.0,
               "value_argmax_not_prior": bool(well) and max(well, key=well.get) != pk}
        if prior is not None:
            best_other = max((means[k] for k in others if kids[k].visits >= min_visits), default=None)
            row["best_other_minus_prior"] = None if best_other is None else best_other - means[pk]
            row["explore_prior"] = c * math.sqrt(math.log(max(prior.avail, 1)) / prior.visits)
            row["bias_prior"] = self.prior / (1 + prior.visits) ** 0.5
            if others:
                o = sorted(others, key=lambda k: kids[k].visits)[len(others) // 2]
                row["explore_other"] = c * math.sqrt(math.log(max(kids[o].avail, 1)) / kids[o].visits)
                row["other_visits"] = kids[o].visits
        sq = self._diag_sq if getattr(self, "_diag_id", None) is root else {}

        def se(k):
            s1, s2, _ = sq.get(k, (0.0, 0.0, 0.0))
            v = kids[k].visits
            return math.sqrt(max(0.0, s2 / v - (s1 / v) ** 2) / v) if v > 1 else None

        if prior is not None and se(pk) is not None:
            row["se_prior"] = se(pk)
            cand = [k for k in others if kids[k].visits >= min_visits]
            if cand:
                b = max(cand, key=lambda k: means[k])
                if se(b) is not None and (se(pk) ** 2 + se(b) ** 2) > 0:
                    row["z_best_other"] = (means[b] - means[pk]) / math.sqrt(se(pk) ** 2 + se(b) ** 2)
        rows.append(row)
        return action

    ISMCTSAgent.decide, ISMCTSAgent._iterate = decide, _iterate
    try:
        for i in range(start, start + games):
            play_game(strength_ab.spec(bot, "heuristic", players, i, seed))
    finally:
        ISMCTSAgent.decide, ISMCTSAgent._iterate = original_decide, original_iterate
    n = len(rows)

    def dist(name: str) -> dict:
        vals = [r[name] for r in rows if r.get(name) is not None]
        return {"median": _q(vals, 0.5), "p90": _q(vals, 0.9), "n": len(vals)}

    by_type: dict[str, int] = {}
    for r in rows:
        by_type[r["type"]] = by_type.get(r["type"], 0) + 1
    return {"bot": bot, "games": games, "start": start, "seed": seed, "decisions": n,
            "played_prior": round(sum(r["played_prior"] for r in rows) / n, 4) if n else None,
            "value_argmax_not_prior": round(sum(r["value_argmax_not_prior"] for r in rows) / n, 4) if n else None,
            **{k: dist(k) for k in ("children", "prior_share", "top_share", "mean_value", "spread",
                                    "best_other_minus_prior", "explore_prior", "explore_other", "other_visits",
                                    "bias_prior", "se_prior", "z_best_other")},
            "z_best_other_above_2": round(sum(1 for r in rows if (r.get("z_best_other") or 0) > 2) / n, 4) if n else None,
            "decisions_by_type": by_type}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", required=True)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--start", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args(argv)
    print(json.dumps(run(args.bot, args.games, args.start, args.seed, args.players), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
