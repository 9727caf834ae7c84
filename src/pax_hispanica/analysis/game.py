"""A finished game analysed: the win-probability chart, every decision of one seat reviewed, and
the key moments in words.

`analyse(record, seat, budget, seed)` replays the record through `pax_hispanica.api` and gives a
`GameAnalysis`:

- **chart**: after every action (and at the start), each seat's win probability from the
  reviewed seat's view (`value.win_probabilities`), with the Years marked (`years`: where the
  cycle or the Year changes). At the end the winner's is 1.
- **decisions**: every decision of the reviewed seat that offered a choice (more than one legal
  action). The strongest bot chooses from the seat's view and its own log, as it would have in
  the game: ISMCTS at `budget` iterations (its prior the tuned heuristic), or the tuned heuristic
  bot with `budget=0`. Both moves are then applied to the position and the value model reads
  the seat's chance of winning after each (a sealed choice, a bid or a Battle Card, is read once
  it is revealed: the other seats' recorded sealed choices of the same decision are applied
  after it). `cost = max(0, P(after best) - P(after played))`, and a mark when the cost reaches
  a threshold of `THRESHOLDS` (in win probability: inaccuracy 0.04, mistake 0.08, blunder 0.15;
  docs/bots.md, "Game analysis", says how they were chosen). The positions after a move are the
  game's own: what the analysis knows of the hidden cards and the dice is what the finished game
  showed, the same for both moves, which is how a post-mortem reads a game; the bot's choice is
  made from the seat's view alone.
- **key moments**: the actions that moved some seat's chance the most (at most `MOMENTS`, each by
  at least `MOMENT_SWING`), in game order, each described from the action's events (an auction
  won, a battle, a sack, Treasure scored, ...) in English and Catalan (analysis/messages.py);
  a move no event tells is said as the web game says it ("English sailed to the Atlantic Ocean":
  the catalogues of web/present/i18n.py, as the terminal game has them), never by its ids.

Deterministic: the same record, seat, budget, seed and model give the same analysis (the bot
is seeded from `seed` and the seat; ISMCTS seeds each search from its seed and the view).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import api
from ..bots import make_agent
from ..bots.base import stable_seed
from ..contract import Engine, SearchEngine
from . import messages as M
from . import value as V

if TYPE_CHECKING:
    from ..web.present.i18n import Tr

JsonDict = dict[str, Any]
Action = dict[str, Any]

ENGINE: SearchEngine[api.State] = api
"""The engine, typed against the contract (pax_hispanica.contract): the nine operations, and of
the helper protocols `count_actions`, `redact` and `SEALED_ACTION_TYPES`. mypy --strict checks
that nothing else is asked of it; tests/engine/test_api_contract.py that the module reads of `api`
itself only names of the helper groups (replay, decision, view_ruleset, card_catalogue)."""

# cost thresholds in win probability (0..1), largest first
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 0.15), ("mistake", 0.08), ("inaccuracy", 0.04))
MOMENTS = 6              # key moments listed at most
MOMENT_SWING = 0.08      # the least change in some seat's chance that makes a key moment
DEFAULT_BUDGET = 200


def mark(cost: float) -> str | None:
    """The mark of a move that cost `cost` of the chance of winning, or None."""
    for name, threshold in THRESHOLDS:
        if cost >= threshold:
            return name
    return None


@dataclass(frozen=True)
class ChartPoint:
    index: int                         # actions applied so far (0: the start)
    cycle: int
    year: str
    probabilities: tuple[float, ...]   # one per seat, summing to 1


@dataclass(frozen=True)
class YearMark:
    index: int                         # the chart point where this Year begins
    cycle: int
    year: str


@dataclass(frozen=True)
class DecisionReview:
    index: int                         # the action's place in the record; the position before it is chart[index]
    cycle: int
    year: str
    decision: str                      # the pending decision's name (labour, initiate, bid, play_turn, ...)
    options: int                       # legal actions offered
    played: Action
    best: Action                       # the bot's choice
    value_played: float                # the seat's chance of winning after the played move
    value_best: float                  # ... after the bot's
    cost: float                        # max(0, value_best - value_played)
    mark: str | None                   # inaccuracy, mistake, blunder or None


@dataclass(frozen=True)
class KeyMoment:
    index: int                         # the action (chart[index] -> chart[index + 1])
    cycle: int
    year: str
    seat: int                          # the seat whose chance moved most
    before: float
    after: float
    kind: str                          # the message key of what happened (messages.MESSAGES)
    params: JsonDict                   # its facts: seats, card and colony ids, amounts
    text: dict[str, str] = field(compare=False)   # lang -> the sentence


@dataclass(frozen=True)
class GameAnalysis:
    seat: int
    players: int
    nations: tuple[str, ...]
    finished: bool
    winner: int | None
    ranking: tuple[int, ...]
    budget: int
    seed: int
    bot: str                           # "ismcts", "ismcts:preset=rollout" or "heuristic" (bot_name)
    chart: tuple[ChartPoint, ...]
    years: tuple[YearMark, ...]
    decisions: tuple[DecisionReview, ...]
    key_moments: tuple[KeyMoment, ...]
    model: str                         # the command that trained the value model
    # the game's ids (zones, colonies, sites, cards) -> their names, to say a move in words
    names: dict[str, str] = field(default_factory=dict, compare=False)

    def counts(self) -> dict[str, int]:
        """How many decisions got each mark."""
        out = {name: 0 for name, _t in THRESHOLDS}
        for d in self.decisions:
            if d.mark:
                out[d.mark] += 1
        return out

    def average_cost(self) -> float:
        return sum(d.cost for d in self.decisions) / len(self.decisions) if self.decisions else 0.0

    def to_json(self, lang: str | None = None) -> JsonDict:
        """Plain JSON data; the key moments' text in `lang`, or in every language when None."""
        langs = (M.check_lang(lang),) if lang else M.LANGS
        return {
            "seat": self.seat, "players": self.players, "nations": list(self.nations), "finished": self.finished,
            "winner": self.winner, "ranking": list(self.ranking), "budget": self.budget, "seed": self.seed,
            "bot": self.bot, "model": self.model, "thresholds": {n: t for n, t in THRESHOLDS},
            "summary": {"decisions": len(self.decisions), **self.counts(), "average_cost": round(self.average_cost(), 4)},
            "chart": [{"index": p.index, "cycle": p.cycle, "year": p.year,
                       "probabilities": [round(x, 4) for x in p.probabilities]} for p in self.chart],
            "years": [{"index": y.index, "cycle": y.cycle, "year": y.year} for y in self.years],
            "decisions": [{"index": d.index, "cycle": d.cycle, "year": d.year, "decision": d.decision,
                           "options": d.options, "played": d.played, "best": d.best,
                           "value_played": round(d.value_played, 4), "value_best": round(d.value_best, 4),
                           "cost": round(d.cost, 4), "mark": d.mark} for d in self.decisions],
            "key_moments": [{"index": k.index, "cycle": k.cycle, "year": k.year, "seat": k.seat,
                             "before": round(k.before, 4), "after": round(k.after, 4), "kind": k.kind,
                             "params": k.params, "text": {lg: k.text[lg] for lg in langs}} for k in self.key_moments],
        }


