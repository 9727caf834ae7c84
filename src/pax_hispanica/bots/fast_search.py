"""ISMCTS's fast paths (issue 40): the playout, the opponent model's sealed choices, the tree's
keyed actions and the leaf's values, for the search's usual options on this engine. Each is
a plain version of bots/ismcts.py made faster without changing a decision: the same engine
calls on the same states, the same random draws in the same order, the same floats.
tests/bots/test_ismcts_fast_search.py runs searches both ways and compares their trees;
tests/bots/test_ismcts_pinned.py pins the decisions. docs/benchmarks.md has the figures.

- greedy_playout: ISMCTSAgent._iterate's playout loop for playout="greedy" without a
  playout_bot, on an engine that lists no undo and has bid_facts and model_view (the usual
  case): the loop in one function, the descriptors read once per step (no _first_type,
  node_actions, _sealed_choice or _fact_bid calls per step);
- sealed_choice: ISMCTSAgent._sealed_choice for the same engine: a bid from the memo on
  api.bid_facts without its two calls, and the uniform draw over a bid range picks its
  amount without listing every amount (bounded_actions) first;
- fact_bid: a bid the memo has not got, HeuristicAgent.bid_on_facts' arithmetic on the facts
  once the playout bot has its ruleset and the card's value (no view dict, no ruleset check);
- greedy_pick: greedy_playout_action for two actions or more, its ranks read in one
  comprehension (the same pool in the same order);
- keyed: the (key, action) pairs of a tree node's actions, kept on the node and used again
  while the node's next legal actions are equal to those it was keyed from (equal
  descriptors list equal actions, so equal keys);
- leaf_values: ISMCTSAgent._values for a cut-off (not finished) game with score_facts.
"""
from __future__ import annotations

import random
from typing import Any

from .base import Action, Descriptor, spread
from .features import softmax_values

RANGE_CAP = 64          # ismcts.RANGE_CAP (ismcts imports this module)


def usable(agent: Any) -> bool:
    """Whether greedy_playout and sealed_choice stand for the plain code with agent's options
    and API (after ISMCTSAgent._prepare): greedy playouts without a playout_bot, an engine
    that lists no undo (caps[0]) with load_ruleset, model_view and bid_facts."""
    caps = agent._caps
    return (agent.playout == "greedy" and agent.playout_bot == "none" and caps is not None
            and caps[0] and caps[2] and caps[3] and caps[4] and agent._rs is not None)


def sealed_choice(agent: Any, api: Any, state: Any, seat: int, legal: list[Descriptor], first: Any,
                  rng: random.Random) -> Action:
    """agent._sealed_choice(state, seat, None, rng, legal) where usable(agent) and `first` is
    the type of legal's first action."""
    if agent.model > 0 and rng.random() < agent.model:
        d = legal[0]
        if first != "bid":                  # a Battle Card: the heuristic on the seat's view
            ret: Action = agent._playout_bot(seat).decide(api.view(state, seat), legal)
            return ret
        if len(legal) != 1 or d["kind"] != "range":
            ret = agent._fact_bid(api, state, seat, legal)
            return ret
        facts = api.bid_facts(state, seat)
        key = (seat, *facts, d["min"], d["max"])
        got = agent._bid_memo.get(key)
        if got is None:                     # a bid the memo has not got
            got = fact_bid(agent._playout_bot(seat), facts, d)
            if got is None:                 # _fact_bid works it out (and keeps it)
                ret = agent._fact_bid(api, state, seat, legal)
                return ret
            agent._bid_memo[key] = got
        return dict(got)
    if len(legal) == 1 and legal[0]["kind"] == "range":      # bounded_actions(legal)[randrange(n)]
        d = legal[0]
        lo, hi = int(d["min"]), int(d["max"])
        if hi - lo + 1 <= RANGE_CAP:
            v = lo + rng.randrange(hi - lo + 1)
        else:
            values = spread(lo, hi, RANGE_CAP)
            v = values[rng.randrange(len(values))]
        a = dict(d["action"])
        a[d["field"]] = v
        return a
    actions = agent._bounded(legal)
    chosen: Action = actions[rng.randrange(len(actions))]
    return chosen


