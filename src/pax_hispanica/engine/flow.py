"""The flow of play: cycle -> four years -> an ordered list of steps per year.

Each step is a function `step(st, out) -> bool` that does the automatic work of
the rules and, when a player must decide something, pushes a decision (a plain
dict) on `st.stack` and returns True; it is called again once the stack is
empty, and returns False when the step is over. Progress inside a step lives
in `st.cursor`, so a saved game resumes on exactly the same question.

Each decision is a declared type in the registry of decisions.py (its name, rule,
accepted actions and their fields, whether it is sealed, `legal` and `act`).
A decision with `"sealed": True` is a simultaneous secret choice: see sealed.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypedDict

from .errors import IllegalAction
from .events import ADDRESSED, EVENT_TYPES, FIELDS as EVENT_FIELDS
from .rules import RULES
from . import vocab
from .rng import Chance

if TYPE_CHECKING:
    from .state import State

Step = Callable[["State", "Out"], bool]


class Cursor(TypedDict, total=False):
    """A step's progress (`State.cursor`, emptied when the step ends)."""
    i: int                             # the next seat's place in Player Order (auction, play, sail)
    skipped: tuple[int, ...]           # LAB-3: colonies found with no legal source (labour_acquisition)

YEARS = vocab.YEARS                               # CYC-1: D1..D4 (Year members, in order)
YEAR_STEPS: dict[int, tuple[Step, ...]] = {}      # filled by engine.years

# What Out.emit checks an event against, by (type, rule): the type's fields, whether it is
# addressed (`to`, HID-2) and the rule's page (rules.page), in one lookup.
EMITTED: dict[tuple[str, str], tuple[frozenset[str], bool, str]] = {
    (e.name, r): (EVENT_FIELDS[e.name], ADDRESSED[e.name], RULES[r][0]) for e in EVENT_TYPES for r in e.rules}


class Out:
    """Collects the events of one action and whether it revealed or drew anything; `chance`:
    the supplied outcomes of its draws (PRJ-70, the RL layer's explicit chance), None for the
    generator (every other caller)."""

    __slots__ = ("chance", "events", "irreversible", "st")
    quiet = False                      # QuietOut: the events are not built (core.apply_trusted)

    def __init__(self, st: State, chance: Chance | None = None) -> None:
        self.st = st
        self.events: list[dict[str, Any]] = []
        self.irreversible = False
        self.chance = chance

    def emit(self, type_: str, rule: str, to: Iterable[int] | None = None, **fields: Any) -> None:
        # events.py declares every type's fields and rules: a misspelt or missing field fails here
        spec = EMITTED.get((type_, rule))
        assert spec is not None and spec[0] == fields.keys() and spec[1] == (to is not None), \
            (type_, rule, sorted(fields), "docs/events.md; engine/events.py")
        st = self.st
        st.event_seq = seq = st.event_seq + 1
        ev = {"seq": seq, "type": type_, "rule": rule, "page": spec[2], **fields}     # rules.page
        if to is not None:             # the only seats that may see this event (HID-2)
            assert isinstance(to, (list, tuple)) and all(isinstance(s, int) for s in to), (type_, to)
            ev["to"] = sorted(to)
        self.events.append(ev)


class QuietOut(Out):
    """An Out for search (core.apply_trusted): no event is built, but each still takes its
    number, so `event_seq`, a field of the state, is what the normal path gives."""

    __slots__ = ()
    quiet = True

    def emit(self, type_: str, rule: str, to: Iterable[int] | None = None, **fields: Any) -> None:
        self.st.event_seq += 1


def require(cond: bool, code: str, rule: str, message: str) -> None:
    if not cond:
        raise IllegalAction(code, rule, message)


def push(st: State, name: str, seats: Iterable[int], rule: str, **context: Any) -> dict[str, Any]:
    dec = {"d": name, "seats": tuple(seats), "rule": rule, **context}
    st.stack.append(dec)
    return dec


def acting(st: State) -> tuple[int, ...]:
    """The seats that must act now: one seat, several for a sealed choice, or none.
    Read from `st.acting_now` when apply stored it (a state never changes once applied):
    a decision asks this about 3.6 times (the loop, legal_actions, apply, the view)."""
    try:
        known = st.acting_now
    except AttributeError:          # a State built field by field elsewhere (tests' reference code)
        return seats_to_act(st)
    return seats_to_act(st) if known is None else known


def seats_to_act(st: State) -> tuple[int, ...]:
    """acting, computed from the pending decision."""
    if st.over or not st.stack:
        return ()
    dec = st.stack[-1]
    seats: tuple[int, ...] = dec["seats"]
    if dec.get("sealed"):
        committed = dec["committed"]
        if committed:                  # the seats yet to choose
            done = [s for s, _ in committed]
            return tuple([s for s in seats if s not in done])
    return seats


def advance(st: State, out: Out) -> None:
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


def step_name(st: State) -> str:
    steps = YEAR_STEPS[st.year]
    return steps[st.step].__name__ if st.step < len(steps) else "end"
