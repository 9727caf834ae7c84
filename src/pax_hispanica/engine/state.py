"""The game state: plain lists and dicts, cheap to copy and to save.

A State is never changed once an action has been applied to it: `apply`
works on a `copy()`. Per-seat data are lists indexed by seat; map data are
lists indexed by colony space or site (see Ruleset). The words (legalities, labour,
cargo, a bid's deck) are vocab.py's StrEnum members, which save as their strings.
Copying, saving and loading are written out field by field (no exec, no generic walk).
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from .decisions import loaded_decision, saved_decision
from .flow import Cursor
from .jsontypes import JsonDict
from .ruleset import Ruleset
# the writers of shared fields (sharing.py), imported from here by the rules
from .sharing import appended as appended, bumped as bumped, counted as counted, replaced as replaced
from .sharing import with_item as with_item, without as without
from .vocab import CARGO, CITIZEN, LABOUR, LEGALITY, Cargo, Labour, Legality

CROWN = -1          # owner of the Crown colonies when nobody plays the Spanish


# Fields copied as flat lists (one level) and as lists of lists (two levels).
FLAT = ("order", "money", "prestige", "nation", "hand_bonus", "income", "moves_bonus", "fzone", "fships",
        "legality", "col_owner", "col_labour", "col_chests", "col_fort", "site_ids", "site_names",
        "site_zone", "site_kind", "site_wild", "site_count", "site_cap", "rebels", "market",
        "market_discard", "haven")
NESTED = ("hands", "tableaus", "havens", "cargo")
# Structural sharing (docs/benchmarks.md, "Fast paths"): only about 1.65 of the state's list and dict fields change in a
# transition, so State.copy shares most of them with the state it copies, and every rule that
# changes one of them puts a new list (or dict) in place instead of changing the old one:
# `replaced`, `bumped`, `appended`, `with_item`, `counted`, or a local copy made once before a
# loop of writes (`own`). SHARED are the flat lists shared this way, SHARED_NESTED the lists of
# lists (a seat's list is replaced in a new outer list), SHARED_DICTS the dicts.
# tests/engine/test_state_copy.py checks the promise: no state changes once an action has been
# applied to it (over whole games), and no rule writes into a shared list or dict (a copy whose
# shared fields refuse every write in place plays whole games).
SHARED = ("order", "nation", "hand_bonus", "income", "moves_bonus", "site_ids", "site_names", "site_zone",
          "site_kind", "site_wild", "site_cap", "prestige", "fships", "legality", "fzone", "col_owner",
          "col_labour", "col_chests", "col_fort", "site_count", "rebels", "market", "market_discard", "haven")
COPIED = tuple(f for f in FLAT if f not in SHARED)        # money: changed in place by many rules
SHARED_NESTED = ("tableaus", "havens", "hands", "cargo")
COPIED_NESTED = tuple(f for f in NESTED if f not in SHARED_NESTED)      # none since cargo is shared
SCALARS = ("config", "seed", "seed_hash", "rng", "n", "cycle", "year", "step", "event_seq", "version", "over",
           "result", "minted", "burned")
ALL_DICTS = ("supply", "gone", "secrets", "cursor")
SHARED_DICTS = ("gone", "secrets", "cursor", "supply")
DICTS = tuple(f for f in ALL_DICTS if f not in SHARED_DICTS)          # the dicts State.copy copies: none
SAVED = SCALARS + FLAT + NESTED + ALL_DICTS + ("stack",)
# Every field of a State, in the order of its declarations below: what is saved, and what is not
# (the ruleset, the undo history, the cached acting seats). The tests read it rather than
# `__slots__`, which a compiled State (mypyc) does not have.
FIELDS = ("rs", "undo_stack", "undo_seat", "acting_now", *SAVED)


class Result(TypedDict):
    """CYC-3: how a finished game ended (end.final_scoring); `State.result`, saved as it is."""
    winner: int
    ranking: list[int]                 # seats, best first
    scores: list[int]                  # final Prestige by seat
    money: list[int]
    nations: list[str]
    cycles: int
    reason: str                        # "prestige_goal" or "last_cycle"


class State:
    # acting_now: the seats that must act, stored by apply once the new state is complete
    # (flow.acting); None while a state is being built or changed (copy, from_dict), and
    # unset on a state made by setup or a scenario, which flow.acting then computes.
    __slots__ = FIELDS

    # The slots' types, for type checkers (annotations only: a slotted class has no class
    # attributes of these names). tests/engine/test_state_copy.py checks they name FIELDS, in order.
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
    result: Result | None
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
    cursor: Cursor
    stack: list[dict[str, Any]]

    def copy(self) -> State:
        """A copy that apply() may change: scalars, SHARED, SHARED_NESTED and SHARED_DICTS are
        shared (their writers replace them, never change them in place), money (COPIED) is copied,
        decisions one level (their values are tuples and ints, never changed in place); cargo and
        supply are shared. Written out field by field, the hot path of apply; tests/engine/test_state_copy.py checks it against the field lists."""
        new = State.__new__(State)           # not object.__new__: mypyc refuses it for a compiled class
        new.rs = self.rs
        new.undo_stack = self.undo_stack
        new.undo_seat = self.undo_seat
        new.acting_now = None             # a copy is made to be changed
        stack = self.stack
        # one decision pending (nearly always)
        new.stack = [stack[0].copy()] if len(stack) == 1 else list(map(dict.copy, stack))
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
        new.fzone = self.fzone
        new.col_owner = self.col_owner
        new.col_labour = self.col_labour
        new.col_chests = self.col_chests
        new.col_fort = self.col_fort
        new.site_count = self.site_count
        new.rebels = self.rebels
        new.market = self.market
        new.market_discard = self.market_discard
        new.haven = self.haven
        # COPIED
        new.money = self.money[:]
        # SHARED_NESTED
        new.tableaus = self.tableaus
        new.havens = self.havens
        new.hands = self.hands
        new.cargo = self.cargo
        # COPIED_NESTED: none (cargo is shared)
        # DICTS: none (supply likewise)
        # SHARED_DICTS
        new.gone = self.gone
        new.secrets = self.secrets
        new.cursor = self.cursor
        new.supply = self.supply
        return new

    # ---- saving -------------------------------------------------------------------------
    def to_dict(self) -> JsonDict:
        """The saved state (snapshots, fingerprints, records' final states): every SAVED field in
        its order, then "ruleset"; tuples become lists and the secrets' seats strings. Written
        out field by field, with no generic walk; tests/engine/test_state_copy.py
        checks it against the field lists and against the generic walk it replaced."""
        return {
            # SCALARS
            "config": plain_config(self.config), "seed": self.seed, "seed_hash": self.seed_hash, "rng": self.rng,
            "n": self.n, "cycle": self.cycle, "year": self.year, "step": self.step, "event_seq": self.event_seq,
            "version": self.version, "over": self.over, "result": plain_result(self.result),
            "minted": self.minted, "burned": self.burned,
            # FLAT
            "order": self.order[:], "money": self.money[:], "prestige": self.prestige[:], "nation": self.nation[:],
            "hand_bonus": self.hand_bonus[:], "income": self.income[:], "moves_bonus": self.moves_bonus[:],
            "fzone": self.fzone[:], "fships": self.fships[:], "legality": self.legality[:],
            "col_owner": self.col_owner[:], "col_labour": self.col_labour[:], "col_chests": self.col_chests[:],
            "col_fort": self.col_fort[:], "site_ids": self.site_ids[:], "site_names": self.site_names[:],
            "site_zone": self.site_zone[:], "site_kind": self.site_kind[:], "site_wild": self.site_wild[:],
            "site_count": self.site_count[:], "site_cap": self.site_cap[:], "rebels": self.rebels[:],
            "market": self.market[:], "market_discard": self.market_discard[:], "haven": self.haven[:],
            # NESTED
            "hands": [h[:] for h in self.hands],
            "tableaus": [[[card, target] for card, target in tab] for tab in self.tableaus],
            "havens": [h[:] for h in self.havens],
            "cargo": [c[:] for c in self.cargo],
            # DICTS, and the decisions
            "supply": self.supply.copy(), "gone": self.gone.copy(),
            "secrets": {str(seat): value for seat, value in self.secrets.items()},
            "cursor": plain_cursor(self.cursor),
            "stack": [saved_decision(dec, self.seed, self.secrets) for dec in self.stack],
            "ruleset": self.config.get("ruleset", self.rs.name),      # a folder path stays a path
        }

    @classmethod
    def from_dict(cls, d: JsonDict, rs: Ruleset) -> State:
        """The State of a saved one (to_dict's, or an older snapshot without seed_hash), under
        its ruleset: `rs` is the ruleset `d` names, with its config's params (api.restore loads it)."""
        known = d.get("seed_hash")
        if known is None:                   # snapshots saved before the field existed
            from .keys import seed_hash
            known = seed_hash(d["seed"])
        st = from_fields(d, rs, known)
        st.secrets = {int(seat): value for seat, value in d["secrets"].items()}
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


def from_fields(d: JsonDict, rs: Ruleset, seed_hash: str) -> State:
    """A State from saved fields, written out field by field (State.from_dict, and determinize's
    template, which then deal the secrets): fresh lists (the state never shares one with `d`),
    tuples for tableau entries, decisions and the cursor, and the vocabulary's members for the
    words (vocab.py). The secrets are left empty; supply, gone, config and result are `d`'s."""
    st = State.__new__(State)           # not object.__new__: mypyc refuses it for a compiled class
    st.rs = rs
    st.undo_stack = ()
    st.undo_seat = None
    st.acting_now = None
    # SCALARS
    st.config = d["config"]
    # an information state has no seed and no PRNG (None): a sample deals them (information.py)
    st.seed = 0 if d["seed"] is None else d["seed"]
    st.seed_hash = seed_hash
    st.rng = 0 if d["rng"] is None else d["rng"]
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
    # FLAT
    st.order = list(d["order"])
    st.money = list(d["money"])
    st.prestige = list(d["prestige"])
    st.nation = list(d["nation"])
    st.hand_bonus = list(d["hand_bonus"])
    st.income = list(d["income"])
    st.moves_bonus = list(d["moves_bonus"])
    st.fzone = list(d["fzone"])
    st.fships = list(d["fships"])
    st.legality = [LEGALITY[x] for x in d["legality"]]
    st.col_owner = list(d["col_owner"])
    st.col_labour = [None if x is None else LABOUR[x] for x in d["col_labour"]]
    st.col_chests = list(d["col_chests"])
    st.col_fort = list(d["col_fort"])
    st.site_ids = list(d["site_ids"])
    st.site_names = list(d["site_names"])
    st.site_zone = list(d["site_zone"])
    st.site_kind = list(d["site_kind"])
    st.site_wild = list(d["site_wild"])
    st.site_count = list(d["site_count"])
    st.site_cap = list(d["site_cap"])
    st.rebels = list(d["rebels"])
    st.market = list(d["market"])
    st.market_discard = list(d["market_discard"])
    st.haven = list(d["haven"])
    # NESTED
    st.hands = [list(h) for h in d["hands"]]
    st.tableaus = [[(card, target) for card, target in tab] for tab in d["tableaus"]]
    st.havens = [list(h) for h in d["havens"]]
    st.cargo = [[CARGO[x] for x in c] for c in d["cargo"]]
    # DICTS, and the decisions
    st.supply = d["supply"]
    st.gone = d["gone"]
    st.secrets = {}
    st.cursor = loaded_cursor(d["cursor"])
    st.stack = [loaded_decision(dec) for dec in d["stack"]]
    return st


def plain_config(config: JsonDict) -> JsonDict:
    """A game's config as saved: its lists and tables copied (setup checked that it is
    players, nations, ruleset, options and params, each a JSON value of its kind)."""
    out = config.copy()
    for key in ("nations", "options", "params"):
        value = out.get(key)
        if isinstance(value, (list, tuple)):
            out[key] = list(value)
        elif isinstance(value, dict):
            out[key] = value.copy()
    return out


def plain_result(result: Result | None) -> JsonDict | None:
    """The final result as saved: its lists copied, in its key order (end.final_scoring)."""
    if result is None:
        return None
    return {key: (list(value) if isinstance(value, (list, tuple)) else value) for key, value in result.items()}


def plain_cursor(cursor: Cursor) -> JsonDict:
    out: JsonDict = dict(cursor)
    if "skipped" in cursor:
        out["skipped"] = list(cursor["skipped"])
    return out


def loaded_cursor(cursor: JsonDict) -> Cursor:
    out = cast(Cursor, dict(cursor))
    if "skipped" in out:
        out["skipped"] = tuple(cursor["skipped"])     # read from the saved dict: it holds a list
    return out
