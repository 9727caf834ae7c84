"""Applying actions: validation, dispatch to the pending decision, undo (PRJ-2)."""

from __future__ import annotations

from collections.abc import Iterator

from . import years  # noqa: F401  (registers the years' steps and decisions)
from .errors import IllegalAction, short
from .decisions import (BOOL, DECISIONS, INT, NONE, STR, Fields, action_fields, sealed_action_types,
                        sealed_decisions)
from .jsontypes import Action, Descriptor, Event
from .flow import Out, QuietOut, acting, advance, seats_to_act
from .state import State
from .rng import Chance

# PRJ-7: each action type's fields besides seat and type, and the JSON types each may take
# (None only where the field is optional). Derived from the decision types (decisions.py), each
# declaring the actions it accepts; undo is the engine's own, accepted whatever is pending.
# tests/engine/test_strict_actions.py checks that every legal action fits its decision's table.
ENGINE_ACTIONS: dict[str, Fields] = {"undo": {}}
ACTION_FIELDS: dict[str, dict[str, tuple[type, ...]]] = action_fields(ENGINE_ACTIONS)
ACTION_TYPES = frozenset(ACTION_FIELDS)
SEALED_DECISIONS = sealed_decisions()            # the decisions that are simultaneous secret choices
SEALED_ACTION_TYPES = sealed_action_types()      # their action types: no open decision accepts one
MAX_KEYS = 2 + max(len(f) for f in ACTION_FIELDS.values())   # checked first: a huge dict costs nothing
MAX_STR = 100          # every id of a ruleset is far shorter; a refusal may quote a field
MAX_INT = 2 ** 53      # whole numbers exactly representable in every JSON reader
_TYPE_NAMES = {STR: "a string", INT: "a whole number", BOOL: "true/false", NONE: "null"}


def _an(word: object) -> str:
    """'a bid', 'an initiate': the article of an action type named in a refusal."""
    return f"{'an' if str(word)[:1] in ('a', 'e', 'i', 'o', 'u') else 'a'} {word}"


def _malformed(message: str) -> IllegalAction:
    return IllegalAction("malformed", "PRJ-7", message)


def check_shape(st: State, action: object) -> int:
    """PRJ-7: an action is a JSON object with an int seat of this game, a known type and only
    that type's fields, each of its JSON type and bounded; nothing else is ever stored.
    Refusals quote at most a short prefix of what was sent (errors.short)."""
    if not isinstance(action, dict):
        raise _malformed("An action is a JSON object with 'seat' and 'type'.")
    if len(action) > MAX_KEYS:
        raise _malformed("An action has at most a seat, a type and its type's fields.")
    seat = action.get("seat")
    if type(seat) is not int or not 0 <= seat < st.n:
        raise _malformed(f"'seat' must be a seat number from 0 to {st.n - 1}.")
    kind = action.get("type")
    fields = ACTION_FIELDS.get(kind) if type(kind) is str else None
    if fields is None:
        raise _malformed(f"Unknown action type {short(kind)}.")
    if len(action) == 2:                 # a seat and a type (both checked above), nothing else
        return seat
    for k, v in action.items():
        if k == "seat" or k == "type":
            continue
        allowed = fields.get(k) if type(k) is str else None
        if allowed is None:
            raise _malformed(f"{_an(kind).capitalize()} action has no field {short(k)}"
                             + (f"; its fields: {', '.join(fields)}." if fields else "."))
        t = type(v)
        if t not in allowed:              # exact types: true is not a whole number
            raise _malformed(f"Field {k!r} of {_an(kind)} action must be "
                             f"{' or '.join(_TYPE_NAMES[t] for t in allowed)}.")
        if t is str:
            if len(v) > MAX_STR:
                raise _malformed(f"Field {k!r} is longer than {MAX_STR} characters.")
        elif t is int and not -MAX_INT < v < MAX_INT:
            raise _malformed(f"Field {k!r} is out of range (|x| < 2**53).")
    return seat


def legal_actions(st: State, seat: object) -> list[Descriptor]:
    """The seat's legal actions as descriptors; [] when `seat` is not to act now (a caller's
    value that is not a seat number, a bool included, is never to act)."""
    if type(seat) is not int:
        return []
    now = acting(st)
    if seat not in now:
        return []
    dec = st.stack[-1]
    return DECISIONS[dec["d"]].legal(st, dec, seat)


EXPAND_LIMIT = 10_000     # api.expand refuses to build more: a bid range grows with a player's money


def _size(d: Descriptor) -> int:
    return len(d["options"]) if d["kind"] == "choice" else max(0, d["max"] - d["min"] + 1)


def count_actions(descriptors: list[Descriptor]) -> int:
    """How many concrete actions the descriptors allow, without listing them."""
    if len(descriptors) == 1:             # nearly always one
        d = descriptors[0]
        return len(d["options"]) if d["kind"] == "choice" else max(0, d["max"] - d["min"] + 1)
    return sum(_size(d) for d in descriptors)


