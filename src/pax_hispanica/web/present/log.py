"""The game log in words: event sentences with readable cards and map places, and its HTML lines."""
from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup, escape

from pax_hispanica.web.present import cards as cardtext
from pax_hispanica.web.present.i18n import SEAT_KEYS, Tr, humanize
from pax_hispanica.web.present.jinja_env import rule_link


def with_cards(text: str, ids: list[Any], tr: Tr, places: list[Any] | None = None) -> Markup:
    """`text` (escaped) with each named card's name turned into a card you can read, and each
    named place (zone, colony, site id in `places`) into a button that points at it on the map
    (static/board.js)."""
    html = str(escape(text))
    ruleset = getattr(tr, "ruleset", "reference")
    swaps: list[str] = []

    def swap(name: str, markup: str) -> None:
        nonlocal html
        if name and name in html:
            html = html.replace(name, f"\x00{len(swaps)}\x00", 1)
            swaps.append(markup)

    for cid in ids:
        if isinstance(cid, str) and cid in cardtext.catalogue(ruleset):
            swap(str(escape(tr.word(cid))), str(cardtext.card_html(cid, tr, ruleset)))
    for pid in places or []:
        name = str(escape(tr.word(pid)))
        swap(name, f'<button type="button" class="spot" data-spot="{escape(pid)}">{name}</button>')
    for i, markup in enumerate(swaps):
        html = html.replace(f"\x00{i}\x00", markup)
    return Markup(html)


PLACE_FIELDS = ("zone", "to", "from", "colony", "site", "target")


def event_places(e: dict[str, Any], tr: Tr) -> list[str]:
    """The places an event names (zones, colonies, sites of the map: ids the ruleset names)."""
    out = []
    for k in PLACE_FIELDS:
        v = e.get(k)
        if isinstance(v, str) and v in tr.names and v not in out \
                and v not in cardtext.catalogue(getattr(tr, "ruleset", "reference")):
            out.append(v)
    for v in e.get("colonies") or [] if isinstance(e.get("colonies"), list) else []:
        if isinstance(v, str) and v in tr.names and v not in out:
            out.append(v)
    return out


CARD_FIELDS = ("card", "top")


LOG_TAIL = 150


def _jsonable(x: Any) -> Any:
    return json.loads(json.dumps(x, default=str))


def log_entries(events: list[Any], tr: Tr, tail: int | None = LOG_TAIL) -> list[dict[str, Any]]:
    evs = events[-tail:] if tail else events
    out = []
    for e in reversed(evs):
        if not isinstance(e, dict):
            continue
        text, ids = tr.event(e), [e[k] for k in CARD_FIELDS if isinstance(e.get(k), str)]
        out.append({"seq": e.get("seq"), "type": e.get("type"), "text": text, "rule": e.get("rule"),
                    "page": e.get("page"), "cards": ids, "html": with_cards(text, ids, tr, event_places(e, tr)),
                    "seats": event_seats(e)})
    return out


def event_seats(e: dict[str, Any]) -> list[int]:
    """The seats an event names (its seat fields: the actor, a winner, bidders, a battle's sides,
    a list of bids by seat), for the log's "Mine" filter: a line is a seat's by these fields,
    never by a name in its words (static/board.js)."""
    seats: set[int] = set()

    def add(v: Any) -> None:
        if isinstance(v, int) and not isinstance(v, bool):
            seats.add(v)
        elif isinstance(v, list):
            for x in v:
                add(x.get("seat") if isinstance(x, dict) else x)

    for k, v in e.items():
        if k in SEAT_KEYS or k.endswith("_seat"):
            add(v)
    return sorted(s for s in seats if 0 <= s <= 9)


def details(x: Any, tr: Tr | None = None) -> str:
    """Other parts of a view (supply, pieces out of play) as nested definition lists, labelled
    in the page's language (catalogue keys "detail_<key>", else the key made readable)."""
    if isinstance(x, dict):
        if not x:
            return ""
        return "<dl>" + "".join(f"<dt>{escape(_detail_label(k, tr))}</dt><dd>{details(v, tr)}</dd>"
                                for k, v in x.items()) + "</dl>"
    if isinstance(x, list):
        if all(not isinstance(v, (dict, list)) for v in x):
            return str(escape(", ".join(str(v) for v in x))) or "—"
        return "<ol start=0>" + "".join(f"<li>{details(v, tr)}</li>" for v in x) + "</ol>"
    return str(escape("—" if x is None else x))


def _detail_label(key: Any, tr: Tr | None) -> str:
    return (tr.text("ui", f"detail_{key}") if tr is not None else None) or humanize(str(key))


def log_item(e: dict[str, Any]) -> str:
    """One log line as HTML (escaped): the event's sentence and a link to its rule."""
    attrs = (f' id="ev{escape(e["seq"])}"' if e.get("seq") is not None else "") + f' data-type="{escape(e.get("type"))}"'
    if e.get("seats"):            # the seats it names, one digit each ("02"): the "Mine" filter's
        attrs += f' data-s="{"".join(str(x) for x in e["seats"])}"'
    rule = ""
    if e.get("rule"):
        page = f" · {escape(e['page'])}" if e.get("page") else ""
        rule = f'<a class="rule" href="{escape(rule_link(e["rule"], e.get("page")))}">{escape(e["rule"])}{page}</a>'
    return f"<li{attrs}>{e.get('html') or escape(e.get('text'))} {rule}</li>"
