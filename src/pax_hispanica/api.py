"""The engine's public API: the one module every outer layer uses (docs/api.md).

A game is `(ruleset version, config, seed, actions)`; everything else is derived
by replay. The engine (`engine/`) does no I/O; here only the explicit save/load helpers
and `load_ruleset` (pax_hispanica.rulesets: a ruleset's TOML files, read once and cached)
touch files. Engine functions that need a ruleset by name are given that loader.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from collections.abc import Mapping
from os import PathLike
from typing import Any, TypeAlias

from .engine import core, information as _information, view as _view, vocab as _vocab, why as _why
from .engine.decisions import DECISIONS as _DECISIONS, describe as _describe
from .engine.errors import IllegalAction, short
from .engine.flow import acting as _acting
from .engine.rules import RULES
from .engine.ruleset import (CARD_COST_RANGE, RulesetError, Rulesets, card_cost_params, crown_colony_params,
                             parameter_names, treasure_by_count_params)
from .engine.keys import derived_seed
from .engine.knowledge import known_cards as _known_cards
from .engine.view_index import ViewIndex, index
from .engine.scenario import build as _build_scenario
from .engine.jsontypes import Event, JsonDict
from .engine.keys import seed_hash
from .engine.sealed import verify, verify_log
from .engine.setup import new_state
from .engine.state import Result, State
from .engine.rng import Chance as _Chance, ChanceNeeded
from .engine.house_rules import CONDITIONS as _HOUSE_RULE_CONDITIONS, SENTENCES as _SENTENCES, HouseRule
from .engine.house_rules import house_rules as _house_rules
from .engine.ruleset import Ruleset
from .rulesets import UnknownVersion, house_rule_sets as _house_rule_sets, load_ruleset, version_list, versions as _versions

__all__ = [
    "COMPILED",
    "OLD_RULESETS",
    "RULES",
    "SEALED_ACTION_TYPES",
    "SEALED_DECISIONS",
    "VOCABULARY",
    "ChanceNeeded",
    "Config",
    "Game",
    "HouseRule",
    "IllegalAction",
    "RulesetError",
    "RulesetRefused",
    "State",
    "ViewIndex",
    "acting",
    "apply",
    "apply_trusted",
    "apply_with_outcomes",
    "battle_preview",
    "battle_previews",
    "bid_facts",
    "board_layout",
    "can_undo",
    "card_catalogue",
    "copy",
    "count_actions",
    "decision",
    "decision_types",
    "derived_seed",
    "determinize",
    "determinizer",
    "expand",
    "from_scenario",
    "hand_facts",
    "house_rule_conditions",
    "house_rule_sets",
    "house_rules",
    "index",
    "information_state",
    "is_over",
    "is_sealed_action",
    "is_sealed_decision",
    "iter_actions",
    "known_cards",
    "legal_actions",
    "load_record",
    "load_ruleset",
    "model_view",
    "new_game",
    "new_game_with_outcomes",
    "nth_action",
    "parameters",
    "redact",
    "replay",
    "restore",
    "result",
    "ruleset_refusal",
    "ruleset_versions",
    "save_record",
    "score_facts",
    "seed_hash",
    "snapshot",
    "summary",
    "unavailable",
    "verify",
    "verify_log",
    "verify_record",
    "view",
    "view_ruleset",
]

# Whether the engine loaded is the compiled one (the mypyc build that scripts/setup.sh makes in the
# default install: docs/api.md, "The compiled engine") or the pure-Python one (PAXH_PURE=1, a build
# that is missing or stale, or a machine without a C compiler).
COMPILED: bool = not core.__file__.endswith(".py") if core.__file__ else False

# 2: PRJ-1's keyed counter-mode generator and HMAC salts. A record of format 1 (SplitMix64)
# would replay to another game, so it is refused rather than replayed.
RECORD_FORMAT = "paxh-record-2"
OLD_FORMATS = {"paxh-record-1": "made by an earlier engine whose random generator (SplitMix64) this "
                                "version no longer has; it cannot be replayed exactly"}
# PRJ-37: a record names the ruleset version it was made with and replays only under it;
# PRJ-50: under that version, built by the loader's version table (data/versions.toml) when it
# is an earlier one. The earlier versions that are refused, not replayed, and why:
OLD_RULESETS = {v.name: v.refused for v in _versions().values() if v.refused}


class RulesetRefused(ValueError):
    """PRJ-37: a record, saved game or stored game of a ruleset version this engine does not
    replay (refused or unknown); the message says why and which versions it replays (PRJ-50)."""


def ruleset_versions() -> dict[str, JsonDict]:
    """PRJ-50: every ruleset version this engine knows, name -> {"folder": the data folder it
    is built from (None: refused), "current": a folder's own version, "base" and "params": an
    earlier version is its base with these numbers, "since": the decision after which it is
    earlier, "refused": why a record of it is not replayed (None: it is)}."""
    return {v.name: {"folder": v.folder, "current": v.current, "base": v.base, "params": dict(v.params),
                     "since": v.since, "refused": v.refused} for v in _versions().values()}


def _rulesets(version: Any) -> Rulesets:
    """The resolver of a game pinned to ruleset `version` (PRJ-50); the plain loader for none
    or a folder's current version (the same Ruleset objects: nothing changes for them)."""
    if version is None or version in _CURRENT:
        return load_ruleset
    return partial(load_ruleset, version=str(version))


