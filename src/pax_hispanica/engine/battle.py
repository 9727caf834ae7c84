"""Land battles: Strength by counting tokens (BAT-1, BAT-2), secret Battle Card
support (BAT-3), ties to the target (BAT-4), consequences (BAT-5).

A battle is fought for a voyage (years/sail.py), which asks for support and applies the
battle's outcome to its own progress; nothing here reads the decision stack."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .flow import Out, require
from .state import bumped, counted, replaced
from .vocab import CHEST, REBEL, Cargo

if TYPE_CHECKING:
    from .state import State

SIDES = ("attacker", "target")          # BAT-3: the two Battle Cards; neutral is not allowed


def parse_target(st: State, zone: int, target: object) -> tuple[str, int | None]:
    """('colony', index) / ('rebels', None) / ('site', index), or ('', None) if not a target here."""
    rs = st.rs
    if target == "rebels":
        return ("rebels", None) if st.rebels[zone] > 0 else ("", None)
    if target in rs.col_index:
        c = rs.col_index[target]
        if rs.col_zone[c] == zone and st.col_owner[c] is not None:
            return "colony", c
        return "", None
    if target in st.site_ids:
        i = st.site_ids.index(target)
        if st.site_zone[i] == zone and st.site_kind[i] in ("tribal", "visita") and st.site_count[i] > 0:
            return "site", i
    return "", None


def targets(st: State, seat: int, zone: int) -> list[str]:
    rs = st.rs
    owner = st.col_owner
    out = [rs.col_ids[c] for c in rs.zone_cols[zone] if owner[c] is not None and owner[c] != seat]
    if st.rebels[zone] > 0:
        out.append("rebels")
    out += [st.site_ids[i] for i, z in enumerate(st.site_zone)
            if z == zone and st.site_kind[i] in ("tribal", "visita") and st.site_count[i] > 0]
    return out


def target_owner(st: State, kind: str, idx: int | None) -> int | None:
    return st.col_owner[idx] if kind == "colony" and idx is not None else None


def target_strength(st: State, zone: int, kind: str, idx: int | None) -> int:
    """BAT-1/BAT-2: the target's own side, before support."""
    if kind == "rebels":
        return st.rebels[zone]
    assert idx is not None, (kind, zone)
    if kind == "colony":
        owner = st.col_owner[idx]
        assert owner is not None                   # parse_target: an owned colony
        return st.owner_strength_in(owner, zone) + (1 if st.col_fort[idx] else 0)
    return st.site_count[idx]


def supporters(st: State, attacker: int, zone: int, owner: int | None) -> tuple[int, ...]:
    """BAT-3: every other player with tokens in the zone; 'other' is neither attacker nor target owner."""
    return tuple(s for s in st.order if s != attacker and s != owner and st.has_tokens_in(s, zone))


def declare(st: State, attacker: int, zone: int, target: str, out: Out) -> tuple[int, ...]:
    """BAT-1: announce the battle; the seats that may support a side (BAT-3), in Player Order."""
    kind, idx = parse_target(st, zone, target)
    owner = target_owner(st, kind, idx)
    sup = supporters(st, attacker, zone, owner)
    out.irreversible = True            # PRJ-2: a declared battle is never taken back
    out.emit("BattleDeclared", "BAT-1", attacker=attacker, zone=st.rs.zone_ids[zone], target=target,
             target_owner=owner, supporters=list(sup))
    return sup


@dataclass(frozen=True)
class BattleOutcome:
    """What a resolved battle means for the attacker's voyage (BAT-5)."""
    attacker: int
    won: bool
    sacked: int | None = None          # the colony sacked (its index): its Chests may be taken
    won_site: str | None = None        # the site subdued: its Indigenous may be enslaved (LOAD-1)
    routed: bool = False               # the Flagship went back to Europe: the voyage is over


