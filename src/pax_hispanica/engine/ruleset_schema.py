"""The declared shape of each ruleset file (data/<ruleset>/*.toml), as pydantic models.

The parameters and site kinds are declared here, once: the models, the loader (`ruleset`) and
the tests read them from this module; the game's words (legalities, years, ...) are
engine/vocab.py's, the card effect kinds engine/effects.py's.
Checks that need more than one entry (a zone a sea names, a nation a card requires, a range
from [ranges]) are the loader's; the models check the shape of each entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, cast, get_args

from pydantic import (
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
    create_model,
)

from .errors import short
from . import effects as _effects, vocab
from .schema import Loc, Shape, item

LEGALITIES = tuple(map(str, vocab.LEGALITIES))
Legality = Literal["PLUNDER", "SMUGGLER", "CONQUISTADOR", "PRIVATEER"]

# section -> key -> type: the parameter schema of ruleset.toml
PARAMS: dict[str, dict[str, type]] = {
    "game": {"cycles": int, "prestige_to_win": int, "money_per_prestige": int, "prestige_per_colony": int,
             "crown_colony_prestige": int, "prestige_goal": str, "goal_from_cycle": int},
    "setup": {"start_money": int, "start_ships": int, "plunder_start_galleons": int, "start_zone": str,
              "setup_rebels": int},
    "supply": {"citizens": int, "indigenous": int, "chests": int},
    "goods": {"goods_per_year": int, "chest_cap": int, "die_sides": int, "slave_death": int,
              "slave_revolt": int, "colony_income": int, "crown_colony_income": int},
    "labour": {"employ_cost": int, "employ_range": str},
    "auction": {"auctions_per_player": int},
    "hand": {"hand_limit": int, "sell_price": int},
    "sail": {"fleet_moves": int, "max_ships": int, "ship_capacity": int},
    "treasure": {"smuggler_bribe": int, "conquistador_spanish_fee": int, "privateer_crown_share": int,
                 "kings_crown_share": int,
                 "conquistador_prestige": int, "privateer_prestige": int, "privateer_money": int,
                 "smuggler_money": int, "plunder_money": int, "plunder_chests_per_prestige": int,
                 "plunder_loading": str},
}
# start_zone: a zone of the map; plunder_loading: TRS-2 as written, or PRJ-38's variant;
# prestige_goal: CYC-2 as written (Prestige held), or PRJ-56's variant (the score CYC-3 would give)
STR_CHOICES = {"employ_range": ("same_zone", "anywhere"), "plunder_loading": ("sack", "sack_or_own"),
               "prestige_goal": ("held", "standing")}

# effect kind -> (allowed parameters, what it targets or None): engine/effects.py's registry
EFFECTS: dict[str, tuple[frozenset[str], str | None]] = {k: (e.params, e.target) for k, e in _effects.EFFECTS.items()}
Bespoke = Literal["treaty_of_madrid"]         # the named exceptions of engine/cards.py
BESPOKE = frozenset(get_args(Bespoke))
SITE_KINDS = ("tribal", "visita", "cathedral", "colony")

Count = Annotated[StrictInt, Field(ge=0)]       # 0 or more
Positive = Annotated[StrictInt, Field(ge=1)]    # 1 or more
Bound = Annotated[StrictInt, Field(ge=0, le=10 ** 6)]

# ---- ruleset.toml: built from PARAMS, so a new parameter is declared in one place ------------


def _param_type(key: str, typ: type) -> Any:
    if key in STR_CHOICES:
        return Literal[STR_CHOICES[key]]
    return StrictInt if typ is int else StrictStr


def _section(section: str, schema: dict[str, type], optional: bool = False, **extra: Any) -> type[Shape]:
    fields: dict[str, Any] = {k: (_param_type(k, t) | None, None) if optional else (_param_type(k, t), ...)
                              for k, t in schema.items()}
    fields.update(extra)
    return create_model(f"{section.title()}{'Override' if optional else 'Section'}", __base__=Shape, **fields)


# PRJ-75: [setup.by_players.N] may also say how many of the map's Crown colonies the Spanish
# own with N players (crown_colonies, no [setup] value: all of them unless given)
SetupOverride = _section("setup", PARAMS["setup"], optional=True, crown_colonies=(StrictInt | None, None))
PlayerCount = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,2}$")]   # [setup.by_players.N]: N a whole number
_SECTIONS: dict[str, Any] = {s: (_section(s, k), ...) for s, k in PARAMS.items()}
# the ignore below: SetupOverride is a model made at run time (create_model), which no static type names
_SECTIONS["setup"] = (create_model("SetupSection", __base__=_SECTIONS["setup"][0],
                                   by_players=(dict[PlayerCount, SetupOverride], {})), ...)   # type: ignore[valid-type]
# PRJ-68, PRJ-78: [treasure.by_players.N] kings_crown_share and smuggler_bribe: the King's
# share and the SMUGGLER's bribe with N players (2..5), each only if given
TreasureOverride = create_model("TreasureOverride", __base__=Shape, kings_crown_share=(StrictInt | None, None),
                                smuggler_bribe=(StrictInt | None, None))
_SECTIONS["treasure"] = (create_model("TreasureSection", __base__=_SECTIONS["treasure"][0],
                                      by_players=(dict[PlayerCount, TreasureOverride], {})), ...)  # type: ignore[valid-type]
# PRJ-31: [ranges] gives every whole-number parameter its [least, most]
_INT_NAMES = [f"supply_{k}" if s == "supply" else k for s, keys in PARAMS.items() for k, t in keys.items() if t is int]
_RANGE_FIELDS: dict[str, Any] = {k: (tuple[Bound, Bound], ...) for k in _INT_NAMES}
Ranges = create_model("Ranges", __base__=Shape, **_RANGE_FIELDS)
RulesetFile = create_model("RulesetFile", __base__=Shape, version=(StrictStr, ...), ranges=(Ranges, ...),
                           **_SECTIONS)

# ---- map.toml --------------------------------------------------------------------------------

# where a zone is drawn on the board picture, [x, y] in the board's units (its centre); no rule
# reads it, so a map's drawing is data like the map itself
Coord = Annotated[StrictInt, Field(ge=0, le=10 ** 4)]
Position = tuple[Coord, Coord]


class Board(Shape):
    """The board picture's size, in the units of the zones' `pos`."""
    width: Annotated[StrictInt, Field(ge=1, le=10 ** 4)]
    height: Annotated[StrictInt, Field(ge=1, le=10 ** 4)]


class Europe(Shape):
    id: StrictStr
    name: StrictStr
    seas: list[StrictStr]
    pos: Position | None = None


class Sea(Shape):
    id: StrictStr
    name: StrictStr
    adjacent: list[StrictStr]
    pos: Position | None = None


class ColonySpace(Shape):
    id: StrictStr
    kind: Literal["colony"]
    name: StrictStr
    goods: StrictStr
    crown: StrictBool = False      # starts as a worked Crown colony
    fort: StrictBool = False


class TribalSite(Shape):
    id: StrictStr
    kind: Literal["tribal"]
    name: StrictStr
    indigenous: Count
    wilderness: StrictBool = False   # only Tribal Sites can be wilderness


class VisitaSite(Shape):
    id: StrictStr
    kind: Literal["visita"]
    name: StrictStr
    indigenous: Count


class CathedralSite(Shape):
    id: StrictStr
    kind: Literal["cathedral"]
    name: StrictStr
    capacity: Count                  # in Citizens; a Cathedral has no Indigenous


Site = Annotated[ColonySpace | TribalSite | VisitaSite | CathedralSite, Field(discriminator="kind")]


class Land(Shape):
    id: StrictStr
    name: StrictStr
    seas: list[StrictStr]
    sites: list[Site] = Field(default_factory=list)
    pos: Position | None = None


class MapFile(Shape):
    board: Board | None = None
    europe: Europe
    sea: list[Sea]
    land: list[Land]


# ---- nations.toml: `order`, then one table per nation ----------------------------------------


Color = Annotated[StrictStr, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")]   # "#c0392b"


class Nation(Shape):
    name: StrictStr
    legality: Legality               # the Flagship's legality at setup (CYC-4)
    home: StrictStr | None = None    # a colony space of map.toml
    crown: StrictBool | None = None  # owns the Crown colonies
    color: Color | None = None       # how the board and the pages draw the nation


class NationsFile(Shape):
    model_config = ConfigDict(extra="allow", frozen=True)   # every other key is a nation
    __pydantic_extra__: dict[str, Nation]
    order: list[StrictStr]


# ---- market.toml and haven.toml: cards with effects from the vocabulary of EFFECTS -----------


def _effect(kind: str, params: frozenset[str]) -> type[Shape]:
    typed: dict[str, Any] = {"kind": (Literal[kind], ...)}
    typed.update({p: (Legality if p == "value" else Positive if p == "n" else Count, ...) for p in sorted(params)})
    return cast(type[Shape], create_model(f"Effect_{kind}", __base__=Shape, **typed))


if TYPE_CHECKING:            # built from EFFECTS at run time, which a type checker cannot follow
    Effect = dict[str, Any]
else:
    _KINDS = tuple(_effect(k, p) for k, (p, _) in EFFECTS.items())
    Effect = Annotated[Union[_KINDS], Field(discriminator="kind")]  # noqa: UP007 (a Union of a built tuple)


class Requires(Shape):
    colonies: Positive | None = None
    legality: list[Legality] | None = None
    nation: StrictStr | None = None   # a nation of nations.toml


class Card(Shape):
    id: StrictStr
    name: StrictStr
    cost: Count                      # $ to the Pool
    copies: Positive = 1             # ids get -1, -2 ... when more than one
    effects: list[Effect] = Field(default_factory=list)
    requires: Requires | None = None
    bespoke: Bespoke | None = None


class DeckFile(Shape):
    card: list[Card]


# ---- battle.toml -----------------------------------------------------------------------------


class BattleCard(Shape):
    id: StrictStr
    name: StrictStr
    side: Literal["attacker", "target"]


class BattleFile(Shape):
    card: list[BattleCard]


FILES: dict[str, type[Shape]] = {"ruleset.toml": RulesetFile, "map.toml": MapFile, "nations.toml": NationsFile,
                                 "market.toml": DeckFile, "haven.toml": DeckFile, "battle.toml": BattleFile}

# ---- how each file names its entries in an error ---------------------------------------------


def name_entry(fname: str, raw: Any, loc: Loc) -> tuple[str, Loc]:
    """(entry, key path) of a location, in the style of the file's hand-written messages."""
    if not loc:
        return "top level", ()
    if fname == "ruleset.toml":
        if loc[:2] in (("setup", "by_players"), ("treasure", "by_players")) and len(loc) > 2:
            return f"[{loc[0]}.by_players.{loc[2]}]", loc[3:]
        return (f"[{loc[0]}]", loc[1:]) if isinstance(item(raw, loc[:1]), dict) or len(loc) > 1 else ("top level", loc)
    if fname == "map.toml":
        return _map_entry(raw, loc)
    if fname == "nations.toml":
        return (f"[{loc[0]}]", loc[1:]) if loc[0] != "order" else ("top level", loc)
    return _card_entry(raw, loc)


