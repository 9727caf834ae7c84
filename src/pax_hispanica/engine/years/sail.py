"""Sail Year, D4: in Player Order each fleet makes one voyage (SAIL-1), fighting
(BAT), loading (LOAD, TRS) and scoring in Europe (TRS-5); then the cycle ends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from .. import battle, loading, treasure
from ..battle import BattleOutcome
from ..decisions import (INT, NONE, STR, Decision, SupportContext, VoyageContext, VoyageProgress,
                         register)
from ..end import end_of_cycle
from .. import why
from ..errors import IllegalAction
from ..flow import Out, Step, require
from ..sealed import commit
from ..state import replaced
from ..vocab import ABOARD, CHEST, SMUGGLER

if TYPE_CHECKING:
    from ..state import State


def voyages(st: State, out: Out) -> bool:
    i = st.cursor.get("i", 0)
    if i >= len(st.order):
        return False
    st.cursor = {**st.cursor, "i": i + 1}           # shared between states: replaced
    seat = st.order[i]
    Voyage.push(st, (seat,), **Voyage.progress(st, seat))
    out.emit("VoyageBegan", "SAIL-1", seat=seat, zone=st.rs.zone_ids[st.fzone[seat]])
    if st.rs.is_land(st.fzone[seat]):             # PRJ-17: a voyage that begins in a land zone visits it
        loading.emigrate(st, seat, st.fzone[seat], out)
    return True


def voyage_options(st: State, seat: int, v: VoyageProgress) -> list[dict[str, Any]]:
    rs = st.rs
    z = st.fzone[seat]
    opts = []
    if not v["started"] and z == rs.europe:
        opts += [{"seat": seat, "type": "start_at_haven", "zone": rs.zone_ids[h]} for h in dict.fromkeys(st.havens[seat])]
    if v["moves"] > 0:
        opts += [{"seat": seat, "type": "move", "to": rs.zone_ids[a]} for a in rs.adjacent[z]]
    if rs.is_land(z):
        if z not in v["battled"]:
            opts += [{"seat": seat, "type": "attack", "target": t} for t in battle.targets(st, seat, z)]
        if v["won_site"] is not None and v["won_site"] in st.site_ids:
            i = st.site_ids.index(v["won_site"])
            n = min(st.site_count[i], loading.meeple_room(st, seat))
            opts += [{"seat": seat, "type": "enslave", "count": k} for k in range(1, n + 1)]
        here = rs.zone_cols[z]            # the zone's colony spaces, in colony order
        owner, chests = st.col_owner, st.col_chests
        for c in here:
            if owner[c] is not None and chests[c] > 0:
                n = treasure.load_limit(st, seat, c, v)
                opts += [{"seat": seat, "type": "load_chests", "colony": rs.col_ids[c], "count": k}
                         for k in range(1, n + 1)]
        cargo = st.cargo[seat]
        if cargo:
            kinds = [str(m) for m in dict.fromkeys(x for x in cargo if x != CHEST)]   # an action holds plain strings (PRJ-7)
            labour = st.col_labour
            opts += [{"seat": seat, "type": "unload", "colony": rs.col_ids[c], "meeple": m}
                     for c in here if owner[c] == seat and labour[c] is None for m in kinds]
        if z in st.havens[seat] and CHEST in st.cargo[seat]:
            opts.append({"seat": seat, "type": "unload_haven"})
    opts.append({"seat": seat, "type": "end_voyage"})
    return opts


def end_voyage(st: State, seat: int, out: Out) -> None:
    st.stack.pop()
    out.emit("VoyageEnded", "SAIL-1", seat=seat, zone=st.rs.zone_ids[st.fzone[seat]])


class Voyage(Decision[VoyageContext]):
    """SAIL-1: one fleet's voyage, one action at a time until it ends; the decision keeps the
    voyage's progress (VoyageProgress) and applies its battles' outcomes to it."""

    name = "voyage"
    rule = "SAIL-1"
    actions = {"start_at_haven": {"zone": (STR,)}, "move": {"to": (STR,)}, "attack": {"target": (STR,)},  # noqa: RUF012 -- a ClassVar of engine/decisions.Decision
               "enslave": {"count": (INT,)}, "load_chests": {"colony": (STR,), "count": (INT,)},
               "unload": {"colony": (STR,), "meeple": (STR, NONE)}, "unload_haven": {}, "end_voyage": {}}

    observation = (("moves", "number"), ("started", "flag"), ("taken", "number"), ("royal", "number"),
                   ("won_site", "site"), ("sacked", "colony"), ("battled", "zones"))

    def reasons(self, board: Any, dec: Mapping[str, Any]) -> list[dict[str, Any]]:
        return why.voyage_reasons(board, dec)

    @staticmethod
    def progress(st: State, seat: int) -> VoyageProgress:
        """A voyage's progress when it begins."""
        return {"moves": st.rs.fleet_moves + st.moves_bonus[seat], "battled": (), "started": False,
                "won_site": None, "sacked": None, "taken": 0}

    @staticmethod
    def of(st: State, seat: int) -> VoyageContext:
        """The voyage under way: the pending decision once a battle's support is revealed."""
        v = st.stack[-1]
        assert v["d"] == Voyage.name and v["seats"] == (seat,), v
        return cast(VoyageContext, v)          # the saved dict of a voyage decision

    @staticmethod
    def apply_battle(st: State, v: VoyageContext, outcome: BattleOutcome, out: Out) -> None:
        """BAT-5 for the voyage: a sacked colony's Chests may be loaded (TRS-2, TRS-4), a subdued
        site's Indigenous enslaved (LOAD-1); a routed Flagship ends the voyage in Europe."""
        if outcome.sacked is not None:
            v["sacked"] = outcome.sacked
            v["taken"] = 0
        if outcome.won_site is not None:
            v["won_site"] = outcome.won_site
        if outcome.routed:
            assert st.stack[-1] is v
            end_voyage(st, outcome.attacker, out)

    def legal(self, st: State, dec: VoyageContext, seat: int) -> list[dict[str, Any]]:
        return [{"kind": "choice", "decision": "voyage", "rule": "SAIL-1", "options": voyage_options(st, seat, dec)}]

    def act(self, st: State, dec: VoyageContext, action: dict[str, Any], out: Out) -> None:
        seat, kind = action["seat"], action["type"]
        handler = VOYAGE_ACTIONS.get(kind)
        if handler is None:
            raise IllegalAction("wrong_action", "SAIL-1",
                                "On a voyage: move, attack, enslave, load_chests, unload, unload_haven or end_voyage.")
        handler(st, seat, dec, action, out)
