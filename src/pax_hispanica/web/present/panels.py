"""The panels beside the board, from a view: players, own hand and sealed choices, decks, the lot
on offer, the score now, house rules and the win condition."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

from pax_hispanica.engine.vocab import DECKS
from pax_hispanica.web.engine_port import View, api
from pax_hispanica.web.play.service import LiveGame
from pax_hispanica.web.present import svgmap, variant_words
from pax_hispanica.web.present.i18n import Tr, humanize
from pax_hispanica.web.present.info import Info, win_condition
from pax_hispanica.web.present.log import with_cards


@lru_cache(maxsize=256)
def _house_rule_ids(ruleset: str, version: str, params: tuple[Any, ...]) -> tuple[str, ...]:
    rs = api.load_ruleset(ruleset, dict(params) or None, version=version)
    return tuple(dict.fromkeys(h.rule for h in api.house_rules(rs)))


def house_rules_line(view: View | None, tr: Tr) -> str:
    """PRJ-81: the seed rules the game's ruleset changes (its house rules), for the status line:
    the named set (PRJ-83) if the game chose one, then each rule's ID and title in the page's
    language ("reference-7: TRS-2 PLUNDER must sack; TRS-1 ..."); "" for a game of the rules as
    printed, or a view the page cannot read (an odd ruleset: the page works without)."""
    if not view is not None or not view.get("ruleset_version"):
        return ""
    params = view.get("ruleset_params") or {}
    try:
        ids = _house_rule_ids(str(view.get("ruleset") or "reference"), str(view["ruleset_version"]),
                              tuple(sorted(params.items())))
    except Exception:  # whatever the ruleset's data, the page still renders
        return ""
    if not ids:
        return ""
    rules = "; ".join(f"{rid} {tr.text('rule_titles', rid) or ''}".strip() for rid in ids)
    named = params.get("house_rules")
    return f"{variant_words.set_name(named, tr)}: {rules}" if isinstance(named, str) else rules


def game_win_condition(view: View | None) -> dict[str, Any] | None:
    """The win condition's numbers (CYC-2, CYC-3) of the game a view is of: its own version's
    (PRJ-50: a game of an earlier version keeps its numbers) with its variant (PRJ-31); None
    when the view names no ruleset the page can read (an odd ruleset: the page works without)."""
    if not view is not None or not view.get("ruleset_version"):
        return None
    try:
        return win_condition(str(view.get("ruleset") or "reference"), str(view["ruleset_version"]),
                             tuple(sorted((view.get("ruleset_params") or {}).items())))
    except Exception:  # whatever the ruleset's data, the page still renders
        return None


def game_numbers(view: View | None) -> dict[str, Any]:
    """The game's ruleset version and its Prestige goal (CYC-2), as the status line shows them."""
    version = str(view["ruleset_version"]) if view is not None and view.get("ruleset_version") else None
    win = game_win_condition(view)
    return {"ruleset_version": version, "goal": win["prestige"] if win else None}


def public_lot(view: View | None, tr: Tr) -> dict[str, Any]:
    """What everyone may see of a sealed choice under way (spectators, and players who have
    chosen): what it is about, and who is still choosing."""
    d = view.get("decision") if view is not None else None
    if not isinstance(d, dict) or not api.is_sealed_decision(d.get("d")):
        return {"public_lot": None, "choosing": []}
    committed = set(d.get("committed") or [])
    return {"public_lot": lot(d, tr),
            "choosing": [tr.seat(s) for s in d.get("seats") or [] if s not in committed]}


def lot(decision: dict[str, Any] | None, tr: Tr) -> str | None:
    """What a sealed choice is about: the card auctioned (or that it is buried), or the battle."""
    if not decision:
        return None
    if decision.get("d") == "bid":
        if decision.get("card"):
            return with_cards(tr("lot_card", card=tr.word(decision["card"]), deck=tr.word(decision.get("deck"))),
                              [decision["card"]], tr)
        return tr("lot_buried", deck=tr.word(decision.get("deck")))
    if decision.get("d") == "support":
        return tr("lot_battle", zone=tr.word(decision.get("zone")), attacker=tr.seat(decision.get("attacker")),
                  target=tr.word(decision.get("target")))
    return None


def money_per_prestige(view: View | None) -> int | None:
    """CYC-3's dollars to 1 Prestige in the game's own numbers; None when they cannot be read."""
    per = (game_win_condition(view) or {}).get("money")
    return per if isinstance(per, int) and per > 0 else None


