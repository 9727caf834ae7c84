"""What happened since a player last acted (issue 14, "What happened"): the status line that
says who must do what, the last moves of the others to highlight on the board, and a short
summary of the automatic steps one click set off (a whole Goods Year), all from views and the
events the viewer may see (never raw state).

The events do not say which action caused them, so the start of each action's events is
found by replaying the record action by action once per game (`action_starts`, then one
`api.apply` per new action): the window of a seat is the events from the start of its own
last action on (its click may have run a whole year), of a spectator the last action's."""
from __future__ import annotations

from typing import Any

from pax_hispanica.web.engine_port import View, api
from pax_hispanica.web.present.i18n import Tr

# events the engine emits by itself, between the players' decisions (summarised by year)
AUTOMATIC = ("YearBegan", "GoodsDrawn", "ChestsPlaced", "EarningsPaid", "SlaveAttrition", "ColonyDiedOff",
             "PlayerOrderUpdated", "TreasureScored",
             "IncomeIncreased", "DeckRefilled", "FinalScoring", "GameEnded",
             "CrownColoniesByCount", "RebelsAtSetup")   # PRJ-75, PRJ-80: set up before the first Year, said once
YEAR_GROUPS = 4            # at most this many years in one summary (a seat that has not acted for long)
_starts: dict[str, tuple[list[Any], list[int], int]] = {}   # game id -> (actions seen, starts, events so far)


def action_starts(live: Any) -> list[int]:
    """starts[k]: the `seq` of the first event of action k (events are numbered from 1, one by
    one; an action without events starts where the next one does). One new action since the
    last call (the usual case) needs no replay: it started after the events counted before, and
    the log's last seq is the new count. Anything else replays the record action by action
    (a few ms for a whole game); no state is kept."""
    actions = live.record["actions"]
    events = live.events
    total = int(events[-1].get("seq") or len(events)) if events else 0
    hit = _starts.get(live.id)
    if hit is not None and len(hit[0]) == len(actions) and hit[0] == actions:
        return hit[1]
    if hit is not None and len(hit[0]) == len(actions) - 1 and hit[0] == actions[:-1]:
        _done, starts, count = hit
        starts = starts + [count + 1]
        _starts[live.id] = (list(actions), starts, total)
        return starts
    game = api.replay(live.record, upto=0)
    state, count, starts = game.state, len(game.events), []
    for a in actions:
        starts.append(count + 1)
        state, evs = api.apply(state, a)
        count += len(evs)
    if len(_starts) > 1000:
        _starts.clear()
    _starts[live.id] = (list(actions), starts, count)
    return starts


def window(live: Any, viewer: int | None) -> tuple[int, int]:
    """(first seq of the viewer's last action, first seq after it): the viewer's window is the
    events from the first on; those from the second on are the others' moves since. A spectator's
    is the last action's; a seat that has not acted yet sees everything since the start."""
    actions = live.record["actions"]
    if not actions:
        return 1, 1
    starts = action_starts(live)
    total = _starts[live.id][2]
    if viewer is None:
        k = len(actions) - 1
    else:
        mine = next((i for i in range(len(actions) - 1, -1, -1) if actions[i].get("seat") == viewer), None)
        if mine is None:
            return 1, 1
        k = mine
    return starts[k], (starts[k + 1] if k + 1 < len(starts) else total + 1)


def highlights(events: list[Any], viewer: int | None, first: int, after: int) -> dict[str, list[Any]]:
    """What to mark on the board: {"fleets": seats, "zones": ids, "colonies": [[id, why]],
    "players": seats, "cards": the cards' text ids, "cardtext-<key>", as the card buttons name
    them in aria-describedby (a page names cards by id only in the player's own hand)}. The viewer's own moves are not marked; what the
    engine did by itself after them (new Chests) is."""
    from pax_hispanica.web.present.cards import text_key

    out: dict[str, list[Any]] = {"fleets": [], "zones": [], "colonies": [], "players": [], "cards": []}

    def add(key: str, v: Any) -> None:
        if v is not None and v not in out[key]:
            out[key].append(v)

    for e in events:
        seq = e.get("seq") or 0
        if seq < first:
            continue
        mine = seq < after and viewer is not None and viewer in (e.get("seat"), e.get("attacker"), e.get("winner"))
        t = e.get("type")
        if mine:
            continue
        if t in ("FleetMoved", "VoyageStartedAtHaven"):
            add("fleets", e.get("seat"))
            add("zones", e.get("zone"))
        elif t == "ColonySacked":
            add("colonies", [e.get("colony"), "sacked"])
        elif t == "ChestsPlaced":
            for c in e.get("colonies") or []:
                add("colonies", [c, "chests"])
        elif t in ("ColonyFounded", "FortBuilt", "LabourUnloaded", "CitizenEmployed", "IndigenousKidnapped"):
            add("colonies", [e.get("colony"), "changed"])
        elif t == "ChestsLoaded":
            add("colonies", [e.get("colony"), "loaded"])
        elif t == "AuctionWon":
            add("players", e.get("winner"))
            if isinstance(e.get("card"), str):
                add("cards", "cardtext-" + text_key(e["card"]))
        elif t == "CardPlayed":
            add("players", e.get("seat"))
            if isinstance(e.get("card"), str):
                add("cards", "cardtext-" + text_key(e["card"]))
        elif t in ("BattleDeclared", "SiteSubdued", "RebelRemoved"):
            add("zones", e.get("zone"))
    out["colonies"] = [c for c in out["colonies"] if c[0]]
    out["zones"] = [z for z in out["zones"] if z]
    return out