def resolve(st: State, attacker: int, zone: int, target: str, sides: Mapping[int, str], out: Out) -> BattleOutcome:
    """BAT-4: compare; the higher wins, a tie favours the target. Then BAT-5 on the board; what
    it changes in the voyage is returned for the voyage to apply."""
    kind, idx = parse_target(st, zone, target)
    a = st.fships[attacker]                  # BAT-2: 1 per ship; carried Citizens count 0
    t = target_strength(st, zone, kind, idx)
    support = []
    for s in sorted(sides, key=st.order.index):
        strength = st.owner_strength_in(s, zone)
        support.append({"seat": s, "side": sides[s], "strength": strength})
        if sides[s] == "attacker":
            a += strength
        else:
            t += strength
    won = a > t
    out.emit("BattleResolved", "BAT-4", attacker=attacker, zone=st.rs.zone_ids[zone], target=target,
             attacker_strength=a, target_strength=t, support=support, winner="attacker" if won else "target")
    if won:
        return _attacker_wins(st, attacker, zone, kind, idx, target, out)
    return _attacker_loses(st, attacker, out)


def _attacker_wins(st: State, attacker: int, zone: int, kind: str, idx: int | None, target: str,
                   out: Out) -> BattleOutcome:
    if kind == "colony":
        assert idx is not None
        lab = st.col_labour[idx]
        if lab is not None:                      # gone, col_labour: shared between states, replaced
            st.gone = counted(st.gone, lab, 1)
            st.col_labour = replaced(st.col_labour, idx, None)
        out.emit("ColonySacked", "BAT-5", attacker=attacker, colony=target, owner=st.col_owner[idx],
                 labour_killed=lab)
        return BattleOutcome(attacker, True, sacked=idx)
    if kind == "rebels":
        st.rebels = bumped(st.rebels, zone, -1)         # shared between states: replaced
        st.gone = counted(st.gone, REBEL, 1)
        out.emit("RebelRemoved", "BAT-5", attacker=attacker, zone=st.rs.zone_ids[zone])
        return BattleOutcome(attacker, True)
    out.emit("SiteSubdued", "BAT-5", attacker=attacker, site=target)
    return BattleOutcome(attacker, True, won_site=target)


def lose_cargo(st: State, seat: int, items: list[Cargo], out: Out, rule: str) -> None:
    for item in items:
        if item == CHEST:
            st.supply = counted(st.supply, "chests", 1)   # shared between states: replaced
        else:
            st.gone = counted(st.gone, item, 1)        # shared between states: replaced
    if items:
        out.emit("CargoLost", rule, seat=seat, items=items)


def _attacker_loses(st: State, attacker: int, out: Out) -> BattleOutcome:
    if st.fships[attacker] > 1:
        st.fships = replaced(st.fships, attacker, st.fships[attacker] - 1)      # shared: replaced
        cap = st.fships[attacker] * st.rs.ship_capacity
        lost = st.cargo[attacker][cap:]
        st.cargo = replaced(st.cargo, attacker, st.cargo[attacker][:cap])      # shared: replaced
        out.emit("GalleonLost", "BAT-5", seat=attacker, ships=st.fships[attacker])
        lose_cargo(st, attacker, lost, out, "PRJ-5")
        return BattleOutcome(attacker, False)
    lost = st.cargo[attacker][:]
    st.cargo = replaced(st.cargo, attacker, [])
    st.fzone = replaced(st.fzone, attacker, st.rs.europe)      # shared: replaced
    out.emit("FlagshipRouted", "BAT-5", seat=attacker)
    lose_cargo(st, attacker, lost, out, "BAT-5")
    return BattleOutcome(attacker, False, routed=True)      # the voyage ends in Europe


def support_side(action: Mapping[str, Any]) -> str:
    side = action.get("side")
    require(side in SIDES, "no_neutral", "BAT-3",
            "Choose a Battle Card: support the 'attacker' or the 'target'; neutral is not allowed.")
    assert isinstance(side, str)
    return side
