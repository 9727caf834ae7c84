"""Why not? The options the rules forbid a seat right now, each with its reason and rule,
and a battle's Strengths before it is fought (BAT-1, BAT-2, BAT-3).

Everything here is computed from **one seat's view** (engine/view.py) and the public
ruleset data: never from the state, so nothing it says can reveal a secret (another
hand, a deck below its top, a sealed choice). `api.unavailable(state, seat)` builds that
view first; tests/engine/test_why.py changes everything the seat cannot see and checks
that the answer stays the same.

A descriptor is `{"decision", "action", "code", "rule", "params"}`:
- `action`: the shape of the action refused, as `legal_actions` would list it, seat and
  type included; every field given is one the player could pick (a card of the hand, a
  zone next to the fleet), a field left out is one that has no value that would help;
- `code`: a stable name of the reason (`cannot_afford`, `rebellious_zone`, `fleet_full`...);
- `rule`: the rule ID that forbids it;
- `params`: what a sentence needs: ids (cards, colonies, sites, zones) and numbers.

Each decision type declares its reasons (`Decision.reasons`, engine/decisions.py); the ones
below are the engine's. These are the common reasons per decision type, not every impossible action: an action
the player could never have thought of here (a move across the map) is not listed. Each
listed action, when it names every field, is refused by `api.apply` (the test checks it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .decisions import DECISIONS
from .ruleset import Ruleset, Rulesets
from .vocab import DECKS

Descriptor = dict[str, Any]

CROWN_OWNER = "crown"        # how a view names the Crown as an owner


def ruleset_of(view: Mapping[str, Any], rs: Ruleset | Rulesets) -> Ruleset:
    """The view's ruleset: `rs` itself, or resolved from the view's names by `rs` (a resolver,
    only when needed: the engine loads none itself)."""
    if isinstance(rs, Ruleset):
        return rs
    return rs(str(view.get("ruleset") or "reference"), dict(view.get("ruleset_params") or {}) or None)


class _Board:
    """The parts of a view these reasons read, by id."""

    def __init__(self, view: Mapping[str, Any], rs: Ruleset) -> None:
        self.view, self.rs = view, rs
        # the asked seat (unavailable() builds a board for an asked seat only); a spectator's
        # board (battle previews) reads view["viewer"] itself, and its seat here is -1, never read
        # (an int either way: the compiled engine checks the declared type)
        viewer = view["viewer"]
        self.seat: int = -1 if viewer is None else viewer
        self.players = view["players"]
        self.me = self.players[self.seat] if viewer is not None else {}
        self.colonies = view.get("colonies") or []
        self.sites = view.get("sites") or []
        self.rebels: Mapping[str, int] = view.get("rebels") or {}

    def money(self, seat: int | None = None) -> int:
        return int(self.players[self.seat if seat is None else seat]["money"])

    def is_land(self, zone: str) -> bool:
        z = self.rs.zone_index.get(zone)
        return z is not None and self.rs.is_land(z)

    def colony(self, cid: str) -> Mapping[str, Any]:
        return next(c for c in self.colonies if c["id"] == cid)

    def spanish_seat(self) -> int | None:
        for p in self.players:
            if self.rs.nations.get(p["nation"], {}).get("crown"):
                return int(p["seat"])
        return None

    def free_space(self) -> int:
        f = self.me["fleet"]
        return int(f["ships"]) * int(self.rs.ship_capacity) - len(f["cargo"])

    def meeples_aboard(self) -> int:
        return sum(1 for x in self.me["fleet"]["cargo"] if x != "chest")

    def vacant(self, seat: int) -> list[Mapping[str, Any]]:
        return [c for c in self.colonies if c["owner"] == seat and c["labour"] is None]

    def strength(self, owner: Any, zone: str) -> int:
        """BAT-2: an owner's colonies in the zone, the Citizens working them, and its fleet there."""
        s: int = sum(1 + (c["labour"] == "citizen") for c in self.colonies if c["zone"] == zone and c["owner"] == owner)
        if isinstance(owner, int) and self.players[owner]["fleet"]["zone"] == zone:
            s += int(self.players[owner]["fleet"]["ships"])
        return s

    def has_tokens(self, seat: int, zone: str) -> bool:
        return self.players[seat]["fleet"]["zone"] == zone or any(
            c["zone"] == zone and c["owner"] == seat for c in self.colonies)

    def targets(self, seat: int, zone: str) -> list[str]:
        """What a fleet of `seat` may attack in `zone` (battle.targets)."""
        out = [c["id"] for c in self.colonies if c["zone"] == zone and c["owner"] is not None and c["owner"] != seat]
        if self.rebels.get(zone, 0) > 0:
            out.append("rebels")
        out += [s["id"] for s in self.sites
                if s["zone"] == zone and s["kind"] in ("tribal", "visita") and s["count"] > 0]
        return out