_CURRENT = frozenset(v.name for v in _versions().values() if v.current)


def _pinned(cfg: object, version: Any) -> Rulesets:
    """The resolver for a new game of `cfg` at `version`; RulesetRefused (a ValueError: PRJ-37's
    refusal, naming the versions there are) when that ruleset has no such version."""
    if version is None:
        return load_ruleset
    name = cfg.get("ruleset", "reference") if isinstance(cfg, dict) else None
    if isinstance(name, str):
        try:
            load_ruleset(name, None, version=str(version))
        except UnknownVersion:
            try:
                current = load_ruleset(name).version
            except RulesetError:        # the config names a refused version itself
                current = "none of that name"
            raise RulesetRefused(ruleset_refusal(version, current)) from None
    return partial(load_ruleset, version=str(version))


def view_ruleset(view: JsonDict) -> Any:
    """The Ruleset a view was made under: its "ruleset", "ruleset_params" and "ruleset_version"
    (PRJ-50: an earlier version's numbers for a game of it); what a bot reading views loads."""
    return _rulesets(view.get("ruleset_version"))(view.get("ruleset", "reference"), view.get("ruleset_params") or None)


@dataclass
class Config:
    players: int = 4
    nations: list[str] | None = None
    ruleset: str = "reference"
    options: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)     # variant: overridden ruleset numbers (PRJ-31)

    def to_dict(self) -> JsonDict:
        return {k: v for k, v in asdict(self).items() if v not in (None, {})}


ConfigLike: TypeAlias = "Config | Mapping[str, Any]"
"""A game's config: a Config, or its dict (players, nations, ruleset, options, params)."""

# The entry points below that take a caller's data (a config, a seed, an action, a seat, a
# record, a snapshot, a scenario) declare it `object` and narrow it before use, so that what
# is malformed is refused with the engine's own error (IllegalAction, or the documented
# ValueError), never a TypeError, whether the engine is compiled or not (docs/api.md, "Errors":
# a compiled function checks its declared argument types before its body runs).


def _config(config: object) -> object:
    """A Config as its dict, a mapping as a plain dict; anything else as it is (setup refuses it)."""
    if isinstance(config, Config):
        return config.to_dict()
    return dict(config) if isinstance(config, Mapping) else config


def _version_arg(version: object) -> str | None:
    """A caller's `ruleset_version`: None or a version's name (PRJ-50); ValueError otherwise."""
    if version is None or isinstance(version, str):
        return version
    raise ValueError(f"a ruleset version is a name (a string), not {type(version).__name__}")


def new_game(config: object, seed: object, ruleset_version: object = None) -> State:
    """(ConfigLike, seed): IllegalAction("bad_config", ...) for a config or seed setup refuses;
    `ruleset_version` pins an earlier version of its ruleset (PRJ-50; default: the ruleset's
    current one, or the version the config's `ruleset` names)."""
    cfg = _config(config)
    return new_state(cfg, seed, rulesets=_pinned(cfg, _version_arg(ruleset_version)))[0]


def _all_used(chance: _Chance) -> None:
    if chance.used != len(chance.outcomes):
        raise ValueError(f"{len(chance.outcomes)} outcomes supplied for {chance.used} draws")


