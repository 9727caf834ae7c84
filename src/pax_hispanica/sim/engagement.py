"""Pace and engagement of a game, beside who won: what a designer reads to judge
whether a game is alive (issue 15).

Two halves:

* ``Tracker`` is fed by the runner, decision by decision, with the action chosen,
  how many actions were legal and the events it caused; ``facts()`` is a small
  JSON dict stored in the game's result under ``"engagement"``.  It reads only
  the events and the spectator view (public information), and only what the
  game itself determines, so the runner stays deterministic whatever the
  number of workers.
* ``summarise(results)`` turns the per-game facts of a run into the report's
  ``"engagement"`` section, each figure with a 95% confidence interval:
  a per-game mean uses the normal approximation (mean +- 1.96 sd / sqrt(n));
  a share of games or of decisions uses the Wilson interval (``stats.wilson``).

Definitions (docs/bots.md, "Engagement statistics"):

* standing: a seat's Prestige held plus the Prestige its colonies would score if
  the game ended now (the view's ``colony_prestige``); the final point is the score.
* leader: the one seat with the highest standing (a tie has no leader).
* lead change: the leader differs from the last leader seen, with standings
  sampled when each Year begins and at the end.
* Prestige curve: standings when each cycle ends (sampled as the next one begins;
  the last point is the final score).
* forced decision: exactly one legal action; pass: an action of type ``pass``.
* first cycle: a seat "could play" a card in cycle 1 when one of its decisions of cycle 1
  offered a ``play`` action (the engine offers only cards it can pay for, PLY-1), and
  "played" one when a ``CardPlayed`` event of cycle 1 names it (issue 15: every nation
  can afford to play cards in its first cycle).
"""
from __future__ import annotations

import math
import statistics
from collections import Counter
from typing import Any

from ..contract import Engine

Z95 = 1.959963984540054

# Events a designer asks about by name, and the report's label for each.
EVENT_LABELS: dict[str, str] = {
    "BattleResolved": "battles",
    "ColonySacked": "sacks",
    "IndigenousKidnapped": "enslavement (indigenous kidnapped)",
    "CitizensEmigrated": "emigration",
    "HavenFounded": "Havens founded",
    "ColonyFounded": "colonies founded",
    "ChestsLoaded": "Treasure loadings",
    "TreasureScored": "Treasure scored",
    "CardPlayed": "cards played",
    "AuctionWon": "auctions won",
}