ROLLOUT = "rollout"                # ISMCTS's preset (bots.ismcts.PRESETS)
SEARCHES = ("tree", ROLLOUT)       # the search of the best move: ISMCTS's tree, or its rollout preset
ROLLOUT_BOT = f"ismcts:preset={ROLLOUT}"


def _bot(budget: int, seed: int, seat: int, search: str = "tree") -> Any:
    s = stable_seed("analysis", seed, seat)
    if budget <= 0:
        return make_agent("heuristic", s, preset="tuned")
    return make_agent("ismcts", s, iterations=budget, **({"preset": ROLLOUT} if search == ROLLOUT else {}))


def bot_name(budget: int, search: str = "tree") -> str:
    """GameAnalysis.bot: "heuristic" (budget 0), "ismcts" (the tree) or ROLLOUT_BOT."""
    if budget <= 0:
        return "heuristic"
    return ROLLOUT_BOT if search == ROLLOUT else "ismcts"


def seat_view(engine: Engine[Any], state: Any, seat: int, with_state: bool) -> JsonDict:
    """`seat`'s view of `state`, with the masked state as its "state" for a bot that reads it
    (ISMCTS): what api.view(state, seat, include_state=with_state) gives, through the contract."""
    view = engine.view(state, seat)
    if with_state:
        view["state"] = engine.information_state(state, seat)
    return view


