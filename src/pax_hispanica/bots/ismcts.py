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

With ``root="halving"`` the root is decided instead by sequential halving over its actions,
each round's candidates played on common samples (bots/root_halving.py): the budget goes to
telling the root's actions apart, where the tree's means stayed within their noise.

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

import functools
import json
import math
from bisect import bisect_left
import random
import time
from collections.abc import Callable
from typing import Any, cast

from ..contract import Actions, Engine, Sampling, Search
from . import fast_search, root_halving
from .base import (Action, BaseAgent, Descriptor, bounded_actions, count_actions, load_api, playable, spread,
                   stable_seed)
from .features import (CARGO_DISCOUNT, HAND_PRESTIGE, HAND_WORTH_SHARE, SHIP_PRESTIGE, chest_prestige, final_totals,
                       future_prestige, hand_card_worth, legality_worth, score_estimates, scores_from_public, softmax_values)
from .features import _reference as _reference_ruleset

# A wide bid range is searched over at most this many amounts, evenly spread, $0 and all
# one's money included (base.spread): the tree's width and a decision's cost never grow
# with a player's money. Below it (every reference game) every amount is considered.
RANGE_CAP = 64


# The heuristic's card values and the bid model's bids, per API and ruleset (name, variant,
# version): pure functions of their keys (the playout bots are the heuristic with its default
# options, whose bids read nothing but the key's facts), so kept for the process and shared by
# every ISMCTS bot in it (issue 13, seventh round: the web server makes a fresh bot for every
# decision, web/seam.think, and a benchmark one per position). A memo is emptied when it
# reaches MEMO_CAP entries, so a long simulation's memory stays bounded.
_SHARED_MEMOS: dict[tuple[Any, ...], tuple[Any, dict[Any, Any], dict[Any, Any]]] = {}
MEMO_CAP = 50_000


def _shared_memos(api: Engine[Any], ruleset_key: str) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """(card values, bids) for the API and ruleset: id(api) in the key, the API kept in the
    value so that its id is never another object's."""
    got = _SHARED_MEMOS.get((id(api), ruleset_key))
    if got is None:
        got = _SHARED_MEMOS[(id(api), ruleset_key)] = (api, {}, {})
    for memo in got[1:]:
        if len(memo) >= MEMO_CAP:
            memo.clear()
    return got[1], got[2]


def _reference_mpp() -> float:
    return float(_reference_ruleset().money_per_prestige)

# A tree edge's key: an action's (field, value) pairs sorted by field, or
# ("sealed", seat, type) for another seat's secret choice (its chance edge). Tuples hash
# about ten times faster than the canonical JSON text of base.action_key, and two legal
# actions have equal keys exactly when their JSON texts are equal (each field has one
# JSON type, so True and 1 never meet in one field).
Key = tuple[Any, ...]


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


