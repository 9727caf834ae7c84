"""Loading and unloading meeples (LOAD-1..LOAD-4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .flow import Out
from .state import bumped, replaced
from .treasure import free_space
from .vocab import CHEST, CITIZEN, INDIGENOUS, SLAVE

if TYPE_CHECKING:
    from .state import State


def meeples_aboard(st: State, seat: int) -> int:
    return sum(1 for x in st.cargo[seat] if x != CHEST)


def meeple_room(st: State, seat: int) -> int:
    """LOAD-2: no more meeples aboard than the owner has vacant colonies, within free cargo."""
    return max(0, min(free_space(st, seat), len(st.vacant_colonies(seat)) - meeples_aboard(st, seat)))


def emigrate(st: State, seat: int, zone: int, out: Out) -> None:
    """LOAD-3: Citizens board automatically from the zone's Cathedrals, no decision."""
    boarded: dict[str, int] = {}
    for i, z in enumerate(st.site_zone):
        if z != zone or st.site_kind[i] != "cathedral":
            continue
        n = min(st.site_count[i], meeple_room(st, seat))
        if n > 0:
            st.site_count = bumped(st.site_count, i, -n)      # shared between states: replaced
            st.cargo = replaced(st.cargo, seat, st.cargo[seat] + [CITIZEN] * n)   # shared: replaced
            boarded[st.site_ids[i]] = n
    if boarded:
        out.emit("CitizensEmigrated", "LOAD-3", seat=seat, zone=st.rs.zone_ids[zone], boarded=boarded)


def enslave(st: State, seat: int, site: int, count: int, out: Out) -> None:
    """LOAD-1: after a won battle, Indigenous of the site are carried off (PRJ-6: Slaves when unloaded)."""
    st.site_count = bumped(st.site_count, site, -count)     # shared between states: replaced
    st.cargo = replaced(st.cargo, seat, st.cargo[seat] + [INDIGENOUS] * count)   # shared: replaced
    out.emit("IndigenousEnslaved", "LOAD-1", seat=seat, site=st.site_ids[site], count=count)


def unload(st: State, seat: int, col: int, out: Out, kind: str | None = None) -> None:
    """LOAD-4: a meeple aboard (the first one of `kind`, or the first one) becomes the labour of an own
    vacant colony: a Citizen stays a Citizen, an enslaved Indigenous becomes a Slave (PRJ-6)."""
    k = next(i for i, x in enumerate(st.cargo[seat]) if x != CHEST and kind in (None, x))
    mine = st.cargo[seat][:]                       # shared between states: a list of its own
    meeple = mine.pop(k)
    st.cargo = replaced(st.cargo, seat, mine)
    st.col_labour = replaced(st.col_labour, col, CITIZEN if meeple == CITIZEN else SLAVE)   # shared: replaced
    out.emit("LabourUnloaded", "LOAD-4", seat=seat, colony=st.rs.col_ids[col], meeple=meeple,
             labour=st.col_labour[col])
