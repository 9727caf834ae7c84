"""The fast sampler of an information state: `Determinizer` works out once what depends on
the view alone (the ruleset, the cards seen, the unseen ones in order, where the hidden places
are, the seats to act, a template State sharing the view's lists), and each sample deals the
unseen cards into a copy of the template (structural sharing, as State.copy shares).

engine/information.py's `determinize` and api.determinizer draw through it; the plain
construction it equals (State.from_dict of the masked state, its hidden places dealt) is
tests/engine/reference_view.py's `reference_determinize`, compared by
tests/engine/test_fast_views.py. Why it looks as it does: docs/benchmarks.md, "Fast paths".
"""

from __future__ import annotations

from functools import lru_cache
from itertools import filterfalse
from operator import itemgetter
from typing import Any

from . import years  # noqa: F401  (registers the decisions whose secret domains a sample draws from)
from .decisions import loaded_decision, secret_domain
from .flow import seats_to_act
from .jsontypes import JsonDict
from .keys import seed_hash
from .ruleset import Ruleset, Rulesets
from .sampling import SEARCH_SEED, Stream
from .state import State, loaded_cursor
from .vocab import CARGO, DECKS, HIDDEN, LABOUR, LEGALITY, Labour

__all__ = ["Determinizer"]


class Determinizer:
    """Samples of one view: what depends on the view alone (the ruleset, the cards
    seen, the unseen ones in order, where the hidden places are, the seats to act, a template
    State sharing the view's lists) is worked out once; each sample draws from its own stream
    (engine/sampling.py, PRJ-45), deals the unseen cards into the hidden places and takes a
    copy of the template (State.copy: nothing it holds is shared with another sample but
    what states always share)."""

    __slots__ = (
        "acting",
        "d",
        "hands",
        "haven",
        "hidden_h",
        "hidden_hands",
        "hidden_m",
        "k_hands",
        "known",
        "market",
        "need",
        "old_view",
        "secret_seats",
        "secrets",
        "template",
        "unseen_h",
        "unseen_m",
    )

    def __init__(self, v: JsonDict, known: JsonDict | None = None, *, rulesets: Rulesets) -> None:
        d = v.get("state", v)
        if "hands" not in d:
            raise ValueError("determinize needs the masked state: a view made with include_state=True, "
                             "or api.information_state(state, seat)")
        self.d = d
        rs = rulesets(d["ruleset"], (d.get("config") or {}).get("params") or None)
        market, haven, hands = self.market, self.haven, self.hands = d["market"], d["haven"], d["hands"]
        self.secrets = {int(k): val for k, val in d["secrets"].items()} if d["secrets"] else {}
        self.secret_seats = _secret_seats(d, self.secrets)
        self.template = st = _template(d, rs)
        # the seats to act read the stack and its public commitments only: the same in every sample
        self.acting = seats_to_act(st)
        self.old_view = d.get("seed_hash") is None    # as State.from_dict: a view saved before the field existed
        self.hidden_m = _places(market)
        self.hidden_h = _places(haven)
        self.hidden_hands = hidden_hands = [_places(h) for h in hands]
        self.k_hands = sum(map(_first, hidden_hands))
        if known is not None:
            self.known: _KnownDeal | None = _KnownDeal(d, rs, known)
            self.need = self.known.need + len(self.secret_seats) + 2
            self.unseen_m = self.unseen_h = []
            return
        self.known = None
        seen: set[str] = set(d["market_discard"])
        seen.update(market, haven, *hands, *[map(_first, tab) for tab in d["tableaus"]])
        deck_m, deck_h = _sorted_decks(rs)
        # the unseen cards, sorted ("?" names no card, so it is in no deck)
        self.unseen_m = list(filterfalse(seen.__contains__, deck_m))
        self.unseen_h = list(filterfalse(seen.__contains__, deck_h))
        if (len(self.unseen_m) < self.hidden_m[0] or len(self.unseen_h) < self.hidden_h[0]
                or len(self.unseen_m) + len(self.unseen_h) < self.hidden_m[0] + self.hidden_h[0] + self.k_hands):
            raise ValueError("the view hides more cards than are unseen")
        self.need = self.hidden_m[0] + self.hidden_h[0] + self.k_hands + len(self.secret_seats) + 2

    def __call__(self, seed: int) -> State:
        return self._deal(seed, self.template.copy())

    def only_sample(self, seed: int) -> State:
        """The sample of `seed` dealt into the template itself: for a determinizer used once."""
        return self._deal(seed, self.template)

    def _deal(self, seed: int, st: State) -> State:
        """Deal a sample into `st`, a copy of the template (or the template, used once):
        the market's hidden places from the unseen Market cards, the haven's from the unseen
        Haven cards, the hands' from what is left of both (a uniform pick each, PRJ-45)."""
        s = Stream(seed, self.need)
        if self.known is not None:
            return self._finish(s, st, *self.known.deal(s, self))
        um, uh = self.unseen_m[:], self.unseen_h[:]
        places, km = self.hidden_m, self.hidden_m[0]
        s.pick(um, km)
        if km and places[1] >= 0:         # one run of hidden places (a deck below its top): filled in place
            market = self.market[:]
            market[places[1]:places[2]] = um[:km]
        else:
            market = _fill(self.market, places, um)
        places, kh = self.hidden_h, self.hidden_h[0]
        if kh:
            s.pick(uh, kh)
            haven = _fill(self.haven, places, uh)
        else:
            haven = self.haven[:]
        k = self.k_hands
        if not k:                 # no hand hides a card
            return self._finish(s, st, market, haven, list(map(list.copy, self.hands)))
        rest = um[km:] + uh[kh:]
        hands: list[list[str]] = []
        s.pick(rest, k)
        k = 0
        for h, places in zip(self.hands, self.hidden_hands):
            if places[0]:
                hands.append(_fill(h, places, rest[k:k + places[0]]))
                k += places[0]
            else:
                hands.append(h[:])
        return self._finish(s, st, market, haven, hands)

    def _finish(self, s: Stream, st: State, market: list[str], haven: list[str],
                hands: list[list[str]]) -> State:
        if self.secret_seats:
            secrets = self.secrets.copy()
            for seat, domain in self.secret_seats:     # another seat's sealed choice: any value it allows
                secrets[seat] = domain[s.below(len(domain))]
        else:
            secrets = self.secrets
        st.market, st.haven, st.hands, st.secrets = market, haven, hands, secrets
        # its own generator: the search's public seed at a counter of its own (sampling.SEARCH_SEED)
        st.rng = s.counter()
        if self.old_view:
            st.seed_hash = _search_seed_hash()
        st.acting_now = self.acting     # complete: a search applies to it, never changes it
        return st


