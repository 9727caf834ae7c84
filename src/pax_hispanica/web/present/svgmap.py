"""The SVG map of the Spanish Main, drawn from a view: land and sea zones,
sites (colonies with owner, labour, Chests and forts; Cathedrals with Citizens;
Tribal Sites and Visitas with Indigenous), Rebels and fleets. Every name is written on the
board. Every place a pending decision names (a zone to sail to or start at, a colony to
attack, load, unload, staff or target with a card, a site to attack, kidnap or employ from, a
zone's Rebels) becomes a focusable button on the map carrying the options it stands for;
other places are dimmed while such a decision is pending (issue 14, "A board you click").
The map's markup never carries those choices: `render_with_choices` gives them as a small
list (`choices`) that static/board.js applies to the map already on the page, so a decision
that starts or ends resends that list, not the zones it touches."""
from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from markupsafe import escape

from pax_hispanica.engine.vocab import CONQUISTADOR, PLUNDER, PRIVATEER, SMUGGLER
from pax_hispanica.web.engine_port import View
from pax_hispanica.web.present.board import rebels_place
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.present.info import Info, ruleset_info

W, H = 1000, 660          # the board picture, unless the ruleset's map.toml gives its [board] size
LAND_W, LAND_H = 156, 108

# Zone positions and nation colours are the ruleset's (map.toml `pos`, nations.toml `color`,
# through api.board_layout); zones without a position fall back to a ring layout, nations
# without a colour to these, by seat.
COLORS = ["#c0392b", "#1f4e9c", "#138d75", "#d35400", "#7d3c98"]
CROWN = "#b7950b"


def _size(info: Info) -> tuple[float, float]:
    return info.size or (W, H)


def _positions(info: Info) -> dict[str, tuple[float, float]]:
    import math

    w, h = _size(info)
    pos = {z.id: info.positions[z.id] for z in info.zones if z.id in info.positions}
    rest = [z for z in info.zones if z.id not in pos]
    for i, z in enumerate(rest):
        a = 2 * math.pi * i / max(1, len(rest))
        r = 260 if z.kind == "land" else 150
        pos[z.id] = (w / 2 + r * math.cos(a), h / 2 + r * math.sin(a))
    return pos


def seat_color(view: dict[str, Any], seat: Any, info: Info | None = None) -> str:
    """A seat's colour: its nation's in the view's ruleset, else one by seat number."""
    if seat == "crown":
        return CROWN
    players = view.get("players") or []
    if isinstance(seat, int) and 0 <= seat < len(players):
        if info is None:
            info = ruleset_info(str(view.get("ruleset") or "reference"))
        ret: str = info.colors.get(str(players[seat].get("nation")), COLORS[seat % len(COLORS)])
        return ret
    return "#888"


def seat_mark(view: View | None, seat: Any, tr: Tr) -> str:
    """A letter for a seat besides its colour (colour is never the only signal): the first
    letter of its nation's name in the page's language, or its seat number when two nations
    of the game share a first letter; "♛" for the Crown."""
    if seat == "crown":
        return "♛"
    players = (view.get("players") if view is not None else None) or []
    if not isinstance(seat, int) or not 0 <= seat < len(players):
        return "?"
    letters = [(tr.nation(p.get("nation")) or "?")[:1].upper() for p in players]
    return letters[seat] if letters.count(letters[seat]) == 1 else str(seat + 1)


class Places:
    """What the map makes clickable: place key (zone, colony or site id, or rebels_place) ->
    the options it stands for, each {"id", "label", "action"} (the action as JSON text); and the
    reasons a place cannot be chosen now (why-not sentences), added to its tooltip."""

    def __init__(self, options: dict[str, list[dict[str, Any]]] | None = None, why: dict[str, list[str]] | None = None,
                 active: bool = False) -> None:
        self.options = options or {}
        self.why = why or {}
        self.active = active or bool(self.options)      # a place-naming decision is pending: dim the rest

    def choices(self, drawn: dict[str, tuple[str, tuple[float, float, float, float] | None]]) -> list[dict[str, Any]]:
        """The list static/board.js applies to the map: for each place drawn on it (`drawn`: key
        -> (its name, the box a colony or site is highlighted on, None for a zone)) that is a
        choice, {"k": key, "o": the ids of its options' buttons in the decision list
        (board.option_id), "l": its name}; "b": [x, y, w, h], the box of a colony or site (a choice
        or not: the page hit-tests it, since the map's words take no pointer); with "w": the
        why-not lines of its tooltip when it has some. The page names a place with one option "name: that option's
        words" (its button's text), so the words are sent once."""
        out = []
        for key, (label, box) in drawn.items():
            opts, why = self.options.get(key), self.why.get(key)
            if not opts and not why:
                continue
            c: dict[str, Any] = {"k": key}
            if opts:
                c["o"] = " ".join(o["id"] for o in opts)
                c["l"] = label      # the page adds the option's words when there is one (its button's)
            if box is not None:     # a forbidden site's box too: its words alone take no tap or hover
                c["b"] = [round(v) for v in box]
            if why:
                c["w"] = list(why)
            out.append(c)
        return out