def _entry_id(raw: Any, path: Loc) -> str:
    value = item(raw, (*path, "id"))
    return value if isinstance(value, str) else "?"


def _map_entry(raw: Any, loc: Loc) -> tuple[str, Loc]:
    if loc[0] in ("europe", "board"):
        return f"[{loc[0]}]", loc[1:]
    if len(loc) < 2:
        return "top level", loc
    zone = f"{loc[0]} {_entry_id(raw, loc[:2])}"
    if len(loc) >= 4 and loc[2] == "sites":
        sid = f"{_entry_id(raw, loc[:2])}.{_entry_id(raw, loc[:4])}"
        return f"site {sid}", loc[5:] if len(loc) > 4 and loc[4] in SITE_KINDS else loc[4:]
    return zone, loc[2:]


def _card_entry(raw: Any, loc: Loc) -> tuple[str, Loc]:
    if len(loc) < 2:
        return "top level", loc
    card = f"card {_entry_id(raw, loc[:2])}"
    if len(loc) >= 4 and loc[2] == "effects":
        kind = item(raw, (*loc[:4], "kind"))
        rest = loc[5:] if len(loc) > 4 and loc[4] == kind else loc[4:]
        return (f"{card} effect {kind}", rest) if len(loc) > 4 else (card, loc[2:])
    if loc[2:] == ("requires",):          # its keys: "card x requires: unknown key(s) ..."
        return f"{card} requires", ()
    return card, loc[2:]


def word(err: dict[str, Any], entry: str) -> str | None:
    """The hand-written wording of a few problems (tests and people look for these words),
    as the message after the file name; None for the generic wording."""
    kind, loc, ctx = err["type"], err["loc"], err.get("ctx") or {}
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        what = "effect" if "effects" in loc else "kind"
        return f"{entry}: unknown {what} {short(ctx.get('tag'))}"
    if kind == "literal_error" and loc[-1] == "bespoke":
        return f"{entry}: unknown bespoke card {short(err['input'])}"
    if "requires" in loc and "legality" in loc:
        return f"{entry}: requires.legality must be a list of {', '.join(LEGALITIES)}"
    if kind == "literal_error" and loc[-1] in ("value", "legality"):
        return f"{entry}: unknown legality {short(err['input'])}"
    if kind == "string_pattern_mismatch" and loc[:2] in (("setup", "by_players"), ("treasure", "by_players")):
        return f"{entry}: the player count must be a whole number"
    if loc and loc[0] == "ranges" and len(loc) > 1:
        return f"[ranges] {loc[1]} must be [least, most], whole numbers 0..10**6"
    return None
