"""Information-set Monte Carlo tree search (single-observer ISMCTS,
Cowling, Powley & Whitehouse 2012), adapted to sealed choices.

Each iteration
1. samples a full state consistent with the bot's own view
   (``api.determinize(view, seed)``): hands, deck order, other players'
   committed bids are guessed, everything public is kept;
2. descends one shared tree with UCB1, where a child's exploration term uses
   how often it was *available* (a card in a sampled opponent hand is not
   always there), and every node's value is read from the point of view of
   the seat that acts there (max^n for multi-player);
3. treats the other seats' *sealed* choices (bids, Battle Cards) as chance:
   their edge carries no amount, so the bot's own later decisions never depend
   on a secret it could not know.  The chance is an opponent model: a share
   ``model`` of the time the seat chooses as the heuristic bot would on its
   own view of the sampled state (a bid follows public facts: the card, the
   bidder's money and legality), otherwise uniformly;
4. expands one node, plays fast greedy moves for at most ``cutoff``
   decisions, and scores the position: a finished game gives 1 to the winner,
   a cut-off one gives each seat a softmax of its estimated final score
   (bots.features.score_estimates, plus ``future`` times what its income,
   colonies' earnings and legality will still bring, features.future_prestige);
5. backs the per-seat values up the path.

The most visited root action is played (``select="confident"``: the prior's action unless
another root action's mean value is more than ``z`` standard errors above it; ``qnorm``: the
root's UCB reads its children's means rescaled to 0..1; both off by default, docs/bots.md
"What decides the root").  Reproducibility: the search PRNG is
seeded from the bot's seed and the (view, legal) pair, so the same view and
seed always give the same decision with ``iterations`` (a ``seconds`` budget
depends on the machine's speed, so only iteration budgets are reproducible).
The bot never receives the state; it only sees what ``view`` shows.
"""
from __future__ import annotations

import json
import math
import random
import time
from typing import Any

from .base import Action, BaseAgent, Descriptor, bounded_actions, count_actions, playable, stable_seed

# A wide bid range is searched over at most this many amounts, evenly spread, $0 and all
# one's money included (base.spread): the tree's width and a decision's cost never grow
# with a player's money. Below it (every reference game) every amount is considered.
RANGE_CAP = 64
from .features import (CARGO_DISCOUNT, HAND_PRESTIGE, SHIP_PRESTIGE, chest_prestige, future_prestige, legality_worth,
                       score_estimates, scores_from_public, softmax_values)
from .features import _reference as _reference_ruleset


def _reference_mpp() -> float:
    return float(_reference_ruleset().money_per_prestige)

# A tree edge's key: an action's (field, value) pairs sorted by field, or
# ("sealed", seat, type) for another seat's secret choice (its chance edge). Tuples hash
# about ten times faster than the canonical JSON text of base.action_key, and two legal
# actions have equal keys exactly when their JSON texts are equal (each field has one
# JSON type, so True and 1 never meet in one field).
Key = tuple


def action_key(action: Action) -> Key:
    return tuple(sorted(action.items()))

# The playout policy's preferences: cheap rules on the action dicts alone (no
# view is built during playouts, which keeps them fast).  Higher goes first;
# types not listed share the lowest rank.
_PLAYOUT_RANK = {
    "load_chests": 9, "unload": 9, "unload_haven": 8, "enslave": 8,
    "play": 6, "initiate": 5, "labour": 5, "start_at_haven": 4,
    "move": 3, "attack": 2, "sell": 1, "discard": 1, "end_turn": 1,
    "end_voyage": 0, "pass": 0,
}