def _d(decision: str, action: dict[str, Any], code: str, rule: str, **params: Any) -> Descriptor:
    return {"decision": decision, "action": action, "code": code, "rule": rule, "params": params}


# ---- per decision type: each decision class declares its own (`Decision.reasons`) -------------
def labour_reasons(b: _Board, dec: Mapping[str, Any]) -> list[Descriptor]:
    """LAB-1..LAB-5: the sources each colony to staff cannot take now."""
    rs, seat, out = b.rs, b.seat, []
    for cid in dec.get("colonies") or []:
        zone = b.colony(cid)["zone"]
        base = {"seat": seat, "type": "labour", "colony": cid}
        cathedrals = [s for s in b.sites if s["kind"] == "cathedral"
                      and (rs.employ_range == "anywhere" or s["zone"] == zone)]
        if not cathedrals:
            out.append(_d("labour", {**base, "source": "employ"}, "no_cathedral", "LAB-2", colony=cid, zone=zone))
        for s in cathedrals:
            a = {**base, "source": "employ", "site": s["id"]}
            if s["count"] <= 0:
                out.append(_d("labour", a, "no_citizen", "LAB-1", colony=cid, site=s["id"]))
            elif b.money() < rs.employ_cost:
                out.append(_d("labour", a, "cannot_afford", "LAB-1", colony=cid, site=s["id"],
                              cost=rs.employ_cost, money=b.money()))
        for s in b.sites:
            if s["zone"] != zone or s["kind"] not in ("tribal", "visita"):
                continue
            a = {**base, "source": "kidnap", "site": s["id"]}
            if b.rebels.get(zone, 0) > 0:
                out.append(_d("labour", a, "rebellious_zone", "LAB-4", colony=cid, site=s["id"], zone=zone,
                              rebels=b.rebels[zone]))
            elif s["wilderness"]:
                out.append(_d("labour", a, "wilderness", "LAB-5", colony=cid, site=s["id"]))
            elif s["count"] <= 0:
                out.append(_d("labour", a, "no_indigenous", "LAB-1", colony=cid, site=s["id"]))
    return out


def initiate_reasons(b: _Board, dec: Mapping[str, Any]) -> list[Descriptor]:
    """AUC-1, PRJ-8: an empty deck cannot be auctioned; buried treasure needs a card below the top."""
    out = []
    for deck in map(str, DECKS):
        n = int((b.view.get("decks") or {}).get(deck, {}).get("count", 0))
        if n < 1:
            out.append(_d("initiate", {"seat": b.seat, "type": "initiate", "deck": deck, "buried": False},
                          "deck_empty", "AUC-1", deck=deck))
        if n < 2:
            out.append(_d("initiate", {"seat": b.seat, "type": "initiate", "deck": deck, "buried": True},
                          "deck_too_small", "PRJ-8", deck=deck, count=n))
    return out


