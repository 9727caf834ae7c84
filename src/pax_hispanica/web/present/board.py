"""The decision panel's board parts (issue 14): which places of the map each legal option
names (so the map can be clicked), why the options the rules forbid are not there
(api.unavailable, in words), and the battle preview (api.battle_previews, in words).

Everything is read from the seat's view and its legal actions, through the api."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from pax_hispanica.web.present.i18n import Count, Tr

# no web extra needed for the words (the terminal game uses why_sentence): the api seam and the
# SVG map are imported where they are used


def rebels_place(zone: str) -> str:
    """The place key of a zone's Rebels (an attack target that is not an id of the map)."""
    return f"rebels@{zone}"


def _api() -> Any:
    from pax_hispanica.web.engine_port import api
    return api

# the fields of an action that name a place of the map, by action type
PLACE_FIELDS = {"move": ("to",), "start_at_haven": ("zone",), "attack": ("target",), "load_chests": ("colony",),
                "unload": ("colony",), "labour": ("colony", "site"), "play": ("target",)}


def place_keys(action: dict[str, Any], view: dict[str, Any]) -> list[str]:
    """The places of the map an action names (zone, colony or site ids, or a zone's Rebels)."""
    kind = action.get("type")
    seat = action.get("seat")
    players = view.get("players") or []
    fleet_zone = (players[seat].get("fleet") or {}).get("zone") if isinstance(seat, int) and 0 <= seat < len(players) else None
    keys = []
    for f in PLACE_FIELDS.get(str(kind), ()):
        v = action.get(f)
        if kind == "attack" and v == "rebels":
            v = rebels_place(str(fleet_zone))
        if isinstance(v, str):
            keys.append(v)
    if kind == "enslave":
        won = (view.get("decision") or {}).get("won_site")
        if isinstance(won, str):
            keys.append(won)
    if kind == "unload_haven" and isinstance(fleet_zone, str):
        keys.append(fleet_zone)
    return keys


def option_id(action_json: str) -> str:
    """The element id of an option's button in the decision list (a hash of its action): the map's
    places name their options by it, so an update carries each option's words and action once."""
    return "o-" + hashlib.sha1(action_json.encode()).hexdigest()[:10]


def place_options(legal: list[Any], view: dict[str, Any], tr: Tr) -> dict[str, list[dict[str, Any]]]:
    """Place key -> the legal options that name it, each {"id", "label", "action"} (JSON text)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for d in legal:
        if not isinstance(d, dict) or d.get("kind") != "choice":
            continue
        for o in d.get("options") or []:
            if not isinstance(o, dict) or o.get("type") == "undo":
                continue
            for key in dict.fromkeys(place_keys(o, view)):
                j = json.dumps(o)
                out.setdefault(key, []).append({"id": option_id(j), "label": tr.action(o, view), "action": j})
    return out


def _money(tr: Tr, n: Any) -> str:
    return tr("money_amount", n=n)


def why_sentence(d: dict[str, Any], tr: Tr) -> str:
    """One unavailable option in words, in the page's language, without its rule."""
    code, decision = str(d.get("code")), str(d.get("decision"))
    p = dict(d.get("params") or {})
    words: dict[str, Any] = {}
    for k, v in p.items():
        if k in ("cost", "money"):
            words[k] = _money(tr, v)
        elif k == "owner":
            words[k] = tr.seat(v)
        elif isinstance(v, list):
            words[k] = ", ".join(tr.word(x) for x in v)
        elif isinstance(v, int) and not isinstance(v, bool):
            words[k] = Count(v, tr)           # "{count:cards}": the counted words in the right plural
        else:
            words[k] = tr.word(v)
    tmpl = (tr.text("why", f"{code}.{decision}") or tr.text("why", f"{code}.{p.get('target')}")
            or tr.text("why", code))
    if tmpl is None:
        return tr("why_generic", code=code)
    return tr.fill(tmpl, words)


def unavailable(state: Any, viewer: int | None, view: dict[str, Any], tr: Tr) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[str]]]:
    """(decision name -> [{"text", "rule", "code"}], deduplicated, for the greyed list; place
    key -> why-not sentences with their rule, for the map's tooltips)."""
    fn = getattr(_api(), "unavailable", None)
    if fn is None or viewer is None:
        return {}, {}
    by_decision: dict[str, list[dict[str, Any]]] = {}
    by_place: dict[str, list[str]] = {}
    seen = set()
    for d in fn(state, viewer):
        text = why_sentence(d, tr)
        line = f"{text} ({d.get('rule')})"
        for key in place_keys(d.get("action") or {}, view):
            by_place.setdefault(key, []).append(line)
        if (d.get("decision"), text) in seen:
            continue
        seen.add((d.get("decision"), text))
        by_decision.setdefault(str(d.get("decision")), []).append({"text": text, "rule": d.get("rule"),
                                                                   "code": d.get("code")})
    return by_decision, by_place


def places(legal: list[Any], state: Any, viewer: int | None, view: dict[str, Any], tr: Tr) -> tuple[Any, dict[str, list[dict[str, Any]]]]:
    """The map's places for this seat now (svgmap.Places), and the greyed list by decision."""
    from pax_hispanica.web.present.svgmap import Places
    options = place_options(legal, view, tr)
    greyed, why = unavailable(state, viewer, view, tr) if legal else ({}, {})
    return Places(options, why), greyed


def _side(tr: Tr, seat: Any) -> str:
    return tr.seat(seat) if isinstance(seat, int) else tr.word(seat)


def previews(state: Any, viewer: int | None, tr: Tr) -> list[dict[str, Any]]:
    """The battle previews the seat needs now, in words: one per attack it may make, or the
    battle it is asked to support."""
    fn = getattr(_api(), "battle_previews", None)
    if fn is None or viewer is None:
        return []
    out = []
    for target, p in fn(state, viewer).items():
        others = [{"name": tr.seat(o["seat"]), "strength": o["strength"], "me": o["seat"] == viewer}
                  for o in p["others"]]
        target_name = tr.word(target) if target != "rebels" else tr.n("rebels", p["target_strength"])
        defender = _side(tr, p["target_owner"]) if p["target_owner"] is not None else target_name
        out.append({
            "target": target, "place": rebels_place(p["zone"]) if target == "rebels" else target,
            "title": tr("preview_title", attacker=tr.seat(p["attacker"]), target=target_name,
                        zone=tr.word(p["zone"])),
            "sides": tr("preview_sides", attacker=tr.seat(p["attacker"]), a=p["attacker_strength"],
                        defender=defender, t=p["target_strength"]),
            "others": others,
            # the seat asked to support is among the others: named as "you" too, so it finds itself
            "others_text": (tr("preview_others", names=", ".join(
                f"{o['name']}{' · ' + tr('you') if o['me'] else ''} (+{o['strength']})" for o in others))
                            if others else tr("preview_nobody")),
            "best": tr("preview_case_win" if p["best"]["wins"] else "preview_case_lose",
                       a=p["best"]["attacker"], t=p["best"]["target"]),
            "worst": tr("preview_case_win" if p["worst"]["wins"] else "preview_case_lose",
                        a=p["worst"]["attacker"], t=p["worst"]["target"]),
            "certain": p["best"]["wins"] == p["worst"]["wins"],
        })
    return out
