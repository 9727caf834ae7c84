"""Goods Year, D1 (GDS-1): player order, Cathedrals, labour, die-off, Chests,
slave attrition, earnings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..decisions import STR, Decision, LabourContext, register
from .. import why
from ..errors import IllegalAction
from ..flow import Out, Step, require
from ..rng import draw, draw_shuffle
from ..state import CROWN, counted
from ..vocab import SLAVE
from .. import labour

if TYPE_CHECKING:
    from ..state import State


def update_player_order(st: State, out: Out) -> bool:
    """GDS-2: Prestige ascending, then money ascending; ties keep their order."""
    st.order = sorted(st.order, key=lambda s: (st.prestige[s], st.money[s]))
    out.emit("PlayerOrderUpdated", "GDS-2", order=list(st.order))
    return False


def refresh_cathedrals(st: State, out: Out) -> bool:
    """GDS-3: fill each Cathedral up to capacity, in map order, while the supply lasts."""
    filled = {}
    count = st.site_count = st.site_count[:]        # shared between states: a list of its own
    supply = st.supply = st.supply.copy()           # and a dict of its own
    for i, kind in enumerate(st.site_kind):
        if kind == "cathedral":
            n = min(st.site_cap[i] - count[i], supply["citizens"])
            if n > 0:
                count[i] += n
                supply["citizens"] -= n
                filled[st.site_ids[i]] = n
    out.emit("CathedralsRefreshed", "GDS-3", filled=filled)
    return False


def labour_acquisition(st: State, out: Out) -> bool:
    """LAB-6: players resolve their vacant colonies in Player Order, one colony at a time (the owner
    picks which one next, PRJ-12); then the Crown's, automatically. A colony with no legal source
    stays vacant at once (LAB-3): sources only shrink during this step, so it never gains one."""
    skipped = st.cursor.get("skipped", ())
    for seat in st.order:
        ready = []
        for col in st.vacant_colonies(seat):
            if col in skipped:
                continue
            if labour.options(st, col, seat):
                ready.append(st.rs.col_ids[col])
            else:
                skipped += (col,)
                out.emit("ColonyStaysVacant", "LAB-3", colony=st.rs.col_ids[col], owner=seat)
        st.cursor = {**st.cursor, "skipped": skipped}     # shared between states: replaced
        if ready:
            Labour.push(st, (seat,), colonies=tuple(ready))
            return True
    labour.crown_acquires(st, out)
    return False


class Labour(Decision[LabourContext]):
    """One vacant colony of the seat acquires labour (LAB-1): the seat names the colony and the source
    (LAB-6: the seat picks which of its colonies is next, PRJ-12)."""

    name = "labour"
    rule = "LAB-6"
    actions = {"labour": {"colony": (STR,), "source": (STR,), "site": (STR,)},  # noqa: RUF012 -- a ClassVar of engine/decisions.Decision
               "leave_vacant": {"colony": (STR,)}}
    observation = (("colonies", "colonies"),)

    def reasons(self, board: Any, dec: Mapping[str, Any]) -> list[dict[str, Any]]:
        return why.labour_reasons(board, dec)

    def legal(self, st: State, dec: LabourContext, seat: int) -> list[dict[str, Any]]:
        opts = [o for cid in dec["colonies"] for o in labour.options(st, st.rs.col_index[cid], seat)]
        return [{"kind": "choice", "decision": "labour", "rule": "LAB-1", "colonies": list(dec["colonies"]),
                 "options": opts}]

    def act(self, st: State, dec: LabourContext, action: dict[str, Any], out: Out) -> None:
        require(action["type"] in ("labour", "leave_vacant"), "wrong_action", "LAB-1",
                "Answer with a labour action (employ or kidnap) for one of your vacant colonies.")
        cid = action.get("colony")
        if not (isinstance(cid, str) and cid in dec["colonies"]):        # the words formatted only to refuse
            staff = dec["colonies"]
            raise IllegalAction("wrong_colony", "LAB-6", f"The colonies to staff now are {', '.join(staff)}."
                                if len(staff) > 1 else f"The colony to staff now is {staff[0]}.")
        assert isinstance(cid, str)
        col = st.rs.col_index[cid]
        if action["type"] == "leave_vacant":
            sources = ", ".join(f"{o['source']} from {o['site']}" for o in labour.options(st, col, action["seat"]))
            require(False, "source_exists", "LAB-3",
                    f"{cid} may not stay vacant while a source of labour exists ({sources}).")
        labour.acquire(st, col, action["seat"], action.get("source"), action.get("site"), out)
        st.stack.pop()
register(Labour)


def die_off(st: State, out: Out) -> bool:
    """GDS-4: player colonies still vacant are removed, their Chests back to the supply; vacant
    colonies of the Crown stay. The Spanish player's Crown colonies are player colonies (PRJ-13)."""
    gone = [c for c, owner in enumerate(st.col_owner)
            if owner is not None and owner != CROWN and st.col_labour[c] is None]
    if not gone:
        return False
    owners = st.col_owner = st.col_owner[:]          # shared between states: lists of their own
    chests_at = st.col_chests = st.col_chests[:]
    forts = st.col_fort = st.col_fort[:]
    for c in gone:
        owner = owners[c]
        chests = chests_at[c]
        st.supply = counted(st.supply, "chests", chests)     # shared between states: replaced
        owners[c] = None
        chests_at[c] = 0
        forts[c] = st.rs.col_fort[c]     # a fort printed on the map stays; a built one is lost
        out.emit("ColonyDiedOff", "GDS-4", colony=st.rs.col_ids[c], owner=owner, chests_returned=chests)
    return False


