"""Treasure by the Flagship's legality (TRS-1..TRS-5) and Haven unloading (CARD-2)."""

from __future__ import annotations

from .decisions import VoyageProgress
from .flow import Out
from .ruleset import Ruleset
from .state import CROWN, State, bumped, counted, replaced
from .vocab import CHEST, CONQUISTADOR, PLUNDER, PRIVATEER, SMUGGLER, Legality

_LOAD_RULE = {PLUNDER: "TRS-2", SMUGGLER: "TRS-3"}     # the rule a load follows, by legality (else TRS-4)


def free_space(st: State, seat: int) -> int:
    return st.fships[seat] * st.rs.ship_capacity - len(st.cargo[seat])


def chest_terms(st: State, seat: int, col: int, voyage: VoyageProgress) -> tuple[int, int | str | None] | None:
    """(price per Chest, who is paid) for loading from `col`, or None if the legality forbids it."""
    rs = st.rs
    owner = st.col_owner[col]
    legality = st.legality[seat]
    sacked = voyage.get("sacked") == col
    if legality == PLUNDER:                         # TRS-2: only by sacking
        if sacked or (owner == seat and rs.plunder_loading == "sack_or_own"):   # PRJ-38's variant: own colonies too
            return 0, None
        return None
    if owner == seat:                               # TRS-3, TRS-4: own colonies are free
        return 0, None
    if legality == SMUGGLER:                        # TRS-3: bribe the owner (the Pool for the Crown)
        return rs.smuggler_bribes[st.n], ("pool" if owner == CROWN else owner)   # PRJ-78: by player count
    if legality == CONQUISTADOR:                    # TRS-4: legal export
        if owner == CROWN:
            return 0, None
        if owner == st.spanish_seat():
            return rs.conquistador_spanish_fee, owner
        return None
    assert legality == PRIVATEER, legality          # TRS-4: crown claims, after a won battle
    return (0, None) if sacked else None


def is_kings_colony(st: State, col: int) -> bool:
    """PRJ-30: a Crown colony owned by the Spanish player (PRJ-75: one of the Crown colonies
    of the game's player count)."""
    owner = st.col_owner[col]
    return st.rs.spanish_crown[st.n][col] and owner is not None and owner >= 0 and owner == st.spanish_seat()


def crown_claim(st: State, seat: int, col: int, voyage: VoyageProgress, count: int) -> int:
    """TRS-4: a PRIVATEER taking Chests from a colony it beat gives the Crown one of every
    `privateer_crown_share` so taken (counted over the whole sack, rounded down).
    PRJ-30: the Spanish player loading the King's colonies gives the Crown one of every
    `kings_crown_share` (the royal fifth; counted over the whole voyage), or with PRJ-68's
    variant its `kings_crown_share.<N>` for the game's N players."""
    if st.col_owner[col] == seat and is_kings_colony(st, col):
        share, before = st.rs.kings_share[st.n], voyage.get("royal", 0)     # PRJ-68: by player count
    elif st.legality[seat] != PRIVATEER or voyage.get("sacked") != col or st.col_owner[col] == seat:
        return 0
    else:
        share, before = st.rs.privateer_crown_share, voyage.get("taken", 0)
    if share <= 0:                  # a share of 0: the Crown claims nothing
        return 0
    return (before + count) // share - before // share


def load_limit(st: State, seat: int, col: int, voyage: VoyageProgress) -> int:
    """The most Chests `seat` may take from `col` now: Chests there, money for the price, and
    room aboard for those it keeps (Chests claimed by the Crown never board, TRS-4)."""
    terms = chest_terms(st, seat, col, voyage)
    if terms is None:
        return 0
    n = st.col_chests[col]
    if terms[0] > 0:
        n = min(n, st.money[seat] // terms[0])
    room = free_space(st, seat)
    while n > 0 and n - crown_claim(st, seat, col, voyage, n) > room:
        n -= 1
    return n


def load(st: State, seat: int, col: int, count: int, voyage: VoyageProgress, out: Out) -> None:
    terms = chest_terms(st, seat, col, voyage)
    assert terms is not None, "load is only offered where the legality allows it (TRS-2..4)"
    price, payee = terms
    cost = price * count
    st.money[seat] -= cost
    if payee == "pool":
        st.burned += cost
    elif isinstance(payee, int):                   # a seat (TRS-3, TRS-4); None: nobody
        st.money[payee] += cost
    st.col_chests = bumped(st.col_chests, col, -count)     # shared between states: replaced
    claimed = crown_claim(st, seat, col, voyage, count)
    if voyage.get("sacked") == col:
        voyage["taken"] = voyage.get("taken", 0) + count
    if st.col_owner[col] == seat and is_kings_colony(st, col):
        voyage["royal"] = voyage.get("royal", 0) + count
    kept = count - claimed
    st.supply = counted(st.supply, "chests", claimed)      # shared between states: replaced
    st.cargo = replaced(st.cargo, seat, st.cargo[seat] + [CHEST] * kept)
    rule = _LOAD_RULE.get(st.legality[seat], "TRS-4")
    if st.legality[seat] == PLUNDER and voyage.get("sacked") != col:
        rule = "PRJ-38"                            # the variant's load from an own colony
    out.emit("ChestsLoaded", rule, seat=seat, colony=st.rs.col_ids[col], count=count, kept=kept,
             crown_claim=claimed, paid=cost, paid_to=payee, legality=st.legality[seat])


def treasure_value(rs: Ruleset, legality: str, k: int) -> tuple[int, int]:
    """TRS-5: the (Prestige, money) that `k` Chests unloaded at once score under `legality`
    (TRS-1: each legality its own way; PRJ-81 checks that no two score alike)."""
    if legality == CONQUISTADOR:
        return rs.conquistador_prestige * k, 0
    if legality == PRIVATEER:
        return rs.privateer_prestige * k, rs.privateer_money * k
    if legality == SMUGGLER:
        return 0, rs.smuggler_money * k
    return k // rs.plunder_chests_per_prestige, rs.plunder_money * k


def score(st: State, seat: int, legality: Legality, out: Out, rule: str = "TRS-5", where: str = "europe") -> None:
    """TRS-5: each Chest unloaded scores by legality, then leaves play."""
    rs = st.rs
    k = st.cargo[seat].count(CHEST)
    if k == 0:
        return
    st.cargo = replaced(st.cargo, seat, [x for x in st.cargo[seat] if x != CHEST])   # shared: replaced
    prestige, money = treasure_value(rs, legality, k)
    st.prestige = replaced(st.prestige, seat, st.prestige[seat] + prestige)      # shared: replaced
    st.money[seat] += money
    st.minted += money
    st.gone = counted(st.gone, CHEST, k)                 # shared between states: replaced
    out.emit("TreasureScored", rule, seat=seat, legality=legality, chests=k, prestige=prestige, money=money,
             where=where)