def render(view: View | None, tr: Tr, info: Info) -> str:
    """The board as SVG, without choices."""
    return render_with_choices(view, tr, info)[0]


def render_with_choices(view: View | None, tr: Tr, info: Info, places: Places | None = None) -> tuple[str, list[dict[str, Any]]]:
    """The board as SVG, and the list of its places to choose now (Places.choices), which the
    page applies to the map (static/board.js): the markup is the same whatever is pending."""
    if view is None or not info.zones:
        return "", []
    if geographic(info):
        return _render_geo(view, tr, info, places)
    drawn: dict[str, tuple[str, Any]] = {}
    pos = _positions(info)
    width, height = _size(info)
    by_zone, rebels = _by_zone(view, info)
    # the page marks the zones with a choice (has-choice) and the stylesheet dims the others by
    # svg.map:has(.has-choice)
    out = [f'<svg class="map" id="map" viewBox="0 0 {width:.0f} {height:.0f}" xmlns="http://www.w3.org/2000/svg" '
           f'role="group" aria-label="{escape(tr("map"))}">']
    seen = set()
    for z in info.zones:  # routes first, under everything
        for a in z.adjacent:
            key = tuple(sorted((z.id, a)))
            if key in seen or a not in pos:
                continue
            seen.add(key)
            (x1, y1), (x2, y2) = pos[z.id], pos[a]
            out.append(f'<line class="edge" x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}"/>')
    for z in sorted(info.zones, key=lambda z: z.kind != "sea"):
        x, y = pos[z.id]
        name = tr.place(z.id, z.name)
        drawn[z.id] = (name, None)
        attrs = f'class="zone {z.kind}" data-zone="{escape(z.id)}"'
        title = f"<title>{escape(name)}</title>"
        # the id comes first: updates.CHUNKED cuts the map at '<g id="'
        out.append(f'<g id="zone-{escape(z.id)}" class="zone-group">')
        if z.kind == "sea":
            out.append(f'<ellipse {attrs} cx="{x:.0f}" cy="{y:.0f}" rx="70" ry="38">{title}</ellipse>')
            out.append(f'<text x="{x:.0f}" y="{y - 14:.0f}" text-anchor="middle" class="sea-name">'
                       f'{escape(name)}</text>')
        elif z.kind == "europe":
            out.append(f'<rect {attrs} x="{x - 60:.0f}" y="{y - 38:.0f}" width="120" height="76" rx="10">'
                       f'{title}</rect>')
            out.append(f'<text x="{x:.0f}" y="{y - 20:.0f}" text-anchor="middle" class="zone-name">{escape(name)}</text>')
        else:
            out.append(f'<rect {attrs} x="{x - LAND_W / 2:.0f}" y="{y - LAND_H / 2:.0f}" width="{LAND_W}" '
                       f'height="{LAND_H}" rx="8">{title}</rect>')
            out.append(f'<text x="{x:.0f}" y="{y - LAND_H / 2 + 12:.0f}" text-anchor="middle" '
                       f'class="zone-name">{escape(name)}</text>')
            out.extend(_land_contents(view, tr, x, y, by_zone[z.id], rebels.get(z.id, 0), z.id, drawn))
        out.extend(_fleets(view, tr, x, y, z.kind, by_zone[z.id]["fleets"]))
        out.append("</g>")
    out.append("</svg>")
    return "".join(out), (places or Places()).choices(drawn)


def _short(name: str) -> str:
    """A site's name as the board writes it beside its symbol ("Visita of Tolú" -> "Tolú")."""
    for prefix in ("Visita of ", "Visita de ", "Cathedral of ", "Catedral de "):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


CHAR_W = 5.3      # about the width of a character of the board's small type (8.5px sans-serif)