def new_game_with_outcomes(config: object, seed: object, outcomes: object) -> State:
    """PRJ-70: new_game with the outcomes of its draws (shuffles' Fisher-Yates draws, dice)
    supplied in order instead of drawn from the seed's generator (the seed still keys the
    sealed choices' salts). Raises ChanceNeeded (`.n` outcomes, `.items` a shuffle's choices)
    when they run out, ValueError if some are left over or they are not a sequence of whole
    numbers. For explicit chance nodes (rl.openspiel)."""
    chance = _Chance(outcomes)
    st = new_state(_config(config), seed, rulesets=load_ruleset, chance=chance)[0]
    _all_used(chance)
    return st


def apply_with_outcomes(state: State, action: object, outcomes: object) -> tuple[State, list[Event]]:
    """PRJ-70: apply with the outcomes of the action's draws supplied (as new_game_with_outcomes);
    pure, so a caller told ChanceNeeded runs it again from the same state with one more outcome."""
    chance = _Chance(outcomes)
    out = core.apply(state, action, chance)
    _all_used(chance)
    return out


acting = _acting         # the seats to act now (cached on the state by apply): no wrapper frame


def decision(state: State, seat: object = None) -> JsonDict | None:
    """What `seat` is asked now, as everyone may see it: {"decision": name, "rule": rule ID,
    "seats": the seats it asks, ...its public context} (docs/api.md, "Decisions"); None when
    `seat` is not to act now, or nobody is. seat=None: the pending decision, whoever acts.
    The view's "decision" is the same dict with the name under "d" (kept as it was)."""
    if seat is not None and (type(seat) is not int or seat not in _acting(state)):
        return None                              # (a bool is not a seat, though True == 1)
    pub = _view.public_decision(state)
    if pub is None:
        return None
    name, rule = pub.pop("d"), pub.pop("rule")
    return {"decision": name, "rule": rule, **pub}


# The decision types (engine/decisions.py), as outer layers need them: which decisions are
# simultaneous secret choices, and which action types answer them (docs/api.md, "Decisions").
SEALED_DECISIONS: frozenset[str] = core.SEALED_DECISIONS
SEALED_ACTION_TYPES: frozenset[str] = core.SEALED_ACTION_TYPES


class Vocabulary:
    """The game's words an encoding is laid out by (rl/: the observation's one-hot segments and
    the action table), in the engine's own order: one place for each (engine/vocab.py), read
    through the api. The decisions are read when asked, as the registry holds them then."""

    years: tuple[str, ...] = tuple(_vocab.YEARS)
    legalities: tuple[str, ...] = tuple(_vocab.LEGALITIES)
    decks: tuple[str, ...] = tuple(_vocab.DECKS)
    people: tuple[str, ...] = tuple(_vocab.PEOPLE)
    chest: str = _vocab.CHEST
    gone: tuple[str, ...] = tuple(_vocab.GONE)
    action_fields: dict[str, dict[str, tuple[type, ...]]] = core.ACTION_FIELDS

    def decision_names(self) -> tuple[str, ...]:
        """The decision types' names in registration order (CYC-1)."""
        return _vocab.decision_names()

    def observation_slots(self, decision: str) -> tuple[tuple[str, str], ...]:
        """The (field, kind) pairs a pending decision of this type shows in the RL observation."""
        return tuple(_DECISIONS[decision].observation)


VOCABULARY = Vocabulary()


def is_sealed_action(action_type: object) -> bool:
    """Whether an action of this type is a sealed choice (its value hidden until the reveal)."""
    return action_type in SEALED_ACTION_TYPES


def is_sealed_decision(name: object) -> bool:
    """Whether the decision of this name ("d" of a pending decision) is a sealed choice."""
    return name in SEALED_DECISIONS


def decision_types() -> list[dict[str, Any]]:
    """Every decision type as JSON data, in declaration order: name, rule, sealed, secret_field
    (the field of a sealed decision's action holding the secret, else None) and actions
    (each action type it accepts -> its fields besides seat and type -> the JSON types each
    may take: "string", "integer", "boolean", "null"). Undo is accepted whatever is pending."""
    return [_describe(d) for d in _DECISIONS.values()]


