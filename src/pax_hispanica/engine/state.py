"""The game state: plain lists and dicts, cheap to copy and to save.

A State is never changed once an action has been applied to it: `apply`
works on a `copy()`. Per-seat data are lists indexed by seat; map data are
lists indexed by colony space or site (see Ruleset).
"""

from __future__ import annotations

from typing import Any, TypeVar

from .jsontypes import JsonDict

from .ruleset import Ruleset, load_ruleset
from .vocab import CARGO, CITIZEN, DECK, LABOUR, LEGALITY, Cargo, Labour, Legality

CROWN = -1          # owner of the Crown colonies when nobody plays the Spanish
_new = object.__new__
T = TypeVar("T")

# Fields copied as flat lists (one level) and as lists of lists (two levels).
FLAT = ("order", "money", "prestige", "nation", "hand_bonus", "income", "moves_bonus", "fzone", "fships",
        "legality", "col_owner", "col_labour", "col_chests", "col_fort", "site_ids", "site_names",
        "site_zone", "site_kind", "site_wild", "site_count", "site_cap", "rebels", "market",
        "market_discard", "haven")
NESTED = ("hands", "tableaus", "havens", "cargo")
# Flat lists that states share (copy-on-write by the writer): rarely or never changed, so
# the rules that change them (cards.py: an income, hand-limit or move bonus, a new site, a
# galleon, a legality, Prestige; goods.py: the new Player Order; battle.py: a galleon lost;
# treasure.py and end.py: Prestige) put a new list in place (`replaced`) instead of
# changing the old one.
SHARED = ("order", "nation", "hand_bonus", "income", "moves_bonus", "site_ids", "site_names", "site_zone",
          "site_kind", "site_wild", "site_cap", "prestige", "fships", "legality")
COPIED = tuple(f for f in FLAT if f not in SHARED)
# Lists of lists that states share the same way: a card played joins a tableau (play.py), a
# Haven is founded (cards.py), through `appended`, which builds new lists.
SHARED_NESTED = ("tableaus", "havens")
COPIED_NESTED = tuple(f for f in NESTED if f not in SHARED_NESTED)
SCALARS = ("config", "seed", "seed_hash", "rng", "n", "cycle", "year", "step", "event_seq", "version", "over",
           "result", "minted", "burned")
DICTS = ("supply", "gone", "secrets", "cursor")
SAVED = SCALARS + FLAT + NESTED + DICTS + ("stack",)


