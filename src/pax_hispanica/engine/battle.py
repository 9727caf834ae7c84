"""Land battles: Strength by counting tokens (BAT-1, BAT-2), secret Battle Card
support (BAT-3), ties to the target (BAT-4), consequences (BAT-5)."""

from __future__ import annotations

from .flow import Out, push, require
from .sealed import commit
from .state import replaced


def parse_target(st, zone: int, target) -> tuple[str, int | None]:
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


def targets(st, seat: int, zone: int) -> list[str]:
    rs = st.rs
    out = [rs.col_ids[c] for c, z in enumerate(rs.col_zone)
           if z == zone and st.col_owner[c] is not None and st.col_owner[c] != seat]
    if st.rebels[zone] > 0:
        out.append("rebels")
    out += [st.site_ids[i] for i, z in enumerate(st.site_zone)
            if z == zone and st.site_kind[i] in ("tribal", "visita") and st.site_count[i] > 0]
    return out


def target_owner(st, kind: str, idx) -> int | None:
    return st.col_owner[idx] if kind == "colony" else None


def target_strength(st, zone: int, kind: str, idx) -> int:
    """BAT-1/BAT-2: the target's own side, before support."""
    if kind == "colony":
        return st.owner_strength_in(st.col_owner[idx], zone) + (1 if st.col_fort[idx] else 0)
    if kind == "rebels":
        return st.rebels[zone]
    return st.site_count[idx]


def supporters(st, attacker: int, zone: int, owner) -> tuple:
    """BAT-3: every other player with tokens in the zone; 'other' is neither attacker nor target owner."""
    return tuple(s for s in st.order if s != attacker and s != owner and st.has_tokens_in(s, zone))


def declare(st, attacker: int, zone: int, target: str, out: Out) -> None:
    kind, idx = parse_target(st, zone, target)
    owner = target_owner(st, kind, idx)
    sup = supporters(st, attacker, zone, owner)
    out.irreversible = True            # PRJ-2: a declared battle is never taken back
    out.emit("BattleDeclared", "BAT-1", attacker=attacker, zone=st.rs.zone_ids[zone], target=target,
             target_owner=owner, supporters=list(sup))
    if sup:
        push(st, "support", sup, "BAT-3", sealed=True, committed=(), id=f"battle.{st.cycle}.{st.version}",
             attacker=attacker, zone=zone, target=target)
    else:
        resolve(st, {"attacker": attacker, "zone": zone, "target": target}, {}, out)


def resolve(st, dec: dict, sides: dict, out: Out) -> None:
    """BAT-4: compare; the higher wins, a tie favours the target. Then BAT-5."""
    attacker, zone, target = dec["attacker"], dec["zone"], dec["target"]
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
    voyage = st.stack[-1]
    if won:
        _attacker_wins(st, voyage, attacker, zone, kind, idx, target, out)
    else:
        _attacker_loses(st, voyage, attacker, out)


def _attacker_wins(st, voyage, attacker, zone, kind, idx, target, out):
    if kind == "colony":
        lab = st.col_labour[idx]
        if lab is not None:
            st.gone[lab] += 1
            st.col_labour[idx] = None
        voyage["sacked"] = idx
        voyage["taken"] = 0
        out.emit("ColonySacked", "BAT-5", attacker=attacker, colony=target, owner=st.col_owner[idx],
                 labour_killed=lab)
    elif kind == "rebels":
        st.rebels[zone] -= 1
        st.gone["rebel"] += 1
        out.emit("RebelRemoved", "BAT-5", attacker=attacker, zone=st.rs.zone_ids[zone])
    else:
        voyage["won_site"] = target
        out.emit("SiteSubdued", "BAT-5", attacker=attacker, site=target)


def lose_cargo(st, seat: int, items: list, out: Out, rule: str) -> None:
    for item in items:
        if item == "chest":
            st.supply["chests"] += 1
        else:
            st.gone[item] += 1
    if items:
        out.emit("CargoLost", rule, seat=seat, items=items)


def _attacker_loses(st, voyage, attacker, out):
    if st.fships[attacker] > 1:
        st.fships = replaced(st.fships, attacker, st.fships[attacker] - 1)      # shared: replaced
        cap = st.fships[attacker] * st.rs.ship_capacity
        lost = st.cargo[attacker][cap:]
        del st.cargo[attacker][cap:]
        out.emit("GalleonLost", "BAT-5", seat=attacker, ships=st.fships[attacker])
        lose_cargo(st, attacker, lost, out, "PRJ-5")
        return
    lost = st.cargo[attacker][:]
    st.cargo[attacker] = []
    st.fzone[attacker] = st.rs.europe
    out.emit("FlagshipRouted", "BAT-5", seat=attacker)
    lose_cargo(st, attacker, lost, out, "BAT-5")
    st.stack.pop()                            # the voyage ends in Europe
    out.emit("VoyageEnded", "SAIL-1", seat=attacker, zone=st.rs.zone_ids[st.rs.europe])


def support_side(st, dec, action) -> str:
    side = action.get("side")
    require(side in ("attacker", "target"), "no_neutral", "BAT-3",
            "Choose a Battle Card: support the 'attacker' or the 'target'; neutral is not allowed.")
    return side


def commit_support(st, dec, seat, side, out):
    commit(st, dec, seat, side, out, resolve)