def _seat_view(state_or_view: State | JsonDict, seat: object) -> tuple[JsonDict, Any]:
    """The seat's view, and its ruleset (a state's) or the loader that resolves the view's;
    ValueError for a seat that is not None or a seat of the game, or not the view's viewer."""
    if isinstance(state_or_view, State):
        return _view.view(state_or_view, seat), state_or_view.rs
    if not isinstance(state_or_view, dict):
        raise ValueError("a State or a view (a dict) is asked for")
    if seat is not None and state_or_view.get("viewer") != seat:
        raise ValueError(f"a view of seat {short(state_or_view.get('viewer'))} cannot answer for seat {short(seat)}")
    return state_or_view, _rulesets(state_or_view.get("ruleset_version"))


def unavailable(state_or_view: State | JsonDict, seat: object = None) -> list[JsonDict]:
    """Why not? The options the rules forbid `seat` in its pending decision right now, each
    {"decision", "action": the action's shape, "code", "rule", "params"} (docs/api.md, "Why
    not?"); [] when `seat` is not asked now. Computed from `seat`'s view alone (a State is
    turned into that view first; a view is used as it is, and must be that seat's), so it
    never reveals what the seat may not see."""
    v, rs = _seat_view(state_or_view, seat)
    return _why.unavailable(v, rs)


def battle_preview(state_or_view: State | JsonDict, seat: object, target: str, attacker: int | None = None,
                   zone: str | None = None) -> JsonDict | None:
    """A battle's Strengths before it is fought, from `seat`'s view (BAT-1..BAT-4): the
    attacker's and the target's, the other players in the zone who will choose a side, and
    the best and worst case (docs/api.md, "Battle preview"). `attacker` and `zone` default
    to `seat` and its fleet's zone; None when `target` cannot be attacked there."""
    v, rs = _seat_view(state_or_view, seat)
    return _why.battle_preview(v, target, attacker, zone, rs=rs)


def battle_previews(state_or_view: State | JsonDict, seat: object) -> dict[str, JsonDict]:
    """The previews `seat` needs now: one per attack its voyage may make, or the battle it is
    asked to support; target id -> battle_preview."""
    v, rs = _seat_view(state_or_view, seat)
    return _why.battle_previews(v, rs)


legal_actions = core.legal_actions
expand = core.expand
count_actions = core.count_actions
nth_action = core.nth_action
iter_actions = core.iter_actions
apply = core.apply
apply_trusted = core.apply_trusted      # search only: apply's next state, no checks of shape, no events
can_undo = core.can_undo
view = _view.view
model_view = _view.model_view         # the public facts of a view an opponent model reads (ISMCTS's bids)
bid_facts = _view.bid_facts           # model_view's facts of a bid as a tuple, nothing built (ISMCTS's memo key)
information_state = _information.information_state     # what view(..., include_state=True) adds as "state"
redact = _view.redact
summary = _view.summary
score_facts = _information.score_facts   # summary's facts a search's cut-off scoring reads, as tuples (ISMCTS)
hand_facts = _information.hand_facts     # a (sampled) state's hands as tuples of card ids (ISMCTS's eval=worth)


def determinize(v: JsonDict, seed: int, known: JsonDict | None = None) -> State:
    """A full State consistent with a view with its "state", or with an information state
    (engine/information.py, determinize; `known`: known_cards of the viewer's log). The state
    shares the view's lists that no rule changes in place: do not change the view while using it."""
    return _information.determinize(v, seed, known, rulesets=_rulesets(v.get("ruleset_version")))


def determinizer(v: JsonDict, known: JsonDict | None = None) -> _information.Determinizer:
    """The samples of one view, worked out once: determinizer(view)(seed) == determinize(view, seed)."""
    return _information.Determinizer(v, known, rulesets=_rulesets(v.get("ruleset_version")))


def known_cards(view: JsonDict, events: list[Event]) -> JsonDict:
    """What `view["viewer"]` can know of each hand and deck, from its view and its log
    (`redact(events, viewer)`); docs/api.md, "What a seat knows"."""
    return _known_cards(view, events, _rulesets(view.get("ruleset_version")))


