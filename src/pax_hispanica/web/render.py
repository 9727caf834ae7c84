"""Turning views (never raw state) into what a connection receives: HTML
fragments for the browser, or JSON for programs (bots, the load benchmark)."""
from __future__ import annotations

import json
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from . import svgmap
from .games import LiveGame
from .i18n import Tr, humanize
from .seam import api

_env = Environment(loader=FileSystemLoader(str(__import__("pathlib").Path(__file__).parent / "templates")),
                   autoescape=select_autoescape(["html"]))
LOG_TAIL = 150
_cache: dict[tuple, dict] = {}


def seat_names(live: LiveGame) -> list[str]:
    names = []
    for s in live.seats:
        nation = live.nation(s.seat) or f"#{s.seat + 1}"
        label = f"{nation} ({s.name})" if s.name else nation
        names.append(label)
    return names


def translator(live: LiveGame, lang: str) -> Tr:
    return Tr(lang, seat_names(live))


def next_human(live: LiveGame, seats: frozenset[int]) -> int | None:
    """The first seat that must act now and is played at this table."""
    for s in api.acting(live.state):
        if s in seats and live.seats[s].kind == "human":
            return s
    return None


def _jsonable(x: Any) -> Any:
    return json.loads(json.dumps(x, default=str))


def log_entries(events: list, tr: Tr, tail: int | None = LOG_TAIL) -> list[dict]:
    evs = events[-tail:] if tail else events
    return [{"seq": e.get("seq"), "type": e.get("type"), "text": tr.event(e), "rule": e.get("rule"),
             "page": e.get("page")} for e in reversed(evs) if isinstance(e, dict)]


def controls(legal: list, tr: Tr) -> tuple[list[dict], dict | None, dict[str, str]]:
    """(decision widgets, the undo action or None, zone id -> action JSON for clicking the map)."""
    widgets, undo, zones = [], None, {}
    for d in legal:
        if not isinstance(d, dict):
            continue
        if d.get("kind") == "range":
            widgets.append({"kind": "range", "label": tr.decision(d), "rule": d.get("rule"),
                            "template": json.dumps(d.get("action", {})), "field": d.get("field", "amount"),
                            "min": d.get("min", 0), "max": d.get("max", 0),
                            "decision": d.get("decision")})
        else:
            opts = []
            for o in d.get("options", []):
                if not isinstance(o, dict):
                    continue
                if o.get("type") == "undo":
                    undo = o
                    continue
                j = json.dumps(o)
                opts.append({"label": tr.action(o), "json": j, "type": o.get("type")})
                for key in ("to", "zone"):
                    if isinstance(o.get(key), str):
                        zones.setdefault(o[key], j)
            if opts:
                widgets.append({"kind": "choice", "label": tr.decision(d), "rule": d.get("rule"), "options": opts,
                                "decision": d.get("decision")})
    return widgets, undo, zones


def board_context(live: LiveGame, viewer: int | None, waiting: int | None, role: str, lang: str) -> dict:
    tr = translator(live, lang)
    state = live.state
    view = api.view(state, viewer)
    events = api.redact(live.events, viewer)
    acting = list(api.acting(state))
    legal = api.legal_actions(state, viewer) if viewer is not None and not live.over else []
    widgets, undo, zones = controls(legal, tr)
    decision = api.decision(state, viewer) if viewer is not None and not live.over else None
    result = _jsonable(api.result(state)) if live.over else None
    return {
        "t": tr, "live": live, "view": view, "viewer": viewer, "waiting": waiting, "role": role,
        "acting": acting, "acting_names": [tr.seat(s) for s in acting],
        "widgets": widgets, "undo": json.dumps(undo) if undo else None, "decision": decision,
        "sealed": bool(decision and str(decision.get("decision")) in ("bid", "support")),
        "log": log_entries(events, tr), "result": result, "over": live.over,
        "players": players_table(view, tr, live), "mine": own_parts(view, viewer),
        "map": Markup(svgmap.render(view, zones, tr)),
        "details": Markup(details(view, skip=svgmap.MAP_KEYS | {"players", "hand", "you", "me", "self"})),
        "version": live.version,
    }