register(Voyage)


def _start_at_haven(st: State, seat: int, v: VoyageContext, action: dict[str, Any], out: Out) -> None:
    rs = st.rs
    z = rs.zone_index.get(action.get("zone", ""))
    require(not v["started"] and st.fzone[seat] == rs.europe, "voyage_started", "PRJ-9",
            "A voyage can start at a Haven only from Europe, before the first move.")
    require(z is not None and z in st.havens[seat], "not_your_haven", "CARD-2", "That is not one of your Havens.")
    assert z is not None
    st.fzone = replaced(st.fzone, seat, z)          # shared between states: replaced
    v["started"] = True
    out.emit("VoyageStartedAtHaven", "CARD-2", seat=seat, zone=rs.zone_ids[z])
    loading.emigrate(st, seat, z, out)


def _move(st: State, seat: int, v: VoyageContext, action: dict[str, Any], out: Out) -> None:
    rs = st.rs
    to = rs.zone_index.get(action.get("to", ""))
    if v["moves"] <= 0:
        raise IllegalAction("no_moves_left", "SAIL-1", "Your fleet has no moves left on this voyage.")
    if to is None or to not in rs.adjacent[st.fzone[seat]]:
        raise IllegalAction("not_adjacent", "SAIL-1", f"{action.get('to')!r} is not adjacent to your fleet's zone.")
    st.fzone = replaced(st.fzone, seat, to)         # shared between states: replaced
    v["moves"] -= 1
    v["started"] = True
    v["won_site"] = None
    v["sacked"] = None
    v["taken"] = 0
    out.emit("FleetMoved", "SAIL-1", seat=seat, zone=rs.zone_ids[to], moves_left=v["moves"])
    if to == rs.europe:                       # SAIL-1: Europe ends the voyage and unloads (TRS-5)
        treasure.score(st, seat, st.legality[seat], out)
        end_voyage(st, seat, out)
    elif rs.is_land(to):
        loading.emigrate(st, seat, to, out)


def _attack(st: State, seat: int, v: VoyageContext, action: dict[str, Any], out: Out) -> None:
    z = st.fzone[seat]
    require(st.rs.is_land(z), "not_in_land_zone", "SAIL-1", "Battles are fought in land zones.")
    require(z not in v["battled"], "already_battled", "PRJ-16",
            "Your fleet has already fought in this land zone on this voyage.")
    target = action.get("target")
    require(target in battle.targets(st, seat, z), "bad_target", "BAT-2",
            f"{target!r} is not something your fleet can attack here.")
    assert isinstance(target, str)
    v["battled"] = v["battled"] + (z,)
    supporters = battle.declare(st, seat, z, target, out)
    if supporters:
        Support.push(st, supporters, id=f"battle.{st.cycle}.{st.version}", attacker=seat, zone=z, target=target)
    else:
        Voyage.apply_battle(st, v, battle.resolve(st, seat, z, target, {}, out), out)


def _enslave(st: State, seat: int, v: VoyageContext, action: dict[str, Any], out: Out) -> None:
    site = v["won_site"]
    require(site is not None and site in st.site_ids, "no_battle_won", "LOAD-1",
            "Indigenous are enslaved only after winning a land battle against their site.")
    assert site is not None
    i = st.site_ids.index(site)
    count = action.get("count")
    room = loading.meeple_room(st, seat)
    require(room > 0, "no_vacant_colony", "LOAD-2", "No meeple can be loaded unless you have a vacant colony for it.")
    require(isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= min(room, st.site_count[i]),
            "bad_count", "LOAD-2", f"You can carry off 1 to {min(room, st.site_count[i])} Indigenous.")
    assert isinstance(count, int)
    loading.enslave(st, seat, i, count, out)