def fact_bid(bot: Any, facts: tuple[Any, ...], bids: Descriptor) -> Action | None:
    """bot.bid_on_facts(rs, facts, bids) (HeuristicAgent._bid on the facts' view: never mixed,
    that view has no "version") worked out from the facts where the bot has read the ruleset
    already and its card memo has the card's flat value (card_value with now=False): the same
    arithmetic in the same order, no view built; None where it has not (bid_on_facts then)."""
    rs = bot._rs
    lo, hi = int(bids["min"]), int(bids["max"])
    if rs is None or hi - lo + 1 <= 1:
        return None
    card, deck, initiator, money, legality, ships, cycle = facts
    left = max(1, rs.cycles - int(cycle) + 1)                       # cycles_left
    val = bot.__dict__.get("_card_memo", {}).get((card, deck, legality, ships, left))
    if val is None:
        return None
    seat = bids["action"]["seat"]
    cost = rs.cards[card].cost if card else 0
    net = max(0.0, val - cost)
    if cost > money + 3:
        net *= bot.bid_unaffordable
    share = bot.bid_share if initiator == seat else bot.bid_share * bot.bid_rival
    reserve = bot.bid_reserve + int((cost if card else 0) * bot.bid_reserve_cost)
    want = int(min(net * share, max(0, money - reserve)))
    return {**bids["action"], bids["field"]: min(max(want, lo), hi)}


def greedy_pick(actions: list[Action], rng: random.Random, below: Any, ranks_of: dict[str, int],
                pick_of_kind: Any) -> Action:
    """greedy_playout_action(actions, rng, below) for two actions or more whose first is no bid
    (the playout's own bids go through _greedy_bid), `ranks_of` its _PLAYOUT_RANK: the pool of
    the best-ranked kind is the same whether all actions are of one kind (every action) or
    not (the best rank's, in order)."""
    if rng.random() < 0.15:
        ret: Action = actions[below(len(actions))]
        return ret
    rank = ranks_of.get
    ranks = [rank(a.get("type"), 0) for a in actions]  # type: ignore[arg-type]  # no type: rank 0
    best = max(ranks)
    pool = [a for a, r in zip(actions, ranks) if r == best]
    ret = pick_of_kind(pool, pool[0].get("type"), rng, below)
    return ret


_PLAIN: tuple[Any, ...] = ()


def _plain() -> tuple[Any, ...]:
    """ismcts' _PLAYOUT_RANK, _greedy_bid, greedy_playout_action and pick_of_kind (ismcts
    imports this module, so they are looked up at the first playout, not at every one)."""
    global _PLAIN
    if not _PLAIN:
        from .ismcts import _PLAYOUT_RANK, _greedy_bid, greedy_playout_action, pick_of_kind
        _PLAIN = (_PLAYOUT_RANK, _greedy_bid, greedy_playout_action, pick_of_kind)
    return _PLAIN


def greedy_playout(agent: Any, api: Any, state: Any, me: int, rng: random.Random, below: Any) -> Any:
    """The state after _iterate's playout from `state` where usable(agent): at most `cutoff`
    decisions, the other seats' sealed choices from the opponent model, one's own bid by
    _greedy_bid, every other move by the greedy policy."""
    ranks_of, greedy_bid, plain_pick, pick_of_kind = _plain()
    is_over, acting, legal_actions, step = api.is_over, api.acting, api.legal_actions, agent._step
    sealed, count = agent._sealed_types, agent._caps[1]
    steps = 0
    while steps < agent.cutoff and not is_over(state):
        seats = acting(state)
        if not seats:
            break
        seat = seats[0]
        legal = legal_actions(state, seat)
        if not legal:
            break
        d = legal[0]
        if d["kind"] == "choice":           # _first_type(d), inline
            first = d["options"][0].get("type") if d["options"] else None
        else:
            first = d["action"].get("type")
        if seat != me and first in sealed and count(legal) > 1:
            action = sealed_choice(agent, api, state, seat, legal, first, rng)
        elif len(legal) == 1 and d["kind"] == "range" and d["field"] == "amount" and first == "bid":
            action = greedy_bid(d, rng)
            if action is None:
                break
        else:
            actions = d["options"] if len(legal) == 1 and d["kind"] == "choice" else agent._bounded(legal)
            if not actions:
                break
            if len(actions) == 1:
                action = actions[0]
            elif actions[0].get("type") == "bid":
                action = plain_pick(actions, rng, below)
            else:
                action = greedy_pick(actions, rng, below, ranks_of, pick_of_kind)
        state = step(state, action)
        steps += 1
    return state


def keyed(node: Any, seat: int, legal: list[Descriptor], make: Any) -> Any:
    """make(legal) (a node's keyed actions, or None for a sealed choice), kept on the node with
    the seat and the legal actions it was made from, and reused while they are equal."""
    seen = node.seen
    if seen is not None and seen[0] == seat and seen[1] == legal:
        return seen[2]
    got = make(legal)
    node.seen = (seat, legal, got)
    return got


def leaf_values(agent: Any, api: Any, state: Any) -> list[float]:
    """agent._values(state, n) for a game not over, where agent._fast_values (score_facts)."""
    return softmax_values(agent._fact_scores(*api.score_facts(state)), agent.temperature)