class Tracker:
    """The engagement facts of one game, gathered as it is played."""

    def __init__(self, api: Engine[Any], state: Any) -> None:
        self.api = api
        # each decision's action type and each event's type, counted once the game ends
        # (one C-level Counter each: cheaper than a count per decision, issue 13)
        self.action_types: list[object] = []
        self.event_types: list[str] = []
        self.loads: Counter[str] = Counter()
        self.load_rules: Counter[str] = Counter()     # Treasure loadings by the rule they follow
        self.forced = 0
        self.passes = 0
        self.samples: list[list[int]] = []      # standings at each Year's start
        self.curve: list[list[int]] = []        # standings at each cycle's end
        self._cycle: int | None = None
        self.first_played: Counter[int] = Counter()   # cards each seat played in cycle 1
        self.first_could: set[int] = set()            # seats offered a `play` in cycle 1
        # the cards won at auction (AUC-5), so that a card rarely played can be told apart: rarely
        # offered (the auctions a game holds reach few of the deck's cards) or won and kept unplayed
        self.won: list[str] = []
        # count_actions is the engine's cheap size of the legal set; a toy API without it
        # simply reports no forced decisions
        self._count = getattr(api, "count_actions", None)

    def decision(self, legal: list[Any], action: dict[str, Any], events: list[dict[str, Any]], state: Any) -> None:
        kind = action.get("type")
        self.action_types.append(kind)
        if kind == "pass":
            self.passes += 1
        if self._count is not None:
            self._count_forced(legal)
        first = (self._cycle or 1) == 1        # the game starts in cycle 1 (its setup events are not fed)
        if first and isinstance(action.get("seat"), int) and action["seat"] not in self.first_could \
                and _offers_play(legal):
            self.first_could.add(action["seat"])
        year_began = self._read(events, first)
        if year_began is not None:
            self._year_began(year_began, state)

    def _count_forced(self, legal: list[Any]) -> None:
        assert self._count is not None
        try:
            if self._count(legal) == 1:
                self.forced += 1
        except Exception:  # any failure: an API whose legal set cannot be counted
            self._count = None

    def _read(self, events: list[dict[str, Any]], first: bool) -> dict[str, Any] | None:
        """Count a decision's events; the last YearBegan among them, if any."""
        year_began = None
        for e in events:
            t = e.get("type") if isinstance(e, dict) else None
            if t is None:
                continue
            self.event_types.append(t)
            if t not in _READ:
                continue
            if t == "CardPlayed" and first and isinstance(e.get("seat"), int):
                self.first_played[e["seat"]] += 1
            elif t == "AuctionWon" and e.get("card"):
                self.won.append(str(e["card"]))
            if t == "ChestsLoaded" and e.get("legality"):
                self.loads[str(e["legality"])] += 1
                self.load_rules[str(e.get("rule"))] += 1
            elif t == "YearBegan":
                year_began = e
        return year_began

    def _year_began(self, year_began: dict[str, Any], state: Any) -> None:
        """A Year began: the standings, kept at each new cycle for the Prestige curve."""
        standing = self._standings(state)
        if standing is not None:
            cycle = year_began.get("cycle")
            if self._cycle is not None and cycle != self._cycle:
                self.curve.append(standing)
            self._cycle = cycle
            self.samples.append(standing)

    def _standings(self, state: Any) -> list[int] | None:
        ps = public_view(self.api, state).get("players")
        if not isinstance(ps, list) or not ps or not isinstance(ps[0], dict) or "prestige" not in ps[0]:
            return None
        return [int(p.get("prestige", 0)) + int(p.get("colony_prestige", 0) or 0) for p in ps]

    def facts(self, result: dict[str, Any] | None, last_cycle: int | None = None) -> dict[str, Any]:
        """The game's engagement facts; ``last_cycle`` (the ruleset's `cycles`) tells a game that
        reached `prestige_to_win` before its last cycle (``ended_early``, CYC-2) from one that
        reached it in the last Sail Year, which would have ended there anyway."""
        res = result or {}
        scores = list(res.get("scores") or [])
        samples = self.samples + ([scores] if scores else [])
        curve = self.curve + ([scores] if scores else [])
        out: dict[str, Any] = {
            "actions": dict(sorted(Counter(map(str, self.action_types)).items())),
            "events": dict(sorted(Counter(self.event_types).items())),
            "loads_by_legality": dict(sorted(self.loads.items())),
            "loads_by_rule": dict(sorted(self.load_rules.items())),
            "forced": self.forced, "passes": self.passes,
            "lead_changes": lead_changes(samples),
            "prestige_by_cycle": curve,
            "cards_won": list(self.won),
        }
        n = len(scores) or (max([*self.first_played, *self.first_could], default=-1) + 1)
        out["first_cycle"] = {"played": [self.first_played.get(s, 0) for s in range(n)],
                              "could_play": [s in self.first_could for s in range(n)]}
        if res.get("money") is not None:
            out["money_end"] = list(res["money"])
        if res.get("reason") is not None:
            out["ended_by"] = res["reason"]
            if last_cycle is not None and isinstance(res.get("cycles"), int):
                out["ended_early"] = res["reason"] == "prestige_goal" and res["cycles"] < last_cycle
        return out


_READ = frozenset({"AuctionWon", "CardPlayed", "ChestsLoaded", "YearBegan"})     # the events decision() reads beyond their type


def _offers_play(legal: Any) -> bool:
    """Whether a legal set (the engine's descriptors, or plain actions) offers a `play` action."""
    for d in legal if isinstance(legal, list) else []:
        if not isinstance(d, dict):
            continue
        if d.get("type") == "play" or any(isinstance(o, dict) and o.get("type") == "play"
                                          for o in d.get("options") or []):
            return True
    return False


def leader(standing: list[int]) -> int | None:
    """The one seat with the highest standing, or None on a tie."""
    if not standing:
        return None
    top = max(standing)
    seats = [s for s, v in enumerate(standing) if v == top]
    return seats[0] if len(seats) == 1 else None


def lead_changes(samples: list[list[int]]) -> int:
    """How often the leader changed to another seat (ties in between do not count)."""
    changes, last = 0, None
    for standing in samples:
        who = leader(standing)
        if who is None:
            continue
        if last is not None and who != last:
            changes += 1
        last = who
    return changes


