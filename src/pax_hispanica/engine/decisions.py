"""Decisions as declared types: the one registry of what a player can be asked.

Each decision is a class in the module of its rules, registered with one `register(cls)`
after it (a call, not a decorator: mypyc keeps a decorated class out of its native classes).
It declares:
- `name`: what the pending decision dict on `st.stack` has as "d";
- `rule`: its rule ID, saved with the decision as "rule";
- `actions`: the action types it accepts, each with its fields besides seat and type and
  the JSON types each field may take (None only where the field is optional, PRJ-7);
- `sealed`: whether it is a simultaneous secret choice (sealed.py), and then
  `secret_field`, the field of its action that carries the secret, and `secret_domain`, the
  values a seat's secret may take, computed from what everyone knows (the information
  state), so that `information.determinize` can draw others' secrets from it;
- `legal(st, dec, seat)` and `act(st, dec, action, out)`;
- `reasons(board, dec)`: its why-not reasons (engine/why.py: the options the rules forbid the
  asked seat now, from its view), or `nothing_to_explain`, a sentence saying why it has none;
- `observation`: its slot in the RL encoding: the fields of its context the observation shows,
  each as (field, kind) with a kind of SLOT_KINDS (rl/observation.py encodes each kind), or ()
  when its name alone is enough;
- `words()`: its sentence in the catalogues (gettext context "decisions", its name), which the
  pages and the terminal show; derived, override it to share another decision's sentence.

`register` refuses a type that leaves one of these undeclared or declares it wrong, with a
message saying what to add, so a new decision fails when its module is imported, not when a
game or an RL episode first reaches it.

Everything else that needs to know about decisions is derived from this registry and
never listed again: `core.ACTION_FIELDS`/`ACTION_TYPES`/`MAX_KEYS` (the shape check), the
sealed sets, determinize's resampling and `api.decision_types()`.

A pending decision is saved as a plain dict (its "context"): "d", "seats", "rule", then the
fields its type declares in a TypedDict (engine/contexts.py), in the order they were pushed, so snapshots
and records are what they were before these types existed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from mypy_extensions import mypyc_attr

# the saved contexts (TypedDicts), re-exported: engine/contexts.py, kept as Python when compiled
from .contexts import BidContext as BidContext, DecisionContext as DecisionContext
from .contexts import LabourContext as LabourContext, SealedContext as SealedContext
from .contexts import SupportContext as SupportContext, VoyageContext as VoyageContext
from .contexts import VoyageProgress as VoyageProgress
from .flow import Out, push as _push
from .keys import commitment, salt
from .rules import RULES
from .vocab import DECK

if TYPE_CHECKING:
    from .state import State

STR, INT, BOOL, NONE = str, int, bool, type(None)
Fields = Mapping[str, tuple[type, ...]]
"""An action type's fields besides seat and type, and the JSON types each may take."""

JSON_TYPE_NAMES = {STR: "string", INT: "integer", BOOL: "boolean", NONE: "null"}

SLOT_KINDS = ("number", "flag", "seat", "card", "deck", "site", "colony", "zone", "zones", "colonies",
              "battle_target")
"""How the RL observation may encode a field of a pending decision, as the view shows it: a
number, a flag, a seat (relative one-hot), one card, deck, site, colony or zone (one-hot), a
list of zones or colonies (multi-hot), a battle's target (a colony, a site or the Rebels)."""


C = TypeVar("C", bound=Mapping[str, Any])


# ---- saving ----------------------------------------------------------------------------------
def committed_hashes(dec: Mapping[str, Any], seed: int, secrets: Mapping[int, Any]) -> tuple[tuple[int, str], ...]:
    """A sealed decision's (seat, hash) pairs with every hash made: apply_trusted commits
    without hashing (a search never reads a hash), and the hash it leaves None is
    made here from the seat's sealed value (`secrets`: the state's, or the revealed values),
    the state's seed and the decision's id: the digest sealed.commit makes on the normal path."""
    committed: tuple[tuple[int, str | None], ...] = dec["committed"]
    if all(h is not None for _, h in committed):
        return cast("tuple[tuple[int, str], ...]", committed)      # every hash made (checked just above)
    did = dec["id"]
    return tuple((s, commitment(did, s, secrets[s], salt(seed, did, s)) if h is None else h) for s, h in committed)