def _card_targets(b: _Board, kind: str | None) -> list[Any]:
    """cards.targets, from the view."""
    if kind is None:
        return [None]
    if kind == "empty_colony_space":
        return [c["id"] for c in b.colonies if c["owner"] is None]
    if kind == "own_colony_without_fort":
        return [c["id"] for c in b.colonies if c["owner"] == b.seat and not c["fort"]]
    if kind == "land_zone":
        return b.rs.zone_ids[: b.rs.n_land]
    if kind == "rebellious_zone":
        return [z for z in b.rs.zone_ids[: b.rs.n_land] if b.rebels.get(z, 0) > 0]
    raise AssertionError(kind)


def _cannot_play(b: _Board, c: str) -> Descriptor | None:
    """cards.requirement_failure, from the view, in its order; then PRJ-11: no target."""
    card = b.rs.cards[c]
    me, req = b.me, card.requires
    a = {"seat": b.seat, "type": "play", "card": c}
    if b.money() < card.cost:
        return _d("play_turn", a, "cannot_afford", "PLY-1", card=c, cost=card.cost, money=b.money())
    owned = sum(1 for col in b.colonies if col["owner"] == b.seat)
    if "colonies" in req and owned < req["colonies"]:
        return _d("play_turn", a, "needs_colonies", "CARD-1", card=c, need=req["colonies"], have=owned)
    if "legality" in req and me["fleet"]["legality"] not in req["legality"]:
        return _d("play_turn", a, "needs_legality", "CARD-1", card=c, need=list(req["legality"]),
                  legality=me["fleet"]["legality"])
    if "nation" in req and me["nation"] != req["nation"]:
        return _d("play_turn", a, "needs_nation", "CARD-1", card=c, nation=req["nation"])
    if not _card_targets(b, card.target):
        return _d("play_turn", a, "no_target", "PRJ-11", card=c, target=card.target)
    return None


def _haven_sales(b: _Board, decision: str) -> list[Descriptor]:
    return [_d(decision, {"seat": b.seat, "type": "sell", "card": c}, "cannot_sell_haven", "HND-3", card=c)
            for c in dict.fromkeys(b.me.get("hand") or []) if b.rs.cards[c].deck != "market"]


def _over_limit(b: _Board, decision: str) -> list[Descriptor]:
    n, limit = int(b.me["hand_count"]), int(b.me["hand_limit"])
    if n <= limit:
        return []
    return [_d(decision, {"seat": b.seat, "type": "end_turn"}, "over_hand_limit", "HND-2", count=n, limit=limit)]


def play_turn_reasons(b: _Board, dec: Mapping[str, Any]) -> list[Descriptor]:
    out = [d for c in dict.fromkeys(b.me.get("hand") or []) if (d := _cannot_play(b, c)) is not None]
    return out + _haven_sales(b, "play_turn") + _over_limit(b, "play_turn")


def reduce_hand_reasons(b: _Board, dec: Mapping[str, Any]) -> list[Descriptor]:
    return _haven_sales(b, "reduce_hand") + _over_limit(b, "reduce_hand")


def chest_terms(b: _Board, colony: Mapping[str, Any], sacked: str | None) -> tuple[int, str] | tuple[None, str]:
    """(price per Chest, rule), or (None, the rule that forbids it): treasure.chest_terms from the view."""
    rs, seat = b.rs, b.seat
    legality, owner = b.me["fleet"]["legality"], colony["owner"]
    was_sacked = sacked == colony["id"]
    if legality == "PLUNDER":
        if not was_sacked and owner == seat and rs.plunder_loading == "sack_or_own":
            return 0, "PRJ-38"
        return (0, "TRS-2") if was_sacked else (None, "TRS-2")
    if owner == seat:
        return 0, "TRS-3" if legality == "SMUGGLER" else "TRS-4"
    if legality == "SMUGGLER":
        bribe = int(rs.smuggler_bribes[len(b.players)])       # PRJ-78: the bribe by player count
        return bribe, "TRS-3" if bribe == rs.smuggler_bribe else "PRJ-78"
    if legality == "CONQUISTADOR":
        if owner == CROWN_OWNER:
            return 0, "TRS-4"
        if owner == b.spanish_seat():
            return int(rs.conquistador_spanish_fee), "TRS-4"
        return None, "TRS-4"
    if legality == "PRIVATEER":
        return (0, "TRS-4") if was_sacked else (None, "TRS-4")
    return None, "TRS-1"


