"""Labour for vacant colonies: kidnapping or employment (LAB-1..LAB-6).

`options` lists exactly the legal choices for one vacant colony; `acquire`
checks a choice and carries it out, refusing with the rule that forbids it
before it changes anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import IllegalAction
from .flow import Out, require
from .jsontypes import Action
from .state import CROWN, bumped, replaced
from .vocab import CITIZEN, SLAVE

if TYPE_CHECKING:
    from .state import State


def can_pay(st: State, owner: int) -> bool:
    """LAB-1, LAB-3: employing costs `employ_cost` dollars; the Crown never pays (CYC-4)."""
    return owner == CROWN or st.money[owner] >= st.rs.employ_cost


def in_employ_range(st: State, col: int, site: int) -> bool:
    """LAB-2: a Cathedral in the colony's land zone, or any Cathedral with `employ_range = "anywhere"`."""
    return st.rs.employ_range == "anywhere" or st.site_zone[site] == st.rs.col_zone[col]


def employ_sources(st: State, col: int, owner: int) -> list[int]:
    """Cathedrals with a Citizen in range (LAB-2), if the owner can pay (LAB-1); in map order."""
    if not can_pay(st, owner):
        return []
    return [i for i, k in enumerate(st.site_kind)
            if k == "cathedral" and st.site_count[i] > 0 and in_employ_range(st, col, i)]


def kidnap_sources(st: State, col: int) -> list[int]:
    """Tribal Sites and Visitas with Indigenous in the same zone (LAB-1), zone not rebellious (LAB-4),
    not wilderness (LAB-5); in map order."""
    zone = st.rs.col_zone[col]
    if st.rebels[zone] > 0:
        return []
    return [i for i, k in enumerate(st.site_kind)
            if k in ("tribal", "visita") and st.site_zone[i] == zone and st.site_count[i] > 0
            and not st.site_wild[i]]


def options(st: State, col: int, seat: int) -> list[Action]:
    """LAB-3: every legal source. When the owner can employ, they choose between employing and
    kidnapping; when they cannot, only kidnapping is left; when neither, nothing (the colony stays vacant)."""
    cid = st.rs.col_ids[col]
    opts = [{"seat": seat, "type": "labour", "colony": cid, "source": "employ", "site": st.site_ids[i]}
            for i in employ_sources(st, col, seat)]
    opts += [{"seat": seat, "type": "labour", "colony": cid, "source": "kidnap", "site": st.site_ids[i]}
             for i in kidnap_sources(st, col)]
    return opts


def acquire(st: State, col: int, owner: int, source: object, site_id: object, out: Out) -> None:
    """Check and carry out one labour choice; every refusal names its rule, and comes before any change."""
    rs = st.rs
    require(st.col_owner[col] == owner and st.col_labour[col] is None, "not_vacant", "LAB-1",
            f"{rs.col_ids[col]} is not a vacant colony of this owner.")
    require(source in ("employ", "kidnap"), "bad_source", "LAB-1", "The source must be 'employ' or 'kidnap'.")
    if not (isinstance(site_id, str) and site_id in st.site_ids):
        raise IllegalAction("unknown_site", "LAB-1", "Name the site to employ or kidnap from ('site')."
                            if site_id is None else f"There is no site {site_id!r} on the map.")
    i = st.site_ids.index(site_id)
    zone = rs.col_zone[col]
    if source == "employ":
        require(st.site_kind[i] == "cathedral", "not_a_cathedral", "LAB-1",
                "Citizens are employed from a Cathedral.")
        require(in_employ_range(st, col, i), "out_of_range", "LAB-2",
                f"The Cathedral must be in the colony's land zone ({rs.zone_ids[zone]}).")
        require(st.site_count[i] > 0, "no_citizen", "LAB-1", f"{site_id} has no Citizen.")
        require(can_pay(st, owner), "cannot_pay", "LAB-1",
                f"Employing costs ${rs.employ_cost}, paid to the Pool.")
        paid = 0 if owner == CROWN else rs.employ_cost
        st.site_count = bumped(st.site_count, i, -1)         # shared between states: replaced
        if owner != CROWN:
            st.money[owner] -= paid
        st.burned += paid
        st.col_labour = replaced(st.col_labour, col, CITIZEN)
        out.emit("CitizenEmployed", "LAB-1", colony=rs.col_ids[col], owner=owner, site=site_id, paid=paid)
        return
    require(st.site_kind[i] in ("tribal", "visita"), "not_a_tribal_site", "LAB-1",
            "Indigenous are kidnapped from a Tribal Site or a Visita.")
    require(st.site_zone[i] == zone, "other_zone", "LAB-1",
            f"Kidnapping only takes from the colony's own land zone ({rs.zone_ids[zone]}).")
    require(st.rebels[zone] == 0, "rebellious_zone", "LAB-4",
            f"No kidnapping in a rebellious land zone ({rs.zone_ids[zone]} has Rebels).")
    require(not st.site_wild[i], "wilderness", "LAB-5", f"No kidnapping from a wilderness Tribal Site ({site_id}).")
    require(st.site_count[i] > 0, "no_indigenous", "LAB-1", f"{site_id} has no Indigenous left.")
    st.site_count = bumped(st.site_count, i, -1)             # shared between states: replaced
    st.col_labour = replaced(st.col_labour, col, SLAVE)      # PRJ-6: the Indigenous becomes a Slave
    out.emit("IndigenousKidnapped", "LAB-1", colony=rs.col_ids[col], owner=owner, site=site_id)


def crown_choice(st: State, col: int) -> tuple[str, int] | None:
    """PRJ-14: the Crown employs when it can (a Cathedral of the colony's own zone first, then map
    order), else kidnaps (first legal site in map order); None when it can do neither."""
    emp = employ_sources(st, col, CROWN)
    if emp:
        zone = st.rs.col_zone[col]
        return "employ", min(emp, key=lambda i: (st.site_zone[i] != zone, i))
    kid = kidnap_sources(st, col)
    return ("kidnap", kid[0]) if kid else None


def crown_acquires(st: State, out: Out) -> None:
    """CYC-4, LAB-6: the Crown's vacant colonies, last and in map order, by fixed rules: no decision, no payment."""
    for col, owner in enumerate(st.col_owner):
        if owner != CROWN or st.col_labour[col] is not None:
            continue
        choice = crown_choice(st, col)
        if choice is None:
            out.emit("ColonyStaysVacant", "LAB-3", colony=st.rs.col_ids[col], owner=CROWN)
        else:
            acquire(st, col, CROWN, choice[0], st.site_ids[choice[1]], out)