def _value_after(state: api.State, action: Action, seat: int, actions: Sequence[Action], i: int,
                 model: V.ValueModel) -> float:
    """The seat's chance of winning after `action` (in place of actions[i]); a sealed choice is
    read once the other seats' recorded choices of the same decision are in."""
    st, _events = ENGINE.apply(state, action)
    if action.get("type") in ENGINE.SEALED_ACTION_TYPES:       # api.is_sealed_action
        j = i + 1
        while j < len(actions) and not ENGINE.is_over(st):
            nxt = actions[j]
            if nxt.get("type") != action.get("type") or nxt.get("seat") == seat or nxt.get("seat") not in ENGINE.acting(st):
                break
            st, _events = ENGINE.apply(st, nxt)
            j += 1
    return model.probabilities(ENGINE.view(st, seat))[seat]


def analyse(record: Mapping[str, Any], seat: int = 0, budget: int = DEFAULT_BUDGET, seed: int = 0,
            model: V.ValueModel | None = None, search: str = "tree") -> GameAnalysis:
    """Analyse `record` (a record's JSON: `api.Game.record`, `paxh play --save`, the web game's
    record) for `seat`: see the module's docstring. ValueError for a seat not in the game or a
    record that does not replay; a record that stops before the end is analysed as far as it goes."""
    if search not in SEARCHES:
        raise ValueError(f"search is {' or '.join(SEARCHES)}, not {search!r}")
    model = model or V.load()
    rec = dict(record)
    actions: list[Action] = [dict(a) for a in rec.get("actions") or []]
    g = api.replay({**rec, "actions": []})
    start = ENGINE.view(g.state, seat if type(seat) is int else None)
    n = len(start.get("players") or [])
    if type(seat) is not int or not 0 <= seat < n:
        raise ValueError(f"seat {seat!r} is not a seat of this {n}-player game")
    nations = tuple(str(p.get("nation") or "") for p in start.get("players") or [])
    bot = _bot(budget, seed, seat, search)
    log: list[JsonDict] = list(ENGINE.redact(g.events, seat))
    chart = [_point(g.state, seat, 0, model)]
    decisions: list[DecisionReview] = []
    seat_events: list[list[JsonDict]] = []     # per action, the events the seat saw
    for i, action in enumerate(actions):
        if action.get("seat") == seat and not ENGINE.is_over(g.state):
            review = _review(g.state, seat, actions, i, bot, log, model, chart[-1])
            if review is not None:
                decisions.append(review)
        mine = list(ENGINE.redact(g.act(action), seat))
        log.extend(mine)
        seat_events.append(mine)
        chart.append(_point(g.state, seat, i + 1, model))
    res = ENGINE.result(g.state) if ENGINE.is_over(g.state) else None
    names = _Names(nations, ENGINE.view(g.state, seat))
    moments = _key_moments(chart, seat_events, actions, names, res is not None)
    return GameAnalysis(seat, n, nations, res is not None, None if res is None else int(res["winner"]),
                        tuple(int(s) for s in res["ranking"]) if res is not None else (), budget, seed,
                        bot_name(budget, search), tuple(chart), _years(chart), tuple(decisions),
                        tuple(moments), str(model.meta.get("command", "")), names.ids)


def _point(state: api.State, seat: int, k: int, model: V.ValueModel) -> ChartPoint:
    """The chart's point after k actions: every seat's chance from `seat`'s view."""
    v = ENGINE.view(state, seat)
    return ChartPoint(k, int(v.get("cycle") or 0), str(v.get("year") or ""), tuple(model.probabilities(v)))


def _review(state: api.State, seat: int, actions: Sequence[Action], i: int, bot: Any, log: list[JsonDict],
            model: V.ValueModel, before: ChartPoint) -> DecisionReview | None:
    """actions[i], the seat's, against the bot's choice from the seat's view and log; None for a
    decision without a choice."""
    legal = ENGINE.legal_actions(state, seat)
    options = ENGINE.count_actions(legal)
    if options <= 1:
        return None
    action = actions[i]
    view = seat_view(ENGINE, state, seat, bool(getattr(bot, "uses_information_state", False)))
    best = bot.decide(view, legal, log=log) if getattr(bot, "uses_log", False) else bot.decide(view, legal)
    v_played = _value_after(state, action, seat, actions, i, model)
    v_best = v_played if _same(best, action) else _value_after(state, best, seat, actions, i, model)
    cost = max(0.0, v_best - v_played)
    decision = api.decision(state, seat) or {}
    return DecisionReview(i, before.cycle, before.year, str(decision.get("decision", "")), options, dict(action),
                          dict(best), v_played, v_best, cost, mark(cost))


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return dict(a) == dict(b)