def card_catalogue(ruleset: str = "reference", params: JsonDict | None = None,
                   version: str | None = None) -> dict[str, JsonDict]:
    """Every card of a ruleset as public data: name, deck, cost, conditions, effects, target;
    with a variant's `params` and at `version` (PRJ-50), whose costs may differ (PRJ-67)."""
    rs = load_ruleset(ruleset, params, version=version)
    return {cid: {"id": c.id, "name": c.name, "deck": c.deck, "cost": c.cost, "requires": dict(c.requires),
                  "effects": [dict(e) for e in c.effects], "bespoke": c.bespoke, "target": c.target}
            for cid, c in rs.cards.items()}


def board_layout(ruleset: str = "reference") -> JsonDict:
    """How a ruleset's board is drawn, from its data files (map.toml's `[board]` and each zone's
    `pos`, nations.toml's `color`): {"size": [width, height] or None, "zones": {zone id: [x, y]}
    for the zones that have a position, "nations": {nation id: {"name", "color"}} in the
    ruleset's nation order (color None when the file gives none)}. Drawing only: no rule reads
    it, and no view or record carries it."""
    rs = load_ruleset(ruleset)
    return {"size": list(rs.board_size) if rs.board_size else None,
            "zones": {z: list(p) for z, p in zip(rs.zone_ids, rs.zone_pos) if p is not None},
            "nations": {n: {"name": rs.nations[n].get("name", n), "color": rs.nations[n].get("color")}
                        for n in rs.nation_order}}


def crown_colonies(ruleset: str = "reference", params: JsonDict | None = None,
                   version: str | None = None) -> dict[int, JsonDict]:
    """PRJ-75: for each player count 2..5, the Crown colonies the Spanish player owns at the
    start ("kept", colony ids in map order) and the map's other Crown colonies, which start as
    empty colony spaces ("vacated"), in this ruleset at `version` with a variant's `params`, and
    "names": each of those colonies' name in the ruleset. (When nobody plays the Spanish the
    Crown owns them all, CYC-4.)"""
    rs = load_ruleset(ruleset, params, version=version)
    names = {rs.col_ids[c]: rs.col_names[c] for c, crown in enumerate(rs.col_crown) if crown}
    out: dict[int, JsonDict] = {}
    for n in range(2, 6):
        kept = rs.crown_of_game(n, True)
        out[n] = {"kept": [rs.col_ids[c] for c, k in enumerate(kept) if k],
                  "vacated": [rs.col_ids[c] for c, k in enumerate(kept) if rs.col_crown[c] and not k],
                  "names": dict(names)}
    return out


def parameters(ruleset: str = "reference", params: JsonDict | None = None,
               version: str | None = None, extended: bool = False) -> dict[str, JsonDict]:
    """The numbers a variant may override (PRJ-31): name -> {"value", "type", "range"} in this
    ruleset (at `version`, PRJ-50); "range" is [least, most] for a whole number, None for a name.
    With `extended`, also each Market card's cost, `card_cost.<card id>` (PRJ-67), and the King's
    share by player count, `kings_crown_share.<N>` (PRJ-68), the SMUGGLER's bribe by player
    count, `smuggler_bribe.<N>` (PRJ-78), each in its number's range, and how many Crown
    colonies the Spanish own by player count, `crown_colonies.<N>` (PRJ-75; 0 to the map's
    Crown colonies), after them."""
    rs = load_ruleset(ruleset, params, version=version)
    ranges = rs.params["ranges"]
    out = {k: {"value": rs.params[k], "type": t, "range": list(ranges[k]) if k in ranges else None}
           for k, t in parameter_names().items()}
    if extended:
        out.update({k: {"value": v, "type": "int", "range": list(CARD_COST_RANGE)}
                    for k, v in card_cost_params(rs).items()})
        for name, by_count in treasure_by_count_params(rs).items():
            out.update({k: {"value": v, "type": "int", "range": list(ranges[name])} for k, v in by_count.items()})
        out.update({k: {"value": v, "type": "int", "range": [0, sum(rs.col_crown)]}
                    for k, v in crown_colony_params(rs).items()})
    return out


