"""Labour for vacant colonies: kidnapping or employment (LAB-1..LAB-6)."""

from __future__ import annotations

from .flow import Out, require
from .state import CROWN


def employ_sources(st, col: int, seat: int) -> list[int]:
    """Cathedrals with a Citizen in range (LAB-2), if the owner can pay (LAB-1); the Crown never pays."""
    rs = st.rs
    if seat != CROWN and st.money[seat] < rs.employ_cost:
        return []
    zone = rs.col_zone[col]
    anywhere = rs.employ_range == "anywhere"
    return [i for i, k in enumerate(st.site_kind)
            if k == "cathedral" and st.site_count[i] > 0 and (anywhere or st.site_zone[i] == zone)]


def kidnap_sources(st, col: int) -> list[int]:
    """Tribal Sites and Visitas of the same zone (LAB-1), not wilderness (LAB-5), zone not rebellious (LAB-4)."""
    zone = st.rs.col_zone[col]
    if st.rebels[zone] > 0:
        return []
    return [i for i, k in enumerate(st.site_kind)
            if k in ("tribal", "visita") and st.site_zone[i] == zone and st.site_count[i] > 0
            and not st.site_wild[i]]


def options(st, col: int, seat: int) -> list[dict]:
    """LAB-3: when the owner can employ they choose; otherwise they must kidnap if they can."""
    cid = st.rs.col_ids[col]
    opts = [{"seat": seat, "type": "labour", "colony": cid, "source": "employ", "site": st.site_ids[i]}
            for i in employ_sources(st, col, seat)]
    opts += [{"seat": seat, "type": "labour", "colony": cid, "source": "kidnap", "site": st.site_ids[i]}
             for i in kidnap_sources(st, col)]
    return opts


def acquire(st, col: int, seat: int, source, site_id, out: Out) -> None:
    """Validate and carry out one labour choice; every refusal names its rule."""
    rs = st.rs
    require(source in ("employ", "kidnap"), "bad_source", "LAB-1", "The source must be 'employ' or 'kidnap'.")
    require(isinstance(site_id, str) and site_id in st.site_ids, "unknown_site", "LAB-1",
            f"There is no site {site_id!r} on the map.")
    i = st.site_ids.index(site_id)
    zone = rs.col_zone[col]
    if source == "employ":
        require(st.site_kind[i] == "cathedral", "not_a_cathedral", "LAB-1", "Citizens are employed from a Cathedral.")
        require(rs.employ_range == "anywhere" or st.site_zone[i] == zone, "out_of_range", "LAB-2",
                "The Cathedral must be in the colony's land zone.")
        require(st.site_count[i] > 0, "no_citizen", "LAB-1", "That Cathedral has no Citizen.")
        require(seat == CROWN or st.money[seat] >= rs.employ_cost, "cannot_pay", "LAB-1",
                f"Employing costs ${rs.employ_cost}, paid to the Pool.")
        st.site_count[i] -= 1
        if seat != CROWN:
            st.money[seat] -= rs.employ_cost
            st.burned += rs.employ_cost
        st.col_labour[col] = "citizen"
        out.emit("CitizenEmployed", "LAB-1", colony=rs.col_ids[col], owner=seat, site=site_id,
                 paid=0 if seat == CROWN else rs.employ_cost)
        return
    require(st.site_kind[i] in ("tribal", "visita"), "not_a_tribal_site", "LAB-1",
            "Indigenous are kidnapped from a Tribal Site or a Visita.")
    require(st.site_zone[i] == zone, "other_zone", "LAB-1", "Kidnapping only takes from the colony's land zone.")
    require(st.rebels[zone] == 0, "rebellious_zone", "LAB-4", "No kidnapping in a rebellious land zone.")
    require(not st.site_wild[i], "wilderness", "LAB-5", "No kidnapping from a wilderness Tribal Site.")
    require(st.site_count[i] > 0, "no_indigenous", "LAB-1", "That site has no Indigenous left.")
    st.site_count[i] -= 1
    st.col_labour[col] = "slave"          # PRJ-6: the Indigenous becomes a Slave
    out.emit("IndigenousKidnapped", "LAB-1", colony=rs.col_ids[col], owner=seat, site=site_id)


def crown_acquires(st, out: Out) -> None:
    """CYC-4, LAB-6: unowned Crown colonies employ when they can, else kidnap, in map order; no decisions."""
    for col, owner in enumerate(st.col_owner):
        if owner != CROWN or st.col_labour[col] is not None:
            continue
        emp = employ_sources(st, col, CROWN)
        kid = kidnap_sources(st, col)
        if emp:
            acquire(st, col, CROWN, "employ", st.site_ids[emp[0]], out)
        elif kid:
            acquire(st, col, CROWN, "kidnap", st.site_ids[kid[0]], out)
        else:
            out.emit("ColonyStaysVacant", "LAB-3", colony=st.rs.col_ids[col], owner=CROWN)
