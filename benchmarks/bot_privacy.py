"""How well can a player predict a bot's sealed choices from public facts? (issue 37, N2)

    nice -n 19 .venv/bin/python benchmarks/bot_privacy.py --games 200 --ismcts-games 10

Plays 4-player games of heuristic bots (every seat `private`, as the web server's, or not with
--plain) and, at every sealed choice with more than one option, asks public predictors:

- "deterministic": the bid or side the non-private heuristic chooses on the same view, with the
  private bot's centre (bid_share x PRIVATE_SHARE): the mode of a private bot's mixing
  distribution, the best single guess from public facts; "old_bot": the bid the heuristic made
  before issue 37 (bid_share 0.6, no mixing);
- "lookup": the most frequent bid for the same public facts (api.bid_facts: card, deck,
  initiator, money, legality, ships, cycle) in the other half of the games (a regression on
  every public fact the bid reads, fitted on one half, scored on the other).

It reports each predictor's exact calls, the calls the mixing distribution allows (the sum of
its mode's probability, p_mode / p_rule in explain(), with its 95% interval), and the calls
within $1. With --ismcts-games it also plays games where seat 0 is ISMCTS at the web lobby's
strength 1 (50 iterations), private, and compares its bids with the tuned heuristic's
deterministic bid (its prior). Prints JSON.
"""
from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter, defaultdict

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.bots.base import stable_seed
from pax_hispanica.bots.heuristic import DEFAULTS, PRIVATE_SHARE


def play(games: int, private: bool, start: int = 0) -> list[dict]:
    rows = []
    for g in range(start, start + games):
        state = api.new_game(api.Config(players=4), seed=stable_seed("bot-privacy", g))
        bots = {s: make_agent("heuristic", api.derived_seed(stable_seed("secret", g), f"bot|{s}"), private=private)
                for s in range(4)}
        plain = make_agent("heuristic", 0)                       # the bot's bid before issue 37
        mode = make_agent("heuristic", 0, bid_share=DEFAULTS["bid_share"] * PRIVATE_SHARE) if private else plain
        while not api.is_over(state):
            seat = api.acting(state)[0]
            view, legal = api.view(state, seat), api.legal_actions(state, seat)
            action = bots[seat].decide(view, legal)
            if action["type"] in ("bid", "support") and api.count_actions(legal) > 1:
                why = bots[seat].explain()
                guess = mode.decide(view, legal)
                before = plain.decide(view, legal)
                rows.append({"game": g, "type": action["type"],
                             "chosen": action.get("amount", action.get("side")),
                             "guess": guess.get("amount", guess.get("side")),
                             "before": before.get("amount", before.get("side")),
                             "p": why.get("p_mode", why.get("p_rule", 1.0)),
                             "facts": list(api.bid_facts(state, seat)) if action["type"] == "bid" else None})
            state, _ = api.apply(state, action)
    return rows


def interval(probs: list[float]) -> dict:
    mean = math.fsum(probs)
    sd = math.sqrt(math.fsum(p * (1 - p) for p in probs))
    n = len(probs) or 1
    return {"expected": round(mean, 1), "rate": round(mean / n, 4),
            "ci95": [round((mean - 1.96 * sd) / n, 4), round((mean + 1.96 * sd) / n, 4)]}


def report(rows: list[dict]) -> dict:
    out: dict = {}
    bids = [r for r in rows if r["type"] == "bid"]
    cards = [r for r in rows if r["type"] == "support"]
    if bids:
        hits = sum(r["chosen"] == r["guess"] for r in bids)
        near = sum(abs(r["chosen"] - r["guess"]) <= 1 for r in bids)
        # the lookup predictor: fitted on even games, scored on odd ones, and the reverse
        table: dict[int, dict] = {0: defaultdict(Counter), 1: defaultdict(Counter)}
        for r in bids:
            table[r["game"] % 2][json.dumps(r["facts"])][r["chosen"]] += 1
        look = seen = 0
        for r in bids:
            other = table[1 - r["game"] % 2].get(json.dumps(r["facts"]))
            if other:
                seen += 1
                look += other.most_common(1)[0][0] == r["chosen"]
        seen_p = [r["p"] for r in bids if table[1 - r["game"] % 2].get(json.dumps(r["facts"]))]
        old = sum(r["chosen"] == r["before"] for r in bids)
        out["bids"] = {"n": len(bids), "deterministic_exact": hits, "deterministic_rate": round(hits / len(bids), 4),
                       "old_bot_exact": old, "old_bot_rate": round(old / len(bids), 4),
                       "within_1": near, "mixing_allows": interval([r["p"] for r in bids]),
                       "lookup_scored": seen, "lookup_exact": look,
                       "lookup_rate": round(look / seen, 4) if seen else None,
                       "lookup_mixing_allows": interval(seen_p) if seen_p else None}
    if cards:
        hits = sum(r["chosen"] == r["guess"] for r in cards)
        out["battle_cards"] = {"n": len(cards), "deterministic_exact": hits,
                               "deterministic_rate": round(hits / len(cards), 4),
                               "mixed": sum(r["p"] < 1 for r in cards), "mixing_allows": interval([r["p"] for r in cards])}
    return out


def ismcts_bids(games: int, iterations: int) -> dict:
    """Seat 0 private ISMCTS (the others private heuristics): its bids against the tuned
    heuristic's deterministic bid (the search's prior) and a non-private ISMCTS with another seed."""
    same_prior = same_search = near = n = 0
    for g in range(games):
        state = api.new_game(api.Config(players=4), seed=stable_seed("bot-privacy-ismcts", g))
        bots = {s: make_agent("heuristic", stable_seed("h", g, s), private=True) for s in range(1, 4)}
        mine = make_agent("ismcts", api.derived_seed(stable_seed("secret", g), "bot|0"), iterations=iterations,
                          private=True)
        other = make_agent("ismcts", stable_seed("public", g), iterations=iterations)
        prior = make_agent("heuristic", 0, preset="tuned")
        while not api.is_over(state):
            seat = api.acting(state)[0]
            legal = api.legal_actions(state, seat)
            if seat == 0 and legal[0].get("kind") == "range" and api.count_actions(legal) > 1:
                view = api.view(state, 0, include_state=True)
                action = mine.decide(view, legal)
                n += 1
                p = prior.decide(api.view(state, 0), legal)["amount"]
                same_prior += action["amount"] == p
                near += abs(action["amount"] - p) <= 1
                same_search += other.decide(view, legal)["amount"] == action["amount"]
            else:
                action = (mine if seat == 0 else bots[seat]).decide(
                    api.view(state, seat, include_state=seat == 0), legal)
            state, _ = api.apply(state, action)
    return {"iterations": iterations, "bids": n, "prior_exact": same_prior, "prior_within_1": near,
            "public_search_exact": same_search, "rate": round(same_prior / n, 4) if n else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--plain", action="store_true", help="non-private bots (the figure before issue 37)")
    ap.add_argument("--ismcts-games", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=50, help="ISMCTS's budget (50: the lobby's strength 1)")
    a = ap.parse_args()
    t0 = time.time()
    out = {"games": a.games, "private": not a.plain, **report(play(a.games, not a.plain))}
    if a.ismcts_games:
        out["ismcts"] = ismcts_bids(a.ismcts_games, a.iterations)
    out["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