def players_table(view: Any, tr: Tr, live: LiveGame) -> list[dict]:
    players = view.get("players") if isinstance(view, dict) else None
    if isinstance(players, dict):
        players = [players[k] for k in sorted(players, key=lambda k: int(k) if str(k).isdigit() else 0)]
    if not isinstance(players, list):
        return [{"seat": s.seat, "name": tr.seat(s.seat), "kind": s.kind, "fields": []} for s in live.seats]
    rows = []
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            continue
        seat = p.get("seat", i)
        fields = [(humanize(k), tr.value(k, v)) for k, v in p.items()
                  if k not in ("seat", "hand", "nation") and not isinstance(v, (dict,))]
        kind = live.seats[seat].kind if isinstance(seat, int) and 0 <= seat < len(live.seats) else ""
        rows.append({"seat": seat, "name": tr.seat(seat), "kind": kind, "fields": fields})
    return rows


def own_parts(view: Any, viewer: int | None) -> dict:
    """The viewer's own secret parts as the view gives them (hand)."""
    if viewer is None or not isinstance(view, dict):
        return {}
    hand = view.get("hand")
    if hand is None and isinstance(view.get("players"), list) and viewer < len(view["players"]):
        me = view["players"][viewer]
        hand = me.get("hand") if isinstance(me, dict) else None
    return {"hand": hand if isinstance(hand, list) else []}


def card_label(c: Any) -> str:
    if isinstance(c, dict):
        return str(c.get("name") or c.get("id") or c)
    return str(c)


_env.globals["card_label"] = card_label


def details(x: Any, skip: frozenset | set = frozenset(), depth: int = 0) -> str:
    """Anything else in the view, as nested definition lists (so no information is lost)."""
    from markupsafe import escape

    if isinstance(x, dict):
        items = [(k, v) for k, v in x.items() if k not in skip]
        if not items:
            return ""
        return "<dl>" + "".join(f"<dt>{escape(humanize(k))}</dt><dd>{details(v, depth=depth + 1)}</dd>"
                                for k, v in items) + "</dl>"
    if isinstance(x, list):
        if all(not isinstance(v, (dict, list)) for v in x):
            return escape(", ".join(str(v) for v in x)) or "—"
        return "<ol start=0>" + "".join(f"<li>{details(v, depth=depth + 1)}</li>" for v in x) + "</ol>"
    return str(escape("—" if x is None else x))


def board_html(ctx: dict) -> str:
    return _env.get_template("_board.html").render(**ctx)


def html_update(live: LiveGame, viewer: int | None, waiting: int | None, role: str, lang: str) -> dict:
    key = (live.id, live.version, tuple(s.kind for s in live.seats), viewer, waiting, role, lang)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    ctx = board_context(live, viewer, waiting, role, lang)
    msg = {"type": "update", "version": live.version, "seat": viewer, "waiting": waiting,
           "acting": ctx["acting"], "over": live.over, "html": board_html(ctx)}
    if len(_cache) > 2000:
        _cache.clear()
    _cache[key] = msg
    return msg


def json_update(live: LiveGame, viewer: int | None, full_log: bool = False) -> dict:
    state = live.state
    events = api.redact(live.events, viewer)
    return {
        "type": "update", "version": live.version, "seat": viewer, "acting": list(api.acting(state)),
        "decision": api.decision(state, viewer) if viewer is not None else None,
        "legal": api.legal_actions(state, viewer) if viewer is not None and not live.over else [],
        "view": api.view(state, viewer), "events": events if full_log else events[-50:], "over": live.over,
        "result": api.result(state) if live.over else None,
        "seats": [{"seat": s.seat, "kind": s.kind, "bot_kind": s.bot_kind} for s in live.seats],
    }


def replay_context(live: LiveGame, step: int, lang: str) -> dict:
    """Everything revealed at `step` (only offered once the game is over)."""
    tr = translator(live, lang)
    game = api.replay(live.record, upto=step)
    from .seam import game_events

    state = game.state
    public = api.view(state, None)
    hands = []
    for s in live.seats:
        parts = own_parts(api.view(state, s.seat), s.seat)
        hands.append({"name": tr.seat(s.seat), "hand": parts.get("hand", [])})
    events = game_events(game)
    return {"tr": tr, "map": Markup(svgmap.render(public, {}, tr)), "hands": hands,
            "players": players_table(public, tr, live),
            "log": log_entries(events, tr, tail=None),
            "action": tr.action(live.record["actions"][step - 1]) if step > 0 else "",
            "seed": live.seed, "details": Markup(details(public, skip=svgmap.MAP_KEYS | {"players"}))}