def _places(cards: list[str]) -> tuple[Any, ...]:
    """Where a list's hidden cards are: (how many, first, last + 1) when they are one run
    (a deck below its face-up top, a hand of which nothing is shown), else (how many, -1,
    -1, their indices)."""
    k = cards.count(HIDDEN)
    if not k:
        return (0, 0, 0)
    first = cards.index(HIDDEN)
    if k == 1 or cards[first:first + k].count(HIDDEN) == k:
        return (k, first, first + k)
    return (k, -1, -1, [i for i, c in enumerate(cards) if c == HIDDEN])


def _fill(cards: list[str], places: tuple[Any, ...], picked: list[str]) -> list[str]:
    """`cards` with its hidden places filled, in order, from `picked` (at least as many)."""
    out = cards[:]
    k = places[0]
    if not k:
        return out
    if len(picked) < k:
        raise ValueError("the view hides more cards than are unseen")
    if places[1] >= 0:
        out[places[1]:places[2]] = picked[:k]
    else:
        for i, c in zip(places[3], picked):
            out[i] = c
    return out


def _secret_seats(d: JsonDict, secrets: dict[int, Any]) -> list[tuple[int, Any]]:
    """Others' sealed choices of the pending decision: (seat, its legal range) for each one a
    sample draws, in the order the seats committed."""
    out: list[tuple[int, Any]] = []
    if d["stack"] and d["stack"][-1].get("sealed"):
        dec = d["stack"][-1]
        for s, _ in dec["committed"]:
            if s not in secrets:
                out.append((s, secret_domain(d, dec, s)))
    return out


