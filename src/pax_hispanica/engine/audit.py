"""Conservation counts, for tests and for checking saved games: every meeple,
Chest, card and dollar is somewhere, or left play through a logged event."""

from __future__ import annotations

from .state import State
from .vocab import CHEST, CITIZEN, INDIGENOUS, REBEL, Meeple


def meeples(st: State) -> dict[str, int]:
    """Where every meeple is. Kinds convert (Indigenous -> Slave -> Rebel, PRJ-6) but the total is fixed."""
    c = {m.value: 0 for m in Meeple}
    for i, kind in enumerate(st.site_kind):
        c[CITIZEN if kind == "cathedral" else INDIGENOUS] += st.site_count[i]
    for lab in st.col_labour:
        if lab:
            c[lab] += 1
    for cargo in st.cargo:
        for x in cargo:
            if x != CHEST:
                c[x] += 1
    c[REBEL] += sum(st.rebels)
    return c


def meeple_total(st: State) -> int:
    """On the map, aboard, in the supply, or gone: constant for a whole game."""
    return (sum(meeples(st).values()) + st.supply["citizens"] + st.supply["indigenous"]
            + sum(v for k, v in st.gone.items() if k != CHEST))


def chest_total(st: State) -> int:
    return sum(st.col_chests) + sum(x.count(CHEST) for x in st.cargo) + st.supply["chests"] + st.gone[CHEST]


def cards(st: State) -> list[str]:
    """Every card, wherever it is (hands, tableaus, decks, discard, an auction in progress)."""
    out = [c for h in st.hands for c in h] + [c for t in st.tableaus for c, _ in t]
    return out + st.market + st.market_discard + st.haven


def money_balance(st: State) -> int:
    """Money held minus money created by the Pool plus money paid to it: constant."""
    return sum(st.money) - st.minted + st.burned