def _by_zone(view: dict[str, Any], info: Info) -> tuple[dict[str, dict[str, list[Any]]], dict[str, Any]]:
    """The view's colonies, sites and fleets by land or sea zone, and its Rebels by zone: what
    either drawing of the map (the layout's or the geographic one) puts in each zone."""
    by_zone: dict[str, dict[str, list[Any]]] = {z.id: {"colonies": [], "sites": [], "fleets": []} for z in info.zones}
    for col in view.get("colonies") or []:
        by_zone.get(col.get("zone"), {}).setdefault("colonies", []).append(col)
    for s in view.get("sites") or []:
        by_zone.get(s.get("zone"), {}).setdefault("sites", []).append(s)
    for p in view.get("players") or []:
        fleet = p.get("fleet") or {}
        if fleet.get("zone") in by_zone:
            by_zone[fleet["zone"]]["fleets"].append(p)
    return by_zone, view.get("rebels") or {}


def _colony_words(c: dict[str, Any], view: dict[str, Any], tr: Tr) -> tuple[str, str, str]:
    """A colony's fill (its owner's colour, white when nobody's), its name in `tr`'s language and
    its tooltip (goods, owner, labour, Chests, fort), as every drawing of a colony shows them."""
    owner = c.get("owner")
    fill = seat_color(view, owner) if owner is not None else "#fff"
    who = tr.seat(owner) if isinstance(owner, int) else (owner or "—")
    cname = tr.place_name(c.get("name", c.get("id", "")))
    tip = (f"{cname} ({tr.word(c.get('goods'))}): {who}; {tr.word(c.get('labour')) if c.get('labour') else '—'}; "
           f"{tr('chests_count', n=c.get('chests', 0))}" + (f"; {tr('fort')}" if c.get("fort") else ""))
    return fill, cname, tip


def _site_items(zone: dict[str, Any], zone_id: str, rebels: Any, tr: Tr) -> list[tuple[str, str, str, str]]:
    """A zone's sites and Rebels as (place key, class, symbol, tooltip): the map's one wording
    of them (a Cathedral's Citizens/capacity, a Tribal Site's or Visita's Indigenous)."""
    items = []
    for s in zone.get("sites", []):
        kind = s.get("kind")
        sname = tr.place_name(s.get("name", ""))
        if kind == "cathedral":
            sym = f"✝{s.get('count', 0)}/{s.get('capacity', 0)}"
        elif kind == "tribal":
            sym = ("△" if s.get("wilderness") else "▲") + f"{s.get('count', 0)} {_short(sname)}"
        elif kind == "visita":
            sym = f"⌂{s.get('count', 0)} {_short(sname)}"
        else:
            sym = f"{kind}:{s.get('count', 0)}"
        items.append((str(s.get("id", "")), f"site {kind}", sym, sname))
    if rebels:
        items.append((rebels_place(zone_id), "rebels", f"R{int(rebels)}", tr.n("rebels", int(rebels))))
    return items


def _land_contents(view: dict[str, Any], tr: Tr, x: float, y: float, zone: dict[str, Any], rebels: int, zone_id: str = "",
                   drawn: dict[str, Any] | None = None) -> list[str]:
    drawn = {} if drawn is None else drawn
    out = []
    left = x - LAND_W / 2 + 5
    row_y = y - LAND_H / 2 + 17
    for i, c in enumerate(zone.get("colonies", [])):
        cx, cy = left, row_y + i * 14
        cid, owner = c.get("id", ""), c.get("owner")
        fill, cname, tip = _colony_words(c, view, tr)
        drawn[cid] = (cname, (cx - 2, cy - 1, LAND_W - 6, 14))
        out.append(f'<g class="colony" data-colony="{escape(cid)}"><title>{escape(tip)}</title>'
                   f'<rect x="{cx:.0f}" y="{cy:.0f}" width="12" height="12" fill="{fill}" stroke="#333" '
                   f'stroke-width="{2.5 if c.get("fort") else 1}"/>')
        if owner is not None:
            out.append(f'<text x="{cx + 6:.0f}" y="{cy + 10:.0f}" text-anchor="middle" class="mark">'
                       f'{escape(seat_mark(view, owner, tr))}</text>')
        if c.get("labour"):
            lab = "#fff" if c["labour"] == "citizen" else "#222"
            out.append(f'<circle cx="{cx + 12:.0f}" cy="{cy + 12:.0f}" r="3.5" fill="{lab}" stroke="#333"/>')
        label = cname + (f" {int(c['chests'])}▣" if c.get("chests") else "")
        out.append(f'<text x="{cx + 18:.0f}" y="{cy + 10:.0f}" class="place-name">{escape(label)}</text>')
        out.append("</g>")
    ncol = len(zone.get("colonies", []))
    sx, sy = left, row_y + ncol * 14 + 10
    items = _site_items(zone, zone_id, rebels, tr)
    for key, cls, sym, tip in items:
        w = len(sym) * CHAR_W + 6
        if sx + w > x + LAND_W / 2 - 2 and sx > left:
            sx, sy = left, sy + 12
        data = f' data-site="{escape(key)}"' if cls.startswith("site") else f' data-rebels="{escape(zone_id)}"'
        drawn[key] = (tip, (sx - 2, sy - 9, w, 12))
        out.append(f'<g class="{cls}"{data}><title>{escape(tip)}</title>'
                   f'<text x="{sx:.0f}" y="{sy:.0f}" class="sites">{escape(sym)}</text></g>')
        sx += w + 2
    return out


