"""Build and validate a ruleset: parameters, map, nations and cards, from its files' tables.

The engine reads no files: `pax_hispanica.rulesets` reads a ruleset folder's TOML files and
hands their parsed tables to `build_ruleset` here (file name -> table), and applies a
variant's parameters with `variant`; it also caches the result by folder and parameters.
Engine functions that need a ruleset by name are given a `Rulesets` resolver (the api
passes `pax_hispanica.rulesets.load_ruleset`).

Validation is strict: an unknown key, effect, zone, goods type or card is a
`RulesetError` that names the file and the entry, so a person editing the data
sees at once what is wrong. Each file's shape is declared in `ruleset_schema`
(pydantic models, published as JSON Schemas in data/schema/); the checks here are
those that join entries or files: zones a sea names, a nation's home colony, ranges.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

from pydantic import ValidationError

from .errors import short
from .ruleset_schema import (
    BESPOKE,
    EFFECTS,
    FILES,
    LEGALITIES,
    PARAMS,
    SITE_KINDS,
    STR_CHOICES,
    name_entry,
    word,
)
from .schema import first_problem
from .vocab import Deck

__all__ = [
    "BESPOKE",
    "CARD_COST",
    "CARD_COST_RANGE",
    "CROWN_COLONIES",
    "EFFECTS",
    "FILE_NAMES",
    "HOUSE_RULES",
    "KINGS_SHARE",
    "LEGALITIES",
    "PARAMS",
    "PLAYER_COUNTS",
    "SITE_KINDS",
    "SMUGGLER_BRIBE",
    "STR_CHOICES",
    "TREASURE_BY_COUNT",
    "Card",
    "HouseRulesError",
    "Ruleset",
    "RulesetError",
    "Rulesets",
    "build_ruleset",
    "card_cost_params",
    "check_params",
    "crown_colony_params",
    "parameter_names",
    "parameter_types",
    "treasure_by_count_params",
    "variant",
]

Raw = dict[str, Any]          # a TOML table, its shape already checked by ruleset_schema
Files = Mapping[str, Raw]     # a ruleset folder's files, parsed: file name -> its top-level table
# The files of a ruleset folder, in the order they are checked (ruleset_schema.FILES declares each one's shape).
FILE_NAMES = ("ruleset.toml", "map.toml", "nations.toml", "market.toml", "haven.toml", "battle.toml")
# PRJ-67: a Market card's cost as a parameter, `card_cost.<card id>` (the id of its market.toml
# entry, every copy alike), within CARD_COST_RANGE, like the numbers of ruleset.toml.
CARD_COST = "card_cost."
CARD_COST_RANGE = (0, 6)
MAX_CARD_COSTS = 64            # at most this many card costs in one table of overrides
# PRJ-68: the King's share by player count, `kings_crown_share.<N>` (N players, 2..5): the
# variant rule "the Crown by player count", off unless given (kings_crown_share at every count).
KINGS_SHARE = "kings_crown_share."
PLAYER_COUNTS = (2, 3, 4, 5)
# PRJ-75: how many of the map's Crown colonies the Spanish own with N players,
# `crown_colonies.<N>` (0 .. the map's Crown colonies; in ruleset.toml `[setup.by_players.N]
# crown_colonies`): the variant rule "the Crown colonies by player count", off unless given
# (all of them at every count). The Spanish keep the first K in map order; the others are
# empty colony spaces for that game. Nothing changes when nobody plays the Spanish.
CROWN_COLONIES = "crown_colonies."
# PRJ-78: the SMUGGLER's bribe by player count, `smuggler_bribe.<N>` (in ruleset.toml
# `[treasure.by_players.N] smuggler_bribe`): off unless given (smuggler_bribe at every count).
SMUGGLER_BRIBE = "smuggler_bribe."
PER_COUNT = {KINGS_SHARE: "PRJ-68", CROWN_COLONIES: "PRJ-75", SMUGGLER_BRIBE: "PRJ-78"}   # a number by count -> its rule
# The [treasure] numbers a ruleset may set by player count ([treasure.by_players.N], or a
# `<name>.<N>` parameter): name -> (the Ruleset's tuple of it by player count, its rule).
TREASURE_BY_COUNT = {"kings_crown_share": ("kings_share", "PRJ-68"), "smuggler_bribe": ("smuggler_bribes", "PRJ-78")}


# PRJ-83: a variant may name a set of house rules of its ruleset folder (house_rules.toml, read
# by pax_hispanica/rulesets.py): `house_rules = "<set>"`, expanded by the loader into the set's
# parameters, the variant's own parameters on top. Kept in the variant, so views and records name it.
HOUSE_RULES = "house_rules"


class RulesetError(ValueError):
    """Bad ruleset data: the message names the file and the entry."""


class HouseRulesError(RulesetError):
    """PRJ-83: a variant names no set of house rules of its ruleset (the message lists them)."""
    rule = "PRJ-83"


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    deck: Deck
    cost: int
    effects: tuple[Raw, ...]  # tuple of dicts {"kind": ..., params}
    requires: Raw
    bespoke: str | None
    target: str | None        # what the card's targeted effect needs, if any


@dataclass
class Ruleset:
    name: str
    version: str
    params: Raw
    zone_ids: list[str]       # land zones, then sea zones, then Europe
    zone_names: list[str]
    n_land: int
    europe: int
    adjacent: list[tuple[int, ...]]   # zone index -> tuple of zone indices
    # colony spaces
    col_ids: list[str]
    col_names: list[str]
    col_zone: list[int]
    col_goods: list[str]
    col_crown: list[bool]
    col_fort: list[bool]
    # other sites, as printed on the map (cards may add more in play)
    site_ids: list[str]
    site_names: list[str]
    site_zone: list[int]
    site_kind: list[str]
    site_wild: list[bool]
    site_count: list[int]     # Indigenous at setup
    site_cap: list[int]       # Cathedral capacity
    nations: dict[str, Raw]
    nation_order: list[str]
    cards: dict[str, Card]
    market: list[str]
    haven: list[str]
    goods_types: list[str]
    zone_index: dict[str, int] = field(default_factory=dict)
    col_index: dict[str, int] = field(default_factory=dict)
    battle_cards: list[Raw] = field(default_factory=list)   # battle.toml's cards (BAT-3)
    overrides: Raw = field(default_factory=dict)            # a variant's parameters (PRJ-31)
    # drawing only (no rule reads them): map.toml's [board] size and each zone's `pos`
    board_size: tuple[int, int] | None = None
    zone_pos: list[tuple[int, int] | None] = field(default_factory=list)   # zone index -> (x, y)
    # derived from col_zone once (build_ruleset): zone index -> its colony spaces, in
    # colony order, so a voyage's options look at its zone's colonies, not at every colony
    zone_cols: list[tuple[int, ...]] = field(default_factory=list)
    # PRJ-67: each market.toml entry's id -> the ids of its copies (a `card_cost.<id>` parameter
    # sets them all)
    market_entries: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # PRJ-68: player count -> the King's share (kings_crown_share, or its `kings_crown_share.<N>`
    # override), read where the Crown claims its Chests; index 0 and 1 unused
    kings_share: tuple[int, ...] = ()
    # PRJ-78: player count -> the SMUGGLER's bribe per Chest (smuggler_bribe, or its
    # `smuggler_bribe.<N>` override), read where TRS-3 prices a Chest; index 0 and 1 unused
    smuggler_bribes: tuple[int, ...] = ()
    # PRJ-75: player count -> how many of the map's Crown colonies the Spanish own (all of
    # them, or its `crown_colonies.<N>`), and player count -> which colony spaces are Crown
    # colonies in a game the Spanish play (col_crown with the ones after the first K cleared);
    # index 0 and 1 unused. A game nobody plays the Spanish in reads col_crown itself.
    crown_kept: tuple[int, ...] = ()
    spanish_crown: tuple[tuple[bool, ...], ...] = ()

    if TYPE_CHECKING:     # the parameters (ruleset_schema.PARAMS), plain attributes set by build_ruleset;
        # tests/engine/test_types.py checks these names and types against PARAMS
        cycles: ClassVar[int]
        prestige_to_win: ClassVar[int]
        money_per_prestige: ClassVar[int]
        prestige_per_colony: ClassVar[int]
        crown_colony_prestige: ClassVar[int]
        prestige_goal: ClassVar[str]
        goal_from_cycle: ClassVar[int]
        start_money: ClassVar[int]
        start_ships: ClassVar[int]
        plunder_start_galleons: ClassVar[int]
        start_zone: ClassVar[str]
        setup_rebels: ClassVar[int]
        supply_citizens: ClassVar[int]
        supply_indigenous: ClassVar[int]
        supply_chests: ClassVar[int]
        goods_per_year: ClassVar[int]
        chest_cap: ClassVar[int]
        die_sides: ClassVar[int]
        slave_death: ClassVar[int]
        slave_revolt: ClassVar[int]
        colony_income: ClassVar[int]
        crown_colony_income: ClassVar[int]
        employ_cost: ClassVar[int]
        employ_range: ClassVar[str]
        plunder_loading: ClassVar[str]
        auctions_per_player: ClassVar[int]
        hand_limit: ClassVar[int]
        sell_price: ClassVar[int]
        fleet_moves: ClassVar[int]
        max_ships: ClassVar[int]
        ship_capacity: ClassVar[int]
        smuggler_bribe: ClassVar[int]
        conquistador_spanish_fee: ClassVar[int]
        privateer_crown_share: ClassVar[int]
        kings_crown_share: ClassVar[int]
        conquistador_prestige: ClassVar[int]
        privateer_prestige: ClassVar[int]
        privateer_money: ClassVar[int]
        smuggler_money: ClassVar[int]
        plunder_money: ClassVar[int]
        plunder_chests_per_prestige: ClassVar[int]

    # No __getattr__ (docs/benchmarks.md, "Fast paths"): build_ruleset and variant store every parameter as a plain
    # attribute (rs.chest_cap), and a class with a __getattr__ hook makes *every* attribute read
    # of a ruleset (rs.zone_ids, rs.col_ids, ...) take CPython's slow, unspecialised path:
    # about 500 instructions a read instead of a few dozen.

    def setup_value(self, key: str, players: int) -> Any:
        return self.params["by_players"].get(players, {}).get(key, self.params[key])

    def crown_of_game(self, players: int, spanish: bool) -> tuple[bool, ...]:
        """PRJ-75: colony index -> a Crown colony in a game of `players` players, with or
        without a player playing the Spanish (CYC-4: without, the Crown owns them all)."""
        return self.spanish_crown[players] if spanish else tuple(self.col_crown)

    def is_land(self, z: int) -> bool:
        return z < self.n_land


Rulesets: TypeAlias = Callable[[str, Raw | None], Ruleset]
"""A resolver: (ruleset name or folder path, variant parameters or None) -> the Ruleset. The
engine never loads one itself; the api passes `pax_hispanica.rulesets.load_ruleset`."""


def _load(files: Files, fname: str, name: str) -> Raw:
    """A ruleset file's table, checked against its declared shape (ruleset_schema.FILES)."""
    raw = files.get(fname)
    if raw is None:
        raise RulesetError(f"{fname}: file missing from ruleset {name}")
    try:
        FILES[fname].model_validate(raw)
    except ValidationError as e:
        namer = partial(name_entry, fname)
        raise RulesetError(first_problem(fname, raw, e, namer, word)) from None
    return raw


