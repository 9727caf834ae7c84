"""The game state: plain lists and dicts, cheap to copy and to save.

A State is never changed once an action has been applied to it: `apply`
works on a `copy()`. Per-seat data are lists indexed by seat; map data are
lists indexed by colony space or site (see Ruleset).
"""

from __future__ import annotations

from .ruleset import Ruleset, load_ruleset

CROWN = -1          # owner of the Crown colonies when nobody plays the Spanish

# Fields copied as flat lists (one level) and as lists of lists (two levels).
FLAT = ("order", "money", "prestige", "nation", "hand_bonus", "income", "moves_bonus", "fzone", "fships",
        "legality", "col_owner", "col_labour", "col_chests", "col_fort", "site_ids", "site_names",
        "site_zone", "site_kind", "site_wild", "site_count", "site_cap", "rebels", "market",
        "market_discard", "haven")
NESTED = ("hands", "tableaus", "havens", "cargo")
SCALARS = ("config", "seed", "seed_hash", "rng", "n", "cycle", "year", "step", "event_seq", "version", "over",
           "result", "minted", "burned")
DICTS = ("supply", "gone", "secrets", "cursor")
SAVED = SCALARS + FLAT + NESTED + DICTS + ("stack",)


class State:
    # acting_now: the seats that must act, stored by apply once the new state is complete
    # (flow.acting); None while a state is being built or changed (copy, from_dict), and
    # unset on a state made by setup or a scenario, which flow.acting then computes.
    __slots__ = ("rs", "undo_stack", "undo_seat", "acting_now", *SAVED)

    def copy(self) -> "State":
        """A copy that apply() may change freely (replaced below by a generated, unrolled version)."""
        new = State.__new__(State)
        new.rs = self.rs
        for f in SCALARS:
            setattr(new, f, getattr(self, f))
        for f in FLAT:
            setattr(new, f, getattr(self, f)[:])
        for f in NESTED:
            setattr(new, f, [x[:] for x in getattr(self, f)])
        for f in DICTS:
            setattr(new, f, dict(getattr(self, f)))
        # decisions are dicts whose values are never mutated in place (tuples, ints)
        new.stack = [dict(d) for d in self.stack]
        new.undo_stack = self.undo_stack
        new.undo_seat = self.undo_seat
        new.acting_now = None             # a copy is made to be changed
        return new

    # ---- saving -------------------------------------------------------------------------
    def to_dict(self) -> dict:
        d = {f: getattr(self, f) for f in SAVED}
        d["ruleset"] = self.config.get("ruleset", self.rs.name)     # a folder path stays a path
        d["secrets"] = {str(k): v for k, v in self.secrets.items()}
        d["stack"] = [_plain(x) for x in self.stack]
        d["tableaus"] = [[list(t) for t in tab] for tab in self.tableaus]
        return _plain(d)

    @classmethod
    def from_dict(cls, d: dict, rs: Ruleset | None = None) -> "State":
        st = cls.__new__(cls)
        st.rs = rs or load_ruleset(d["ruleset"], (d.get("config") or {}).get("params") or None)
        for f in SAVED:
            setattr(st, f, d[f] if f != "seed_hash" else d.get(f))
        if st.seed_hash is None:            # snapshots saved before the field existed
            from .sealed import seed_hash
            st.seed_hash = seed_hash(st.seed)
        st.secrets = {int(k): v for k, v in d["secrets"].items()}
        st.tableaus = [[tuple(t) for t in tab] for tab in d["tableaus"]]
        st.stack = [_frozen(x) for x in d["stack"]]
        st.cursor = _frozen(dict(d["cursor"]))
        for f in FLAT:                      # fresh lists: the state never shares one with `d`
            setattr(st, f, list(getattr(st, f)))
        for f in NESTED:
            setattr(st, f, [list(x) if isinstance(x, list) else x for x in getattr(st, f)])
        st.undo_stack = ()
        st.undo_seat = None
        st.acting_now = None
        return st

    def fingerprint(self) -> dict:
        """Everything that defines the position (what replay must reproduce exactly)."""
        return self.to_dict()

    # ---- questions the rules ask often ----------------------------------------------------
    def owner_strength_in(self, owner: int, zone: int) -> int:
        """BAT-2: an owner's colonies in a land zone, the Citizens working them, and their fleet's ships."""
        s = 0
        rs = self.rs
        for c, z in enumerate(rs.col_zone):
            if z == zone and self.col_owner[c] == owner:
                s += 1 + (self.col_labour[c] == "citizen")
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


def _unrolled_copy():
    """State.copy with the field loops unrolled (the hot path of apply: about twice as fast).
    Generated from the same field lists, so it cannot drift from them."""
    lines = ["def copy(self):", "    new = _new(State)", "    new.rs = self.rs",
             "    new.undo_stack = self.undo_stack", "    new.undo_seat = self.undo_seat",
             "    new.acting_now = None",
             "    new.stack = [d.copy() for d in self.stack]"]
    lines += [f"    new.{f} = self.{f}" for f in SCALARS]
    lines += [f"    new.{f} = self.{f}[:]" for f in FLAT]
    lines += [f"    new.{f} = [x[:] for x in self.{f}]" for f in NESTED]
    lines += [f"    new.{f} = self.{f}.copy()" for f in DICTS]
    lines.append("    return new")
    ns = {"_new": object.__new__, "State": State}
    exec("\n".join(lines), ns)
    ns["copy"].__doc__ = State.copy.__doc__
    return ns["copy"]


State.copy = _unrolled_copy()


def _plain(x):
    if isinstance(x, dict):
        return {str(k) if not isinstance(k, str) else k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def _frozen(x):
    """Decision dicts keep tuples, never lists, so a shallow copy is a safe copy."""
    if isinstance(x, dict):
        return {k: _frozen(v) for k, v in x.items()}
    if isinstance(x, list):
        return tuple(_frozen(v) for v in x)
    return x