def summary(events: list[Any], first: int, view: View | None, tr: Tr) -> list[dict[str, Any]]:
    """The automatic steps in the window, by year: [{"title": "Goods Year", "items": [...]}].
    Empty when the window holds no automatic step worth a word."""
    owners = {c.get("id"): c.get("owner") for c in (view.get("colonies") or [])} if view is not None else {}
    groups: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for e in events:
        if (e.get("seq") or 0) < first or e.get("type") not in AUTOMATIC:
            continue
        t = e["type"]
        if t == "YearBegan":
            current = {"title": tr("sum_year", year=tr.word(e.get("year")), cycle=e.get("cycle")), "items": [],
                       "year": e.get("year")}
            groups.append(current)
            continue
        if current is None:
            current = {"title": "", "items": [], "year": None}
            groups.append(current)
        current["items"].extend(_automatic_item(e, owners, tr))
    groups = [g for g in groups if g["items"] or g["title"]]
    return groups[-YEAR_GROUPS:]


def status(decision: Any, acting: list[int], viewer: int | None, over: bool, tr: Tr) -> str:
    """Who must do what now, in words: "You must place a sealed bid", "English must sail"."""
    if over:
        return tr("must_over")
    if not acting:
        return ""
    d = str((decision or {}).get("d") or "") if isinstance(decision, dict) else ""
    key = d if tr.text("ui", f"must_{d}.you") is not None else "other"
    others = [s for s in acting if s != viewer]
    parts = []
    if viewer in acting:
        parts.append(tr(f"must_{key}.you"))
    if others:
        names = ", ".join(tr.seat(s) for s in others)
        form = "one" if len(others) == 1 else "many"
        parts.append(tr(f"must_{key}.{form}", who=names) if viewer not in acting
                     else tr("status_also", who=names))
    return " · ".join(parts)


# --- the auctions and battles the viewer took part in (issue 38, "Tell what happened") ---------

BATTLE_AFTER = ("ColonySacked", "RebelRemoved", "SiteSubdued", "CargoLost", "GalleonLost", "FlagshipRouted")
RESULTS = 4                # at most this many results at once (a seat that has not acted for long)


def _money(tr: Tr, n: Any) -> str:
    return tr("money_amount", n=n if isinstance(n, int) else 0)


def results(events: list[Any], viewer: int | None, first: int, tr: Tr) -> list[dict[str, Any]]:
    """The auctions and battles the seat `viewer` took part in (as initiator or bidder; as
    attacker, target owner or supporter) that ended in its window (from `first` on, so a result
    stays until the seat acts again), each {"kind", "key", "title", "lines", "data"} built from
    the events as that seat sees them (api.redact: a sealed bid is only in them once revealed, a
    buried card once shown). `data` holds the numbers the lines say, for the tests."""
    if viewer is None:
        return []
    out: list[dict[str, Any]] = []
    auction: dict[str, Any] | None = None
    battle: dict[str, Any] | None = None
    for e in events:
        t = e.get("type")
        seq = int(e.get("seq") or 0)
        if t == "AuctionStarted":
            auction = {"start": e, "bids": None, "card": e.get("card")}
        elif t == "ChoicesRevealed" and e.get("decision") == "bid" and auction is not None:
            auction["bids"] = [(c.get("seat"), c.get("value")) for c in e.get("choices") or []]
        elif t == "BuriedCardRevealed" and auction is not None:
            auction["card"] = e.get("card")
        elif t == "AuctionWon" and auction is not None:
            start = auction["start"]
            seats = {start.get("initiator"), *(start.get("bidders") or [])}
            if seq >= first and viewer in seats:
                out.append(_auction(start, auction, e, tr))
            auction = None
        elif t == "BattleDeclared":
            battle = {"start": e, "support": None, "end": None, "after": []}
        elif t == "BattleResolved" and battle is not None:
            battle["end"] = e
            start = battle["start"]
            seats = {start.get("attacker"), start.get("target_owner"), *(start.get("supporters") or [])}
            if seq >= first and viewer in seats:
                out.append(battle)
            else:
                battle = None
        elif t in BATTLE_AFTER and battle is not None and battle["end"] is not None:
            battle["after"].append(e)
        elif battle is not None and battle["end"] is not None and t not in BATTLE_AFTER:
            battle = None
    return [r if r.get("kind") else _battle(r, tr) for r in out][-RESULTS:]