def _in_range(where: str, key: str, value: int, ranges: dict[str, tuple[int, int]]) -> None:
    lo, hi = ranges[key]
    if not lo <= value <= hi:
        raise RulesetError(f"{where} {key} must be at least {lo} and at most {hi} ([ranges] {key} = [{lo}, {hi}]),"
                           f" not {short(value)}")


def _ranges(fname: str, raw: Raw) -> dict[str, tuple[int, int]]:
    """PRJ-31: [ranges] gives every whole-number parameter its [least, most] (shape checked)."""
    out = {}
    for key in (k for k, t in parameter_types().items() if t is int):
        lo, hi = raw[key]
        if lo > hi:
            raise RulesetError(f"{fname}: [ranges] {key} must be [least, most], whole numbers 0..10**6")
        out[key] = (lo, hi)
    return out


def _by_players(fname: str, overrides: Raw, ranges: dict[str, tuple[int, int]]) -> dict[int, Raw]:
    """[setup.by_players.N]: per player count overrides of [setup], each number in its range
    (PRJ-75's crown_colonies is not one of them: `_params` takes it out, and a table that held
    only it is no table of overrides, so that `by_players` stays what it was before it, PRJ-50)."""
    out = {}
    for n, over in overrides.items():
        for key, v in over.items():
            if key != "crown_colonies" and PARAMS["setup"][key] is int:
                _in_range(f"{fname}: [setup.by_players.{n}]", key, v, ranges)
        rest = {k: v for k, v in over.items() if k != "crown_colonies"}
        if rest or "crown_colonies" not in over:
            out[int(n)] = rest
    return out