def greedy_playout_action(actions: list[Action], rng: random.Random) -> Action:
    """A fast, plausible move for playouts: usually (85%) the best-ranked kind
    of action, picked at random among its kind (Europe first among moves, the
    largest load, an employed rather than kidnapped labourer, a modest bid);
    otherwise uniformly random."""
    if rng.random() < 0.15:
        return actions[rng.randrange(len(actions))]
    kind = actions[0].get("type")
    if kind == "bid":
        top = max(a["amount"] for a in actions)
        want = rng.randint(0, max(0, top // 2))
        return min(actions, key=lambda a: abs(a["amount"] - want))
    rank = _PLAYOUT_RANK.get
    types = [a.get("type") for a in actions]
    top_type = types[0]
    if types.count(top_type) == len(types):      # one kind (often): every action is in the pool
        pool = actions
    else:
        ranks = [rank(t, 0) for t in types]
        best = max(ranks)
        pool = [a for a, r in zip(actions, ranks) if r == best]
        top_type = pool[0].get("type")
    if top_type == "move":
        home = [a for a in pool if a.get("to") == "europe"]
        if home and rng.random() < 0.5:
            return home[0]
    elif top_type in ("load_chests", "enslave"):
        return max(pool, key=lambda a: a.get("count", 0))
    elif top_type == "labour":
        employ = [a for a in pool if a.get("source") == "employ"]
        pool = employ or pool
    return pool[rng.randrange(len(pool))]


class _Node:
    __slots__ = ("action", "avail", "children", "reward", "seat", "visits")

    def __init__(self, n: int, action: Action | None = None, seat: int | None = None) -> None:
        self.children: dict[Key, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = [0.0] * n
        self.action = action
        self.seat = seat


class ISMCTSAgent(BaseAgent):
    kind = "ismcts"
    uses_information_state = True          # every iteration determinizes its view
    uses_log = True                        # decide(view, legal, log): the hands the log tells are not guessed

    def __init__(self, seed: int = 0, api: Any = None, iterations: int | None = None,
                 seconds: float | None = None, cutoff: int = 10,
                 exploration: float = 0.3, temperature: float = 1.0,
                 max_iterations: int = 1_000_000, playout: str = "auto",
                 prior: float = 0.5, model: float = 0.8, future: float = 1.0,
                 eval: str = "handwritten", select: str = "visits", z: float = 2.0, min_visits: int = 3,
                 qnorm: bool | int | str = False, prior_bot: str = "default",
                 **options: Any) -> None:  # noqa: A002 -- the bot option's name
        super().__init__(seed, api, **options)
        # the heuristic whose choice is the root's prior: "default" (today's constants), "tuned"
        # (data/tuned_heuristic.json, bots/heuristic.py preset) or a JSON file of its options; the
        # opponent model and the playouts keep the default heuristic (docs/bots.md, fourth round)
        self.prior_bot = str(prior_bot)
        if self.prior_bot != "default":
            from .heuristic import preset
            preset(self.prior_bot)          # a bad name or file fails here, not at the first decision
        # the root's choice: the most visited action ("visits"), or ("confident") the most visited
        # unless another root action's mean value beats the prior's by more than `z` standard
        # errors (each with `min_visits` visits or more), then the best such action (docs/bots.md)
        if select not in ("visits", "confident"):
            raise ValueError("select is 'visits' or 'confident'")
        self.select = select
        self.z = float(z)
        self.min_visits = int(min_visits)
        # qnorm: at the root, UCB reads each child's mean value rescaled to 0..1 over the root's
        # children (min-max, as MuZero does), so the exploration constant meets the values' spread
        self.qnorm = str(qnorm).lower() not in ("0", "false", "no", "")
        if iterations is None and seconds is None:
            iterations = 200
        self.iterations = int(iterations) if iterations is not None else None
        self.seconds = float(seconds) if seconds is not None else None
        self.cutoff = int(cutoff)
        self.exploration = float(exploration)
        self.temperature = float(temperature)
        self.max_iterations = int(max_iterations)
        if playout not in ("auto", "greedy", "random", "heuristic"):
            raise ValueError("playout is 'auto', 'greedy', 'random' or 'heuristic'")
        if playout == "auto":      # greedy: at 1 s/decision it beat heuristic playouts (docs/bots.md)
            playout = "greedy"
        self._playout_bots: dict[int, Any] = {}
        self._bid_memo: dict[tuple, Action] = {}
        # pure functions of the ruleset and their key, so kept from one decision to the next
        # (per ruleset and variant): the heuristic's card values and the bid model's bids
        self._memos: dict[str, tuple[dict, dict]] = {}
        self._card_memo: dict = {}
        self.playout = playout
        self.prior = float(prior)
        if not 0.0 <= float(model) <= 1.0:
            raise ValueError("model is a share between 0 and 1")
        self.model = float(model)
        self.future = float(future)
        # the cut-off evaluation: the hand-written softmax of score estimates, or the learned
        # conditional logit (bots/learned.py; "learned" is the shipped weights, else a file)
        self.eval = str(eval)
        self._learned: Any = None
        if self.eval != "handwritten":
            from .learned import load
            self._learned = load(None if self.eval == "learned" else self.eval)
        self._rs: Any = None
        self._worth: dict[str, float] | None = None
        self._prior_key: Key | None = None
        self._chest: dict | None = None
        self.total_iterations = 0
        self.total_seconds = 0.0

    # -- helpers -----------------------------------------------------------
    def _actions(self, state: Any, seat: int) -> tuple[list[Action], list[Descriptor]]:
        """bounded_actions(playable(legal), RANGE_CAP), the search's actions at a node, built
        in one pass where no option is an undo (the engine never lists one): the same list;
        and the descriptors they came from (the opponent model reads them)."""
        legal = self.api.legal_actions(state, seat)
        return self._bounded(legal), legal

    @staticmethod
    def _bounded(legal: list[Descriptor]) -> list[Action]:
        out: list[Action] = []
        for d in legal:
            if d.get("kind") == "choice":
                for o in d["options"]:
                    if o.get("type") == "undo":
                        return bounded_actions(playable(legal), RANGE_CAP)
                    out.append(dict(o))
            else:
                return bounded_actions(playable(legal), RANGE_CAP)
        return out

    def _values(self, state: Any, n: int) -> list[float]:
        api = self.api
        if api.is_over(state):
            winner = api.result(state)["winner"]
            return [1.0 if p == winner else 0.0 for p in range(n)]
        if self._learned is None and self._rs is not None and hasattr(api, "score_facts"):
            return softmax_values(self._fact_scores(*api.score_facts(state)), self.temperature)
        summ = api.summary(state)
        if self._learned is not None and self._rs is not None:
            return self._learned.values(summ, self._rs, self._chest, self._worth, self.temperature)
        scores = scores_from_public(summ, self._chest, self._rs.money_per_prestige if self._rs is not None else None)
        if self.future and self._rs is not None:
            scores = [s + self.future * f for s, f in zip(scores, future_prestige(summ, self._rs, self._worth))]
        return softmax_values(scores, self.temperature)

    def _fact_scores(self, cycle: int, seats: list[tuple]) -> list[float]:
        """scores_from_public(summary) plus `future` times future_prestige(summary), read from
        api.score_facts' tuples: the same arithmetic in the same order, so the same floats
        (tests/bots/test_ismcts_values.py), without building the summary's dicts."""
        rs, chest = self._rs, self._chest
        mpp = float(rs.money_per_prestige or _reference_mpp())
        left = max(0, rs.cycles - int(cycle)) + 0.5
        worth = self._worth or legality_worth(rs)
        future, income_per, rs_mpp = self.future, rs.colony_income, rs.money_per_prestige
        out = []
        for prestige, money, colonies, hand, income, ships, legality, chests in seats:
            cargo = chests * chest.get(legality, 1.0) * CARGO_DISCOUNT
            extra = max(0, (ships or 1) - 1) * SHIP_PRESTIGE
            score = float(prestige) + money / mpp + float(colonies) + cargo + extra + HAND_PRESTIGE * hand
            if future:
                earnings = (income or 0) + (colonies or 0) * income_per
                score = score + future * ((earnings + worth.get(legality, 0.0)) * left / rs_mpp)
            out.append(score)
        return out

    def _playout_bot(self, seat: int) -> Any:
        bot = self._playout_bots.get(seat)
        if bot is None:
            from .heuristic import HeuristicAgent
            bot = self._playout_bots[seat] = HeuristicAgent(stable_seed("playout", self.seed, seat), self.api_ref)
            bot._card_memo = self._card_memo       # card_value's memo: a pure function of its key
        return bot

    def _sealed_choice(self, state: Any, seat: int, actions: list[Action] | None, rng: random.Random,
                       legal: list[Descriptor] | None = None) -> Action:
        """Another seat's bid or Battle Card, drawn from the opponent model:
        a share ``model`` of the time what the heuristic bot would choose on
        that seat's own view of the sampled state (bids follow public facts:
        the card, its cost, the bidder's money and legality), otherwise
        uniformly at random, so that no bid is ever ruled out."""
        if self.model > 0 and rng.random() < self.model and hasattr(self.api, "load_ruleset"):
            api = self.api
            if legal is None:
                legal = api.legal_actions(state, seat)
            kind = _first_type(legal)
            # the heuristic bids from the players and the decision alone (HeuristicAgent._bid),
            # so a bid reads the public facts of api.model_view, not a view; a Battle Card's
            # choice reads the colonies, so it gets the view
            if kind != "bid":
                return self._playout_bot(seat).decide(api.view(state, seat), legal)
            if not hasattr(api, "model_view"):
                return self._playout_bot(seat).decide(api.view(state, seat, include_state=False, board=False), legal)
            if hasattr(api, "bid_facts"):
                return self._fact_bid(api, state, seat, legal)
            return self._model_bid(api.model_view(state, seat), seat, legal)
        if actions is None:
            actions = self._bounded(legal if legal is not None else self.api.legal_actions(state, seat))
        return actions[rng.randrange(len(actions))]

    def _model_bid(self, seen: dict, seat: int, legal: list[Descriptor]) -> Action:
        """HeuristicAgent.decide's bid (its _bid: no randomness, and it reads only the card,
        deck and initiator of the decision, the bidder's money, seat and fleet, and the cycle),
        memoised on exactly those facts for the decision's search."""
        bids = [d for d in legal if d.get("kind") == "range" and d["action"].get("type") == "bid"]
        if len(bids) != 1 or len(legal) != 1:
            return self._playout_bot(seat).decide(seen, legal)
        dec = seen.get("decision") or {}
        me = seen["players"][seat]
        fleet = me["fleet"]
        b = bids[0]
        key = (seat, dec.get("card"), dec.get("deck"), dec.get("initiator"), me["money"], fleet["legality"],
               fleet["ships"], seen.get("cycle"), b["min"], b["max"])
        got = self._bid_memo.get(key)
        if got is None:
            got = self._bid_memo[key] = self._playout_bot(seat).decide(seen, legal)
        return dict(got)

    def _fact_bid(self, api: Any, state: Any, seat: int, legal: list[Descriptor]) -> Action:
        """_model_bid with its memo key read by api.bid_facts (the same facts, as a tuple,
        nothing built): api.model_view is built only when the memo has no bid for them."""
        if len(legal) != 1 or legal[0].get("kind") != "range" or legal[0]["action"].get("type") != "bid":
            return self._playout_bot(seat).decide(api.model_view(state, seat), legal)
        b = legal[0]
        key = (seat, *api.bid_facts(state, seat), b["min"], b["max"])
        got = self._bid_memo.get(key)
        if got is None:
            got = self._bid_memo[key] = self._playout_bot(seat).decide(api.model_view(state, seat), legal)
        return dict(got)

    # -- the search --------------------------------------------------------
    def decide(self, view: dict, legal: list[Descriptor], log: list[dict] | None = None) -> Action:
        """The most visited root action. `log`: the seat's own log (api.redact(events, seat));
        with it the samples keep every card the log places (api.known_cards: in a game set up
        normally every hand), without it they deal the others' hands at random."""
        api = self.api
        t0 = time.perf_counter()
        root_actions = bounded_actions(playable(legal), RANGE_CAP)
        if not root_actions:
            raise ValueError("decide() called with no legal action")
        me = root_actions[0]["seat"]
        if len(root_actions) == 1:
            self._explanation = {"bot": self.kind, "rule_of_thumb": "only one legal action",
                                 "iterations": 0, "alternatives": []}
            return root_actions[0]
        root_keys = {action_key(a): a for a in root_actions}
        rng = random.Random(stable_seed("ismcts", self.seed, view, legal))
        self._playout_bots = {}     # fresh playout bots: a decision never depends on earlier ones
        self._card_memo, self._bid_memo = self._memos.setdefault(
            json.dumps([view.get("ruleset"), view.get("ruleset_params") or None, view.get("ruleset_version")],
                       sort_keys=True), ({}, {}))
        self._prior_key = None
        self._chest = self._rs = self._worth = None
        if hasattr(api, "load_ruleset") and "ruleset" in view:
            self._rs = (api.view_ruleset(view) if hasattr(api, "view_ruleset")     # PRJ-50: the view's version
                        else api.load_ruleset(view["ruleset"], view.get("ruleset_params") or None))
            self._chest = chest_prestige(self._rs)
            self._worth = legality_worth(self._rs)
        prior_action = None
        if self.prior > 0 and hasattr(self.api, "load_ruleset"):
            from .heuristic import HeuristicAgent
            if not hasattr(self, "_heuristic"):
                self._heuristic = HeuristicAgent(self.seed, self.api_ref, preset=self.prior_bot)
            self._heuristic.rng.seed(stable_seed("prior", self.seed, view.get("version", 0)))
            prior_action = self._heuristic.decide(view, legal)
            self._prior_key = action_key(prior_action)
        root: _Node | None = None
        self._root_sq: dict[int, float] = {}     # select=confident: each root child's sum of squared values
        n_players = None
        iterations = 0
        budget_iters = self.iterations if self.iterations is not None else self.max_iterations
        deadline = t0 + self.seconds if self.seconds is not None else None
        # the view's samples: api.determinizer works out what depends on the view alone once
        # (the same states as api.determinize(view, seed)); a toy API may only have determinize
        make = getattr(api, "determinizer", None)
        known = None
        if log is not None and hasattr(api, "known_cards"):
            known = api.known_cards(view, log)
        if make is None:
            sample = lambda seed: api.determinize(view, seed)  # noqa: E731
        else:
            sample = make(view) if known is None else make(view, known)
        while iterations < budget_iters:
            if deadline is not None and iterations > 0 and time.perf_counter() >= deadline:
                break
            state = sample(rng.getrandbits(63))
            if root is None:
                n_players = len(api.result(state)["scores"]) if api.is_over(state) else _players(api, state, view)
                root = _Node(n_players)
            self._iterate(state, root, me, root_keys, rng, n_players)
            iterations += 1
        assert root is not None
        candidates = [k for k in root.children if k in root_keys]
        if not candidates:      # no sample agreed with the real legal actions (never seen)
            candidates = [self._prior_key if self._prior_key in root_keys else next(iter(root_keys))]
            for k in candidates:
                root.children.setdefault(k, _Node(n_players or 0, root_keys[k], me))
        best_key = max(candidates, key=lambda k: (root.children[k].visits, -_rank(k, root_keys)))
        if self.select == "confident":
            best_key = self._confident(root, candidates, best_key, me)
        elapsed = time.perf_counter() - t0
        self.total_iterations += iterations
        self.total_seconds += elapsed
        ranked = sorted(root.children.items(), key=lambda kv: -kv[1].visits)
        self._explanation = {
            "bot": self.kind,
            "rule_of_thumb": "most visited action of the search",
            "iterations": iterations,
            "seconds": round(elapsed, 4),
            "heuristic_choice": prior_action,
            "alternatives": [
                {"action": c.action, "visits": c.visits,
                 "value": round(c.reward[me] / c.visits, 4) if c.visits else None}
                for _, c in ranked[:5]
            ],
        }
        return root_keys[best_key]

    def _confident(self, root: _Node, candidates: list[Key], best_key: Key, me: int) -> Key:
        """select=confident: the prior's action (else the most visited) unless another root
        action with `min_visits` visits has a mean value more than `z` standard errors (of the
        difference of the two means, from each child's own values) above it; then the one of
        those with the highest mean."""
        sq = self._root_sq
        base = self._prior_key if self._prior_key in candidates and root.children[self._prior_key].visits else best_key
        b = root.children[base]

        def stats(c: _Node) -> tuple[float, float]:
            m = c.reward[me] / c.visits
            var = max(0.0, sq.get(id(c), 0.0) / c.visits - m * m)
            return m, var / c.visits

        if b.visits < 2:
            return best_key
        mb, vb = stats(b)
        best, best_m = base, mb
        for k in candidates:
            c = root.children[k]
            if k == base or c.visits < max(2, self.min_visits):
                continue
            m, v = stats(c)
            if m > best_m and m - mb > self.z * math.sqrt(v + vb):
                best, best_m = k, m
        return best

    def _iterate(self, state: Any, root: _Node, me: int, root_keys: dict[Key, Action],
                 rng: random.Random, n: int) -> None:
        api = self.api
        sealed = api.SEALED_ACTION_TYPES      # the game's secret choices, as its API declares them
        step = _stepper(api)
        legal_actions = api.legal_actions
        node = root
        path = [root]
        expanded = False
        first = True
        while not api.is_over(state):
            seats = api.acting(state)
            if not seats:
                break
            seat = me if first and me in seats else seats[0]
            if not first and seat != me:
                legal = legal_actions(state, seat)
                if not legal:
                    break
                # another seat's secret choice: its actions are listed only if the model does not choose
                actions = None if _first_type(legal) in sealed else self._bounded(legal)
            else:
                actions, legal = self._actions(state, seat)
                if first:
                    # the bot's own legal actions should not depend on what it cannot
                    # see; if a sample disagrees, the iteration is dropped
                    actions = [a for a in actions if action_key(a) in root_keys]
                    if not actions:
                        return
                    if seat != me and actions[0].get("type") in sealed:
                        actions = None
            first = False
            if actions is None:
                # a secret choice of another seat: chance, from our point of view
                action = self._sealed_choice(state, seat, None, rng, legal)
                key = ("sealed", seat, action.get("type"))
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node(n, {"seat": seat, "type": action.get("type")}, seat)
                    expanded = True
                child.avail += 1
                state = step(state, action)
                node = child
                path.append(node)
                if expanded:
                    break
                continue
            keyed = [(action_key(a), a) for a in actions]
            untried = []
            for k, a in keyed:
                c = node.children.get(k)
                if c is None:
                    untried.append((k, a))
                else:
                    c.avail += 1
            if untried:
                k, a = untried[rng.randrange(len(untried))]
                child = node.children[k] = _Node(n, a, seat)
                child.avail += 1
                state = step(state, a)
                path.append(child)
                expanded = True
                break
            best, best_score = None, -1.0
            c_explore = self.exploration
            bias_key = self._prior_key if node is root else None
            lo, width = 0.0, 1.0
            if self.qnorm and node is root:
                qs = [node.children[k].reward[seat] / node.children[k].visits for k, _ in keyed]
                lo = min(qs)
                width = (max(qs) - lo) or 1.0
            for k, a in keyed:
                c = node.children[k]
                score = ((c.reward[seat] / c.visits - lo) / width
                         + c_explore * math.sqrt(math.log(c.avail) / c.visits))
                if k == bias_key:          # progressive bias toward the heuristic's choice
                    score += self.prior / (1 + c.visits) ** 0.5
                if score > best_score:
                    best, best_score = (k, a), score
            assert best is not None
            node = node.children[best[0]]
            state = step(state, best[1])
            path.append(node)
        # playout, cut short after `cutoff` decisions
        steps = 0
        while steps < self.cutoff and not api.is_over(state):
            seats = api.acting(state)
            if not seats:
                break
            seat = seats[0]
            legal = legal_actions(state, seat)
            if seat != me and legal and _first_type(legal) in sealed and count_actions(legal) > 1:
                state = step(state, self._sealed_choice(state, seat, None, rng, legal))
                steps += 1
                continue
            actions = self._bounded(legal)
            if not actions:
                break
            if len(actions) == 1:
                a = actions[0]
            elif self.playout == "greedy":
                a = greedy_playout_action(actions, rng)
            elif self.playout == "heuristic":
                a = self._playout_bot(seat).decide(api.view(state, seat, include_state=False), legal)
            else:
                a = actions[rng.randrange(len(actions))]
            state = step(state, a)
            steps += 1
        values = self._values(state, n)
        if self.select == "confident" and len(path) > 1:
            key = id(path[1])
            self._root_sq[key] = self._root_sq.get(key, 0.0) + values[me] * values[me]
        for nd in path:
            nd.visits += 1
            r = nd.reward
            for i in range(n):
                r[i] += values[i]


def _first_type(legal: list[Descriptor]) -> Any:
    """The type of the first action the descriptors list (what `_bounded(legal)[0]["type"]` is
    when the engine lists no undo), without listing them."""
    d = legal[0]
    if d.get("kind") == "choice":
        return d["options"][0].get("type") if d["options"] else None
    return d["action"].get("type")


def _stepper(api: Any) -> Any:
    """The search's own apply: api.apply_trusted (the same next state without the shape
    checks and events nobody reads here, docs/api.md), or apply's state for an API without it."""
    trusted = getattr(api, "apply_trusted", None)
    if trusted is not None:
        return trusted
    return lambda state, action: api.apply(state, action)[0]


def _rank(key: Key, root_keys: dict[Key, Action]) -> int:
    # deterministic tie-break: the order of the legal actions
    return list(root_keys).index(key)


def _players(api: Any, state: Any, view: dict) -> int:
    for name in ("players", "n"):
        v = view.get(name) if isinstance(view, dict) else None
        if isinstance(v, int):
            return v
        if isinstance(v, list):
            return len(v)
    return len(score_estimates(api, state))
