"""End of a cycle, end of the game and victory (CYC-2, CYC-3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .flow import Out
from .keys import seed_hash

if TYPE_CHECKING:
    from .state import State


def goal_standing(st: State) -> list[int]:
    """What CYC-2's goal counts for every seat: the Prestige held, or with PRJ-56's variant
    (`prestige_goal = "standing"`) the score CYC-3 would give if the game ended now (held
    Prestige + 1 per $money_per_prestige + the colonies' Prestige)."""
    if st.rs.prestige_goal != "standing":
        return list(st.prestige)
    colonies = colony_prestige_all(st)
    return [st.prestige[s] + st.money[s] // st.rs.money_per_prestige + colonies[s] for s in range(st.n)]


def end_of_cycle(st: State, out: Out) -> bool:
    """CYC-2: the game ends after the last cycle's Sail Year, or after one where someone reached
    the goal (Prestige held; PRJ-56's variant: the score CYC-3 would give), from cycle
    `goal_from_cycle` on (PRJ-57; 1 in the reference, CYC-2 as written)."""
    rs = st.rs
    standing = goal_standing(st)
    checked = st.cycle >= rs.goal_from_cycle                    # PRJ-57: not before this cycle's Sail Year
    leaders = [s for s in range(st.n) if checked and standing[s] >= rs.prestige_to_win]
    if st.cycle >= rs.cycles or leaders:
        final_scoring(st, out, "prestige_goal" if leaders else "last_cycle")
    return False


# The last answer of colony_prestige_all, with copies of what it was worked out from (the
# ruleset, the colonies' owners, the nations): states of one game share those lists until a
# rule changes one (State.copy), so most calls (each view, each search's cut-off) find it.
_LAST_COLONY_PRESTIGE: tuple[Any, list[Any], list[str], list[int]] = (None, [], [], [])


def colony_prestige_all(st: State) -> list[int]:
    """CYC-3 with PRJ-30, for every seat: the Prestige its colonies will add at the final
    scoring if it were now (the King's colonies of the Spanish player score
    `crown_colony_prestige`); 0 once the game is over and they have scored. A new list each
    call; the last one's numbers are reused when the owners and nations are equal (by value)."""
    global _LAST_COLONY_PRESTIGE
    if st.over:
        return [0] * st.n
    rs, owners = st.rs, st.col_owner
    last_rs, last_owners, last_nations, last = _LAST_COLONY_PRESTIGE
    if last_rs is rs and last_owners == owners and last_nations == st.nation:
        return last[:]
    normal, kings, crown = rs.prestige_per_colony, rs.crown_colony_prestige, rs.spanish_crown[st.n]   # PRJ-75
    spanish = st.spanish_seat()
    out = [0] * st.n
    for c, owner in enumerate(owners):
        if owner is not None and owner >= 0:
            out[owner] += kings if (owner == spanish and crown[c]) else normal
    _LAST_COLONY_PRESTIGE = (rs, owners[:], st.nation[:], out[:])     # one assignment: never half made
    return out


def final_scoring(st: State, out: Out, reason: str) -> None:
    """CYC-3: 1 Prestige per $money_per_prestige and per colony; most Prestige wins,
    then most money, then later in Player Order."""
    rs = st.rs
    breakdown: list[dict[str, Any]] = []
    colonies = colony_prestige_all(st)                # before st.over is set
    st.prestige = st.prestige[:]                      # shared between states: this state's own list
    for s in range(st.n):
        from_money = st.money[s] // rs.money_per_prestige
        from_colonies = colonies[s]
        st.prestige[s] += from_money + from_colonies
        breakdown.append({"seat": s, "from_money": from_money, "from_colonies": from_colonies,
                          "prestige": st.prestige[s], "money": st.money[s]})
    out.emit("FinalScoring", "CYC-3", breakdown=breakdown)
    ranking = sorted(range(st.n), key=lambda s: (st.prestige[s], st.money[s], st.order.index(s)), reverse=True)
    st.over = True
    st.stack = []
    st.result = {"winner": ranking[0], "ranking": ranking, "scores": list(st.prestige), "money": list(st.money),
                 "nations": list(st.nation), "cycles": st.cycle, "reason": reason}
    out.emit("GameEnded", "CYC-3", winner=ranking[0], ranking=ranking, scores=list(st.prestige), reason=reason,
             seed=st.seed, seed_hash=seed_hash(st.seed))