def _params(raw: Raw) -> Raw:
    """The parameters of ruleset.toml, flattened (supply keys get `supply_`), shape already checked."""
    fname = "ruleset.toml"
    ranges = _ranges(fname, raw["ranges"])
    params: Raw = {}
    for section, schema in PARAMS.items():
        for key, typ in schema.items():
            name = f"supply_{key}" if section == "supply" else key
            if typ is int:
                _in_range(f"{fname}: [{section}]", name, raw[section][key], ranges)
            params[name] = raw[section][key]
    params["by_players"] = _by_players(fname, raw["setup"].get("by_players", {}), ranges)
    params["ranges"] = ranges
    for n, over in raw["treasure"].get("by_players", {}).items():     # PRJ-68, PRJ-78: as <name>.<N>
        if int(n) not in PLAYER_COUNTS:
            raise RulesetError(f"{fname}: [treasure.by_players.{n}]: a player count is 2 to 5")
        for key, value in over.items():
            if value is None:
                continue
            _in_range(f"{fname}: [treasure.by_players.{n}]", key, value, ranges)
            params[f"{key}.{int(n)}"] = value
    for n, over in raw["setup"].get("by_players", {}).items():         # PRJ-75, as crown_colonies.<N>
        if "crown_colonies" not in over:
            continue
        if int(n) not in PLAYER_COUNTS:
            raise RulesetError(f"{fname}: [setup.by_players.{n}] crown_colonies: a player count is 2 to 5 (PRJ-75)")
        params[f"{CROWN_COLONIES}{int(n)}"] = over["crown_colonies"]   # its range needs the map: build_ruleset
    return params