def greedy_playout_action(actions: list[Action], rng: random.Random, below: Any = None) -> Action:
    """A fast, plausible move for playouts: usually (85%) the best-ranked kind
    of action, picked at random among its kind (Europe first among moves, the
    largest load, an employed rather than kidnapped labourer, a modest bid);
    otherwise uniformly random. `below`: rng's randrange(n) (the search passes rng._randbelow,
    the same draws without randrange's checks)."""
    below = below or getattr(rng, "_randbelow", None) or rng.randrange    # randrange(n) is _randbelow(n) for n > 0
    if rng.random() < 0.15:
        ret: dict[str, Any] = actions[below(len(actions))]
        return ret
    top_type = actions[0].get("type")
    if top_type == "bid":
        top = max(a["amount"] for a in actions)
        want = rng.randint(0, max(0, top // 2))
        return min(actions, key=lambda a: abs(a["amount"] - want))
    for a in actions:
        if a.get("type") != top_type:           # several kinds: the best-ranked kind's actions, in order
            rank = _PLAYOUT_RANK.get
            best, pool = -1, []
            for a in actions:
                r = rank(a.get("type"), 0)  # type: ignore[arg-type]  # an action without a type ranks 0
                if r > best:
                    best, pool = r, [a]
                elif r == best:
                    pool.append(a)
            top_type = pool[0].get("type")
            break
    else:                                       # one kind (often): every action is in the pool
        pool = actions
    return pick_of_kind(pool, top_type, rng, below)


def pick_of_kind(pool: list[Action], top_type: object, rng: random.Random, below: Any) -> Action:
    """The greedy policy's pick among the best-ranked kind's actions (`pool`, of `top_type`):
    Europe first among moves (half the time), the largest load, an employed rather than
    kidnapped labourer, else one at random (bots/fast_search.greedy_pick's too)."""
    if top_type == "move":
        for a in pool:                          # Europe first, half the time
            if a.get("to") == "europe":
                if rng.random() < 0.5:
                    return a
                break
    elif top_type in ("load_chests", "enslave"):
        return max(pool, key=lambda a: a.get("count", 0))
    elif top_type == "labour":
        pool = [a for a in pool if a.get("source") == "employ"] or pool
    ret: Action = pool[below(len(pool))]
    return ret


def _greedy_bid(d: Descriptor, rng: random.Random) -> Action | None:
    """greedy_playout_action(bounded_actions([d], RANGE_CAP), rng) for one bid range `d` (its
    only amount without a draw), the same action and the same draws, read from the amounts
    without listing an action per amount (None where that list is empty): the nearest amount
    to the wanted one is the wanted one itself within lo..hi, else the nearest end; over
    RANGE_CAP amounts, the nearest of spread's (sorted) values, the lower on a tie as min's."""
    lo, hi = int(d["min"]), int(d["max"])
    below = getattr(rng, "_randbelow", None) or rng.randrange
    if hi - lo + 1 <= RANGE_CAP:
        n = hi - lo + 1
        if n <= 0:
            return None
        if n == 1:
            v = lo
        elif rng.random() < 0.15:
            v = lo + below(n)
        else:
            want = rng.randint(0, max(0, hi // 2))
            v = lo if want < lo else hi if want > hi else want
    else:
        values = spread(lo, hi, RANGE_CAP)
        if rng.random() < 0.15:
            v = values[below(len(values))]
        else:
            want = rng.randint(0, max(0, max(values) // 2))
            i = bisect_left(values, want)
            if i == len(values):
                v = values[-1]
            elif i == 0 or values[i] == want:
                v = values[i]
            else:
                v = values[i - 1] if want - values[i - 1] <= values[i] - want else values[i]
    a = dict(d["action"])
    a[d["field"]] = v
    return a


class _Node:
    __slots__ = ("action", "avail", "children", "reward", "seat", "seen", "visits")

    def __init__(self, n: int, action: Action | None = None, seat: int | None = None) -> None:
        self.children: dict[Key, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = [0.0] * n
        self.action = action
        self.seat = seat
        self.seen: tuple[int, list[Descriptor], Any] | None = None     # fast_search.keyed's


# Named sets of ISMCTSAgent's options (`ismcts:preset=NAME`, make_agent(..., preset=NAME)); options
# given beside a preset override its. "rollout", the strongest search of issue 40 (docs/bots.md,
# "Playouts to the end of the game"): sequential halving over the root's actions on common
# samples, each candidate followed by the default heuristic for every seat to the end of the game
# (the others' sealed bids the heuristic's own), scored by the softmax of the final scores, the
# prior kept unless a candidate is one standard error ahead. Seconds a move at 200 iterations,
# where the tree's default takes a tenth of one.
PRESETS: dict[str, dict[str, Any]] = {
    "rollout": {"root": "halving", "playout": "heuristic", "cutoff": 3000, "model": 1.0, "final": "soft", "z": 1.0},
}


class ISMCTSAgent(BaseAgent):
    kind = "ismcts"
    uses_information_state = True          # every iteration determinizes its view
    uses_log = True                        # decide(view, legal, log): the hands the log tells are not guessed

    def __init__(self, seed: int = 0, api: object = None, preset: str | None = None, **options: Any) -> None:
        """`preset`: a named set of the options below (PRESETS), under the options given."""
        if preset is not None:
            if preset not in PRESETS:
                raise ValueError(f"unknown ISMCTS preset {preset!r}; known: {', '.join(PRESETS)}")
            options = {**PRESETS[preset], **options}
        self.preset = preset
        self._configure(seed, api, **options)

    def _set_root(self, root: str, width: int, iterations: int | None, seconds: float | None) -> None:
        """The root's search: "tree" (one ISMCTS tree, UCB at every node) or "halving" (bots/
        root_halving.py: sequential halving over the root's actions, each round's candidates
        played on common samples; `width` candidates at most, `z` the prior's guard)."""
        if root not in ("tree", "halving"):
            raise ValueError("root is 'tree' or 'halving'")
        self.root = root
        self.width = int(width)
        if self.width < 2:
            raise ValueError("width is 2 or more")
        if root == "halving" and iterations is None and seconds is not None:
            raise ValueError("root=halving plans its rounds from an iterations budget, not seconds")

    def _configure(self, seed: int = 0, api: object = None, iterations: int | None = None,
                   seconds: float | None = None, cutoff: int = 10,
                   exploration: float = 0.3, temperature: float = 1.0,
                   max_iterations: int = 1_000_000, playout: str = "auto",
                   prior: float = 0.5, model: float = 0.8, future: float = 1.0,
                   eval: str = "handwritten", select: str = "visits", z: float = 2.0, min_visits: int = 3,
                   qnorm: bool | int | str = False, prior_bot: str = "tuned",
                   playout_bot: str = "none", root: str = "tree", width: int = root_halving.DEFAULT_WIDTH,
                   hand: float = HAND_WORTH_SHARE, final: str = "win", **options: Any) -> None:  # `eval`: the bot option's name
        super().__init__(seed, api, **options)
        self._set_root(root, width, iterations, seconds)
        self._sampling: Sampling[Any] | None = None
        # the heuristic whose choice is the root's prior: "tuned" (data/tuned_heuristic.json,
        # bots/heuristic.py preset; the default since it won more against default and tuned
        # heuristic tables alike), "default" (the heuristic's own constants) or a JSON file of its
        # options; the opponent model and the playouts keep the default heuristic (docs/bots.md,
        # fourth round and "The tuned prior as the default")
        self.prior_bot = str(prior_bot)
        if self.prior_bot != "default":
            from .heuristic import preset
            preset(self.prior_bot)          # a bad name or file fails here, not at the first decision
        # the bot's OWN seat in the playouts: "none" (the playout policy, as every seat) or a
        # heuristic preset ("default", "tuned", a JSON file) that chooses its moves on its view of
        # the sampled state; the other seats keep the playout policy (docs/bots.md, fifth round)
        self.playout_bot = str(playout_bot)
        if self.playout_bot != "none":
            from .heuristic import preset
            preset(self.playout_bot)
        self._own_bot: Any = None
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
        # a finished game's value: 1 to the winner ("win"), or ("soft") the softmax at
        # `temperature` of each seat's final Prestige plus its money at the ruleset's rate, as the
        # cut-off scores count them: it tells a near win from a rout, so a playout run to the end
        # (cutoff large) carries far less noise than 0 or 1, at the price of a proxy (CYC-3 ranks
        # by Prestige first, so a seat with less of it and more money may score higher here)
        if final not in ("win", "soft"):
            raise ValueError("final is 'win' or 'soft'")
        self.final = final
        self.exploration = float(exploration)
        self.temperature = float(temperature)
        self.max_iterations = int(max_iterations)
        if playout not in ("auto", "greedy", "random", "heuristic"):
            raise ValueError("playout is 'auto', 'greedy', 'random' or 'heuristic'")
        if playout == "auto":      # greedy: at 1 s/decision it beat heuristic playouts (docs/bots.md)
            playout = "greedy"
        self._playout_bots: dict[int, Any] = {}
        self._bid_memo: dict[tuple[Any, ...], Action] = {}
        # the heuristic's card values and the bid model's bids: _SHARED_MEMOS's, per ruleset
        self._card_memo: dict[Any, Any] = {}
        self.playout = playout
        self.prior = float(prior)
        if not 0.0 <= float(model) <= 1.0:
            raise ValueError("model is a share between 0 and 1")
        self.model = float(model)
        self.future = float(future)
        # the cut-off evaluation: the hand-written softmax of score estimates, the learned
        # conditional logit (bots/learned.py; "learned" is the shipped weights, else a file), or
        # "value": the win-probability model of game analysis (analysis/value.py, issue 40) on the
        # spectator's view of the sampled position; "worth": the hand-written scores with each card
        # in hand priced at `hand` times what the heuristic values it at, less its cost to play
        # (features.hand_card_worth), instead of a flat HAND_PRESTIGE a card
        self.eval = str(eval)
        self._learned: Any = None
        self._value_model: Any = None
        self.hand = float(hand)
        if not 0.0 <= self.hand <= 2.0:
            raise ValueError("hand is a share of a card's worth, between 0 and 2")
        self._hand_memo: dict[tuple[Any, ...], float] = {}
        if self.eval == "value":
            from ..analysis import value as value_model
            self._value_model = value_model.load()
        elif self.eval not in ("worth", "handwritten"):
            from .learned import load
            self._learned = load(None if self.eval == "learned" else self.eval)
        self._rs: Any = None
        self._worth: dict[str, float] | None = None
        self._prior_key: Key | None = None
        self._chest: dict[str, Any] | None = None
        self._caps: tuple[Any, ...] | None = None        # _prepare: once per decision
        self._root_legal: Any = None
        self._root_keyed: list[Any] = []
        self._consts: tuple[Any, ...] | None = None
        self._fast_values = False
        self._fast = False                               # fast_search's paths (_prepare)
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

    @property
    def api(self) -> Sampling[Any]:
        """The engine: the core contract, and the search's few helpers beyond it (Sampling:
        determinize, summary, SEALED_ACTION_TYPES); TypeError naming them for one without."""
        got = self._sampling
        if got is None:
            engine = load_api(self.api_ref)
            if not isinstance(engine, Sampling):
                raise TypeError(f"ISMCTS needs an engine with determinize, summary and SEALED_ACTION_TYPES "
                                f"(pax_hispanica.contract.Sampling), not {engine!r}")
            got = self._sampling = engine
        return got

    def _final_values(self, state: Any, n: int) -> list[float]:
        """A finished game's value for each seat: 1 to the winner, or with final=soft the softmax
        of the seats' final Prestige and money."""
        res = self.api.result(state)
        if self.final == "soft" and res is not None and self._rs is not None:
            return softmax_values(final_totals(res, self._rs.money_per_prestige), self.temperature)
        winner = res["winner"] if res is not None else None
        return [1.0 if p == winner else 0.0 for p in range(n)]

    def _values(self, state: Any, n: int) -> list[float]:
        api = self.api
        if api.is_over(state):
            return self._final_values(state, n)
        if self._value_model is not None:
            from ..analysis.value import seat_features, softmax
            vm = self._value_model
            return softmax(vm.logits(seat_features(api.view(state, None))), vm.temperature * self.temperature)
        if self.eval == "worth" and self._rs is not None and hasattr(api, "hand_facts"):
            search = cast(Search[Any], api)
            cycle, seats = search.score_facts(state)
            return softmax_values(self._fact_scores(cycle, seats, hands=search.hand_facts(state)), self.temperature)
        if getattr(self, "_fast_values", None) or (self._learned is None and self._rs is not None
                                                   and hasattr(api, "score_facts")):
            # _fast_values: the engine has score_facts (hasattr, once per decision: _prepare)
            return softmax_values(self._fact_scores(*cast(Search[Any], api).score_facts(state)), self.temperature)
        summ = api.summary(state)
        if self._learned is not None and self._rs is not None:
            ret: list[float] = self._learned.values(summ, self._rs, self._chest, self._worth, self.temperature)
            return ret
        scores = scores_from_public(summ, self._chest, self._rs.money_per_prestige if self._rs is not None else None)
        if self.future and self._rs is not None:
            scores = [s + self.future * f for s, f in zip(scores, future_prestige(summ, self._rs, self._worth))]
        return softmax_values(scores, self.temperature)

    def _fact_scores(self, cycle: int, seats: list[tuple[Any, ...]],
                     hands: tuple[tuple[str, ...], ...] | None = None) -> list[float]:
        """scores_from_public(summary) plus `future` times future_prestige(summary), read from
        api.score_facts' tuples: the same arithmetic in the same order, so the same floats
        (tests/bots/test_ismcts_values.py), without building the summary's dicts. The ruleset's
        numbers are read once per decision (kept while the ruleset, Chest values, legality
        worths and `future` are the same objects)."""
        rs, chest, future = self._rs, self._chest, self.future
        c = getattr(self, "_consts", None)
        if c is None or c[0] is not rs or c[1] is not chest or c[2] is not self._worth or c[3] != future:
            c = self._consts = (rs, chest, self._worth, future, float(rs.money_per_prestige or _reference_mpp()),
                                self._worth or legality_worth(rs), rs.colony_income, rs.money_per_prestige,
                                rs.cycles, {})
        mpp, worth, income_per, rs_mpp, cycles, lefts = c[4:]
        left = lefts.get(cycle)
        if left is None:
            left = lefts[cycle] = max(0, cycles - int(cycle)) + 0.5
        chest_of, worth_of = chest.get, worth.get  # type: ignore[union-attr]  # decide sets both before a search
        out = []
        for seat, (prestige, money, colonies, hand, income, ships, legality, chests) in enumerate(seats):
            cargo = chests * chest_of(legality, 1.0) * CARGO_DISCOUNT
            extra = max(0, (ships or 1) - 1) * SHIP_PRESTIGE
            in_hand = HAND_PRESTIGE * hand if hands is None else self._hand_worth(hands[seat], legality, ships, cycle)
            score = float(prestige) + money / mpp + float(colonies) + cargo + extra + in_hand
            if future:
                earnings = (income or 0) + (colonies or 0) * income_per
                score = score + future * ((earnings + worth_of(legality, 0.0)) * left / rs_mpp)
            out.append(score)
        return out

    def _hand_worth(self, cards: tuple[str, ...], legality: str, ships: int, cycle: int) -> float:
        """eval=worth: what a seat's cards in hand will bring, in Prestige (features.hand_card_worth
        at this decision's ruleset, `hand` times each card's worth), memoised per decision."""
        memo = self._hand_memo
        total = 0.0
        for card in cards:
            key = (card, legality, ships, cycle)
            got = memo.get(key)
            if got is None:
                got = memo[key] = self.hand * hand_card_worth(self._playout_bot(0), self._rs, self._ruleset_of_view,
                                                              card, legality, ships, cycle)
            total += got
        return total

    def _playout_bot(self, seat: int) -> Any:
        bot = self._playout_bots.get(seat)
        if bot is None:
            from .heuristic import HeuristicAgent
            bot = self._playout_bots[seat] = HeuristicAgent(stable_seed("playout", self.seed, seat), self.api_ref)
            bot._card_memo = self._card_memo       # card_value's memo: a pure function of its key
        return bot

    def _own_playout_bot(self) -> Any:
        """playout_bot's heuristic, one per decision (fresh, so a decision never depends on
        earlier ones), seeded from the bot's seed; its card values shared with its preset's."""
        bot = self._own_bot
        if bot is None:
            from .heuristic import HeuristicAgent
            preset = None if self.playout_bot == "default" else self.playout_bot
            bot = self._own_bot = HeuristicAgent(stable_seed("own playout", self.seed), self.api_ref, preset=preset)
            bot._card_memo = (self._card_memo if preset is None
                              else _shared_memos(self.api, f"{getattr(self, '_ruleset_key', '')} {self.playout_bot}")[0])
        return bot

    def _own_playout_action(self, state: Any, me: int, legal: list[Descriptor]) -> Action:
        """The own seat's move in a playout under playout_bot: its heuristic's choice on the
        seat's view of the sampled state (a bid from the bid's public facts, as the opponent
        model's: HeuristicAgent.bid_on_facts gives decide's bid without a view)."""
        api, bot = self.api, self._own_bot
        caps = self._caps
        if (len(legal) == 1 and legal[0].get("kind") == "range" and legal[0]["action"].get("type") == "bid"
                and caps is not None and caps[4] and self._rs is not None):
            facts = cast(Search[Any], api).bid_facts(state, me)     # caps[4]: the engine has bid_facts
            ret: dict[str, Any] = bot.bid_on_facts(self._rs, facts, legal[0])
            return ret
        ret = bot.decide(api.view(state, me), legal)        # (a view without "state": the default)
        return ret

    def _sealed_choice(self, state: Any, seat: int, actions: list[Action] | None, rng: random.Random,
                       legal: list[Descriptor] | None = None) -> Action:
        """Another seat's bid or Battle Card, drawn from the opponent model:
        a share ``model`` of the time what the heuristic bot would choose on
        that seat's own view of the sampled state (bids follow public facts:
        the card, its cost, the bidder's money and legality), otherwise
        uniformly at random, so that no bid is ever ruled out."""
        caps = getattr(self, "_caps", None) or _capabilities(self.api)
        if self.model > 0 and rng.random() < self.model and caps[2]:
            api = self.api
            if legal is None:
                legal = api.legal_actions(state, seat)
            kind = _first_type(legal)
            # the heuristic bids from the players and the decision alone (HeuristicAgent._bid),
            # so a bid reads the public facts of api.model_view, not a view; a Battle Card's
            # choice reads the colonies, so it gets the view
            if kind != "bid":
                ret: dict[str, Any] = self._playout_bot(seat).decide(api.view(state, seat), legal)
                return ret
            if not caps[3]:
                lean_view: Any = api.view       # an engine's view that leaves out the board (api's), beyond the contract
                ret = self._playout_bot(seat).decide(lean_view(state, seat, include_state=False, board=False), legal)
                return ret
            if caps[4]:
                return self._fact_bid(cast(Search[Any], api), state, seat, legal)   # caps[4]: it has bid_facts
            return self._model_bid(cast(Search[Any], api).model_view(state, seat), seat, legal)   # caps[3]: it has model_view
        if actions is None:
            actions = self._bounded(legal if legal is not None else self.api.legal_actions(state, seat))
        return actions[rng.randrange(len(actions))]

    def _model_bid(self, seen: dict[str, Any], seat: int, legal: list[Descriptor]) -> Action:
        """HeuristicAgent.decide's bid (its _bid: no randomness, and it reads only the card,
        deck and initiator of the decision, the bidder's money, seat and fleet, and the cycle),
        memoised on exactly those facts for the decision's search."""
        bids = [d for d in legal if d.get("kind") == "range" and d["action"].get("type") == "bid"]
        if len(bids) != 1 or len(legal) != 1:
            ret: dict[str, Any] = self._playout_bot(seat).decide(seen, legal)
            return ret
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

    def _fact_bid(self, api: Search[Any], state: Any, seat: int, legal: list[Descriptor]) -> Action:
        """_model_bid with its memo key read by api.bid_facts (the same facts, as a tuple,
        nothing built): api.model_view is built only when the memo has no bid for them."""
        if len(legal) != 1 or legal[0].get("kind") != "range" or legal[0]["action"].get("type") != "bid":
            ret: dict[str, Any] = self._playout_bot(seat).decide(api.model_view(state, seat), legal)
            return ret
        b = legal[0]
        facts = api.bid_facts(state, seat)
        key = (seat, *facts, b["min"], b["max"])
        got = self._bid_memo.get(key)
        if got is None:
            bot = self._playout_bot(seat)
            if self._rs is not None and hasattr(bot, "bid_on_facts"):     # the same bid, no model view built
                got = bot.bid_on_facts(self._rs, facts, b)
            else:
                got = bot.decide(api.model_view(state, seat), legal)
            self._bid_memo[key] = got
        return dict(got)

    # -- the search --------------------------------------------------------
    def decide(self, view: dict[str, Any], legal: list[Descriptor], log: list[dict[str, Any]] | None = None) -> Action:
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
        # a sample whose legal actions for the bot are the real ones (nearly all) has these keyed
        # actions at the root: _iterate compares the descriptors instead of keying each action again
        self._root_legal, self._root_keyed = legal, [(action_key(a), a) for a in root_actions]
        rng = random.Random(stable_seed("ismcts", self.seed, view, legal))
        self._playout_bots = {}     # fresh playout bots: a decision never depends on earlier ones
        self._hand_memo = {}
        self._ruleset_of_view: dict[str, Any] = {k: view.get(k) for k in ("ruleset", "ruleset_params", "ruleset_version") if k in view}
        self._own_bot = None
        ruleset_key = json.dumps(
            [view.get("ruleset"), view.get("ruleset_params") or None, view.get("ruleset_version")], sort_keys=True)
        self._card_memo, self._bid_memo = _shared_memos(api, ruleset_key)
        self._ruleset_key = ruleset_key
        self._prior_key = None
        self._chest = self._rs = self._worth = None
        if hasattr(api, "load_ruleset") and "ruleset" in view:
            self._rs = (api.view_ruleset(view) if hasattr(api, "view_ruleset")     # PRJ-50: the view's version
                        else api.load_ruleset(view["ruleset"], view.get("ruleset_params") or None))
            self._chest = chest_prestige(self._rs)
            self._worth = legality_worth(self._rs)
        self._prepare()
        prior_action = None
        if self.prior > 0 and hasattr(self.api, "load_ruleset"):
            from .heuristic import HeuristicAgent
            if not hasattr(self, "_heuristic"):
                # private (issue 37): the prior's sealed choices are mixed, from this decision's keyed
                # randomness (HeuristicAgent with private: bid_band, support_odds)
                self._heuristic = HeuristicAgent(self.seed, self.api_ref, preset=self.prior_bot, private=self.private)
            # the ruleset's card values, shared (pure) by the bots whose options value cards alike:
            # the default heuristic's with the playouts', a preset's with that preset's own
            self._heuristic._card_memo = (self._card_memo if self.prior_bot == "default"
                                          else _shared_memos(api, f"{ruleset_key} {self.prior_bot}")[0])
            self._heuristic.rng.seed(stable_seed("prior", self.seed, view.get("version", 0)))
            prior_action = self._heuristic.decide(view, legal)
            self._prior_key = action_key(prior_action)
        root: _Node | None = None
        self._root_sq: dict[int, float] = {}     # select=confident: each root child's sum of squared values
        n_players = 0                            # known from the first sample
        iterations = 0
        budget_iters = self.iterations if self.iterations is not None else self.max_iterations
        deadline = t0 + self.seconds if self.seconds is not None else None
        # the view's samples: api.determinizer works out what depends on the view alone once
        # (the same states as api.determinize(view, seed)); a toy API may only have determinize
        make = getattr(api, "determinizer", None)
        known = None
        if log is not None and hasattr(api, "known_cards"):
            known = api.known_cards(view, log)
        sample: Callable[[int], Any]
        if make is None:
            sample = lambda seed: api.determinize(view, seed)  # noqa: E731
        else:
            sample = make(view) if known is None else make(view, known)
        if self.root == "halving":
            return self._decide_by_halving(sample, me, rng, view, budget_iters, t0, prior_action)
        while iterations < budget_iters:
            if deadline is not None and iterations > 0 and time.perf_counter() >= deadline:
                break
            state = sample(rng.getrandbits(63))
            if root is None:
                res = api.result(state) if api.is_over(state) else None
                n_players = len(res["scores"]) if res is not None else _players(api, state, view)
                root = _Node(n_players)
            self._iterate(state, root, me, root_keys, rng, n_players)
            iterations += 1
        assert root is not None
        candidates = [k for k in root.children if k in root_keys]
        if not candidates:      # no sample agreed with the real legal actions (never seen)
            candidates = [self._prior_key if self._prior_key in root_keys else next(iter(root_keys))]
            for k in candidates:
                root.children.setdefault(k, _Node(n_players or 0, root_keys[k], me))
        order = {k: i for i, k in enumerate(root_keys)}       # deterministic tie-break: the legal actions' order
        best_key = max(candidates, key=lambda k: (root.children[k].visits, -order[k]))
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

    def _decide_by_halving(self, sample: Callable[[int], Any], me: int, rng: random.Random, view: dict[str, Any],
                           budget: int, t0: float, prior_action: Action | None) -> Action:
        """root=halving: bots/root_halving.py's search over the root's actions, `budget`
        candidate-samples (an iteration budget: the rounds are planned from it)."""
        api = self.api
        step = self._step
        first = rng.getrandbits(63)     # drawn either way: the rounds' samples follow in the same stream
        n_players = _view_players(view) or _players(api, sample(first), view)

        def sampled(seed: int) -> tuple[Any, set[Key] | None]:
            state = sample(seed)
            legal = api.legal_actions(state, me)
            ok = None if legal == self._root_legal else {action_key(a) for a in self._node_actions(legal)}
            return state, ok

        def evaluate(got: tuple[Any, set[Key] | None], key: Key, action: Action, playout_seed: int) -> float | None:
            state, ok = got
            if ok is not None and key not in ok:
                return None
            prng = random.Random(playout_seed)
            below = getattr(prng, "_randbelow", None) or prng.randrange
            return self._playout_values(step(state, action), me, prng, below, n_players)[me]

        chosen, arms, spent = root_halving.search(self._root_keyed, self._prior_key, budget, self.width,
                                                  self.z, evaluate, sampled, rng)
        elapsed = time.perf_counter() - t0
        self.total_iterations += spent
        self.total_seconds += elapsed
        ranked = sorted(arms, key=lambda a: (-len(a.values), -a.mean))
        self._explanation = {
            "bot": self.kind,
            "rule_of_thumb": "best action of a sequential halving over common samples",
            "iterations": spent,
            "seconds": round(elapsed, 4),
            "heuristic_choice": prior_action,
            "alternatives": [{"action": a.action, "visits": len(a.values),
                              "value": round(a.mean, 4) if a.values else None} for a in ranked[:5]],
        }
        return chosen.action

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

    def _prepare(self) -> None:
        """What every iteration of one decision reads and none of them changes (issue 13,
        seventh round), looked up once per decision: the API's functions and what it offers,
        and the cut-off scoring's constants (_fact_scores)."""
        api = self.api
        self._step = _stepper(api)
        self._sealed_types = api.SEALED_ACTION_TYPES
        self._caps = _capabilities(api)
        # a playout's heuristic only reads the view of each position it decides in: this engine's
        # shared view (PRJ-65, api.view(..., copy=False)), two thirds of a copied one's work
        self._playout_view = functools.partial(cast(Any, api).view, copy=False) if self._caps[0] else api.view
        self._fast_values = (self._learned is None and self._value_model is None and self.eval != "worth"
                             and self._rs is not None
                             and hasattr(api, "score_facts"))
        self._consts = None
        self._fast = fast_search.usable(self)     # the fast paths stand for the plain code (issue 40)

    def _keyed_own(self, legal: list[Descriptor]) -> list[tuple[Key, Action]]:
        """A tree node's (key, action) pairs for the bot's own seat (fast_search.keyed keeps them)."""
        return [(action_key(a), a) for a in self._node_actions(legal)]

    def _keyed_other(self, legal: list[Descriptor]) -> list[tuple[Key, Action]] | None:
        """Another seat's: None for a secret choice (the opponent model chooses it), else its pairs."""
        return None if _first_type(legal) in self._sealed_types else self._keyed_own(legal)

    def _node_actions(self, legal: list[Descriptor]) -> list[Action]:
        """_bounded(legal), without copying the options of the engine's one choice (nearly
        every decision): the engine lists no undo (docs/api.md) and nothing here writes to an
        option (a tree node keeps a copy of its own action)."""
        if self._caps[0] and len(legal) == 1 and legal[0]["kind"] == "choice":  # type: ignore[index]  # _prepare sets _caps
            ret: list[dict[str, Any]] = legal[0]["options"]
            return ret
        return self._bounded(legal)

    def _iterate(self, state: Any, root: _Node, me: int, root_keys: dict[Key, Action],
                 rng: random.Random, n: int) -> None:
        api = self.api
        if getattr(self, "_caps", None) is None:
            self._prepare()
        sealed = self._sealed_types      # the game's secret choices, as its API declares them
        step = self._step
        is_over, acting, legal_actions = api.is_over, api.acting, api.legal_actions
        node_actions = self._node_actions
        below = getattr(rng, "_randbelow", None) or rng.randrange    # randrange(n) is _randbelow(n) for n > 0
        sqrt, log = math.sqrt, math.log
        node = root
        path = [root]
        expanded = False
        first = True
        while not is_over(state):
            seats = acting(state)
            if not seats:
                break
            keyed: list[tuple[Key, Action]] | None
            if first:
                first = False
                seat = me if me in seats else seats[0]
                legal = legal_actions(state, seat)
                # the bot's own legal actions should not depend on what it cannot
                # see; if a sample disagrees, the iteration is dropped
                if seat == me and legal == self._root_legal:
                    keyed = self._root_keyed            # the same list as below, keyed once per decision
                else:
                    keyed = [(k, a) for a in node_actions(legal) if (k := action_key(a)) in root_keys]
                if not keyed:
                    return
                if seat != me and keyed[0][1].get("type") in sealed:
                    keyed = None
            else:
                seat = seats[0]
                legal = legal_actions(state, seat)
                if seat != me and not legal:
                    break
                # another seat's secret choice: its actions are listed only if the model does not
                # choose (_keyed_other); kept on the node while its legal actions stay the same
                keyed = fast_search.keyed(node, seat, legal, self._keyed_other if seat != me else self._keyed_own)
            children = node.children
            if keyed is None:
                # a secret choice of another seat: chance, from our point of view
                action = (fast_search.sealed_choice(self, api, state, seat, legal, _first_type(legal), rng)
                          if self._fast else self._sealed_choice(state, seat, None, rng, legal))
                key = ("sealed", seat, action.get("type"))
                child = children.get(key)
                if child is None:
                    child = children[key] = _Node(n, {"seat": seat, "type": action.get("type")}, seat)
                    expanded = True
                child.avail += 1
                state = step(state, action)
                node = child
                path.append(node)
                if expanded:
                    break
                continue
            untried = []
            for ka in keyed:
                c = children.get(ka[0])
                if c is None:
                    untried.append(ka)
                else:
                    c.avail += 1
            if untried:
                k, a = untried[below(len(untried))]
                child = children[k] = _Node(n, dict(a), seat)
                child.avail += 1
                state = step(state, a)
                path.append(child)
                expanded = True
                break
            best, best_score = None, -1.0
            c_explore = self.exploration
            bias_key = self._prior_key if node is root else None
            if self.qnorm and node is root:
                qs = [children[k].reward[seat] / children[k].visits for k, _ in keyed]
                lo = min(qs)
                width = (max(qs) - lo) or 1.0
                for ka in keyed:
                    c = children[ka[0]]
                    score = ((c.reward[seat] / c.visits - lo) / width
                             + c_explore * sqrt(log(c.avail) / c.visits))
                    if ka[0] == bias_key:          # progressive bias toward the heuristic's choice
                        score += self.prior / (1 + c.visits) ** 0.5
                    if score > best_score:
                        best, best_score = ka, score
            else:     # the same floats as (q - 0.0) / 1.0 + ...: x - 0.0 and x / 1.0 are x exactly
                for ka in keyed:
                    c = children[ka[0]]
                    visits = c.visits
                    score = c.reward[seat] / visits + c_explore * sqrt(log(c.avail) / visits)
                    if ka[0] == bias_key:          # progressive bias toward the heuristic's choice
                        score += self.prior / (1 + visits) ** 0.5
                    if score > best_score:
                        best, best_score = ka, score
            assert best is not None
            node = children[best[0]]
            state = step(state, best[1])
            path.append(node)
        values = self._playout_values(state, me, rng, below, n)
        if self.select == "confident" and len(path) > 1:
            top = id(path[1])
            self._root_sq[top] = self._root_sq.get(top, 0.0) + values[me] * values[me]
        for nd in path:
            nd.visits += 1
            r = nd.reward
            for i in range(n):
                r[i] += values[i]

    def _playout_values(self, state: Any, me: int, rng: random.Random, below: Any, n: int) -> list[float]:
        """Each seat's value after a playout from `state`, cut short after `cutoff` decisions
        (the tree's leaf and a halving candidate's sample alike)."""
        api = self.api
        if self._fast:
            state = fast_search.greedy_playout(self, api, state, me, rng, below)
        else:
            state = self._playout(state, me, rng, below)
        if self._fast_values and not api.is_over(state):
            return fast_search.leaf_values(self, api, state)
        return self._values(state, n)

    def _playout(self, state: Any, me: int, rng: random.Random, below: Any) -> Any:
        """The state after at most `cutoff` playout decisions from `state` (the plain version of
        fast_search.greedy_playout, for every option and API)."""
        api = self.api
        sealed = self._sealed_types
        step = self._step
        is_over, acting, legal_actions = api.is_over, api.acting, api.legal_actions
        node_actions = self._node_actions
        steps = 0
        cutoff = self.cutoff
        playout = self.playout
        count = self._caps[1]  # type: ignore[index]  # _prepare sets _caps
        own = self._own_playout_bot() if self.playout_bot != "none" else None
        while steps < cutoff and not is_over(state):
            seats = acting(state)
            if not seats:
                break
            seat = seats[0]
            legal = legal_actions(state, seat)
            if seat != me and legal and _first_type(legal) in sealed and count(legal) > 1:
                state = step(state, self._sealed_choice(state, seat, None, rng, legal))
                steps += 1
                continue
            if seat == me and own is not None:
                state = step(state, self._own_playout_action(state, me, legal))
                steps += 1
                continue
            if (playout == "greedy" and len(legal) == 1 and legal[0].get("kind") == "range"
                    and legal[0]["field"] == "amount" and legal[0]["action"].get("type") == "bid"):
                bid = _greedy_bid(legal[0], rng)       # one's own bid: no list of every amount
                if bid is None:
                    break
                state = step(state, bid)
                steps += 1
                continue
            actions = node_actions(legal)
            if not actions:
                break
            state = step(state, self._playout_pick(actions, state, seat, legal, rng, below))
            steps += 1
        return state

    def _playout_pick(self, actions: list[Action], state: Any, seat: int, legal: list[Descriptor],
                      rng: random.Random, below: Any) -> Action:
        """The playout policy's move among `actions` (one or more)."""
        if len(actions) == 1:
            return actions[0]
        if self.playout == "greedy":
            return greedy_playout_action(actions, rng, below)
        if self.playout == "heuristic":
            ret: Action = self._playout_bot(seat).decide(self._playout_view(state, seat), legal)   # without "state"
            return ret
        return actions[rng.randrange(len(actions))]


def _capabilities(api: Engine[Any]) -> tuple[Any, ...]:
    """What the search asks of its API, once per decision: (whether it is this engine's API,
    whose legal actions never list an undo; its count_actions; whether its sealed choices can
    follow the opponent model (load_ruleset); whether it has model_view; bid_facts)."""
    import sys
    ours = api is sys.modules.get("pax_hispanica.api")
    return (ours, cast(Actions, api).count_actions if ours else count_actions, hasattr(api, "load_ruleset"),
            hasattr(api, "model_view"), hasattr(api, "bid_facts"))


def _first_type(legal: list[Descriptor]) -> Any:
    """The type of the first action the descriptors list (what `_bounded(legal)[0]["type"]` is
    when the engine lists no undo), without listing them."""
    d = legal[0]
    if d.get("kind") == "choice":
        return d["options"][0].get("type") if d["options"] else None
    return d["action"].get("type")


def _stepper(api: Engine[Any]) -> Any:
    """The search's own apply: api.apply_trusted (the same next state without the shape
    checks and events nobody reads here, docs/api.md), or apply's state for an API without it."""
    trusted = getattr(api, "apply_trusted", None)
    if trusted is not None:
        return trusted
    return lambda state, action: api.apply(state, action)[0]


def _view_players(view: dict[str, Any]) -> int | None:
    """The number of players a view tells ("players" or "n"), else None."""
    for name in ("players", "n"):
        v = view.get(name) if isinstance(view, dict) else None
        if isinstance(v, int):
            return v
        if isinstance(v, list):
            return len(v)
    return None


def _players(api: Sampling[Any], state: Any, view: dict[str, Any]) -> int:
    return _view_players(view) or len(score_estimates(api, state))