class _KnownDeal:
    """The hidden cards of an information state given what its viewer knows from its log
    (`known_cards`): each hand's known cards stay in it, each deck's sure cards stay in it
    (in a random order below the face-up top), and only the "unsure" cards are dealt at
    random, into the decks' remaining slots and the hands' unknown ones. Every assignment
    consistent with what is known is equally likely."""

    __slots__ = ("free", "hands", "need", "sure", "unknown", "unsure")

    def __init__(self, d: JsonDict, rs: Any, known: JsonDict) -> None:
        n = len(d["hands"])
        if len(known.get("hands", ())) != n:
            raise ValueError("known cards for another table: their seats are not the view's")
        hands: list[list[str] | None] = []
        self.unknown: list[int] = []
        for s, h in enumerate(d["hands"]):
            k = known["hands"][s]
            if HIDDEN not in h:
                hands.append(None)          # shown: one's own hand (or every hand once over)
                self.unknown.append(0)
                continue
            if k["count"] != len(h) or len(k["known"]) + k["unknown"] != len(h):
                raise ValueError(f"known cards disagree with the view: seat {s}'s hand size")
            hands.append(list(k["known"]))
            self.unknown.append(k["unknown"])
        self.hands = hands
        self.sure: dict[str, list[str]] = {}
        self.unsure: dict[str, list[str]] = {}
        self.free: dict[str, int] = {}
        for deck in DECKS:
            shown = {c for c in d[deck] if c != HIDDEN}
            self.sure[deck] = [c for c in known["decks"][deck]["cards"] if c not in shown]
            self.unsure[deck] = [c for c in known["decks"][deck]["unsure"] if c not in shown]
            self.free[deck] = d[deck].count(HIDDEN) - len(self.sure[deck])
            if self.free[deck] < 0:
                raise ValueError(f"known cards disagree with the view: the {deck} deck's size")
        if sum(self.free.values()) + sum(self.unknown) != len(self.unsure["market"]) + len(self.unsure["haven"]):
            raise ValueError("known cards disagree with the view: the unsure cards do not fill the hidden places")
        self.need = sum(2 * self.free[deck] + len(self.sure[deck]) for deck in self.free) + sum(self.unknown)

    def deal(self, s: Stream, dz: Determinizer) -> tuple[list[str], list[str], list[list[str]]]:
        """Each deck: its free places' cards picked from its unsure ones, then the sure and
        picked cards in a random order into its hidden places; the hands' unknown cards
        picked from the unsure cards left (PRJ-45)."""
        rest: list[str] = []
        piles: list[list[str]] = []
        for deck, cards, places in (("market", dz.market, dz.hidden_m), ("haven", dz.haven, dz.hidden_h)):
            unsure = self.unsure[deck][:]
            free = self.free[deck]
            s.pick(unsure, free)
            pile = self.sure[deck] + unsure[:free]
            rest += unsure[free:]
            s.pick(pile, len(pile))
            piles.append(_fill(cards, places, pile))
        s.pick(rest, sum(self.unknown))
        hands: list[list[str]] = []
        k = 0
        for h, kh, u in zip(dz.hands, self.hands, self.unknown):
            if kh is None:
                hands.append(list(h))
            else:
                hands.append(kh + rest[k:k + u])
                k += u
        return piles[0], piles[1], hands


_DECKS: dict[int, tuple[Ruleset, tuple[str, ...], tuple[str, ...]]] = {}
_first = itemgetter(0)