def _target(fname: str, cid: str, effects: list[Raw]) -> str | None:
    """What the card's targeted effect needs; at most one effect of a card names a target."""
    targets = [EFFECTS[e["kind"]][1] for e in effects if EFFECTS[e["kind"]][1]]
    if len(targets) > 1:
        raise RulesetError(f"{fname}: card {cid}: more than one effect names a target")
    return targets[0] if targets else None


def _check_card(fname: str, entry: Raw, deck: Deck, nations: dict[str, Raw]) -> None:
    cid = entry["id"]
    effects = entry.get("effects", [])
    if (deck == "haven") != any(e["kind"] == "haven" for e in effects):
        raise RulesetError(f"{fname}: card {cid}: Haven cards, and only they, have the haven effect")
    if not effects and not entry.get("bespoke"):
        raise RulesetError(f"{fname}: card {cid}: no effects")
    nation = entry.get("requires", {}).get("nation")
    if nation is not None and nation not in nations:
        raise RulesetError(f"{fname}: card {cid}: requires.nation: unknown nation {nation!r}")


def _cards(fname: str, raw: Raw, deck: Deck, nations: dict[str, Raw]) -> dict[str, Card]:
    out = {}
    for entry in raw["card"]:
        cid = entry["id"]
        effects = [dict(eff) for eff in entry.get("effects", [])]
        target = _target(fname, cid, effects)
        _check_card(fname, entry, deck, nations)
        copies = entry.get("copies", 1)
        ids = [cid] if copies == 1 else [f"{cid}-{i}" for i in range(1, copies + 1)]
        for one in ids:
            if one in out:
                raise RulesetError(f"{fname}: card {one}: duplicate id")
            out[one] = Card(one, entry["name"], deck, entry["cost"], tuple(effects), dict(entry.get("requires", {})),
                            entry.get("bespoke"), target)
    return out


def _entries(raw: Raw) -> dict[str, tuple[str, ...]]:
    """A deck file's entries: entry id -> the ids of its copies (as `_cards` names them)."""
    out = {}
    for entry in raw["card"]:
        copies = entry.get("copies", 1)
        out[entry["id"]] = (entry["id"],) if copies == 1 else tuple(f"{entry['id']}-{i}" for i in range(1, copies + 1))
    return out


def parameter_types() -> dict[str, type]:
    """Every parameter a variant may override -> its type (the schema, flattened as in Ruleset.params)."""
    return {f"supply_{key}" if section == "supply" else key: typ
            for section, schema in PARAMS.items() for key, typ in schema.items()}


def parameter_names() -> dict[str, str]:
    """Every parameter a variant may override -> its type name."""
    return {k: t.__name__ for k, t in parameter_types().items()}