def house_rules(ruleset: object = "reference", params: JsonDict | None = None,
                version: str | None = None) -> list[HouseRule]:
    """PRJ-81: the [SEED] sentences a ruleset changes, as house rules, each a HouseRule (param,
    rule: the seed rule's ID, sentence: the seed's words, change: what this ruleset does
    instead); [] for a ruleset that plays the seeds as written (the reference, always).
    `ruleset`: a ruleset name or folder (with a variant's `params` and at `version`, PRJ-50), a
    config (a Config or its dict: its ruleset and params, `params` on top), a view (its
    ruleset, version and variant) or a Ruleset."""
    if isinstance(ruleset, Config):
        ruleset = ruleset.to_dict()
    if isinstance(ruleset, Ruleset):
        rs = ruleset
    elif isinstance(ruleset, Mapping) and ("ruleset_params" in ruleset or "ruleset_version" in ruleset):
        rs = view_ruleset(dict(ruleset))
    elif isinstance(ruleset, Mapping):
        given = {**(ruleset.get("params") or {}), **(params or {})}
        rs = load_ruleset(str(ruleset.get("ruleset", "reference")), given or None, version=version)
    elif isinstance(ruleset, str):
        rs = load_ruleset(ruleset, params, version=version)
    else:
        raise ValueError(f"house_rules takes a ruleset name, a config, a view or a Ruleset, not {type(ruleset).__name__}")
    return _house_rules(rs)


def house_rule_sets(ruleset: str = "reference") -> dict[str, JsonDict]:
    """PRJ-83: the named sets of house rules of a ruleset (its house_rules.toml), name ->
    {"params": the parameters it sets, "about": what it is, "since": the decision that made it};
    a variant chooses one with `house_rules = NAME` (`--set house_rules=NAME`)."""
    return {name: {"params": dict(s.params), "about": s.about, "since": s.since}
            for name, s in _house_rule_sets(ruleset).items()}


def house_rule_conditions() -> dict[str, JsonDict]:
    """PRJ-81: every parameter of `paxh rules --params` that can change a [SEED] sentence ->
    {"rule": the seed rule's ID, "sentence": the seed's words, "when": the values that do}; a
    parameter not listed is [REF] at every value (docs/rules.md, PRJ-81, says why)."""
    return {p: {"rule": rule, "sentence": _SENTENCES[key], "when": when}
            for p, (rule, key, when) in _HOUSE_RULE_CONDITIONS.items()}


def is_over(state: State) -> bool:
    return state.over


def result(state: State) -> Result | None:
    return state.result


def copy(state: State) -> State:
    """The contract's copy (docs/api.md, "The core contract"): an equal State, the same position
    with the same undo history, sharing no list or dict with `state` (only its ruleset, and its
    undo history, a tuple of earlier states that nothing changes). `apply` never changes a state,
    so a caller of the API needs no copy to search or to keep a history: this is for a caller that
    changes a state's fields itself."""
    new = State.from_dict(state.to_dict(), state.rs)
    new.undo_stack, new.undo_seat = state.undo_stack, state.undo_seat
    return new


def snapshot(state: State) -> bytes:
    return json.dumps(state.to_dict(), separators=(",", ":")).encode()


def restore(data: object, ruleset_version: object = None) -> State:
    """A snapshot's state again; ValueError for data that is not a snapshot's bytes (or str)
    of a JSON object naming its ruleset (a malformed one: json's ValueError). A snapshot names
    its ruleset as its config does (a folder, or a version: PRJ-50), not the version;
    `ruleset_version` pins it (the game's record's), so a snapshot of an earlier version's
    game restores under that version's numbers."""
    if not isinstance(data, (bytes, bytearray, str)):
        raise ValueError(f"a snapshot is bytes, not {type(data).__name__}")
    d = json.loads(data)
    if not isinstance(d, dict) or not isinstance(d.get("ruleset"), str) or not isinstance(d.get("config"), dict):
        raise ValueError("not a snapshot: a JSON object with its ruleset and config")
    return State.from_dict(d, load_ruleset(d["ruleset"], d["config"].get("params") or None,
                                           version=_version_arg(ruleset_version)))