def score_now(p: dict[str, Any], per_dollar: int | None, tr: Tr) -> str | None:
    """What CYC-3 would give the player if the game ended now (Prestige held + 1 per
    `money_per_prestige` dollars + its colonies' Prestige), with its parts: the race as it
    stands, which held Prestige alone does not show until the final count (issue 15)."""
    parts = (p.get("prestige"), p.get("money"), p.get("colony_prestige", 0))
    if per_dollar is None or not all(isinstance(x, int) for x in parts):
        return None
    held, money, colonies = cast(tuple[int, int, int], parts)
    from_money = money // per_dollar
    return tr("score_now_value", total=held + from_money + colonies, prestige=held, money=from_money,
              colonies=colonies)


def players_table(view: View | None, tr: Tr, live: LiveGame) -> list[dict[str, Any]]:
    """Each player's public state, in seat order."""
    players = view.get("players") if view is not None else None
    if not isinstance(players, list):
        return [{"seat": s.seat, "name": tr.seat(s.seat), "kind": s.kind, "fields": [], "tableau": []}
                for s in live.seats]
    assert view is not None                 # it has players
    rows = []
    # once the game is over the Prestige shown is the final score (CYC-3 has counted)
    per_dollar = None if view.get("over") else money_per_prestige(view)
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            continue
        seat = p.get("seat", i)
        fields = []
        now = score_now(p, per_dollar, tr)
        if now is not None:
            fields.append((tr("score_now"), now))
        for key, label in (("money", "money"), ("prestige", "prestige"), ("hand_count", "hand_size"),
                           ("hand_limit", "hand_limit"), ("income", "income")):
            if key in p:
                fields.append((tr(label), tr("money_amount", n=p[key]) if key == "money" else str(p[key])))
        fleet = p.get("fleet")
        if isinstance(fleet, dict):
            cargo = fleet.get("cargo") or []
            fields.append((tr("fleet"), f"{tr.word(fleet.get('zone'))} · {tr.n('ships', fleet.get('ships', 1))} · "
                                        f"{tr.word(fleet.get('legality'))}"
                                        + (f" · {tr('cargo')}: {tr.value('cargo', cargo)}" if cargo else "")))
        if p.get("havens"):
            fields.append((tr("havens"), tr.value("havens", p["havens"])))
        shown = {"seat", "nation", "hand", "money", "prestige", "hand_count", "hand_limit", "income", "fleet",
                 "havens", "tableau"}
        # other fields: labelled from the catalogue when it has the name (else from the name itself)
        fields += [(tr(k) if tr.text("ui", k) is not None else humanize(k), tr.value(k, v)) for k, v in p.items() if k not in shown]
        tableau = [{"id": t.get("card"), "target": tr.word(t["target"]) if t.get("target") else None}
                   if isinstance(t, dict) else {"id": t, "target": None} for t in p.get("tableau") or []]
        kind = live.seats[seat].kind if isinstance(seat, int) and 0 <= seat < len(live.seats) else ""
        rows.append({"seat": seat, "name": tr.seat(seat), "kind": kind, "fields": fields, "tableau": tableau,
                     "legality": fleet.get("legality") if isinstance(fleet, dict) else None,
                     "color": svgmap.seat_color(view, seat), "mark": svgmap.seat_mark(view, seat, tr),
                     "away": seat in live.away})
    return rows


def own_parts(view: View | None, viewer: int | None, info: Info | None = None) -> dict[str, Any]:
    """The viewer's own secret parts as the view gives them (hand, sealed choice)."""
    if viewer is None or not view is not None:
        return {}
    players = view.get("players") or []
    hand = players[viewer].get("hand") if 0 <= viewer < len(players) else None
    cards = []
    for c in hand if isinstance(hand, list) else []:
        cid: Any = c.get("id") if isinstance(c, dict) else c
        cards.append({"id": cid, "name": info.names.get(cid, cid) if info else cid,
                      "cost": info.card_cost.get(cid) if info else None,
                      "deck": info.card_deck.get(cid) if info else None})
    return {"hand": cards, "sealed": view.get("my_sealed_choice")}


def decks(view: View | None, tr: Tr) -> list[dict[str, Any]]:
    d = view.get("decks") if view is not None else None
    if not isinstance(d, dict):
        return []
    out = []
    for name in map(str, DECKS):
        if isinstance(d.get(name), dict):
            out.append({"name": tr.word(name), "top": tr.word(d[name].get("top")) if d[name].get("top") else "—",
                        "top_id": d[name].get("top"), "count": d[name].get("count", 0)})
    return out