def nth_action(descriptors: list[Descriptor], i: int) -> Action:
    """The i-th concrete action, in the order expand lists them (0 <= i < count_actions)."""
    if i < 0:
        raise IndexError(i)
    for d in descriptors:
        if d["kind"] == "choice":
            options: list[Action] = d["options"]
            if i < len(options):
                return options[i]
            i -= len(options)
        else:
            n = max(0, d["max"] - d["min"] + 1)
            if i < n:
                return {**d["action"], d["field"]: d["min"] + i}
            i -= n
    raise IndexError("action index out of range")


def iter_actions(descriptors: list[Descriptor]) -> Iterator[Action]:
    """Every concrete action, one at a time (a wide bid range is never held in memory)."""
    for d in descriptors:
        if d["kind"] == "choice":
            yield from d["options"]
        else:
            base, field = d["action"], d["field"]
            for v in range(d["min"], d["max"] + 1):
                yield {**base, field: v}


def expand(descriptors: list[Descriptor]) -> list[Action]:
    """Every concrete action the descriptors allow, as a list; refuses (ValueError) to build
    more than EXPAND_LIMIT: use count_actions / nth_action / iter_actions for those."""
    n = count_actions(descriptors)
    if n > EXPAND_LIMIT:
        raise ValueError(f"{n} actions: more than api.expand lists ({EXPAND_LIMIT}); "
                         "use api.count_actions, api.nth_action or api.iter_actions")
    return list(iter_actions(descriptors))


def can_undo(st: State, seat: object) -> bool:
    return bool(st.undo_stack) and type(seat) is int and st.undo_seat == seat and not st.over


def apply(st: State, given: object, chance: Chance | None = None) -> tuple[State, list[Event]]:
    """Apply one action to a copy of `st`; `st` itself never changes. `chance`: the outcomes of
    its draws, supplied (PRJ-70: api.apply_with_outcomes), else the state's generator. The
    action is the caller's data, declared `object`: check_shape refuses anything malformed."""
    seat = check_shape(st, given)
    action: Action = given  # type: ignore[assignment]  # check_shape: a dict of a seat, a known type, its fields
    if st.over:
        raise IllegalAction("game_over", "CYC-2", "The game is over.")
    if action["type"] == "undo":
        return _undo(st, seat)
    now = acting(st)
    if seat not in now:
        who = ", ".join(str(s) for s in now)
        raise IllegalAction("not_your_turn", "PRJ-7", f"Seat {seat} is not to act now (waiting for seat"
                            f"{'s' if len(now) > 1 else ''} {who}).")
    out = Out(st.copy(), chance)
    return _act(st, seat, action, out), out.events


def apply_trusted(st: State, action: object) -> State:
    """The search path: the next state of a *legal* action, exactly what `apply`
    gives (tests/engine/test_trusted_apply.py compares to_dict over random positions), for
    bots' internal simulations. It skips the shape checks (PRJ-7: an action that is not one
    of legal_actions' may fail in any way) and builds no events (each still takes its
    number: event_seq is state); a sealed choice's commitment is left unhashed (None) until
    something reads it (decisions.committed_hashes: the saved state, the view, a reveal),
    which then gets apply's digest; no reveal's salts either. Returns the state only.
    What is not even a dict is refused as apply refuses it (IllegalAction, never TypeError)."""
    if not isinstance(action, dict) or action.get("type") == "undo" or st.over:
        return apply(st, action)[0]
    seat = action.get("seat")
    now = acting(st)
    if type(seat) is not int or seat not in now:
        return apply(st, action)[0]            # raises malformed or not_your_turn, as apply does
    return _act(st, seat, action, QuietOut(st.copy()))


def _act(st: State, seat: int, action: Action, out: Out) -> State:
    """Apply a checked action to out.st, a fresh copy of `st`, and finish the new state."""
    new = out.st
    rng_before = new.rng
    dec = new.stack[-1]
    DECISIONS[dec["d"]].act(new, dec, action, out)
    if not new.stack:                  # advance's own test, without its frame while a decision is pending
        advance(new, out)
    new.version += 1
    new.acting_now = now = seats_to_act(new)       # new is complete: nothing changes it from here
    if (not out.irreversible and new.rng == rng_before and not dec.get("sealed") and now == (seat,)
            and new.year == st.year and new.cycle == st.cycle):   # PRJ-2: an undo never crosses a Year
        new.undo_stack = (st.undo_stack if st.undo_seat == seat else ()) + (st,)
        new.undo_seat = seat
    else:
        new.undo_stack, new.undo_seat = (), None
    return new


def _undo(st: State, seat: int) -> tuple[State, list[Event]]:
    """PRJ-2: take back one's own last action within one's turn (never across a Year's or a
    cycle's boundary); the undo is itself recorded."""
    if not can_undo(st, seat):
        raise IllegalAction("nothing_to_undo", "PRJ-2",
                            "Nothing to undo: only your own actions of this turn, since the last reveal or draw.")
    prev = st.undo_stack[-1]
    new = prev.copy()
    new.event_seq = st.event_seq
    new.version = st.version + 1
    new.undo_stack = st.undo_stack[:-1]
    new.undo_seat = seat if new.undo_stack else None
    out = Out(new)
    out.emit("ActionUndone", "PRJ-2", seat=seat)
    new.acting_now = seats_to_act(new)
    return new, out.events
