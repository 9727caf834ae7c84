"""The declared shape of a scenario file (docs/scenarios.md), as pydantic models.

The model checks keys and types; `scenario.build` checks what needs the ruleset or the
game: that a card, zone, colony space or site exists, that a step belongs to the year,
that the order lists every seat. The config is checked by setup (`bad_config`), and the
actions by the engine as they are applied, so both are open tables here.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter, with_config
from typing_extensions import Required, TypedDict  # noqa: UP035 (pydantic needs typing_extensions' TypedDict on 3.11)

from .ruleset_schema import Count, Legality
from .schema import Loc, item

# TypedDicts, not models: a scenario stays the plain dict it was (it is stored in the game's
# record as given), and a key may be absent but not null (JSON has null, old files never used it)
FORBID = ConfigDict(extra="forbid")
Year = Literal["goods", "auction", "play", "sail"]      # flow.YEARS; a test checks they agree
Cargo = Literal["chest", "citizen", "indigenous"]


@with_config(FORBID)
class Fleet(TypedDict, total=False):
    zone: StrictStr                # a zone id of the map
    ships: Count
    legality: Legality
    cargo: list[Cargo]


@with_config(FORBID)
class Player(TypedDict, total=False):
    money: Count
    prestige: StrictInt
    hand: list[StrictStr]
    # a card id, or [card id, its target] for a played card that named one
    tableau: list[StrictStr | tuple[StrictStr, StrictStr | None]]
    fleet: Fleet
    havens: list[StrictStr]         # land zone ids


@with_config(FORBID)
class Decks(TypedDict, total=False):
    """Top cards first; the rest of the deck keeps its order."""
    market: list[StrictStr]
    haven: list[StrictStr]


@with_config(FORBID)
class Colony(TypedDict, total=False):
    owner: Literal["crown"] | StrictInt | None   # a seat, "crown", or null for none
    labour: Literal["citizen", "slave"] | None
    chests: Count
    fort: StrictBool


@with_config(FORBID)
class Position(TypedDict, total=False):
    """Every key is optional: what is not given stays as the seeded setup left it."""
    cycle: Annotated[StrictInt, Field(ge=1)]
    year: Year
    step: StrictStr                  # a step of the year (flow.YEAR_STEPS)
    order: list[StrictInt]           # every seat once
    players: list[Player]            # by seat; at most the game's player count
    decks: Decks
    colonies: dict[StrictStr, Colony]   # by colony space id, "zone.space"
    sites: dict[StrictStr, Count]       # site id -> Indigenous there
    rebels: dict[StrictStr, Count]      # land zone id -> rebels


# The config is checked by setup (bad_config), the seed by check_seed (PRJ-1), the actions
# by the engine as they are applied: open here. "$schema" lets an editor find this schema.
Scenario = TypedDict("Scenario", {
    "$schema": StrictStr,
    "description": StrictStr,
    "config": Required[dict[StrictStr, Any]],
    "seed": Any,
    "position": Position,
    "actions": list[dict[StrictStr, Any]],
}, total=False)
with_config(ConfigDict(extra="forbid", title="Pax Hispanica scenario"))(Scenario)
SCENARIO = TypeAdapter(Scenario)


def name_entry(raw: Any, loc: Loc) -> tuple[str, Loc]:
    """(entry, key path) of a location, in the style of build's messages: "player 0 fleet"."""
    if len(loc) < 1 or loc[0] != "position":
        return "", loc
    if len(loc) >= 3 and loc[1] == "players":
        fleet = len(loc) >= 4 and loc[3] == "fleet"
        return f"player {loc[2]}{' fleet' if fleet else ''}", loc[4 if fleet else 3:]
    if len(loc) >= 3 and loc[1] == "colonies":
        return f"colony {loc[2]}", loc[3:]
    if len(loc) >= 2 and loc[1] in ("decks", "sites", "rebels") and item(raw, loc[:2]) is not None:
        return str(loc[1]), loc[2:]
    return "position", loc[1:]