def _auction(start: dict[str, Any], auction: dict[str, Any], won: dict[str, Any], tr: Tr) -> dict[str, Any]:
    card = won.get("card") if isinstance(won.get("card"), str) else auction["card"]
    lot = tr.word(card) if isinstance(card, str) else (tr.text("words", "lot_hidden") or "a hidden card")
    winner, price, paid_to = won.get("winner"), won.get("price"), won.get("paid_to")
    bids = auction["bids"] or []
    lines = []
    if bids:
        lines.append(tr("res_bids", bids=", ".join(f"{tr.seat(s)} {_money(tr, v)}" for s, v in bids)))
    lines.append(tr("res_won", winner=tr.seat(winner), money=_money(tr, price)))
    if paid_to == "pool":
        lines.append(tr("res_paid_pool", winner=tr.seat(winner), money=_money(tr, price)))
    else:
        lines.append(tr("res_paid_seat", winner=tr.seat(winner), money=_money(tr, price), who=tr.seat(paid_to)))
    if won.get("tie_broken"):
        lines.append(tr("res_tie", who=tr.seat(won.get("initiator"))))
    return {"kind": "auction", "key": f"a{won.get('seq')}",
            "title": tr("res_auction", lot=lot, who=tr.seat(start.get("initiator"))), "lines": lines,
            "data": {"bids": bids, "winner": winner, "price": price, "paid_to": paid_to, "card": card,
                     "tie": bool(won.get("tie_broken"))}}


def _battle(b: dict[str, Any], tr: Tr) -> dict[str, Any]:
    start, end = b["start"], b["end"]
    attacker, owner = start.get("attacker"), start.get("target_owner")
    target = tr.value("target", start.get("target"))
    defender = tr.seat(owner) if isinstance(owner, int) else target
    lines = [tr("res_strength", attacker=tr.seat(attacker), a=end.get("attacker_strength"),
                defender=defender, t=end.get("target_strength"))]
    support = [s for s in end.get("support") or [] if isinstance(s, dict)]
    if support:
        lines.append(tr("res_support", support=", ".join(
            tr("res_side_" + ("attacker" if s.get("side") == "attacker" else "target"), who=tr.seat(s.get("seat")),
               n=s.get("strength", 0)) for s in support)))
    won = end.get("winner") == "attacker"
    tie = end.get("attacker_strength") == end.get("target_strength")
    lines.append(tr("res_attacker_won", attacker=tr.seat(attacker)) if won
                 else tr("res_target_held_tie" if tie else "res_target_held", defender=defender))
    for e in b["after"]:
        lines.append(tr.event(e).rstrip("."))
        if e.get("type") == "SiteSubdued":
            lines.append(tr("res_enslave"))
    return {"kind": "battle", "key": f"b{end.get('seq')}",
            "title": tr("res_battle", zone=tr.word(start.get("zone")), attacker=tr.seat(attacker), target=target),
            "lines": lines,
            "data": {"attacker": attacker, "attacker_strength": end.get("attacker_strength"),
                     "target_strength": end.get("target_strength"), "winner": end.get("winner"),
                     "support": [(s.get("seat"), s.get("side")) for s in support],
                     "after": [e.get("type") for e in b["after"]]}}


# --- "since your last move" in turn-based games (issue 38, "Tell what happened") ----------------