def check_params(params: Raw) -> Raw:
    """The overrides, validated: known names, the schema's types (PRJ-31)."""
    known = parameter_types()
    if not isinstance(params, dict) or len(params) > len(known) + MAX_CARD_COSTS:
        raise RulesetError("parameter overrides must be a table of name = value, each name once")
    for key, value in params.items():
        if isinstance(key, str) and key.startswith(CARD_COST):
            _check_card_cost(key, value)
            continue
        if isinstance(key, str) and key.startswith(tuple(PER_COUNT)):
            _check_per_count(key, value)
            continue
        if key == HOUSE_RULES:         # PRJ-83: the set's name, looked up by the loader
            if not isinstance(value, str) or not 0 < len(value) <= 100:
                raise HouseRulesError(f"parameter {HOUSE_RULES} names a set of house rules, not {short(value)} (PRJ-83)")
            continue
        if key not in known:
            raise RulesetError(f"unknown parameter {short(key)}; `paxh rules --params` lists them")
        typ = known[key]
        if type(value) is not typ:
            raise RulesetError(f"parameter {key} must be {typ.__name__}, not {short(value)}")
        if isinstance(value, str) and len(value) > 100:
            raise RulesetError(f"parameter {key}: {short(value)} is not a name")
    if params.get("employ_range", "same_zone") not in STR_CHOICES["employ_range"]:
        raise RulesetError("parameter employ_range must be 'same_zone' or 'anywhere'")
    if params.get("plunder_loading", "sack") not in STR_CHOICES["plunder_loading"]:
        raise RulesetError("parameter plunder_loading must be 'sack' or 'sack_or_own' (PRJ-38)")
    if params.get("prestige_goal", "held") not in STR_CHOICES["prestige_goal"]:
        raise RulesetError("parameter prestige_goal must be 'held' or 'standing' (PRJ-56)")
    return dict(params)


def _check_card_cost(key: str, value: Any) -> None:
    """PRJ-67: `card_cost.<card id>` = a whole number in CARD_COST_RANGE (the card's id is
    checked against the ruleset's Market by `variant`)."""
    cid = key[len(CARD_COST):]
    if not (0 < len(cid) <= 64 and all(ch.isalnum() or ch == "_" for ch in cid)):
        raise RulesetError(f"parameter {short(key)}: card_cost.<id> takes the id of a market.toml card")
    lo, hi = CARD_COST_RANGE
    if type(value) is not int:
        raise RulesetError(f"parameter {key} must be int, not {short(value)}")
    if not lo <= value <= hi:
        raise RulesetError(f"parameter {key} must be at least {lo} and at most {hi} (a card's cost, PRJ-67), "
                           f"not {short(value)}")


def _check_per_count(key: str, value: Any) -> None:
    """PRJ-68 `kings_crown_share.<N>`, PRJ-75 `crown_colonies.<N>`, PRJ-78 `smuggler_bribe.<N>`:
    N in 2..5 = a whole number (its range, that number's or 0 to the map's Crown colonies, is
    checked by `variant`)."""
    prefix = next(p for p in PER_COUNT if key.startswith(p))
    rule = PER_COUNT[prefix]
    if key[len(prefix):] not in {str(n) for n in PLAYER_COUNTS}:
        raise RulesetError(f"parameter {short(key)}: {prefix}<N> takes a player count N, 2 to 5 ({rule})")
    if type(value) is not int:
        raise RulesetError(f"parameter {key} must be int, not {short(value)} ({rule})")


def crown_colony_params(rs: Ruleset) -> dict[str, int]:
    """PRJ-75: `crown_colonies.<N>` -> how many Crown colonies the Spanish own in `rs` with N players."""
    return {f"{CROWN_COLONIES}{n}": rs.crown_kept[n] for n in PLAYER_COUNTS}


def _check_crown_counts(counts: dict[int, Any], col_crown: list[bool], in_file: bool = False) -> None:
    """PRJ-75: each `crown_colonies.<N>` from 0 to the number of the map's Crown colonies
    (named as ruleset.toml's [setup.by_players.N] crown_colonies with `in_file`)."""
    most = sum(col_crown)
    for n, value in counts.items():
        if not 0 <= value <= most:
            where = (f"ruleset.toml: [setup.by_players.{n}] crown_colonies" if in_file
                     else f"parameter {CROWN_COLONIES}{n}")
            raise RulesetError(f"{where} must be at least 0 and at most {most} (the map's {most} Crown colonies, "
                               f"PRJ-75), not {short(value)}")


def _crown_counts(rs: Ruleset, counts: dict[int, int]) -> None:
    """PRJ-75: set rs.crown_kept and rs.spanish_crown: with N players the Spanish own the first
    `counts[N]` Crown colonies in map order (all of them for a count not given)."""
    most = sum(rs.col_crown)
    kept = tuple(counts.get(n, most) for n in range(max(PLAYER_COUNTS) + 1))
    masks = []
    for k in kept:
        seen, mask = 0, []
        for crown in rs.col_crown:
            seen += crown
            mask.append(crown and seen <= k)
        masks.append(tuple(mask))
    rs.crown_kept, rs.spanish_crown = kept, tuple(masks)