def voyage_reasons(b: _Board, dec: Mapping[str, Any]) -> list[Descriptor]:
    rs, seat, out = b.rs, b.seat, []
    fleet = b.me["fleet"]
    zone = fleet["zone"]
    europe = rs.zone_ids[rs.europe]
    a0 = {"seat": seat}
    for h in dict.fromkeys(b.me.get("havens") or []):
        if not dec.get("started") and zone != europe:       # once under way, it is no longer a question
            out.append(_d("voyage", {**a0, "type": "start_at_haven", "zone": h}, "voyage_started", "PRJ-9", zone=h))
    here = rs.zone_index[zone]
    if int(dec.get("moves", 0)) <= 0:
        out += [_d("voyage", {**a0, "type": "move", "to": rs.zone_ids[z]}, "no_moves_left", "SAIL-1",
                   zone=rs.zone_ids[z]) for z in rs.adjacent[here]]
    if not b.is_land(zone):
        return out
    if zone in (dec.get("battled") or []):
        out += [_d("voyage", {**a0, "type": "attack", "target": t}, "already_battled", "PRJ-16", zone=zone, target=t)
                for t in b.targets(seat, zone)]
    room = b.free_space()
    for c in b.colonies:
        if c["zone"] != zone or c["owner"] is None or c["chests"] <= 0:
            continue
        a = {**a0, "type": "load_chests", "colony": c["id"], "count": 1}
        price, rule = chest_terms(b, c, dec.get("sacked"))
        if price is None:
            out.append(_d("voyage", a, "legality_forbids", rule, colony=c["id"], legality=fleet["legality"],
                          owner=c["owner"]))
        elif price > b.money():
            out.append(_d("voyage", a, "cannot_afford", rule, colony=c["id"], cost=price, money=b.money()))
        elif room <= 0:
            out.append(_d("voyage", a, "fleet_full", "SAIL-1", colony=c["id"], ships=int(fleet["ships"]),
                          capacity=int(rs.ship_capacity)))
    won = dec.get("won_site")
    site = next((s for s in b.sites if s["id"] == won), None)
    if site is not None and site["count"] > 0:
        a = {**a0, "type": "enslave", "count": 1}
        vacant = len(b.vacant(seat)) - b.meeples_aboard()
        if vacant <= 0:
            out.append(_d("voyage", a, "no_vacant_colony", "LOAD-2", site=won, vacant=len(b.vacant(seat)),
                          aboard=b.meeples_aboard()))
        elif room <= 0:
            out.append(_d("voyage", a, "fleet_full", "SAIL-1", site=won, ships=int(fleet["ships"]),
                          capacity=int(rs.ship_capacity)))
    if b.meeples_aboard() > 0 and not any(c["zone"] == zone for c in b.vacant(seat)):
        out.append(_d("voyage", {**a0, "type": "unload"}, "not_own_vacant_colony", "LOAD-4", zone=zone))
    if zone in (b.me.get("havens") or []) and "chest" not in fleet["cargo"]:
        out.append(_d("voyage", {**a0, "type": "unload_haven"}, "no_chests", "CARD-2", zone=zone))
    return out


def support_reasons(b: _Board, dec: Mapping[str, Any]) -> list[Descriptor]:
    return [_d("support", {"seat": b.seat, "type": "support", "side": "neutral"}, "no_neutral", "BAT-3")]