def _years(chart: Sequence[ChartPoint]) -> tuple[YearMark, ...]:
    out: list[YearMark] = []
    for p in chart:
        if p.year and (not out or (p.cycle, p.year) != (out[-1].cycle, out[-1].year)):
            out.append(YearMark(p.index, p.cycle, p.year))
    return tuple(out)


# ---------------------------------------------------------------- key moments in words

class _Names:
    """Names of seats, cards, colonies, sites and zones, in a language, from the final view and
    the ruleset (through the api)."""

    def __init__(self, nations: Sequence[str], final_view: Mapping[str, Any]) -> None:
        self.nations = nations
        rs = api.view_ruleset(dict(final_view))
        self.zones = dict(zip(rs.zone_ids, rs.zone_names))
        self.colonies = {str(c["id"]): str(c.get("name") or c["id"]) for c in final_view.get("colonies") or []}
        self.sites = {str(s["id"]): str(s.get("name") or s["id"]) for s in final_view.get("sites") or []}
        try:
            cards = api.card_catalogue(str(final_view.get("ruleset") or "reference"),
                                       final_view.get("ruleset_params") or None)
        except Exception:
            cards = {}
        self.cards = {str(k): str(v.get("name") or k) for k, v in cards.items()}
        self.card_costs = {str(k): int(v.get("cost") or 0) for k, v in cards.items()}
        self.ids = {**self.zones, **self.colonies, **self.sites, **self.cards}
        self._deeds: dict[str, Tr] = {}

    def deed(self, action: Mapping[str, Any], lang: str) -> str:
        """A move as something its seat did, in the words of the web and terminal games (the
        gettext catalogues of web/present/i18n.py): "English sailed to the Atlantic Ocean",
        "Anglaterra va navegar fins a l'Oceà Atlàntic"; seats named as the analysis names them."""
        tr = self._deeds.get(lang)
        if tr is None:
            from ..web.present.i18n import Tr
            tr = self._deeds[lang] = Tr(lang, [self.seat(s, lang) for s in range(len(self.nations))], self.ids)
        return tr.deed(dict(action))

    def seat(self, s: Any, lang: str) -> str:
        if not isinstance(s, int) or not 0 <= s < len(self.nations):
            return "?"
        return M.nation(self.nations[s], s, lang)

    def card(self, c: Any) -> str:
        return self.cards.get(str(c), str(c))

    def zone(self, z: Any, lang: str) -> str:
        return M.EUROPE[lang] if z == "europe" else self.zones.get(str(z), str(z))

    def target(self, t: Any, lang: str) -> str:
        if t == "rebels":
            return M.REBELS[lang]
        return self.colonies.get(str(t)) or self.sites.get(str(t)) or str(t)


Described = tuple[str, JsonDict, str]      # (message key, its facts, the words)
Ev = Mapping[str, Any]


def _sack(e: Ev, names: _Names, lang: str) -> Described:
    owner = e.get("owner")
    key = "sack" if isinstance(owner, int) else "sack_crown"
    return key, {"attacker": e.get("attacker"), "colony": e.get("colony"), "owner": owner}, \
        M.say(key, lang, attacker=names.seat(e.get("attacker"), lang), colony=names.target(e.get("colony"), lang),
              owner=names.seat(owner, lang))


def _battle(e: Ev, names: _Names, lang: str) -> Described:
    key = "battle_won" if e.get("winner") == "attacker" else "battle_lost"
    p = {"attacker": e.get("attacker"), "target": e.get("target"), "zone": e.get("zone"),
         "attacker_strength": e.get("attacker_strength"), "target_strength": e.get("target_strength")}
    return key, p, M.say(key, lang, attacker=names.seat(e.get("attacker"), lang), target=names.target(e.get("target"), lang),
                         zone=names.zone(e.get("zone"), lang), a=e.get("attacker_strength"), t=e.get("target_strength"))


def _subdued(e: Ev, names: _Names, lang: str) -> Described:
    return "site_subdued", {"attacker": e.get("attacker"), "site": e.get("site")}, \
        M.say("site_subdued", lang, attacker=names.seat(e.get("attacker"), lang), site=names.target(e.get("site"), lang))