# -- summaries ---------------------------------------------------------------

def mean_ci(values: list[float]) -> dict[str, Any]:
    """Mean with a 95% normal-approximation interval (the interval is the mean itself for one value)."""
    xs = [float(v) for v in values]
    if not xs:
        return {"n": 0, "mean": None, "ci95": None}
    m = statistics.fmean(xs)
    half = Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return {"n": len(xs), "mean": round(m, 6), "ci95": [round(m - half, 6), round(m + half, 6)]}


def share(k: int, n: int) -> dict[str, Any]:
    from .stats import wilson
    return {"count": k, "of": n, "share": round(k / n, 6) if n else None, "ci95": wilson(k, n)}


def summarise(results: list[dict[str, Any]], card_names: list[str] | None = None) -> dict[str, Any]:
    """The report's engagement section from the games that carry engagement facts;
    ``card_names`` (the ruleset's cards, copies merged) lists the cards never played too."""
    games = [r for r in results if not r.get("error") and r.get("engagement")]
    if not games:
        return {}
    n = len(games)
    eng = [r["engagement"] for r in games]
    decisions = sum(r["decisions"] for r in games)
    out: dict[str, Any] = {"games": n, **_pace(games, eng, decisions)}
    out["prestige_by_cycle"] = _prestige_curve(eng)
    first = first_cycle(games)
    if first:
        out["first_cycle_cards"] = first
    out["actions"] = _per_game({k for e in eng for k in e["actions"]}, [e["actions"] for e in eng], decisions)
    out["events"] = {}
    for t, label in EVENT_LABELS.items():
        counts = [e["events"].get(t, 0) for e in eng]
        out["events"][label] = {**mean_ci(counts), "games_with": share(sum(1 for x in counts if x), n)}
    out["loads_by_legality"] = _loads([e["loads_by_legality"] for e in eng])
    out["loads_by_rule"] = _loads([e.get("loads_by_rule") or {} for e in eng])
    out.update(_cards(games, eng, card_names))
    return out


def _pace(games: list[dict[str, Any]], eng: list[dict[str, Any]], decisions: int) -> dict[str, Any]:
    """Length, lead changes, forced moves and passes, how games end, money left, cards played."""
    n = len(games)
    out: dict[str, Any] = {"lead_changes": mean_ci([e["lead_changes"] for e in eng]),
                           "decisions_per_game": mean_ci([r["decisions"] for r in games]),
                           "cycles_per_game": mean_ci([r["cycles"] for r in games if isinstance(r.get("cycles"), int)]),
                           "forced": share(sum(e["forced"] for e in eng), decisions),
                           "passes": share(sum(e["passes"] for e in eng), decisions)}
    # CYC-2: ended early = the goal reached before the last cycle (a game without the ruleset's
    # cycle count, e.g. a toy game's, counts any end by the goal); reached = in any cycle
    ended = [e.get("ended_by") for e in eng]
    out["ended_by_prestige"] = share(sum(1 for e in eng if e.get("ended_early", e.get("ended_by") == "prestige_goal")), n)
    out["reached_prestige_goal"] = share(sum(1 for x in ended if x == "prestige_goal"), n)
    out["money_unspent_end"] = mean_ci([m for e in eng for m in (e.get("money_end") or [])])
    cards_pp: list[float] = [len(c) for r in games for c in r.get("cards_played") or []]
    out["cards_per_player"] = mean_ci(cards_pp)
    return out


