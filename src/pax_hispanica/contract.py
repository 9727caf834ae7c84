"""The engine's contract: the nine operations an outer layer may count on (docs/api.md, "The
core contract"), and the named groups of helpers `pax_hispanica.api` offers besides.

`Engine[S]` is a `typing.Protocol` over the state type `S`: `pax_hispanica.api` satisfies it with
`S = State`, the toy game of the bot tests (`bots/toygame.py`) with `S = dict`. A bot, the
simulator or a training loop that takes "an engine" is typed against it (bots/base.py's
`load_api`); mypy --strict checks at the end of this module that both engines satisfy it
(tests/test_types_strict.py runs it over the whole package).

The protocols name the operations only, positional-only, so that an engine may call its own
parameters what it likes and take more of them, with defaults (api.view's `include_state`).

The rest of `api.__all__` is sorted into HELPER_GROUPS: each name of the API is in the contract or
in exactly one group (tests/engine/test_api_contract.py), and the groups are what docs/api.md
lists after the contract. Some are protocols too, for the outer layers that call them through an
engine they were given: `Actions` (listing the actions descriptors allow), `Search` (what a search
bot needs to sample and step states fast), `Logs` (a seat's share of the log) and `Sampling` (the
contract with the least a search asks: ISMCTS's engine). `SearchEngine` is all of them: what `api`
is, and what the web's door (web/engine_port.py) refuses a stand-in engine for not being.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from .engine.jsontypes import Action, Descriptor, Event, JsonDict

S = TypeVar("S")

CORE: tuple[str, ...] = ("new_game", "acting", "legal_actions", "apply", "view", "is_over", "result",
                         "copy", "information_state")
"""The contract's operations, in the order a game uses them (OpenSpiel's: new_initial_state,
current_player, legal_actions, apply_action, observation, is_terminal, returns, clone,
information_state)."""


@runtime_checkable
class Engine(Protocol[S]):
    """The core contract: what every engine gives and every outer layer may count on.

    A state is never changed by the engine: `apply` returns the next one (the state given is the
    same after), so a state may be shared, kept as a history, or searched from."""

    def new_game(self, config: Any, seed: Any, /) -> S:
        """A new game of `config` (a Config or its dict) from `seed`, its secret; the engine's
        refusal error (api: IllegalAction("bad_config")) for a config or seed it refuses."""
        ...

    def acting(self, state: S, /) -> tuple[int, ...]:
        """The seats that must act now: () when nobody (the game is over), one seat, or
        several for a sealed (simultaneous, secret) choice."""
        ...

    def legal_actions(self, state: S, seat: int, /) -> list[Descriptor]:
        """What `seat` may do now, as descriptors (docs/api.md, "Descriptors"): a "choice" lists
        its actions, a "range" gives one field's least and most; [] when `seat` is not to act."""
        ...

    def apply(self, state: S, action: Action, /) -> tuple[S, list[Event]]:
        """The next state and the events of one action, the action refused with the engine's
        error (api: IllegalAction, with the code and rule ID) when it is not legal now."""
        ...

    def view(self, state: S, viewer: int | None, /) -> JsonDict:
        """What `viewer` (a seat, or None for a spectator) may see: JSON-able, never a hidden card."""
        ...

    def is_over(self, state: S, /) -> bool:
        """Whether the game has ended."""
        ...

    def result(self, state: S, /) -> Mapping[str, Any] | None:
        """How it ended ({"winner": seat, "scores": [...], "ranking": [...], ...}); None before."""
        ...

    def copy(self, state: S, /) -> S:
        """An equal state that shares nothing the caller could change with `state`."""
        ...

    def information_state(self, state: S, viewer: int | None, /) -> JsonDict:
        """What `viewer` may know of the state, as data a search can sample full states from:
        hidden parts masked, no seed, only the viewer's own secret choices."""
        ...


@runtime_checkable
class Actions(Protocol):
    """Helpers: the concrete actions a list of descriptors allows, without a wide bid range ever
    being listed unasked (api.count_actions, nth_action, iter_actions; expand lists them)."""

    def expand(self, descriptors: list[Descriptor], /) -> list[Action]: ...

    def count_actions(self, descriptors: list[Descriptor], /) -> int: ...

    def nth_action(self, descriptors: list[Descriptor], i: int, /) -> Action: ...

    def iter_actions(self, descriptors: list[Descriptor], /) -> Iterator[Action]: ...