# events a digest leaves out: a seat's own secret echoed back (ChoiceSealed), what the board shows
# anyway (a deck's new top card), a refill, the game's setup lines
DIGEST_SKIP = ("ChoiceSealed", "DeckTopShown", "DeckRefilled", "GameStarted", "CrownColoniesByCount",
               "RebelsAtSetup", "PlayTurnEnded")
DIGEST_LINES = 24          # at most this many lines (the latest), the earlier ones counted


def digest(events: list[Any], viewer: int | None, first: int, after: int, view: View | None,
           tr: Tr) -> dict[str, Any] | None:
    """Everything that happened since the seat `viewer` last acted, for a turn-based game's page:
    the others' moves (from `after`, the end of the seat's own last action, on), the auctions and
    battles revealed, the automatic steps (from `first` on: a Year its own click ran is in it) and
    the changes of Year, grouped by Year. `events` are those the seat may see (api.redact), so a
    sealed bid is "has made a sealed choice" until revealed. {"key", "groups": [{"title",
    "items"}], "earlier": lines left out, "lines": the count} or None when nothing happened since.
    The key stays the same until the seat acts again (its dismissal holds through updates)."""
    if viewer is None:
        return None
    groups = _digest_groups(events, first, after, view, tr)
    lines = sum(len(g["items"]) for g in groups)
    if not lines:
        return None
    earlier = _cap_earliest(groups, lines - DIGEST_LINES)
    return {"key": f"d{after}", "groups": groups, "earlier": earlier, "lines": lines}


def _digest_groups(events: list[Any], first: int, after: int, view: View | None, tr: Tr) -> list[dict[str, Any]]:
    """The digest's lines grouped under the Year each happened in (a group with no title: before
    the first Year that began since)."""
    owners = {c.get("id"): c.get("owner") for c in (view.get("colonies") or [])} if view is not None else {}
    groups: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for e in events:
        seq = int(e.get("seq") or 0)
        t = e.get("type")
        if seq < first or t in DIGEST_SKIP or (seq < after and t not in AUTOMATIC):
            continue
        if t == "YearBegan":
            current = {"title": tr("sum_year", year=tr.word(e.get("year")), cycle=e.get("cycle")), "items": []}
            groups.append(current)
            continue
        item = [_line_start(i) for i in _automatic_item(e, owners, tr)] if t in AUTOMATIC else [tr.event(e).rstrip(".")]
        if not item:
            continue
        if current is None:
            current = {"title": "", "items": []}
            groups.append(current)
        current["items"].extend(item)
    return groups


def _line_start(item: str) -> str:
    """An automatic step as a line of its own starts with a capital ("Goods drawn: Sugar", "The
    King +1 Chest at ..."; "Mercaderies de l'any: ..."): the summary's words are written to follow
    "Goods Year: " in a sentence, the digest puts each on its own line."""
    return item[:1].upper() + item[1:]


def _cap_earliest(groups: list[dict[str, Any]], cut: int) -> int:
    """Drop the `cut` earliest lines (and the groups left empty); how many were dropped."""
    earlier = 0
    while cut > 0 and groups:
        g = groups[0]
        n = min(cut, len(g["items"]))
        g["items"] = g["items"][n:]
        earlier, cut = earlier + n, cut - n
        if not g["items"]:
            groups.pop(0)
    return earlier


def _automatic_item(e: dict[str, Any], owners: dict[Any, Any], tr: Tr) -> list[str]:
    """An automatic step in words, as the summary says it (none for a step not worth a word)."""
    t = e.get("type")
    if t == "ChestsPlaced":
        if not e.get("colonies"):           # GDS-5: no worked colony produces the goods drawn
            return [tr("sum_no_chests")]
        by_owner: dict[Any, list[str]] = {}
        for c in e.get("colonies") or []:
            by_owner.setdefault(owners.get(c), []).append(tr.word(c))
        return [tr("sum_chests", who=tr.seat(owner) if isinstance(owner, int) and owner >= 0 else tr("sum_crown"),
                   chests=tr.n("chests", len(names)), places=", ".join(names)) for owner, names in by_owner.items()]
    if t == "EarningsPaid":
        return [tr("sum_earned", who=tr.seat(e.get("seat")), money=tr("money_amount", n=e.get("amount", 0)))] \
            if e.get("amount") else []
    if t == "GoodsDrawn":
        return [tr("sum_goods", goods=tr.value("goods", e.get("goods")))]
    if t == "PlayerOrderUpdated":
        return [tr("sum_order", order=tr.value("order", e.get("order")))]
    if t == "DeckRefilled":
        return []
    return [tr.event(e).rstrip(".")]
