"""Cards (CARD-1): their conditions, their targets, playing their effects.

The effect kinds, each with the function that applies it, are engine/effects.py's registry; a
card that the kinds cannot express is a named exception in BESPOKE.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from .flow import Out
from .effects import EFFECTS, Effect
from .state import replaced
from .vocab import PLUNDER, PRIVATEER

if TYPE_CHECKING:
    from .ruleset import Card, Ruleset
    from .state import State


def targets(st: State, seat: int, kind: str | None) -> Sequence[str | None]:
    """The ids a card's targeted effect may name (PRJ-11); [None] when it names none."""
    rs = st.rs
    if kind is None:
        return [None]
    if kind == "empty_colony_space":
        return [rs.col_ids[c] for c, o in enumerate(st.col_owner) if o is None]
    if kind == "own_colony_without_fort":
        return [rs.col_ids[c] for c, o in enumerate(st.col_owner) if o == seat and not st.col_fort[c]]
    if kind == "land_zone":
        return rs.zone_ids[: rs.n_land]
    if kind == "rebellious_zone":
        return [rs.zone_ids[z] for z in range(rs.n_land) if st.rebels[z] > 0]
    raise AssertionError(kind)


def requirement_failure(st: State, seat: int, card: Card) -> str | None:
    """Why `seat` may not play `card` now (conditions and cost), or None."""
    req = card.requires
    if st.money[seat] < card.cost:
        return f"{card.name} costs ${card.cost}."
    if "colonies" in req and len(st.colonies_of(seat)) < req["colonies"]:
        return f"{card.name} needs at least {req['colonies']} colonies."
    if "legality" in req and st.legality[seat] not in req["legality"]:
        return f"{card.name} needs a Flagship of legality {', '.join(req['legality'])}."
    if "nation" in req and st.nation[seat] != req["nation"]:
        return f"{card.name} can only be played by the {req['nation']}."
    return None


# Effects that only raise a number kept per seat (read by later years): kind -> state field.
PASSIVE = {k: e.per_seat for k, e in EFFECTS.items() if e.per_seat is not None}


def tableau_bonuses(rs: Ruleset, tableau: Iterable[tuple[str, str | None]]) -> dict[str, int]:
    """The per-seat numbers a tableau gives (income, hand_bonus, moves_bonus): used to set up scenarios."""
    out = {field: 0 for field in PASSIVE.values()}
    for c, _ in tableau:
        for eff in rs.cards[c].effects:
            if eff["kind"] in PASSIVE:
                out[PASSIVE[eff["kind"]]] += eff["n"]
    return out


def play_effects(st: State, seat: int, card: Card, target: str | None, out: Out) -> None:
    for eff in card.effects:
        EFFECT[eff["kind"]](st, seat, eff, target, out)
    if card.bespoke:
        BESPOKE[card.bespoke](st, seat, out)


EFFECT: dict[str, Effect] = {k: e.apply for k, e in EFFECTS.items()}
"""Each effect kind's function (engine/effects.py declares them)."""


def _treaty_of_madrid(st: State, seat: int, out: Out) -> None:
    """Tratado de Madrid (1670): Spain recognises the buccaneer powers; every PLUNDER Flagship becomes PRIVATEER."""
    for s in range(st.n):
        if st.legality[s] == PLUNDER:
            st.legality = replaced(st.legality, s, PRIVATEER)          # shared: replaced
            out.emit("LegalityChanged", "TRS-6", seat=s, legality=PRIVATEER)


BESPOKE: dict[str, Callable[[State, int, Out], None]] = {"treaty_of_madrid": _treaty_of_madrid}
