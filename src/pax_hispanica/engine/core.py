"""Applying actions: validation, dispatch to the pending decision, undo (PRJ-2)."""

from __future__ import annotations

from . import years  # noqa: F401  (registers the years' steps and decisions)
from .errors import IllegalAction
from .flow import DECISIONS, Out, acting, advance
from .state import State

ACTION_TYPES = frozenset({
    "undo", "labour", "leave_vacant", "initiate", "pass", "bid", "play", "sell", "discard", "end_turn",
    "start_at_haven", "move", "attack", "support", "enslave", "load_chests", "unload", "unload_haven",
    "end_voyage",
})


def check_shape(st: State, action) -> int:
    """PRJ-7: an action is a dict with an int seat of this game and a known type."""
    if not isinstance(action, dict):
        raise IllegalAction("malformed", "PRJ-7", "An action is a JSON object with 'seat' and 'type'.")
    seat = action.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < st.n:
        raise IllegalAction("malformed", "PRJ-7", f"'seat' must be a seat number from 0 to {st.n - 1}.")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise IllegalAction("malformed", "PRJ-7", f"Unknown action type {kind!r}.")
    for k, v in action.items():
        if not isinstance(k, str) or not (v is None or isinstance(v, (str, int, bool))):
            raise IllegalAction("malformed", "PRJ-7",
                                f"Action field {k!r} must be a string, a whole number, true/false or null.")
    return seat


def legal_actions(st: State, seat: int) -> list[dict]:
    if seat not in acting(st):
        return []
    dec = st.stack[-1]
    return DECISIONS[dec["d"]].legal(st, dec, seat)


EXPAND_LIMIT = 10_000     # api.expand refuses to build more: a bid range grows with a player's money


def _size(d: dict) -> int:
    return len(d["options"]) if d["kind"] == "choice" else max(0, d["max"] - d["min"] + 1)


def count_actions(descriptors: list[dict]) -> int:
    """How many concrete actions the descriptors allow, without listing them."""
    return sum(_size(d) for d in descriptors)


def nth_action(descriptors: list[dict], i: int) -> dict:
    """The i-th concrete action, in the order expand lists them (0 <= i < count_actions)."""
    if i < 0:
        raise IndexError(i)
    for d in descriptors:
        n = _size(d)
        if i < n:
            return d["options"][i] if d["kind"] == "choice" else {**d["action"], d["field"]: d["min"] + i}
        i -= n
    raise IndexError("action index out of range")


def iter_actions(descriptors: list[dict]):
    """Every concrete action, one at a time (a wide bid range is never held in memory)."""
    for d in descriptors:
        if d["kind"] == "choice":
            yield from d["options"]
        else:
            base, field = d["action"], d["field"]
            for v in range(d["min"], d["max"] + 1):
                yield {**base, field: v}


def expand(descriptors: list[dict]) -> list[dict]:
    """Every concrete action the descriptors allow, as a list; refuses (ValueError) to build
    more than EXPAND_LIMIT: use count_actions / nth_action / iter_actions for those."""
    n = count_actions(descriptors)
    if n > EXPAND_LIMIT:
        raise ValueError(f"{n} actions: more than api.expand lists ({EXPAND_LIMIT}); "
                         "use api.count_actions, api.nth_action or api.iter_actions")
    return list(iter_actions(descriptors))


def can_undo(st: State, seat: int) -> bool:
    return bool(st.undo_stack) and st.undo_seat == seat and not st.over


def apply(st: State, action: dict) -> tuple[State, list[dict]]:
    """Apply one action to a copy of `st`; `st` itself never changes."""
    seat = check_shape(st, action)
    if st.over:
        raise IllegalAction("game_over", "CYC-2", "The game is over.")
    if action["type"] == "undo":
        return _undo(st, seat)
    if seat not in acting(st):
        who = ", ".join(str(s) for s in acting(st))
        raise IllegalAction("not_your_turn", "PRJ-7", f"Seat {seat} is not to act now (waiting for seat {who}).")
    new = st.copy()
    out = Out(new)
    rng_before = new.rng
    dec = new.stack[-1]
    DECISIONS[dec["d"]].act(new, dec, action, out)
    advance(new, out)
    new.version += 1
    if (not out.irreversible and new.rng == rng_before and not dec.get("sealed")
            and acting(new) == (seat,)):
        new.undo_stack = (st.undo_stack if st.undo_seat == seat else ()) + (st,)
        new.undo_seat = seat
    else:
        new.undo_stack, new.undo_seat = (), None
    return new, out.events


def _undo(st: State, seat: int) -> tuple[State, list[dict]]:
    """PRJ-2: take back one's own last action within one's turn; the undo is itself recorded."""
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
    return new, out.events