def _fleets(view: dict[str, Any], tr: Tr, x: float, y: float, kind: str, players: list[Any]) -> list[str]:
    out = []
    base_y = y + (LAND_H / 2 - 22 if kind == "land" else 12 if kind == "sea" else 14)
    for i, p in enumerate(players):
        f = p.get("fleet") or {}
        fx = x + LAND_W / 2 - 30 - i * 26 if kind == "land" else x - 50 + i * 26   # land: bottom right
        seat = p.get("seat")
        tip = (f"{tr.seat(seat)}: {tr.n('ships', f.get('ships', 1))}, {tr.word(f.get('legality', ''))}, "
               f"{tr('cargo')} {len(f.get('cargo') or [])}")
        out.append(f'<g class="fleet" data-seat="{seat}"><title>{escape(tip)}</title>'
                   f'<path d="M{fx:.0f},{base_y:.0f} l22,0 l-4,8 l-14,0 z M{fx + 11:.0f},{base_y:.0f} '
                   f'l0,-14 l8,10 z" fill="{seat_color(view, seat)}" stroke="#222"/>'
                   f'<text x="{fx + 8:.0f}" y="{base_y + 18:.0f}" class="ships">{escape(seat_mark(view, seat, tr))}{int(f.get("ships", 1))}</text></g>')
    return out


# --- the board over the real coastlines (issue 38, "A board that looks like the Spanish Main") ---
# static/coast.json is Natural Earth's land (scripts/make_coastlines.py: Mercator, simplified, with
# its attribution). The reference map is drawn over it: each land zone is a plaque of its colonies
# and sites pointing at its coast, each sea zone is written over its sea, Europe is a box off the
# east edge. map.toml's `pos` stays the abstract layout of any other map (or a moved reference).
COAST_FILE = Path(__file__).parent.parent / "static" / "coast.json"
TYPE = 15          # the board's type in board units (style.css svg.map[data-board=geo]): ≥ 11 px with the map ≥ 734 px wide
HEAD, ROW, SITE_ROW, SHIP_ROW = 26, 21, 19, 35     # a plaque's name, a colony's row, a row of sites, of fleets

# land zone -> ((lon, lat) its plaque points at, (x, y) the plaque's top left on the board, or its
# bottom left when y is negative: a plaque on the south edge grows upwards, with its fleets)
GEO_LAND: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {
    "florida": ((-81.6, 28.6), (228, 16)),
    "nueva_espana": ((-96.6, 19.4), (4, 182)),
    "yucatan": ((-89.4, 20.4), (142, 320)),
    "honduras": ((-86.4, 15.2), (196, 420)),
    "cuba": ((-79.6, 22.0), (432, 140)),
    "jamaica": ((-77.3, 18.1), (335, 300)),
    "espanola": ((-70.6, 18.6), (590, 360)),
    "puerto_rico": ((-66.4, 18.2), (690, 168)),
    "barlovento": ((-61.5, 16.2), (826, 268)),
    "trinidad": ((-61.2, 10.4), (826, -659)),
    "venezuela": ((-66.8, 10.3), (600, -659)),
    "tierra_firme": ((-75.0, 10.4), (456, -659)),
    "panama": ((-79.8, 9.1), (260, -659)),
}
# sea zone -> (lon, lat) of its name
GEO_SEA: dict[str, tuple[float, float]] = {
    "golfo_mexico": (-91.0, 26.0),
    "estrecho_florida": (-83.6, 24.9),
    "canal_yucatan": (-86.3, 22.3),
    "atlantico": (-68.0, 27.0),
    "paso_barlovento": (-73.6, 21.4),
    "caribe_occidental": (-80.6, 12.3),
    "caribe_central": (-72.6, 12.6),
    "antillas_menores": (-64.4, 13.6),
}
GEO_SEA_UP = {"caribe_central", "caribe_occidental", "antillas_menores"}     # seas above the south coast's plaques: ships above the name
GEO_EUROPE = (872.0, 10.0)          # the box's top left, off the east edge
LEGALITY_MARK: dict[str, str] = {PLUNDER: "☠", PRIVATEER: "⚔", SMUGGLER: "◆", CONQUISTADOR: "✠"}