def treasure_by_count_params(rs: Ruleset) -> dict[str, dict[str, int]]:
    """PRJ-68, PRJ-78: each [treasure] number a ruleset may set by player count -> its
    `<name>.<N>` -> its value in `rs` with N players."""
    return {name: {f"{name}.{n}": getattr(rs, attr)[n] for n in PLAYER_COUNTS}
            for name, (attr, _) in TREASURE_BY_COUNT.items()}


def card_cost_params(rs: Ruleset) -> dict[str, int]:
    """PRJ-67: `card_cost.<id>` -> the cost in `rs` of each Market card entry (its first copy's)."""
    return {f"{CARD_COST}{eid}": rs.cards[ids[0]].cost for eid, ids in rs.market_entries.items()}


def _with_card_costs(rs: Ruleset, costs: Raw) -> None:
    """Replace the cost of every copy of each named Market card (PRJ-67), in a new cards table."""
    cards = dict(rs.cards)
    for key, cost in costs.items():
        eid = key[len(CARD_COST):]
        if eid not in rs.market_entries:
            raise RulesetError(f"parameter {key}: {short(eid)} is not a card of market.toml "
                               f"(its entries: {', '.join(rs.market_entries)})")
        for cid in rs.market_entries[eid]:
            cards[cid] = dataclasses.replace(cards[cid], cost=cost)
    rs.cards = cards


def _check_treasure_counts(base: Ruleset, per_count: Raw) -> None:
    """PRJ-68, PRJ-78: each `<name>.<N>` of a [treasure] number within that number's range."""
    for key, value in per_count.items():
        name = key.rsplit(".", 1)[0]
        if name not in TREASURE_BY_COUNT:
            continue
        lo, hi = base.params["ranges"][name]
        if not lo <= value <= hi:
            raise RulesetError(f"parameter {key} must be at least {lo} and at most {hi} (the range of "
                               f"{name}, [{lo}, {hi}]), not {short(value)}")


def _check_numbers(base: Ruleset, changed: Raw) -> None:
    """PRJ-31: every number within the ruleset's range; a start zone of the map."""
    for key, value in changed.items():
        if key in base.params["ranges"]:
            lo, hi = base.params["ranges"][key]
            if not lo <= value <= hi:
                raise RulesetError(f"parameter {key} must be at least {lo} and at most {hi} (its range "
                                   f"[{lo}, {hi}]), not {short(value)}")
    if "start_zone" in changed and changed["start_zone"] not in base.zone_index:
        raise RulesetError(f"parameter start_zone: unknown zone {short(changed['start_zone'])}")


def _by_count(base: Ruleset, changed: Raw, per_count: Raw, name: str) -> tuple[int, ...]:
    """PRJ-68, PRJ-78: a [treasure] number by player count: an override of `name` at every
    count, then each `<name>.<N>`."""
    counts = _per_count(per_count, f"{name}.")
    flat: int | None = changed.get(name)
    before: tuple[int, ...] = getattr(base, TREASURE_BY_COUNT[name][0])
    return tuple(int(counts.get(n, before[n] if flat is None else flat)) for n in range(len(before)))


def _with_treasure_by_count(rs: Ruleset, base: Ruleset, changed: Raw, per_count: Raw) -> None:
    """PRJ-68, PRJ-78: the variant's [treasure] numbers by player count, each tuple rebuilt when
    its number or one of its counts is overridden."""
    for name, (attr, _) in TREASURE_BY_COUNT.items():
        if name in changed or any(k.startswith(f"{name}.") for k in per_count):
            setattr(rs, attr, _by_count(base, changed, per_count, name))


def _per_count(per_count: Raw, prefix: str) -> dict[int, Any]:
    """PRJ-68, PRJ-75: the `<prefix><N>` overrides (names already checked) as N -> value."""
    return {int(k[len(prefix):]): v for k, v in per_count.items() if k.startswith(prefix)}