def _prestige_curve(eng: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Prestige curve: the leader's, the mean and the last standing at the end of each cycle."""
    longest = max((len(e["prestige_by_cycle"]) for e in eng), default=0)
    curve = []
    for c in range(longest):
        pts = [e["prestige_by_cycle"][c] for e in eng if len(e["prestige_by_cycle"]) > c]
        curve.append({"cycle": c + 1, "games": len(pts),
                      "leader": mean_ci([max(p) for p in pts]),
                      "mean": mean_ci([statistics.fmean(p) for p in pts]),
                      "last": mean_ci([min(p) for p in pts])})
    return curve


def _loads(tables: list[dict[str, Any]]) -> dict[str, Any]:
    """Chests loaded per game by key (legality or rule), and the share of games with any."""
    n = len(tables)
    return {g: {**mean_ci([t.get(g, 0) for t in tables]), "games_with": share(sum(1 for t in tables if t.get(g)), n)}
            for g in sorted({k for t in tables for k in t})}


def _won_at_auction(cards: dict[str, dict[str, Any]], won_in: list[set[str]],
                    per_game_cards: list[Counter[str]]) -> None:
    """Add to each card of `cards` the share of games someone won it in, and of those the share it was played in."""
    for card, v in cards.items():
        won = [i for i, w in enumerate(won_in) if card in w]
        v["games_won"] = share(len(won), len(won_in))
        v["played_when_won"] = share(sum(1 for i in won if per_game_cards[i].get(card)), len(won))


def _cards(games: list[dict[str, Any]], eng: list[dict[str, Any]], card_names: list[str] | None) -> dict[str, Any]:
    """Each card: in how many games someone played it and how often, and (where the results
    keep `cards_won`) in how many someone won it at auction (AUC-5) and of those how many saw it
    played; with the ruleset's cards, those played in fewer than 5% of games."""
    from .stats import card_base

    n = len(games)
    per_game_cards = [Counter(card_base(c) for seat in r.get("cards_played") or [] for c in seat) for r in games]
    names = sorted({c for pg in per_game_cards for c in pg} | set(card_names or []))
    cards = {c: {"games_with": share(sum(1 for pg in per_game_cards if pg.get(c)), n),
                 **mean_ci([pg.get(c, 0) for pg in per_game_cards])} for c in names}
    if all("cards_won" in e for e in eng):
        _won_at_auction(cards, [{card_base(c) for c in e["cards_won"]} for e in eng], per_game_cards)
    out: dict[str, Any] = {"cards": dict(sorted(cards.items(), key=lambda kv: (-kv[1]["games_with"]["count"], kv[0])))}
    if card_names:
        # the target: every card played in at least 5% of games
        out["cards_rarely_played"] = sorted(c for c, v in cards.items() if v["games_with"]["share"] < 0.05)
    return out


def first_cycle(games: list[dict[str, Any]]) -> dict[str, Any]:
    """By nation (where the games name them) and by seat: the share of games in which it
    played at least one card in cycle 1, and in which it was offered one it could pay for."""
    by: dict[str, dict[str, list[int]]] = {"nation": {}, "seat": {}}
    for r in games:
        fc = r["engagement"].get("first_cycle")
        if not fc:
            continue
        nations = r.get("nations") or []
        for s, (k, could) in enumerate(zip(fc["played"], fc["could_play"])):
            keys = [("seat", str(s))] + ([("nation", str(nations[s]))] if s < len(nations) and nations[s] else [])
            for group, key in keys:
                c = by[group].setdefault(key, [0, 0, 0])
                c[0] += 1
                c[1] += 1 if k else 0
                c[2] += 1 if could else 0
    return {f"by_{group}": {key: {"played": share(p, n), "could_play": share(c, n)}
                            for key, (n, p, c) in sorted(counts.items())}
            for group, counts in by.items() if counts}


def card_names(api: Engine[Any], ruleset: str = "reference", params: dict[str, Any] | None = None) -> list[str] | None:
    """The ruleset's cards, copies merged ("galeon-1", "galeon-2" -> "galeon"); None for an API without rulesets."""
    from .stats import card_base
    if not hasattr(api, "load_ruleset"):
        return None
    cards = getattr(api.load_ruleset(ruleset, params or None), "cards", None)
    return sorted({card_base(c) for c in cards}) if cards else None


def _per_game(keys: set[str], counters: list[dict[str, Any]], decisions: int) -> dict[str, Any]:
    out = {}
    for k in sorted(keys):
        counts = [c.get(k, 0) for c in counters]
        out[k] = {**mean_ci(counts), "share_of_decisions": share(sum(counts), decisions)}
    return dict(sorted(out.items(), key=lambda kv: -kv[1]["mean"]))


def public_view(api: Engine[Any], state: Any) -> dict[str, Any]:
    """The spectator's view without the masked state (most of a view's cost) where the API
    can leave it out; a toy game's view may not take the option."""
    lean: Any = api.view        # api's view takes include_state (beyond the core contract)
    try:
        view: dict[str, Any] = lean(state, None, include_state=False)
    except TypeError:
        view = api.view(state, None)
    return view