def _fleet_loss(key: str) -> Callable[[Ev, _Names, str], Described]:
    def describe(e: Ev, names: _Names, lang: str) -> Described:
        who = names.seat(e.get("seat"), lang)
        return key, {"seat": e.get("seat")}, M.say(key, lang, who=who, of_who=M.of(who, lang))
    return describe


def _auction(e: Ev, names: _Names, lang: str) -> Described:
    price = int(e.get("price") or 0)
    cost = names.card_costs.get(str(e.get("card")), 0)
    key = ("auction_won_cheap" if price <= max(1, cost // 2)
           else "auction_won_dear" if price >= 2 * max(2, cost) else "auction_won")
    payee = e.get("paid_to")
    words = M.say(key, lang, who=names.seat(e.get("winner"), lang), card=names.card(e.get("card")),
                  price=M.money(price, lang))
    if isinstance(payee, int) and payee != e.get("winner") and price > 0:     # the initiator is paid (AUC-5)
        words = M.say("paid_to", lang, what=words, payee=names.seat(payee, lang))
    return key, {"winner": e.get("winner"), "card": e.get("card"), "price": price, "paid_to": payee}, words


def _treasure(e: Ev, names: _Names, lang: str) -> Described:
    p = {"seat": e.get("seat"), "chests": e.get("chests"), "prestige": e.get("prestige"), "money": e.get("money"),
         "where": e.get("where")}
    return "treasure", p, M.say("treasure", lang, who=names.seat(e.get("seat"), lang),
                                chests=M.count(e.get("chests"), "chest", lang), where=names.zone(e.get("where"), lang),
                                prestige=e.get("prestige"), money=M.money(int(e.get("money") or 0), lang))


def _founded(e: Ev, names: _Names, lang: str) -> Described:
    return "colony_founded", {"seat": e.get("seat"), "colony": e.get("colony")}, \
        M.say("colony_founded", lang, who=names.seat(e.get("seat"), lang), colony=names.target(e.get("colony"), lang))


def _legality(e: Ev, names: _Names, lang: str) -> Described:
    leg = str(e.get("legality"))
    return "legality", {"seat": e.get("seat"), "legality": leg}, \
        M.say("legality", lang, who=names.seat(e.get("seat"), lang), legality=M.LEGALITIES[lang].get(leg, leg))


def _died(e: Ev, names: _Names, lang: str) -> Described:
    return "colony_died", {"colony": e.get("colony"), "owner": e.get("owner")}, \
        M.say("colony_died", lang, colony=names.target(e.get("colony"), lang))


def _attrition(e: Ev, names: _Names, lang: str) -> Described | None:
    if e.get("outcome") not in ("dies", "revolts"):
        return None
    key = "slaves_revolt" if e.get("outcome") == "revolts" else "slaves_die"
    return key, {"colony": e.get("colony"), "owner": e.get("owner"), "outcome": e.get("outcome")}, \
        M.say(key, lang, colony=names.target(e.get("colony"), lang))


def _enslaved(e: Ev, names: _Names, lang: str) -> Described:
    return "enslaved", {"seat": e.get("seat"), "site": e.get("site"), "count": e.get("count")}, \
        M.say("enslaved", lang, who=names.seat(e.get("seat"), lang),
              indigenous=M.count(e.get("count"), "indigenous", lang), site=names.target(e.get("site"), lang))


def _loaded(e: Ev, names: _Names, lang: str) -> Described:
    return "chests_loaded", {"seat": e.get("seat"), "colony": e.get("colony"), "count": e.get("kept")}, \
        M.say("chests_loaded", lang, who=names.seat(e.get("seat"), lang), chests=M.count(e.get("kept"), "chest", lang),
              colony=names.target(e.get("colony"), lang))


def _unloaded(e: Ev, names: _Names, lang: str) -> Described:
    return "labour_unloaded", {"seat": e.get("seat"), "colony": e.get("colony"), "meeple": e.get("meeple")}, \
        M.say("labour_unloaded", lang, who=names.seat(e.get("seat"), lang), colony=names.target(e.get("colony"), lang))


def _prestige(e: Ev, names: _Names, lang: str) -> Described:
    return "prestige", {"seat": e.get("seat"), "amount": e.get("amount")}, \
        M.say("prestige", lang, who=names.seat(e.get("seat"), lang), amount=e.get("amount"))


def _played(e: Ev, names: _Names, lang: str) -> Described:
    return "card_played", {"seat": e.get("seat"), "card": e.get("card")}, \
        M.say("card_played", lang, who=names.seat(e.get("seat"), lang), card=names.card(e.get("card")))


def _earnings(e: Ev, names: _Names, lang: str) -> Described:
    return "earnings", {"seat": e.get("seat"), "money": e.get("amount")}, \
        M.say("earnings", lang, who=names.seat(e.get("seat"), lang), money=M.money(int(e.get("amount") or 0), lang))


def _final(e: Ev, names: _Names, lang: str) -> Described:
    return "final_scoring", {}, M.say("final_scoring", lang)


# the events that tell a key moment, the most telling first, each with its words
_DESCRIBERS: dict[str, Callable[[Ev, _Names, str], Described | None]] = {
    "ColonySacked": _sack, "BattleResolved": _battle, "SiteSubdued": _subdued,
    "FlagshipRouted": _fleet_loss("flagship_routed"), "GalleonLost": _fleet_loss("galleon_lost"),
    "AuctionWon": _auction, "TreasureScored": _treasure, "ColonyFounded": _founded, "LegalityChanged": _legality,
    "ColonyDiedOff": _died, "SlaveAttrition": _attrition, "IndigenousEnslaved": _enslaved, "ChestsLoaded": _loaded,
    "LabourUnloaded": _unloaded, "PrestigeGained": _prestige, "CardPlayed": _played, "EarningsPaid": _earnings,
    "FinalScoring": _final,
}


def _seats_of(e: Ev) -> set[Any]:
    """The seats an event is about."""
    return {e.get(k) for k in ("seat", "winner", "attacker", "owner") if isinstance(e.get(k), int)}


def _describe(events: Sequence[Ev], seat: int, names: _Names, lang: str,
              action: Mapping[str, Any] | None = None) -> Described:
    """(kind, params, words) of the most telling event among one action's events (of a kind, the
    one about `seat`, the seat whose chance moved, when there is one); else the move."""
    by_type: dict[str, Ev] = {}
    for e in events:
        kind = str(e.get("type"))
        if kind not in by_type or (seat in _seats_of(e) and seat not in _seats_of(by_type[kind])):
            by_type[kind] = e
    for kind, describe in _DESCRIBERS.items():
        found = by_type.get(kind)
        told = describe(found, names, lang) if found is not None else None
        if told is not None:
            return told
    if action is not None:      # no event tells it: the move itself, in words
        return "swing", {"seat": action.get("seat"), "action": dict(action)}, \
            M.say("swing", lang, deed=names.deed(action, lang))
    return "swing", {"seat": seat}, ""


def _key_moments(chart: Sequence[ChartPoint], seat_events: Sequence[Sequence[Mapping[str, Any]]],
                 actions: Sequence[Mapping[str, Any]], names: _Names, finished: bool) -> list[KeyMoment]:
    """The largest swings; the last action of a finished game is left out (its swing is the final
    scoring settling every chance at 0 or 1, not a move)."""
    swings: list[tuple[float, int, int]] = []      # (-|change|, action, seat)
    for k in range(len(chart) - 1 - (1 if finished else 0)):
        a, b = chart[k].probabilities, chart[k + 1].probabilities
        changes = [abs(y - x) for x, y in zip(a, b)]
        if changes:
            s = max(range(len(changes)), key=lambda j: (changes[j], -j))
            if changes[s] >= MOMENT_SWING:
                swings.append((-changes[s], k, s))
    chosen = sorted(sorted(swings)[:MOMENTS], key=lambda t: t[1])
    out = []
    for _neg, k, s in chosen:
        before, after = chart[k].probabilities[s], chart[k + 1].probabilities[s]
        texts: dict[str, str] = {}
        kind, params = "swing", dict[str, Any]()
        for lang in M.LANGS:
            kind, params, what = _describe(seat_events[k], s, names, lang, actions[k] if k < len(actions) else None)
            who = names.seat(s, lang)
            change = M.say("chance_rose" if after > before else "chance_fell", lang, who=who,
                           of_who=M.of(who, lang), range=M.span(before, after, lang))
            texts[lang] = M.say("moment", lang, what=what, change=change) if what else change[:1].upper() + change[1:] + "."
            if what:
                texts[lang] = texts[lang][:1].upper() + texts[lang][1:]
        out.append(KeyMoment(k, chart[k].cycle, chart[k].year, s, before, after, kind, params, texts))
    return out