def _sorted_decks(rs: Ruleset) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ruleset's market and haven cards, each card once, sorted (what a sample deals the
    unseen ones from, in this order), worked out once per ruleset object."""
    got = _DECKS.get(id(rs))
    if got is None or got[0] is not rs:
        if len(_DECKS) > 256:             # rulesets are few (the loader caches them)
            _DECKS.clear()
        got = _DECKS[id(rs)] = (rs, tuple(sorted(set(rs.market))), tuple(sorted(set(rs.haven))))
    return got[1], got[2]


@lru_cache(maxsize=1)
def _search_seed_hash() -> str:
    return seed_hash(SEARCH_SEED)


_LABOUR: dict[str | None, Labour | None] = dict(LABOUR.items())       # a colony's labour, or None
_LABOUR[None] = None
_CARGO = CARGO.__getitem__


def _template(d: JsonDict, rs: Ruleset) -> State:
    """The State of an information state's fields, for its samples (structural sharing,
    as State.copy shares). The lists and dicts no rule changes in place (State.copy's
    SHARED, SHARED_NESTED and SHARED_DICTS: a rule puts a new one in place) are the view's
    own; what has to be converted is built (the words as vocab's members, tableau entries,
    decisions and the cursor as tuples, as state.from_fields makes them), and what State.copy
    copies is copied (money, cargo, supply: a sample's copy copies them again). The hidden
    cards, the secrets, the PRNG and the seats to act are the sample's (Determinizer), and so
    is seed_hash when an old view has none; the seed is SEARCH_SEED (sampling.py).
    tests/engine/test_fast_views.py checks it against state.from_fields, field by field."""
    st = State.__new__(State)           # not object.__new__: mypyc refuses it for a compiled class
    st.rs = rs
    st.undo_stack = ()
    st.undo_seat = None
    st.acting_now = None
    # SCALARS
    st.config = d["config"]
    st.seed = SEARCH_SEED
    st.seed_hash = d.get("seed_hash") or ""
    st.rng = 0
    st.n = d["n"]
    st.cycle = d["cycle"]
    st.year = d["year"]
    st.step = d["step"]
    st.event_seq = d["event_seq"]
    st.version = d["version"]
    st.over = d["over"]
    st.result = d["result"]
    st.minted = d["minted"]
    st.burned = d["burned"]
    # FLAT: SHARED, the view's lists; money copied; the words as their members
    st.order = d["order"]
    st.money = d["money"][:]
    st.prestige = d["prestige"]
    st.nation = d["nation"]
    st.hand_bonus = d["hand_bonus"]
    st.income = d["income"]
    st.moves_bonus = d["moves_bonus"]
    st.fzone = d["fzone"]
    st.fships = d["fships"]
    st.legality = list(map(LEGALITY.__getitem__, d["legality"]))
    st.col_owner = d["col_owner"]
    st.col_labour = list(map(_LABOUR.__getitem__, d["col_labour"]))
    st.col_chests = d["col_chests"]
    st.col_fort = d["col_fort"]
    st.site_ids = d["site_ids"]
    st.site_names = d["site_names"]
    st.site_zone = d["site_zone"]
    st.site_kind = d["site_kind"]
    st.site_wild = d["site_wild"]
    st.site_count = d["site_count"]
    st.site_cap = d["site_cap"]
    st.rebels = d["rebels"]
    st.market = d["market"]               # the sample's own (Determinizer._deal)
    st.market_discard = d["market_discard"]
    st.haven = d["haven"]                 # the sample's own
    # NESTED: SHARED_NESTED, the view's lists (hands: the shown ones; a sample deals the rest)
    st.hands = d["hands"]
    st.tableaus = [list(map(tuple, tab)) if tab else [] for tab in d["tableaus"]]
    st.havens = d["havens"]
    st.cargo = [list(map(_CARGO, c)) if c else [] for c in d["cargo"]]     # nearly always empty outside a voyage
    # DICTS, and the decisions
    st.supply = d["supply"].copy()
    st.gone = d["gone"]
    st.secrets = {}
    st.cursor = loaded_cursor(d["cursor"])
    stack = d["stack"]
    st.stack = [loaded_decision(stack[0])] if len(stack) == 1 else [loaded_decision(dec) for dec in stack]
    return st