@runtime_checkable
class Search(Protocol[S]):
    """Helpers for search bots (ISMCTS): full states sampled from what a seat knows, a step
    without checks or events, and the few public facts its models read, built as tuples."""

    def apply_trusted(self, state: S, action: Action, /) -> S: ...

    def determinize(self, view: JsonDict, seed: int, /) -> S: ...

    def model_view(self, state: S, viewer: int | None, /) -> JsonDict: ...

    def bid_facts(self, state: S, seat: int, /) -> tuple[Any, ...]: ...

    def score_facts(self, state: S, /) -> tuple[Any, ...]: ...

    def hand_facts(self, state: S, /) -> tuple[tuple[str, ...], ...]: ...


@runtime_checkable
class Sampling(Engine[S], Protocol[S]):
    """The least a search over sampled states asks beyond the core (ISMCTS; the toy game has it):
    full states consistent with a view, a state's short summary for the cut-off scoring, and
    which action types are sealed (another seat's secret choice is chance to the search). The
    search reads the other helpers when the engine has them (hasattr), and does without."""

    SEALED_ACTION_TYPES: frozenset[str]

    def determinize(self, view: JsonDict, seed: int, /) -> S: ...

    def summary(self, state: S, /) -> JsonDict: ...


@runtime_checkable
class Logs(Protocol):
    """Helpers: what a seat may read of the event log, and what it can know of each hand from it
    (a state's short summary, the third of the group, is Sampling's)."""

    def redact(self, events: list[Event], viewer: int | None, /) -> list[Event]: ...

    def known_cards(self, view: JsonDict, events: list[Event], /) -> JsonDict: ...


@runtime_checkable
class SearchEngine(Sampling[S], Actions, Search[S], Logs, Protocol[S]):
    """An engine with the action, search and log helpers (what `pax_hispanica.api` is)."""


def lacks(engine: object, protocol: type) -> list[str]:
    """The members of `protocol` (one of this module's) that `engine` does not have, sorted: what
    an isinstance check found missing, for the message that refuses it."""
    names = {n for c in protocol.__mro__ for n in (*vars(c), *vars(c).get("__annotations__", {}))
             if not n.startswith("_")}
    return sorted(n for n in names if not hasattr(engine, n))


HELPER_GROUPS: dict[str, tuple[str, ...]] = {
    "actions": ("expand", "count_actions", "nth_action", "iter_actions", "can_undo"),
    "search": ("apply_trusted", "determinize", "determinizer", "model_view", "bid_facts", "score_facts",
               "hand_facts"),
    "logs and knowledge": ("redact", "summary", "known_cards"),
    "decisions and explanations": ("decision", "decision_types", "unavailable", "battle_preview",
                                   "battle_previews", "SEALED_DECISIONS", "SEALED_ACTION_TYPES",
                                   "is_sealed_action", "is_sealed_decision"),
    "cards and ids": ("card_catalogue", "board_layout", "index", "ViewIndex"),
    "records": ("Game", "replay", "from_scenario", "save_record", "load_record", "snapshot", "restore",
                "verify", "verify_log", "verify_record", "seed_hash", "derived_seed"),
    "chance nodes": ("new_game_with_outcomes", "apply_with_outcomes", "ChanceNeeded"),
    "rules and rulesets": ("RULES", "load_ruleset", "view_ruleset", "parameters", "ruleset_versions",
                           "ruleset_refusal", "OLD_RULESETS", "house_rules", "house_rule_sets",
                           "house_rule_conditions", "HouseRule"),
    "types and errors": ("Config", "State", "IllegalAction", "RulesetError", "RulesetRefused", "COMPILED"),
    "vocabulary": ("VOCABULARY",),
}
"""Everything else `api.__all__` names, by what it is for (docs/api.md, "Helper groups")."""


if TYPE_CHECKING:        # mypy --strict checks that both engines satisfy the contract
    from . import api as _api
    from .bots import toygame as _toygame
    from .engine.state import State as _State

    _the_engine: SearchEngine[_State] = _api
    _its_logs: Logs = _api
    _the_toy: Sampling[dict[str, Any]] = _toygame