def variant(base: Ruleset, overrides: Raw) -> Ruleset:
    """A copy of a ruleset with some parameters replaced (PRJ-31; `overrides` already passed
    check_params); an override is the value for every player count (it also replaces that
    key in [setup.by_players]). Built anew each call: the loader caches it."""
    changed = {k: v for k, v in overrides.items() if not k.startswith((CARD_COST, *PER_COUNT))}
    costs = {k: v for k, v in overrides.items() if k.startswith(CARD_COST)}
    per_count = {k: v for k, v in overrides.items() if k.startswith(tuple(PER_COUNT))}
    crowns = _per_count(per_count, CROWN_COLONIES)
    _check_treasure_counts(base, per_count)
    _check_crown_counts(crowns, base.col_crown)
    _check_numbers(base, changed)
    rs = copy.copy(base)
    counted = tuple(f"{name}." for name in TREASURE_BY_COUNT if name in changed)   # it holds at every count
    params = {**{k: v for k, v in base.params.items() if not (counted and k.startswith(counted))},
              **changed, **costs, **per_count}
    params["by_players"] = {n: {k: v for k, v in over.items() if k not in changed}
                            for n, over in base.params["by_players"].items()}
    rs.params = params
    rs.overrides = {**changed, **costs, **per_count}
    rs.__dict__.update(changed)
    if costs:
        _with_card_costs(rs, costs)
    _with_treasure_by_count(rs, base, changed, per_count)
    if crowns:
        _crown_counts(rs, {**{n: base.crown_kept[n] for n in PLAYER_COUNTS}, **crowns})
    return rs


def _first_duplicate(ids: list[str]) -> str:
    return next(x for i, x in enumerate(ids) if x in ids[:i])


@dataclass
class _Map:
    """map.toml, as the parallel lists a Ruleset keeps."""
    zone_ids: list[str]
    zone_names: list[str]
    n_land: int
    zone_index: dict[str, int]
    adjacent: list[set[int]] = field(default_factory=list)
    pos: list[tuple[int, int] | None] = field(default_factory=list)
    board: tuple[int, int] | None = None
    cols: dict[str, list[Any]] = field(default_factory=lambda: {k: [] for k in ("ids", "names", "zone", "goods", "crown", "fort")})
    sites: dict[str, list[Any]] = field(default_factory=lambda: {k: [] for k in ("ids", "names", "zone", "kind", "wild", "count",
                                                                  "cap")})

    def link(self, a: str, b: str, where: str) -> None:
        if b not in self.zone_index:
            raise RulesetError(f"map.toml: {where}: unknown zone {b!r}")
        self.adjacent[self.zone_index[a]].add(self.zone_index[b])
        self.adjacent[self.zone_index[b]].add(self.zone_index[a])

    def is_sea(self, zid: str) -> bool:
        z = self.zone_index.get(zid)
        return z is not None and self.n_land <= z < len(self.zone_ids) - 1


def _zones(mp: Raw) -> _Map:
    lands, seas, europe = mp["land"], mp["sea"], mp["europe"]
    zone_ids = [z["id"] for z in lands] + [z["id"] for z in seas] + [europe["id"]]
    if len(set(zone_ids)) != len(zone_ids):
        raise RulesetError(f"map.toml: duplicate zone id {_first_duplicate(zone_ids)!r}")
    names = [z["name"] for z in lands] + [z["name"] for z in seas] + [europe["name"]]
    pos = [tuple(z["pos"]) if "pos" in z else None for z in [*lands, *seas, europe]]
    board = (mp["board"]["width"], mp["board"]["height"]) if "board" in mp else None
    return _Map(zone_ids, names, len(lands), {z: i for i, z in enumerate(zone_ids)}, [set() for _ in zone_ids],
                pos, board)


def _links(m: _Map, mp: Raw) -> None:
    for s in mp["europe"]["seas"]:
        m.link(mp["europe"]["id"], s, "europe")
    for sea in mp["sea"]:
        for s in sea["adjacent"]:
            if s in m.zone_index and m.zone_index[s] < m.n_land:
                raise RulesetError(f"map.toml: sea {sea['id']}: list land zones under the land zone")
            m.link(sea["id"], s, f"sea {sea['id']}")
    for land in mp["land"]:
        for s in land["seas"]:
            if not m.is_sea(s):
                raise RulesetError(f"map.toml: land {land['id']}: {s!r} is not a sea zone")
            m.link(land["id"], s, f"land {land['id']}")


def _sites(m: _Map, lands: list[Raw]) -> None:
    for z, land in enumerate(lands):
        for site in land.get("sites", []):
            sid = f"{land['id']}.{site['id']}"
            if site["kind"] == "colony":
                row = {"ids": sid, "names": site["name"], "zone": z, "goods": site["goods"],
                       "crown": site.get("crown", False), "fort": site.get("fort", False)}
                table = m.cols
            else:
                row = {"ids": sid, "names": site["name"], "zone": z, "kind": site["kind"],
                       "wild": site.get("wilderness", False), "count": site.get("indigenous", 0),
                       "cap": site.get("capacity", 0)}
                table = m.sites
            for k, v in row.items():
                table[k].append(v)
    ids = m.cols["ids"] + m.sites["ids"]
    if len(set(ids)) != len(ids):
        raise RulesetError(f"map.toml: duplicate site id {_first_duplicate(ids)!r}")


