"""Goods Year, D1 (GDS-1): player order, Cathedrals, labour, die-off, Chests,
slave attrition, earnings."""

from __future__ import annotations

from ..flow import Out, decision, push, require
from ..rng import below, shuffle
from ..state import CROWN
from .. import labour


def update_player_order(st, out: Out) -> bool:
    """GDS-2: Prestige ascending, then money ascending; ties keep their order."""
    st.order = sorted(st.order, key=lambda s: (st.prestige[s], st.money[s]))
    out.emit("PlayerOrderUpdated", "GDS-2", order=list(st.order))
    return False


def refresh_cathedrals(st, out: Out) -> bool:
    """GDS-3: fill each Cathedral up to capacity, in map order, while the supply lasts."""
    filled = {}
    for i, kind in enumerate(st.site_kind):
        if kind == "cathedral":
            n = min(st.site_cap[i] - st.site_count[i], st.supply["citizens"])
            if n > 0:
                st.site_count[i] += n
                st.supply["citizens"] -= n
                filled[st.site_ids[i]] = n
    out.emit("CathedralsRefreshed", "GDS-3", filled=filled)
    return False


def labour_acquisition(st, out: Out) -> bool:
    """LAB-6: players' vacant colonies in Player Order, one at a time; the Crown's last."""
    skipped = st.cursor.get("skipped", ())
    for seat in st.order:
        for col in st.vacant_colonies(seat):
            if col in skipped:
                continue
            if labour.options(st, col, seat):
                push(st, "labour", (seat,), "LAB-1", colony=col)
                return True
            skipped += (col,)
            st.cursor["skipped"] = skipped
            out.emit("ColonyStaysVacant", "LAB-3", colony=st.rs.col_ids[col], owner=seat)
    labour.crown_acquires(st, out)
    return False


@decision("labour")
class LabourDecision:
    def legal(self, st, dec, seat):
        return [{"kind": "choice", "decision": "labour", "rule": "LAB-1",
                 "colony": st.rs.col_ids[dec["colony"]], "options": labour.options(st, dec["colony"], seat)}]

    def act(self, st, dec, action, out):
        col = dec["colony"]
        require(action.get("colony") == st.rs.col_ids[col], "wrong_colony", "LAB-6",
                f"The colony to staff now is {st.rs.col_ids[col]}.")
        if action["type"] == "leave_vacant":
            require(False, "source_exists", "LAB-3",
                    "A colony may not stay vacant while a source of labour exists.")
        require(action["type"] == "labour", "wrong_action", "LAB-1",
                "Answer with a labour action (employ or kidnap) for this colony.")
        labour.acquire(st, col, action["seat"], action.get("source"), action.get("site"), out)
        st.stack.pop()


def die_off(st, out: Out) -> bool:
    """GDS-4: player colonies still vacant are removed; vacant Crown colonies stay."""
    for c, owner in enumerate(st.col_owner):
        if owner is not None and owner != CROWN and st.col_labour[c] is None:
            chests = st.col_chests[c]
            st.supply["chests"] += chests
            st.col_owner[c] = None
            st.col_chests[c] = 0
            st.col_fort[c] = False
            out.emit("ColonyDiedOff", "GDS-4", colony=st.rs.col_ids[c], owner=owner, chests_returned=chests)
    return False


def place_chests(st, out: Out) -> bool:
    """GDS-5: draw the year's goods; each worked colony of those goods gets a Chest, up to the cap."""
    types = list(st.rs.goods_types)
    st.rng = shuffle(st.rng, types)
    drawn = sorted(types[: st.rs.goods_per_year])
    out.emit("GoodsDrawn", "GDS-5", goods=drawn)
    placed = []
    for c, goods in enumerate(st.rs.col_goods):
        if (goods in drawn and st.col_owner[c] is not None and st.col_labour[c] is not None
                and st.col_chests[c] < st.rs.chest_cap and st.supply["chests"] > 0):
            st.col_chests[c] += 1
            st.supply["chests"] -= 1
            placed.append(st.rs.col_ids[c])
    out.emit("ChestsPlaced", "GDS-5", colonies=placed)
    return False


def slave_attrition(st, out: Out) -> bool:
    """GDS-6: each Slave rolls a die: it may die, or revolt and become a Rebel."""
    rs = st.rs
    for c, lab in enumerate(st.col_labour):
        if lab != "slave":
            continue
        st.rng, r = below(st.rng, rs.die_sides)
        roll = r + 1
        outcome = "works"
        if roll == rs.slave_death:
            outcome = "dies"
            st.gone["slave"] += 1
            st.col_labour[c] = None
        elif roll == rs.slave_revolt:
            outcome = "revolts"
            st.rebels[rs.col_zone[c]] += 1
            st.col_labour[c] = None
        out.emit("SlaveAttrition", "GDS-6", colony=rs.col_ids[c], owner=st.col_owner[c], roll=roll,
                 outcome=outcome, zone=rs.zone_ids[rs.col_zone[c]])
    return False


def pay_earnings(st, out: Out) -> bool:
    """GDS-7: $1 per worked colony plus tableau income, from the Pool."""
    rs = st.rs
    for seat in st.order:
        worked = sum(1 for c, o in enumerate(st.col_owner) if o == seat and st.col_labour[c] is not None)
        total = worked * rs.colony_income + st.income[seat]
        st.money[seat] += total
        st.minted += total
        out.emit("EarningsPaid", "GDS-7", seat=seat, worked_colonies=worked, card_income=st.income[seat],
                 amount=total)
    return False


STEPS = (update_player_order, refresh_cathedrals, labour_acquisition, die_off, place_chests,
         slave_attrition, pay_earnings)
