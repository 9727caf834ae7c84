"""Views keyed by id, for programs that read them (api.index): the view's JSON stays as the
web sends it (lists in board order); this builds the lookups once."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Obj = dict[str, Any]


@dataclass(frozen=True)
class ViewIndex:
    """A view's players by seat, colonies and sites by id, and what stands in each zone.
    The dicts are the view's own entries (not copies)."""

    view: Obj
    players: dict[int, Obj]
    colonies: dict[str, Obj]
    sites: dict[str, Obj]
    zones: dict[str, Obj] = field(default_factory=dict)

    def colony(self, cid: str) -> Obj:
        return self.colonies[cid]

    def site(self, sid: str) -> Obj:
        return self.sites[sid]

    def player(self, seat: int) -> Obj:
        return self.players[seat]

    def colonies_of(self, owner: int | str) -> list[Obj]:
        """The colonies a seat owns (or "crown"), in board order."""
        return [c for c in self.colonies.values() if c["owner"] == owner]


def index(view: Obj) -> ViewIndex:
    """Lookups by id over a view (`api.view`, with or without its board): players by seat,
    colonies and sites by id, and per zone id its colonies, sites, fleets (seats) and rebels."""
    colonies = {c["id"]: c for c in view.get("colonies", ())}
    sites = {s["id"]: s for s in view.get("sites", ())}
    zones: dict[str, Obj] = {}

    def zone(z: str) -> Obj:
        return zones.setdefault(z, {"colonies": [], "sites": [], "fleets": [], "rebels": 0})

    for c in colonies.values():
        zone(c["zone"])["colonies"].append(c["id"])
    for s in sites.values():
        zone(s["zone"])["sites"].append(s["id"])
    for p in view["players"]:
        zone(p["fleet"]["zone"])["fleets"].append(p["seat"])
    for z, n in view.get("rebels", {}).items():
        zone(z)["rebels"] = n
    return ViewIndex(view, {p["seat"]: p for p in view["players"]}, colonies, sites, zones)