def saved_decision(dec: Mapping[str, Any], seed: int = 0, secrets: Mapping[int, Any] | None = None) -> dict[str, Any]:
    """A pending decision as saved (JSON), in its own key order: the contexts above hold
    tuples in these fields only (tests/engine/test_decisions.py checks it against the
    TypedDicts), the rest are numbers, strings, booleans or None. No generic walk.
    `seed`, `secrets`: the state's, which make a hash apply_trusted left unmade (committed_hashes)."""
    out = dict(dec)
    out["seats"] = list(dec["seats"])
    if "committed" in dec:                                   # SealedContext
        out["committed"] = [[seat, h] for seat, h in committed_hashes(dec, seed, secrets or {})]
    if "colonies" in dec:                                    # LabourContext
        out["colonies"] = list(dec["colonies"])
    if "battled" in dec:                                     # VoyageProgress
        out["battled"] = list(dec["battled"])
    return out


def loaded_decision(dec: Mapping[str, Any]) -> dict[str, Any]:
    """A saved decision as the stack holds it: saved_decision's lists as tuples again, and a
    bid's deck as its member (vocab.Deck)."""
    out = dict(dec)
    out["seats"] = tuple(dec["seats"])
    if "committed" in dec:
        out["committed"] = tuple((seat, h) for seat, h in dec["committed"])
    if "colonies" in dec:
        out["colonies"] = tuple(dec["colonies"])
    if "battled" in dec:
        out["battled"] = tuple(dec["battled"])
    if "deck" in dec:                                        # BidContext
        out["deck"] = DECK[dec["deck"]]
    return out


# tuple-valued fields of the contexts, and what saved_decision makes of each (checked by a test)
TUPLE_FIELDS = ("seats", "committed", "colonies", "battled")


