"""The flow of play: cycle -> four years -> an ordered list of steps per year.

Each step is a function `step(st, out) -> bool` that does the automatic work of
the rules and, when a player must decide something, pushes a decision (a plain
dict) on `st.stack` and returns True; it is called again once the stack is
empty, and returns False when the step is over. Progress inside a step lives
in `st.cursor`, so a saved game resumes on exactly the same question.

Decisions are handled by objects registered in DECISIONS under their name:
`legal(st, dec, seat) -> descriptors` and `act(st, dec, action, out)`.
A decision with `"sealed": True` is a simultaneous secret choice: see sealed.py.
"""

from __future__ import annotations

from typing import Any, Protocol

from .errors import IllegalAction
from .rules import page


class DecisionHandler(Protocol):
    """What a registered decision answers: its legal actions, and applying one of them."""

    def legal(self, st: Any, dec: dict, seat: int) -> list[dict]: ...

    def act(self, st: Any, dec: dict, action: dict, out: "Out") -> None: ...

YEARS = ("goods", "auction", "play", "sail")     # CYC-1: D1..D4
YEAR_STEPS: dict[int, tuple] = {}                 # filled by engine.years
DECISIONS: dict[str, DecisionHandler] = {}


class Out:
    """Collects the events of one action and whether it revealed or drew anything."""

    __slots__ = ("st", "events", "irreversible")
    quiet = False                      # QuietOut: the events are not built (core.apply_trusted)

    def __init__(self, st):
        self.st = st
        self.events: list[dict] = []
        self.irreversible = False

    def emit(self, type_: str, rule: str, to=None, **fields) -> dict:
        self.st.event_seq += 1
        ev = {"seq": self.st.event_seq, "type": type_, "rule": rule, "page": page(rule), **fields}
        if to is not None:             # the only seats that may see this event (HID-2)
            assert isinstance(to, (list, tuple)) and all(isinstance(s, int) for s in to), (type_, to)
            ev["to"] = sorted(to)
        self.events.append(ev)
        return ev


class QuietOut(Out):
    """An Out for search (core.apply_trusted): no event is built, but each still takes its
    number, so `event_seq`, a field of the state, is what the normal path gives."""

    __slots__ = ()
    quiet = True

    def emit(self, type_: str, rule: str, to=None, **fields) -> None:   # type: ignore[override]
        self.st.event_seq += 1


def require(cond: bool, code: str, rule: str, message: str) -> None:
    if not cond:
        raise IllegalAction(code, rule, message)


def decision(name: str):
    """Class decorator: register a decision handler under `name`."""
    def wrap(cls):
        DECISIONS[name] = cls()
        return cls
    return wrap


def push(st, name: str, seats, rule: str, **context) -> dict:
    dec = {"d": name, "seats": tuple(seats), "rule": rule, **context}
    st.stack.append(dec)
    return dec


def acting(st) -> tuple:
    """The seats that must act now: one seat, several for a sealed choice, or none.
    Read from `st.acting_now` when apply stored it (a state never changes once applied):
    a decision asks this about 3.6 times (the loop, legal_actions, apply, the view)."""
    known = getattr(st, "acting_now", None)
    if known is not None:
        return known
    return seats_to_act(st)


def seats_to_act(st) -> tuple:
    """acting, computed from the pending decision."""
    if st.over or not st.stack:
        return ()
    dec = st.stack[-1]
    if dec.get("sealed"):
        done = {s for s, _ in dec["committed"]}
        return tuple(s for s in dec["seats"] if s not in done)
    return dec["seats"]


def advance(st, out: Out) -> None:
    """Run automatic steps until someone must decide or the game is over."""
    while not st.over and not st.stack:
        steps = YEAR_STEPS[st.year]
        if st.step >= len(steps):
            st.year = (st.year + 1) % 4
            if st.year == 0:
                st.cycle += 1
            st.step = 0
            st.cursor = {}
            out.emit("YearBegan", "CYC-1", cycle=st.cycle, year=YEARS[st.year])
            continue
        if not steps[st.step](st, out):
            st.step += 1
            st.cursor = {}


def step_name(st) -> str:
    steps = YEAR_STEPS[st.year]
    return steps[st.step].__name__ if st.step < len(steps) else "end"