@lru_cache(maxsize=1)
def coast() -> dict[str, Any] | None:
    """The coastlines (static/coast.json), or None when the file is missing or broken."""
    try:
        data = json.loads(COAST_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("land") and data.get("projection") else None


def project(lon: float, lat: float) -> tuple[float, float]:
    """(lon, lat) on the geographic board, by coast.json's projection (Mercator)."""
    p = (coast() or {})["projection"]
    scale = p["width"] / math.radians(p["east"] - p["west"])

    def merc(phi: float) -> float:
        return math.log(math.tan(math.pi / 4 + math.radians(phi) / 2))

    return scale * math.radians(lon - p["west"]), scale * (merc(p["north"]) - merc(lat))


def geographic(info: Info) -> bool:
    """Whether a ruleset's map is drawn over the coastlines: the reference map, laid out as the
    reference ruleset lays it out (a ruleset that moves a zone or resizes the board, or has other
    zones, keeps its own abstract layout)."""
    if coast() is None or not info.zones:
        return False
    kinds = {z.id: z.kind for z in info.zones}
    if any(not ((k == "land" and z in GEO_LAND) or (k == "sea" and z in GEO_SEA) or k == "europe")
           for z, k in kinds.items()):
        return False
    ref = ruleset_info("reference")
    return info is ref or (info.positions == ref.positions and info.size == ref.size)


@lru_cache(maxsize=4096)
def text_width(s: str, size: float = TYPE) -> float:
    """About how wide `s` is written in the board's sans-serif type (Arial's widths)."""
    w = 0.0
    for ch in s:
        if ch == " " or ch in ".,;:'’()":
            w += .29
        elif ch.isdigit():
            w += .56
        elif ch.isupper():
            w += .68
        elif ch.isalpha():
            w += .55
        else:
            w += .95
    return w * size


def _render_geo(view: dict[str, Any], tr: Tr, info: Info, places: Places | None) -> tuple[str, list[dict[str, Any]]]:
    c = coast() or {}
    width, height = c["size"]
    drawn: dict[str, tuple[str, Any]] = {}
    by_zone, rebels = _by_zone(view, info)
    centre: dict[str, tuple[float, float]] = {}
    for z in info.zones:
        if z.kind == "sea":
            centre[z.id] = project(*GEO_SEA[z.id])
        elif z.kind == "europe":
            centre[z.id] = (GEO_EUROPE[0] + 60, GEO_EUROPE[1] + 30)
        else:
            centre[z.id] = project(*GEO_LAND[z.id][0])
    # what never changes comes before the first zone (updates.CHUNKED cuts the map at '<g id="'):
    # the sea, the land, the routes between seas (a land zone touches the seas its coast is on)
    out = [f'<svg class="map" id="map" data-board="geo" viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg" '
           f'role="group" aria-label="{escape(tr("map"))}">',
           f'<desc>{escape(c.get("attribution", ""))}</desc>',
           f'<rect class="sea-bg" width="{width}" height="{height}"/>',
           f'<path class="coast" d="{"".join(c["land"])}"/>']
    # the key to the fleets' signs and the coastlines' credit, over Texas (top left)
    lines = [f"{sign} {tr.word(leg)}" for leg, sign in LEGALITY_MARK.items()] + ["Natural Earth"]
    key_w = max(text_width(t) for t in lines) + 16
    key_box = (4.0, 4.0, key_w, 19 * len(lines) + 8)
    out.append(f'<g class="key"><rect x="{key_box[0]:.0f}" y="{key_box[1]:.0f}" width="{key_w:.0f}" '
               f'height="{key_box[3]:.0f}" rx="6"/>')
    for i, t in enumerate(lines):
        cls = "credit" if i == len(lines) - 1 else "key-line"
        out.append(f'<text x="{key_box[0] + 8:.0f}" y="{key_box[1] + 19 + 19 * i:.0f}" class="{cls}">{escape(t)}</text>')
    out.append("</g>")
    seen = set()
    for z in info.zones:
        for a in z.adjacent:
            key = tuple(sorted((z.id, a)))
            if key in seen or a not in centre:
                continue
            seen.add(key)
            other = next((o for o in info.zones if o.id == a), None)
            if z.kind == "land" or (other is not None and other.kind == "land"):
                continue
            (x1, y1), (x2, y2) = centre[z.id], centre[a]
            out.append(f'<line class="edge" x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}"/>')
    # the sea zones' ovals (a row of ships per three fleets) and the plaques where they fit
    seas: dict[str, tuple[float, float, float, float]] = {}
    fixed: dict[str, tuple[float, float, float, float]] = {}     # a sea's name and ships: no plaque covers them
    boxes: dict[str, tuple[float, float, float, float]] = {}
    for z in info.zones:
        name, n = tr.place(z.id, z.name), len(by_zone[z.id]["fleets"])
        if z.kind == "sea":
            x, y = centre[z.id]
            rows = -(-n // 3)
            up = -1 if z.id in GEO_SEA_UP else 1
            seas[z.id] = (x, y + up * rows * 17, max(58.0, text_width(name, TYPE + 1) / 2 + 14, min(n, 3) * 29 + 12),
                          22 + rows * 17)
            half = max(text_width(name, TYPE + 1), min(n, 3) * 58) / 2 + 4
            fixed[z.id] = (x - half, y - 12 - (rows * 34 if up < 0 else 0), 2 * half, 22 + rows * 34)
        elif z.kind == "europe":
            boxes[z.id] = (GEO_EUROPE[0], GEO_EUROPE[1], 120, 50 + ((n + 1) // 2) * 34)
        else:
            boxes[z.id] = _plaque(view, tr, z.id, name, "", "", by_zone[z.id], rebels.get(z.id, 0), {}, measure=True)[1]
    at = _fit(boxes, {**fixed, "key": key_box}, (width, height))
    for z in sorted(info.zones, key=lambda z: z.kind != "sea"):
        name = tr.place(z.id, z.name)
        drawn[z.id] = (name, None)
        attrs = f'class="zone {z.kind}" data-zone="{escape(z.id)}"'
        title = f"<title>{escape(name)}</title>"
        fleets = by_zone[z.id]["fleets"]
        out.append(f'<g id="zone-{escape(z.id)}" class="zone-group">')
        if z.kind == "sea":
            x, y = centre[z.id]
            (cx, cy, rx, ry), per_row = seas[z.id], 3
            out.append(f'<ellipse {attrs} cx="{cx:.0f}" cy="{cy:.0f}" rx="{rx:.0f}" ry="{ry:.0f}">{title}</ellipse>')
            out.append(f'<text x="{x:.0f}" y="{y + 5:.0f}" text-anchor="middle" class="sea-name">{escape(name)}</text>')
            for i, p in enumerate(fleets):
                n = min(per_row, len(fleets) - i // per_row * per_row)      # ships on this row, centred
                r = i // per_row
                top = y - 40 - (-(-len(fleets) // per_row) - 1 - r) * 34 if z.id in GEO_SEA_UP else y + 10 + r * 34
                out.append(_ship(view, tr, p, x - n * 29 + 2 + (i % per_row) * 58, top))
        elif z.kind == "europe":
            x, y, w, h = at["europe"]
            out.append(f'<rect {attrs} x="{x:.0f}" y="{y:.0f}" width="{w}" height="{h}" rx="8">{title}</rect>')
            out.append(f'<text x="{x + w / 2:.0f}" y="{y + 22:.0f}" text-anchor="middle" class="zone-name">'
                       f'{escape(name)}</text>')
            out.append(f'<text x="{x + w / 2:.0f}" y="{y + 44:.0f}" text-anchor="middle" class="europe-way">→</text>')
            for i, p in enumerate(fleets):
                out.append(_ship(view, tr, p, x + 4 + (i % 2) * 58, y + 50 + (i // 2) * 34))
        else:
            out.extend(_plaque(view, tr, z.id, name, attrs, title, by_zone[z.id], rebels.get(z.id, 0), drawn,
                               at[z.id])[0])
        out.append("</g>")
    out.append("</svg>")
    return "".join(out), (places or Places()).choices(drawn)


def _fit(boxes: dict[str, tuple[float, float, float, float]], fixed: dict[str, tuple[float, float, float, float]],
         size: tuple[float, float]) -> dict[str, tuple[float, float, float, float]]:
    """The plaques (x, y, w, h) moved the least needed so that none covers another or a sea's
    name (`fixed`), on the board: each pass pushes every plaque out of what it overlaps, along the
    shortest way that keeps it on the board. Plaques are laid out where GEO_LAND puts them; only a
    plaque grown by its fleets (or a long name) moves."""
    width, height = size
    out = {k: list(b) for k, b in boxes.items()}

    def push(a: list[Any], b: tuple[Any, ...]) -> tuple[float, float] | None:
        ax0, ay0, ax1, ay1 = a[0], a[1], a[0] + a[2], a[1] + a[3]
        bx0, by0, bx1, by1 = b[0], b[1], b[0] + b[2], b[1] + b[3]
        if not (ax0 < bx1 - 1 and bx0 < ax1 - 1 and ay0 < by1 - 1 and by0 < ay1 - 1):
            return None
        ways = [(bx1 - ax0 + 2, 0.0), (bx0 - ax1 - 2, 0.0), (0.0, by1 - ay0 + 2), (0.0, by0 - ay1 - 2)]
        ways = [(dx, dy) for dx, dy in ways
                if 2 <= a[0] + dx <= width - a[2] - 2 and 2 <= a[1] + dy <= height - a[3] - 2] or ways
        return min(ways, key=lambda d: abs(d[0]) + abs(d[1]))

    keys = list(out)
    for _ in range(30):
        moved = False
        for k in keys:
            for b in [tuple(out[o]) for o in keys if o != k] + list(fixed.values()):
                d = push(out[k], b)
                if d is not None:
                    out[k][0] = max(2.0, min(out[k][0] + d[0], width - out[k][2] - 2))
                    out[k][1] = max(2.0, min(out[k][1] + d[1], height - out[k][3] - 2))
                    moved = True
        if not moved:
            break
    return {k: (b[0], b[1], b[2], b[3]) for k, b in out.items()}


def _plaque(view: dict[str, Any], tr: Tr, zone_id: str, name: str, attrs: str, title: str, zone: dict[str, Any], rebels: int,
            drawn: dict[str, Any], at: tuple[float, float, float, float] | None = None, measure: bool = False
            ) -> tuple[list[str], tuple[float, float, float, float]]:
    """A land zone: a plaque (its name, a row per colony, its sites, its fleets) at its place on
    the board (GEO_LAND's, or `at` as _fit moved it), and a line from it to its coast; and the
    plaque's box (x, y, width, height)."""
    (lon, lat), (x, y) = GEO_LAND[zone_id]
    ax, ay = project(lon, lat)
    colonies = zone.get("colonies", [])
    rows = []
    for col in colonies:
        cname = tr.place_name(col.get("name", col.get("id", "")))
        rows.append((col, cname + (f" {int(col['chests'])}▣" if col.get("chests") else "")))
    items = _site_items(zone, zone_id, rebels, tr)
    fleets = zone.get("fleets", [])
    w = max([130.0, text_width(name, TYPE + 1) * 1.1 + 16]
            + [33 + text_width(label) + 8 for _, label in rows]
            + [text_width(sym) + 14 for _, _, sym, _ in items])
    if y >= 0:          # sites on one row if they fit (the south edge's plaques, side by side, keep narrow)
        w = max(w, min(166.0, sum(text_width(i[2]) + 9 for i in items) + 4))
    w = min(w, 210.0)
    # the sites, wrapped to the plaque's width
    placed, sx, line = [], 7.0, 0      # x from the plaque's left
    for item in items:
        iw = text_width(item[2])
        if sx + iw > w - 5 and sx > 7:
            sx, line = 7.0, line + 1
        placed.append((item, sx, line, iw))
        sx += iw + 9
    site_rows = (line + 1) if items else 0
    if len(fleets) >= 3:                        # three ships side by side rather than a third row
        w = max(w, 8 + 3 * 58)
    per_row = max(1, int((w - 8) // 58))        # the fleets, in rows under the sites
    fleet_rows = -(-len(fleets) // per_row)
    head = HEAD
    h = head + len(rows) * ROW + site_rows * SITE_ROW + fleet_rows * SHIP_ROW + 6
    if y < 0:
        y = -y - h
    width, height = (coast() or {}).get("size", (W, H))
    x, y = max(2.0, min(x, width - w - 2)), max(2.0, min(y, height - h - 2))      # on the board
    if measure:         # only where it would stand and how large it is (for _fit)
        return [], (x, y, w, h)
    if at is not None:
        x, y = at[0], at[1]
    # the line to the coast, from the plaque's nearest point
    px, py = min(max(ax, x), x + w), min(max(ay, y), y + h)
    out = []
    if math.hypot(ax - px, ay - py) > 3:
        out.append(f'<line class="leader" x1="{px:.0f}" y1="{py:.0f}" x2="{ax:.0f}" y2="{ay:.0f}"/>')
    out.append(f'<circle class="anchor" cx="{ax:.0f}" cy="{ay:.0f}" r="4"/>')
    out.append(f'<rect {attrs} x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{h:.0f}" rx="6">{title}</rect>')
    out.append(f'<text x="{x + 7:.0f}" y="{y + 19:.0f}" class="zone-name">{escape(name)}</text>')
    ry = y + head
    for col, label in rows:
        cid, owner = col.get("id", ""), col.get("owner")
        fill, cname, tip = _colony_words(col, view, tr)
        drawn[cid] = (cname, (x + 3, ry - 1, w - 6, ROW))
        out.append(f'<g class="colony" data-colony="{escape(cid)}"><title>{escape(tip)}</title>'
                   f'<rect x="{x + 7:.0f}" y="{ry + 1:.0f}" width="18" height="18" fill="{fill}" stroke="#333" '
                   f'stroke-width="{3 if col.get("fort") else 1}"/>')
        if owner is not None:
            out.append(f'<text x="{x + 16:.0f}" y="{ry + 15.5:.1f}" text-anchor="middle" class="mark">'
                       f'{escape(seat_mark(view, owner, tr))}</text>')
        if col.get("labour"):
            lab = "#fff" if col["labour"] == "citizen" else "#222"
            out.append(f'<circle cx="{x + 26:.0f}" cy="{ry + 18:.0f}" r="4" fill="{lab}" stroke="#333"/>')
        out.append(f'<text x="{x + 33:.0f}" y="{ry + 16:.0f}" class="place-name">{escape(label)}</text>')
        out.append("</g>")
        ry += ROW
    for (key, cls, sym, tip), sx, line, iw in placed:
        sx, sy = x + sx, ry + 15 + line * SITE_ROW
        data = f' data-site="{escape(key)}"' if cls.startswith("site") else f' data-rebels="{escape(zone_id)}"'
        drawn[key] = (tip, (sx - 3, sy - 15, iw + 6, SITE_ROW))
        out.append(f'<g class="{cls}"{data}><title>{escape(tip)}</title>'
                   f'<text x="{sx:.0f}" y="{sy:.0f}" class="sites">{escape(sym)}</text></g>')
    fy = ry + site_rows * SITE_ROW + 4
    for i, p in enumerate(fleets):
        out.append(_ship(view, tr, p, x + 6 + (i % per_row) * 58, fy + (i // per_row) * SHIP_ROW))
    return out, (x, y, w, h)


def _ship(view: dict[str, Any], tr: Tr, p: dict[str, Any], x: float, y: float) -> str:
    """A fleet: a ship in its nation's colour with the nation's letter on the sail, its number of
    ships and its legality's sign (☠ PLUNDER, ⚔ PRIVATEER, ◆ SMUGGLER, ✠ CONQUISTADOR), all in
    words in its tooltip. (x, y): the top left of its 52 x 30 box."""
    f = p.get("fleet") or {}
    seat = p.get("seat")
    legality = str(f.get("legality", ""))
    tip = (f"{tr.seat(seat)}: {tr.n('ships', f.get('ships', 1))}, {tr.word(legality)}, "
           f"{tr('cargo')} {len(f.get('cargo') or [])}")
    colour = seat_color(view, seat)
    sign = LEGALITY_MARK.get(legality, legality[:1])
    return (f'<g class="fleet" data-seat="{seat}"><title>{escape(tip)}</title>'
            f'<path class="hull" d="M{x:.0f},{y + 21:.0f}l30,0-6,8-19,0zm15,0v-21"/>'
            f'<rect x="{x + 5:.0f}" y="{y + 2:.0f}" width="20" height="18" rx="2" fill="{colour}" stroke="#222"/>'
            f'<text x="{x + 15:.0f}" y="{y + 16:.0f}" text-anchor="middle" class="mark">'
            f'{escape(seat_mark(view, seat, tr))}</text>'
            f'<text x="{x + 31:.0f}" y="{y + 18:.0f}" class="ships">{int(f.get("ships", 1))}{escape(sign)}</text></g>')