def _map(files: Files, name: str) -> _Map:
    mp = _load(files, "map.toml", name)
    m = _zones(mp)
    _links(m, mp)
    _sites(m, mp["land"])
    return m


def _nations(files: Files, name: str, col_ids: list[str]) -> tuple[dict[str, Raw], list[str]]:
    nat = dict(_load(files, "nations.toml", name))      # a copy: the caller's table stays as given
    order = nat.pop("order")
    if not order or set(order) != set(nat):
        raise RulesetError("nations.toml: `order` must list every nation once")
    for nid, n in nat.items():
        if "home" in n and n["home"] not in col_ids:
            raise RulesetError(f"nations.toml: [{nid}]: unknown home colony space {n['home']!r}")
    return nat, order


def _decks(files: Files, name: str, nations: dict[str, Raw]) -> tuple[dict[str, Card], dict[str, Card]]:
    cards = _cards("market.toml", _load(files, "market.toml", name), Deck.MARKET, nations)
    haven = _cards("haven.toml", _load(files, "haven.toml", name), Deck.HAVEN, nations)
    if set(cards) & set(haven):
        raise RulesetError(f"haven.toml: card {min(set(cards) & set(haven))}: its id is also in market.toml")
    return cards, haven


def _battle_cards(files: Files, name: str) -> list[Raw]:
    battle = _load(files, "battle.toml", name)
    if sorted(c["side"] for c in battle["card"]) != ["attacker", "target"]:
        raise RulesetError("battle.toml: needs exactly one card per side (attacker, target)")
    cards: list[Raw] = battle["card"]
    return cards


def build_ruleset(name: str, files: Files) -> Ruleset:
    """The ruleset of a folder named `name`, from its files' parsed tables (file name -> table,
    FILE_NAMES), every one checked; a RulesetError names the file, the entry and the key.
    Pure: it reads nothing but `files` (pax_hispanica.rulesets reads them from disk)."""
    raw = _load(files, "ruleset.toml", name)      # its parameters and its version
    params = _params(raw)
    m = _map(files, name)
    nat, order = _nations(files, name, m.cols["ids"])
    cards, haven = _decks(files, name, nat)
    battle = _battle_cards(files, name)
    if params["start_zone"] not in m.zone_index:
        raise RulesetError(f"ruleset.toml: [setup] start_zone: unknown zone {params['start_zone']!r}")
    cols, sites = m.cols, m.sites
    rs = Ruleset(
        name=name, version=raw["version"], params=params, zone_ids=m.zone_ids, zone_names=m.zone_names,
        n_land=m.n_land, europe=len(m.zone_ids) - 1, adjacent=[tuple(sorted(a)) for a in m.adjacent],
        col_ids=cols["ids"], col_names=cols["names"], col_zone=cols["zone"], col_goods=cols["goods"],
        col_crown=cols["crown"], col_fort=cols["fort"],
        site_ids=sites["ids"], site_names=sites["names"], site_zone=sites["zone"], site_kind=sites["kind"],
        site_wild=sites["wild"], site_count=sites["count"], site_cap=sites["cap"],
        nations=nat, nation_order=order, cards={**cards, **haven},
        market=list(cards), haven=list(haven), goods_types=sorted(set(cols["goods"])),
    )
    rs.zone_index = m.zone_index
    rs.col_index = {c: i for i, c in enumerate(cols["ids"])}
    rs.battle_cards = battle
    rs.overrides = {}
    rs.board_size, rs.zone_pos = m.board, m.pos
    rs.zone_cols = [tuple(c for c, cz in enumerate(rs.col_zone) if cz == z) for z in range(len(rs.zone_ids))]
    rs.market_entries = _entries(files["market.toml"])
    for name, (attr, _) in TREASURE_BY_COUNT.items():     # PRJ-68, PRJ-78
        flat: int = params[name]
        setattr(rs, attr, tuple(int(params.get(f"{name}.{n}", flat)) for n in range(max(PLAYER_COUNTS) + 1)))
    crowns = {n: params[f"{CROWN_COLONIES}{n}"] for n in PLAYER_COUNTS if f"{CROWN_COLONIES}{n}" in params}
    _check_crown_counts(crowns, rs.col_crown, in_file=True)
    _crown_counts(rs, crowns)
    for key, value in params.items():      # parameters as plain attributes: rs.chest_cap without __getattr__
        rs.__dict__.setdefault(key, value)
    return rs
