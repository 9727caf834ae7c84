"""Card conditions, targets and effects: the small vocabulary of CARD-1.

Every effect kind of ruleset.EFFECTS has a function here; a card that the
vocabulary cannot express is a named exception in BESPOKE.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .flow import Out
from .state import appended, bumped, counted, replaced
from .vocab import PLUNDER, PRIVATEER, REBEL, Legality

if TYPE_CHECKING:
    from .ruleset import Card, Raw, Ruleset
    from .state import State

Effect = Callable[["State", int, "Raw", Any, Out], None]
"""An effect kind's function: (state, seat, the effect's table, the card's target id or None, out)."""


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
PASSIVE = {"income": "income", "hand_limit": "hand_bonus", "extra_moves": "moves_bonus"}


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


def _gain_galleon(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    before = st.fships[seat]
    st.fships = replaced(st.fships, seat, min(st.rs.max_ships, before + eff["n"]))      # shared: replaced
    out.emit("GalleonGained", "CARD-1", seat=seat, ships=st.fships[seat], gained=st.fships[seat] - before)


def _found_colony(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    c = st.rs.col_index[target]
    st.col_owner = replaced(st.col_owner, c, seat)          # shared between states: replaced
    st.col_labour = replaced(st.col_labour, c, None)
    st.col_chests = replaced(st.col_chests, c, 0)
    out.emit("ColonyFounded", "CARD-1", seat=seat, colony=target)


def _build_fort(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.col_fort = replaced(st.col_fort, st.rs.col_index[target], True)      # shared: replaced
    out.emit("FortBuilt", "CARD-1", seat=seat, colony=target)


def _set_legality(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    legality = Legality(eff["value"])
    st.legality = replaced(st.legality, seat, legality)          # shared between states: replaced
    out.emit("LegalityChanged", "TRS-6", seat=seat, legality=legality)


def _income(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.income = _raised(st.income, seat, eff["n"])          # shared between states: replaced, never changed
    out.emit("IncomeIncreased", "GDS-7", seat=seat, amount=eff["n"], income=st.income[seat])


def _hand_limit(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.hand_bonus = _raised(st.hand_bonus, seat, eff["n"])          # shared between states: replaced, never changed
    out.emit("HandLimitIncreased", "HND-1", seat=seat, amount=eff["n"], hand_limit=st.hand_limit(seat))


def _extra_moves(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.moves_bonus = _raised(st.moves_bonus, seat, eff["n"])          # shared between states: replaced, never changed
    out.emit("MovesIncreased", "SAIL-1", seat=seat, amount=eff["n"],
             moves=st.rs.fleet_moves + st.moves_bonus[seat])


def _prestige(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.prestige = _raised(st.prestige, seat, eff["n"])          # shared between states: replaced
    out.emit("PrestigeGained", "CARD-1", seat=seat, amount=eff["n"], source="card")


def _money(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.money[seat] += eff["n"]
    st.minted += eff["n"]
    out.emit("MoneyGained", "CARD-1", seat=seat, amount=eff["n"])


def _new_site(st: State, zone_id: str, kind: str, count: int, cap: int) -> str:
    k = sum(1 for s in st.site_ids if s.startswith(f"{zone_id}.{kind}-")) + 1
    sid = f"{zone_id}.{kind}-{k}"
    # a site's id, name, zone, kind, wilderness and capacity never change once it is on the map,
    # so states share those lists (State.copy): a new site replaces them instead of appending
    # (as it does site_count, which other rules change by replacing it too)
    st.site_ids = st.site_ids + [sid]
    st.site_names = st.site_names + [f"{kind.title()} {k}"]
    st.site_zone = st.site_zone + [st.rs.zone_index[zone_id]]
    st.site_kind = st.site_kind + [kind]
    st.site_wild = st.site_wild + [False]
    st.site_count = st.site_count + [count]
    st.site_cap = st.site_cap + [cap]
    return sid


def _raised(per_seat: list[int], seat: int, n: int) -> list[int]:
    """A new per-seat list with `seat`'s entry raised by n (for the lists states share)."""
    new = per_seat[:]
    new[seat] += n
    return new


def _place_visita(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    n = min(eff["indigenous"], st.supply["indigenous"])
    st.supply = counted(st.supply, "indigenous", -n)      # shared between states: replaced
    sid = _new_site(st, target, "visita", n, 0)
    out.emit("VisitaPlaced", "CARD-1", seat=seat, zone=target, site=sid, indigenous=n)


def _place_cathedral(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    sid = _new_site(st, target, "cathedral", 0, eff["capacity"])
    out.emit("CathedralPlaced", "CARD-1", seat=seat, zone=target, site=sid, capacity=eff["capacity"])


def _remove_rebels(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    z = st.rs.zone_index[target]
    n = min(eff["n"], st.rebels[z])
    st.rebels = bumped(st.rebels, z, -n)           # shared between states: replaced
    st.gone = counted(st.gone, REBEL, n)
    out.emit("RebelsRemoved", "CARD-1", seat=seat, zone=target, count=n)


def _haven(st: State, seat: int, eff: Raw, target: Any, out: Out) -> None:
    st.havens = appended(st.havens, seat, st.rs.zone_index[target])     # shared between states (State.copy)
    out.emit("HavenFounded", "CARD-2", seat=seat, zone=target)


EFFECT: dict[str, Effect] = {
    "gain_galleon": _gain_galleon, "found_colony": _found_colony, "build_fort": _build_fort,
    "set_legality": _set_legality, "income": _income, "hand_limit": _hand_limit, "prestige": _prestige,
    "money": _money, "place_visita": _place_visita, "place_cathedral": _place_cathedral,
    "remove_rebels": _remove_rebels, "extra_moves": _extra_moves, "haven": _haven,
}


def _treaty_of_madrid(st: State, seat: int, out: Out) -> None:
    """Tratado de Madrid (1670): Spain recognises the buccaneer powers; every PLUNDER Flagship becomes PRIVATEER."""
    for s in range(st.n):
        if st.legality[s] == PLUNDER:
            st.legality = replaced(st.legality, s, PRIVATEER)          # shared: replaced
            out.emit("LegalityChanged", "TRS-6", seat=s, legality=PRIVATEER)


BESPOKE: dict[str, Callable[[State, int, Out], None]] = {"treaty_of_madrid": _treaty_of_madrid}