class Game:
    """A record plus the state and full event log it replays to."""

    def __init__(self, record: JsonDict, state: State, events: list[Event]) -> None:
        self.record = record
        self.state = state
        self.events = events

    @classmethod
    def new(cls, config: object, seed: object, ruleset_version: object = None) -> Game:
        """(ConfigLike, seed): IllegalAction("bad_config", ...) for a config or seed setup refuses.
        `ruleset_version` pins an earlier version of its ruleset (PRJ-50: a record's or a
        stored game's), else the config's ruleset gives it (a new game: the current version).
        ValueError when that ruleset has no such version (PRJ-37)."""
        cfg = _config(config)
        st, events = new_state(cfg, seed, rulesets=_pinned(cfg, _version_arg(ruleset_version)))
        rec: JsonDict = {"format": RECORD_FORMAT, "ruleset_version": st.rs.version, "config": cfg,
                         "seed": st.seed, "actions": []}
        named = _house_rules(st.rs)
        if named:        # PRJ-81: the record names the seed sentences its game changes (replay ignores it)
            rec["house_rules"] = [h._asdict() for h in named]
        return cls(rec, st, events)

    @classmethod
    def from_scenario(cls, scenario: object, ruleset_version: object = None) -> Game:
        """IllegalAction("bad_scenario", "PRJ-7", ...) for what is not a scenario (docs/scenarios.md)."""
        sc_config = scenario.get("config") if isinstance(scenario, dict) else None
        st, events = _build_scenario(scenario, _pinned(sc_config if isinstance(sc_config, dict) else {},
                                                       _version_arg(ruleset_version)))
        assert isinstance(scenario, dict)              # build refuses anything else (bad_scenario)
        rec = {"format": RECORD_FORMAT, "ruleset_version": st.rs.version, "scenario":
               {k: v for k, v in scenario.items() if k != "actions"}, "config": scenario["config"],
               "seed": scenario.get("seed", 0), "actions": []}
        g = cls(rec, st, events)
        for a in scenario.get("actions", []):
            g.act(a)
        return g

    def act(self, action: object) -> list[Event]:
        self.state, events = core.apply(self.state, action)
        self.record["actions"].append(action)
        self.events.extend(events)
        return events


def from_scenario(scenario: object) -> Game:
    return Game.from_scenario(scenario)


def replay(record: object, upto: object = None) -> Game:
    """Rebuild a game from its record, applying the first `upto` actions (all by default).
    ValueError for a record that is not a JSON object with a list of actions, of another
    format or ruleset version, or an `upto` that is not None or a whole number; setup's and
    the actions' own refusals are IllegalAction."""
    if not isinstance(record, dict):
        raise ValueError(f"a record is a JSON object, not {type(record).__name__}")
    if upto is not None and type(upto) is not int:
        raise ValueError(f"upto is a number of actions or None, not {type(upto).__name__}")
    fmt = record.get("format", RECORD_FORMAT)
    if fmt in OLD_FORMATS:
        raise ValueError(f"record format {fmt}: {OLD_FORMATS[fmt]}")
    if fmt != RECORD_FORMAT:
        raise ValueError(f"unknown record format {str(fmt)[:40]!r}")
    if not isinstance(record.get("actions"), list):
        raise ValueError("a record's actions are a list")
    actions = record["actions"] if upto is None else record["actions"][:upto]
    made = record.get("ruleset_version")     # PRJ-50: the game replays under its own version
    made = None if made is None else str(made)
    if "scenario" in record:
        g = Game.from_scenario(record["scenario"], ruleset_version=made)
    else:
        g = Game.new(record.get("config"), record.get("seed"), ruleset_version=made)
    if g.state.rs.version != record.get("ruleset_version", g.state.rs.version):
        raise RulesetRefused(ruleset_refusal(record["ruleset_version"], g.state.rs.version))
    for a in actions:
        g.act(a)
    return g


def ruleset_refusal(made: Any, engine: str) -> str:
    """PRJ-37: why a record of ruleset version `made` is not replayed by this engine's `engine`
    (its ruleset's current version), with the versions it does replay (PRJ-50)."""
    made = str(made)[:40]
    why = OLD_RULESETS.get(made, "a version this engine does not have")
    return (f"record made with ruleset {made}, this engine has {engine} (PRJ-37): {made} is {why}; "
            f"the versions it replays: {version_list()} (PRJ-50)")


def verify_record(record: object) -> list[str]:
    """PRJ-1, after the game: replay the record and check its public log against its seed
    (seed_hash, every salt and commitment); [] when everything checks. Refuses as replay does."""
    g = replay(record)
    return verify_log(redact(g.events, None), g.state.seed)


def save_record(record: JsonDict, path: str | PathLike[str]) -> None:
    Path(path).write_text(json.dumps(record, indent=1, ensure_ascii=False))


def load_record(path: str | PathLike[str]) -> JsonDict:
    record: JsonDict = json.loads(Path(path).read_text())
    return record