class State:
    # acting_now: the seats that must act, stored by apply once the new state is complete
    # (flow.acting); None while a state is being built or changed (copy, from_dict), and
    # unset on a state made by setup or a scenario, which flow.acting then computes.
    __slots__ = ("rs", "undo_stack", "undo_seat", "acting_now", *SAVED)

    # The slots' types, for type checkers (annotations only: a slotted class has no class
    # attributes of these names). tests/engine/test_state_copy.py checks they name the slots.
    rs: Ruleset
    undo_stack: tuple[State, ...]
    undo_seat: int | None
    acting_now: tuple[int, ...] | None
    # SCALARS
    config: dict[str, Any]
    seed: int
    seed_hash: str
    rng: int
    n: int
    cycle: int
    year: int
    step: int
    event_seq: int
    version: int
    over: bool
    result: dict[str, Any] | None
    minted: int
    burned: int
    # FLAT
    order: list[int]
    money: list[int]
    prestige: list[int]
    nation: list[str]
    hand_bonus: list[int]
    income: list[int]
    moves_bonus: list[int]
    fzone: list[int]
    fships: list[int]
    legality: list[Legality]
    col_owner: list[int | None]
    col_labour: list[Labour | None]
    col_chests: list[int]
    col_fort: list[bool]
    site_ids: list[str]
    site_names: list[str]
    site_zone: list[int]
    site_kind: list[str]
    site_wild: list[bool]
    site_count: list[int]
    site_cap: list[int]
    rebels: list[int]
    market: list[str]
    market_discard: list[str]
    haven: list[str]
    # NESTED
    hands: list[list[str]]
    tableaus: list[list[tuple[str, str | None]]]
    havens: list[list[int]]
    cargo: list[list[Cargo]]
    # DICTS, and the decisions
    supply: dict[str, int]
    gone: dict[str, int]
    secrets: dict[int, Any]
    cursor: dict[str, Any]
    stack: list[dict[str, Any]]

    def copy(self) -> "State":
        """A copy that apply() may change freely: scalars, SHARED and SHARED_NESTED lists are
        shared, the other lists and dicts are copied one level (two for NESTED), decisions one level
        (their values are tuples and ints, never changed in place). Written out field by field,
        the hot path of apply; tests/engine/test_state_copy.py checks it against the field lists."""
        new = _new(State)
        new.rs = self.rs
        new.undo_stack = self.undo_stack
        new.undo_seat = self.undo_seat
        new.acting_now = None             # a copy is made to be changed
        new.stack = list(map(dict.copy, self.stack))      # map: no comprehension frame (issue 13)
        # SCALARS
        new.config = self.config
        new.seed = self.seed
        new.seed_hash = self.seed_hash
        new.rng = self.rng
        new.n = self.n
        new.cycle = self.cycle
        new.year = self.year
        new.step = self.step
        new.event_seq = self.event_seq
        new.version = self.version
        new.over = self.over
        new.result = self.result
        new.minted = self.minted
        new.burned = self.burned
        # SHARED
        new.order = self.order
        new.nation = self.nation
        new.hand_bonus = self.hand_bonus
        new.income = self.income
        new.moves_bonus = self.moves_bonus
        new.site_ids = self.site_ids
        new.site_names = self.site_names
        new.site_zone = self.site_zone
        new.site_kind = self.site_kind
        new.site_wild = self.site_wild
        new.site_cap = self.site_cap
        new.prestige = self.prestige
        new.fships = self.fships
        new.legality = self.legality
        # COPIED
        new.money = self.money[:]
        new.fzone = self.fzone[:]
        new.col_owner = self.col_owner[:]
        new.col_labour = self.col_labour[:]
        new.col_chests = self.col_chests[:]
        new.col_fort = self.col_fort[:]
        new.site_count = self.site_count[:]
        new.rebels = self.rebels[:]
        new.market = self.market[:]
        new.market_discard = self.market_discard[:]
        new.haven = self.haven[:]
        # SHARED_NESTED
        new.tableaus = self.tableaus
        new.havens = self.havens
        # COPIED_NESTED
        new.hands = list(map(list.copy, self.hands))
        new.cargo = list(map(list.copy, self.cargo))
        # DICTS
        new.supply = self.supply.copy()
        new.gone = self.gone.copy()
        new.secrets = self.secrets.copy()
        new.cursor = self.cursor.copy()
        return new

    # ---- saving -------------------------------------------------------------------------
    def to_dict(self) -> JsonDict:
        d = {f: getattr(self, f) for f in SAVED}
        d["ruleset"] = self.config.get("ruleset", self.rs.name)     # a folder path stays a path
        d["secrets"] = {str(k): v for k, v in self.secrets.items()}
        d["stack"] = [_plain(x) for x in self.stack]
        d["tableaus"] = [[list(t) for t in tab] for tab in self.tableaus]
        plain: JsonDict = _plain(d)
        return plain

    @classmethod
    def from_dict(cls, d: JsonDict, rs: Ruleset | None = None) -> "State":
        st = cls.__new__(cls)
        st.rs = rs or load_ruleset(d["ruleset"], (d.get("config") or {}).get("params") or None)
        for f in SAVED:
            setattr(st, f, d[f] if f != "seed_hash" else d.get(f))
        if d.get("seed_hash") is None:      # snapshots saved before the field existed
            from .keys import seed_hash
            st.seed_hash = seed_hash(st.seed)
        st.secrets = {int(k): v for k, v in d["secrets"].items()}
        st.tableaus = [[tuple(t) for t in tab] for tab in d["tableaus"]]
        st.stack = [_frozen(x) for x in d["stack"]]
        st.cursor = _frozen(dict(d["cursor"]))
        for f in FLAT:                      # fresh lists: the state never shares one with `d`
            setattr(st, f, list(getattr(st, f)))
        for f in NESTED:
            setattr(st, f, [list(x) if isinstance(x, list) else x for x in getattr(st, f)])
        _words(st)
        st.undo_stack = ()
        st.undo_seat = None
        st.acting_now = None
        return st

    def fingerprint(self) -> JsonDict:
        """Everything that defines the position (what replay must reproduce exactly)."""
        return self.to_dict()

    # ---- questions the rules ask often ----------------------------------------------------
    def owner_strength_in(self, owner: int, zone: int) -> int:
        """BAT-2: an owner's colonies in a land zone, the Citizens working them, and their fleet's ships."""
        s = 0
        rs = self.rs
        for c, z in enumerate(rs.col_zone):
            if z == zone and self.col_owner[c] == owner:
                s += 1 + (self.col_labour[c] == CITIZEN)
        if owner >= 0 and self.fzone[owner] == zone:
            s += self.fships[owner]
        return s

    def has_tokens_in(self, seat: int, zone: int) -> bool:
        rs = self.rs
        if self.fzone[seat] == zone:
            return True
        return any(z == zone and self.col_owner[c] == seat for c, z in enumerate(rs.col_zone))

    def vacant_colonies(self, seat: int) -> list[int]:
        return [c for c, o in enumerate(self.col_owner) if o == seat and self.col_labour[c] is None]

    def colonies_of(self, owner: int) -> list[int]:
        return [c for c, o in enumerate(self.col_owner) if o == owner]

    def hand_limit(self, seat: int) -> int:
        return self.rs.hand_limit + self.hand_bonus[seat]

    def spanish_seat(self) -> int | None:
        for s, n in enumerate(self.nation):
            if self.rs.nations[n].get("crown"):
                return s
        return None

    def crown_owner(self) -> int:
        """Who owns the Crown colonies: the Spanish player, or the Crown (CYC-4)."""
        s = self.spanish_seat()
        return CROWN if s is None else s


def replaced(values: list[T], i: int, value: T) -> list[T]:
    """A new list with `value` at `i`, the other entries the same: how a SHARED field
    changes without changing a list another state holds."""
    new = values[:]
    new[i] = value
    return new


def appended(per_seat: list[list[T]], seat: int, item: T) -> list[list[T]]:
    """A new list of lists with `item` added to `seat`'s list, the others shared: how a
    SHARED_NESTED field grows without changing a list another state holds."""
    new = per_seat[:]
    new[seat] = per_seat[seat] + [item]
    return new


def _words(st: State) -> None:
    """The vocabulary's members (vocab.py) for the plain strings a saved state holds."""
    st.legality = [LEGALITY[x] for x in st.legality]
    st.col_labour = [None if x is None else LABOUR[x] for x in st.col_labour]
    st.cargo = [[CARGO[x] for x in c] for c in st.cargo]
    st.stack = [{**dec, "deck": DECK[dec["deck"]]} if "deck" in dec else dec for dec in st.stack]


def _plain(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k) if not isinstance(k, str) else k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def _frozen(x: Any) -> Any:
    """Decision dicts keep tuples, never lists, so a shallow copy is a safe copy."""
    if isinstance(x, dict):
        return {k: _frozen(v) for k, v in x.items()}
    if isinstance(x, list):
        return tuple(_frozen(v) for v in x)
    return x