def _load_chests(st: State, seat: int, v: VoyageContext, action: dict[str, Any], out: Out) -> None:
    rs = st.rs
    c = rs.col_index.get(action.get("colony", ""))
    require(c is not None and rs.col_zone[c] == st.fzone[seat] and st.col_owner[c] is not None,
            "bad_colony", "TRS-1", "Load Chests from a colony in your fleet's land zone.")
    assert c is not None
    require(treasure.chest_terms(st, seat, c, v) is not None, "legality_forbids", "TRS-1",
            f"A {st.legality[seat]} Flagship may not load Chests from that colony now.")
    n = treasure.load_limit(st, seat, c, v)
    count = action.get("count")
    if not (isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= n):
        raise IllegalAction("bad_count", "TRS-1",
                            f"You can load 1 to {n} Chests there (cargo space, Chests present and money)." if n else
                            "No Chests can be loaded there now (cargo space, Chests present and money).")
    assert isinstance(count, int)
    treasure.load(st, seat, c, count, v, out)


def _unload(st: State, seat: int, v: VoyageContext, action: dict[str, Any], out: Out) -> None:
    rs = st.rs
    c = rs.col_index.get(action.get("colony", ""))
    meeple = action.get("meeple")
    require(loading.meeples_aboard(st, seat) > 0, "no_meeple_aboard", "LOAD-4", "No meeple aboard to unload.")
    require(meeple is None or (meeple in ABOARD and meeple in st.cargo[seat]),
            "no_such_meeple", "LOAD-4", f"No {meeple!r} aboard to unload.")
    require(c is not None and rs.col_zone[c] == st.fzone[seat] and st.col_owner[c] == seat
            and st.col_labour[c] is None, "not_own_vacant_colony", "LOAD-4",
            "Meeples are unloaded onto your own vacant colony in this land zone.")
    assert c is not None
    loading.unload(st, seat, c, out, meeple)
    loading.emigrate(st, seat, st.fzone[seat], out)   # PRJ-17: room freed aboard may take emigrants


def _unload_haven(st: State, seat: int, v: VoyageContext, action: dict[str, Any], out: Out) -> None:
    z = st.fzone[seat]
    require(z in st.havens[seat], "not_your_haven", "CARD-2", "Your fleet is not at one of your Havens.")
    require(CHEST in st.cargo[seat], "no_chests", "CARD-2", "No Chests aboard to unload.")
    treasure.score(st, seat, SMUGGLER, out, rule="CARD-2", where=st.rs.zone_ids[z])
    end_voyage(st, seat, out)


def _end_voyage(st: State, seat: int, v: VoyageContext, action: dict[str, Any], out: Out) -> None:
    end_voyage(st, seat, out)


VOYAGE_ACTIONS = {"start_at_haven": _start_at_haven, "move": _move, "attack": _attack, "enslave": _enslave,
                  "load_chests": _load_chests, "unload": _unload, "unload_haven": _unload_haven,
                  "end_voyage": _end_voyage}


assert set(VOYAGE_ACTIONS) == set(Voyage.actions)


class Support(Decision[SupportContext]):
    """BAT-3: every other player with tokens in the zone plays a Battle Card, in secret:
    support the attacker or the target (never neutral)."""

    name = "support"
    rule = "BAT-3"
    actions = {"support": {"side": (STR,)}}  # noqa: RUF012 -- a ClassVar of engine/decisions.Decision
    sealed = True
    secret_field = "side"
    observation = (("attacker", "seat"), ("target", "battle_target"), ("zone", "zone"))

    def reasons(self, board: Any, dec: Mapping[str, Any]) -> list[dict[str, Any]]:
        return why.support_reasons(board, dec)

    def secret_domain(self, info: Mapping[str, Any], dec: Mapping[str, Any], seat: int) -> Sequence[str]:
        return battle.SIDES

    def legal(self, st: State, dec: SupportContext, seat: int) -> list[dict[str, Any]]:
        return [{"kind": "choice", "decision": "support", "rule": "BAT-3",
                 "options": [{"seat": seat, "type": "support", "side": side} for side in battle.SIDES]}]

    def act(self, st: State, dec: SupportContext, action: dict[str, Any], out: Out) -> None:
        require(action["type"] == "support", "wrong_action", "BAT-3", "Play a Battle Card: attacker or target.")
        side = battle.support_side(action)
        outcome = commit(st, dec, action["seat"], side, out, self.resolve)
        if outcome is not None:               # every Battle Card revealed: the voyage goes on
            Voyage.apply_battle(st, Voyage.of(st, dec["attacker"]), outcome, out)

    @staticmethod
    def resolve(st: State, dec: SupportContext, sides: dict[int, str], out: Out) -> BattleOutcome:
        return battle.resolve(st, dec["attacker"], dec["zone"], dec["target"], sides, out)
register(Support)


STEPS: tuple[Step, ...] = (voyages, end_of_cycle)