def place_chests(st: State, out: Out) -> bool:
    """GDS-5: draw the year's goods; each worked colony of those goods gets a Chest, up to the cap,
    in map order while the Chest supply lasts (PRJ-15)."""
    rs = st.rs
    types = list(rs.goods_types)
    st.rng = draw_shuffle(st.seed, st.rng, types, out.chance)
    drawn = sorted(types[: rs.goods_per_year])
    out.emit("GoodsDrawn", "GDS-5", goods=drawn)
    placed, capped, short = [], [], []
    chests = st.col_chests = st.col_chests[:]       # shared between states: a list of its own
    supply = st.supply = st.supply.copy()           # and a dict of its own
    for c, goods in enumerate(rs.col_goods):
        if goods not in drawn or st.col_owner[c] is None or st.col_labour[c] is None:
            continue
        if chests[c] >= rs.chest_cap:
            capped.append(rs.col_ids[c])
        elif supply["chests"] <= 0:
            short.append(rs.col_ids[c])
        else:
            chests[c] += 1
            supply["chests"] -= 1
            placed.append(rs.col_ids[c])
    out.emit("ChestsPlaced", "GDS-5", colonies=placed, at_cap=capped, supply_short=short)
    return False


def slave_attrition(st: State, out: Out) -> bool:
    """GDS-6: each Slave rolls a die: it may die, or revolt and become a Rebel."""
    rs = st.rs
    if SLAVE not in st.col_labour:
        return False
    labour_at = st.col_labour = st.col_labour[:]     # shared between states: lists of their own
    rebels = st.rebels = st.rebels[:]
    for c, lab in enumerate(labour_at):
        if lab != SLAVE:
            continue
        st.rng, r = draw(st.seed, st.rng, rs.die_sides, out.chance)
        roll = r + 1
        outcome = "works"
        if roll == rs.slave_death:
            outcome = "dies"
            st.gone = counted(st.gone, SLAVE, 1)        # shared between states: replaced
            labour_at[c] = None
        elif roll == rs.slave_revolt:
            outcome = "revolts"
            rebels[rs.col_zone[c]] += 1
            labour_at[c] = None
        out.emit("SlaveAttrition", "GDS-6", colony=rs.col_ids[c], owner=st.col_owner[c], roll=roll,
                 outcome=outcome, zone=rs.zone_ids[rs.col_zone[c]])
    return False


def pay_earnings(st: State, out: Out) -> bool:
    """GDS-7: $1 per worked colony plus tableau income, from the Pool (PRJ-30: the King's colonies
    pay `crown_colony_income` instead)."""
    from ..treasure import is_kings_colony
    rs = st.rs
    for seat in st.order:
        worked = [c for c, o in enumerate(st.col_owner) if o == seat and st.col_labour[c] is not None]
        kings = sum(1 for c in worked if is_kings_colony(st, c))
        total = (len(worked) - kings) * rs.colony_income + kings * rs.crown_colony_income + st.income[seat]
        st.money[seat] += total
        st.minted += total
        out.emit("EarningsPaid", "GDS-7", seat=seat, worked_colonies=len(worked), kings_colonies=kings,
                 card_income=st.income[seat], amount=total)
    return False


STEPS: tuple[Step, ...] = (update_player_order, refresh_cathedrals, labour_acquisition, die_off, place_chests,
         slave_attrition, pay_earnings)