# ---- the declared types ----------------------------------------------------------------------
# mypyc_attr (the one decorator mypyc keeps a class native under): compiled, a Python class
# may still subclass Decision, as tests/engine/test_decisions.py does to stand a decision type
# with another secret domain in for a registered one. The engine's own decision types keep
# their native method calls (interpreted subclasses get a vtable of their own).
@mypyc_attr(allow_interpreted_subclasses=True)
class Decision(Generic[C]):
    """A decision type; subclasses declare the class attributes and `legal`/`act`."""

    name: ClassVar[str]
    rule: ClassVar[str]
    actions: ClassVar[Mapping[str, Fields]]
    sealed: ClassVar[bool] = False
    secret_field: ClassVar[str | None] = None
    observation: ClassVar[tuple[tuple[str, str], ...]]
    nothing_to_explain: ClassVar[str | None] = None

    def legal(self, st: State, dec: C, seat: int) -> list[dict[str, Any]]:
        raise NotImplementedError

    def act(self, st: State, dec: C, action: dict[str, Any], out: Out) -> None:
        raise NotImplementedError

    def reasons(self, board: Any, dec: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The options the rules forbid the asked seat now, each a why.py descriptor, from
        `board` (why._Board: that seat's view and the ruleset) and the view's decision `dec`."""
        return []                    # only for a type that declares nothing_to_explain (register checks)

    def words(self) -> tuple[str, str]:
        """Its sentence in the catalogues: (gettext context, id)."""
        return ("decisions", self.name)

    def secret_domain(self, info: Mapping[str, Any], dec: Mapping[str, Any], seat: int) -> Sequence[Any]:
        """A sealed decision's values of `secret_field` open to `seat`, from the information
        state `info` (what everyone knows: never the secrets themselves)."""
        raise TypeError(f"{self.name} is not a sealed decision")

    @classmethod
    def push(cls, st: State, seats: Sequence[int], **context: Any) -> dict[str, Any]:
        """Ask `seats` this decision; a sealed one starts with nobody committed."""
        if cls.sealed:
            context = {"sealed": True, "committed": (), **context}
        return _push(st, cls.name, seats, cls.rule, **context)


DECISIONS: dict[str, Decision[Any]] = {}
"""Every decision type by name (filled as engine.years is imported)."""

D = TypeVar("D", bound=type[Decision[Any]])


def register(cls: D) -> D:
    """Declare a decision type (one instance handles every decision of it); a ValueError says
    what its class must declare."""
    where = f"decision type {getattr(cls, 'name', cls.__name__)!r} ({cls.__module__})"
    if not getattr(cls, "name", None) or not getattr(cls, "actions", None):
        raise ValueError(f"{where}: declare `name` and `actions`")
    if cls.name in DECISIONS:
        raise ValueError(f"{where} is declared twice")
    if getattr(cls, "rule", None) not in RULES:
        raise ValueError(f"{where}: `rule` must be a rule ID of engine/rules.py")
    if cls.sealed and (cls.secret_field is None or cls.secret_domain is Decision.secret_domain
                       or not all(cls.secret_field in f for f in cls.actions.values())):
        raise ValueError(f"{where}: a sealed decision declares `secret_field` (a field of each of its actions) "
                         "and `secret_domain`")
    if cls.reasons is Decision.reasons and not cls.nothing_to_explain:
        raise ValueError(f"{where}: declare its why-not reasons, `reasons(board, dec)` (engine/why.py), "
                         "or `nothing_to_explain`, a sentence saying why it has none")
    observation = getattr(cls, "observation", None)
    if observation is None:
        raise ValueError(f"{where}: declare `observation`, its slot in the RL encoding: (field, kind) pairs "
                         f"with kinds from {', '.join(SLOT_KINDS)}, or () when its name is enough")
    for slot in observation:
        if len(slot) != 2 or slot[1] not in SLOT_KINDS:
            raise ValueError(f"{where}: observation slot {slot!r} is not (field, kind) with a kind from "
                             f"{', '.join(SLOT_KINDS)}")
    DECISIONS[cls.name] = cls()
    return cls


# ---- what is derived from the registry -------------------------------------------------------
def action_fields(engine_actions: Mapping[str, Fields]) -> dict[str, dict[str, tuple[type, ...]]]:
    """Every action type with its fields: the engine's own (undo), then each decision's in the
    order they were declared. An action type two decisions accept has one field table."""
    table: dict[str, dict[str, tuple[type, ...]]] = {k: dict(f) for k, f in engine_actions.items()}
    for dec in DECISIONS.values():
        for kind, fields in dec.actions.items():
            if kind in table:
                assert table[kind] == dict(fields), f"{kind} has two field tables ({dec.name})"
            else:
                table[kind] = dict(fields)
    return table


def sealed_decisions() -> frozenset[str]:
    return frozenset(name for name, dec in DECISIONS.items() if dec.sealed)


def sealed_action_types() -> frozenset[str]:
    """The action types of sealed decisions: an action of one of these is a secret choice.
    No open decision accepts one of them, so the type alone says it."""
    sealed = {k for dec in DECISIONS.values() if dec.sealed for k in dec.actions}
    open_ = {k for dec in DECISIONS.values() if not dec.sealed for k in dec.actions}
    assert not sealed & open_, sealed & open_
    return frozenset(sealed)


def describe(dec: Decision[Any]) -> dict[str, Any]:
    """One decision type as JSON data (api.decision_types)."""
    return {"name": dec.name, "rule": dec.rule, "sealed": dec.sealed, "secret_field": dec.secret_field,
            "actions": {kind: {f: [JSON_TYPE_NAMES[t] for t in types] for f, types in fields.items()}
                        for kind, fields in dec.actions.items()}}


def secret_domain(info: Mapping[str, Any], dec: Mapping[str, Any], seat: int) -> Sequence[Any]:
    """The values `seat`'s secret may take in the pending sealed decision `dec` (its saved dict)."""
    return DECISIONS[dec["d"]].secret_domain(info, dec, seat)