def unavailable(view: Mapping[str, Any], rs: Ruleset | Rulesets) -> list[Descriptor]:
    """The options the rules forbid `view["viewer"]` in the pending decision, from that view
    alone; [] for a spectator, a seat not asked now, or a game over."""
    seat = view.get("viewer")
    dec = view.get("decision")
    if seat is None or view.get("over") or not dec or seat not in (view.get("acting") or []):
        return []
    if dec.get("sealed") and seat in (dec.get("committed") or []):
        return []
    decision = DECISIONS.get(str(dec.get("d")))
    if decision is None:
        return []
    return decision.reasons(_Board(view, ruleset_of(view, rs)), dec)


# ---- battle preview -----------------------------------------------------------------------------
def battle_preview(view: Mapping[str, Any], target: str, attacker: int | None = None, zone: str | None = None,
                   *, rs: Ruleset | Rulesets) -> dict[str, Any] | None:
    """A battle's Strengths before it is fought, from one seat's view (BAT-1, BAT-2, BAT-3):
    the attacker's (1 per ship) and the target's own (a colony: its owner's Strength in the
    zone plus its fort; Rebels: 1 each; a site: 1 per Indigenous), every other player with
    tokens in the zone who will choose a side, with the Strength it adds, and the best and
    worst case for the attacker (all of them with it, all against it; a tie goes to the
    target, BAT-4). `attacker` and `zone` default to the viewer and its fleet's zone; None
    when `target` is not something that can be attacked there. `rs`: the ruleset, or a
    resolver of the view's ruleset name (ruleset_of)."""
    b = _Board(view, ruleset_of(view, rs))
    viewer: int | None = view.get("viewer")
    attacker = viewer if attacker is None else attacker
    if attacker is None:
        return None
    zone = zone or b.players[attacker]["fleet"]["zone"]
    if not b.is_land(zone) or target not in b.targets(attacker, zone):
        return None
    owner: Any = None
    if target == "rebels":
        kind, t = "rebels", int(b.rebels.get(zone, 0))
    elif any(c["id"] == target for c in b.colonies):
        col = b.colony(target)
        kind, owner = "colony", col["owner"]
        t = b.strength(owner, zone) + (1 if col["fort"] else 0)
    else:
        kind, t = "site", int(next(s["count"] for s in b.sites if s["id"] == target))
    a = int(b.players[attacker]["fleet"]["ships"])
    order = view.get("order") or range(len(b.players))
    others = [{"seat": s, "strength": b.strength(s, zone)} for s in order
              if s != attacker and s != owner and b.has_tokens(s, zone)]
    extra = sum(o["strength"] for o in others)
    return {"attacker": attacker, "zone": zone, "target": target, "kind": kind, "target_owner": owner,
            "attacker_strength": a, "target_strength": t, "others": others,
            "best": {"attacker": a + extra, "target": t, "wins": a + extra > t},
            "worst": {"attacker": a, "target": t + extra, "wins": a > t + extra}}


def battle_previews(view: Mapping[str, Any], rs: Ruleset | Rulesets) -> dict[str, dict[str, Any]]:
    """The previews a seat needs now: target -> battle_preview for each attack its voyage
    may make, or the battle it is asked to support (keyed by the battle's target)."""
    dec = view.get("decision") or {}
    seat = view.get("viewer")
    if seat is None or seat not in (view.get("acting") or []):
        return {}
    rs = ruleset_of(view, rs)
    if dec.get("d") == "support":
        p = battle_preview(view, dec["target"], attacker=dec["attacker"], zone=dec["zone"], rs=rs)
        return {dec["target"]: p} if p else {}
    if dec.get("d") != "voyage":
        return {}
    zone = view["players"][seat]["fleet"]["zone"]
    if zone in (dec.get("battled") or []):
        return {}
    b = _Board(view, rs)
    if not b.is_land(zone):
        return {}
    return {t: p for t in b.targets(seat, zone) if (p := battle_preview(view, t, rs=rs)) is not None}
