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

from typing import Any

from markupsafe import escape

from .board import rebels_place
from .i18n import Tr
from .info import Info, ruleset_info

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


def seat_color(view: dict, seat: Any, info: Info | None = None) -> str:
    """A seat's colour: its nation's in the view's ruleset, else one by seat number."""
    if seat == "crown":
        return CROWN
    players = view.get("players") or []
    if isinstance(seat, int) and 0 <= seat < len(players):
        if info is None:
            info = ruleset_info(str(view.get("ruleset") or "reference"))
        return info.colors.get(str(players[seat].get("nation")), COLORS[seat % len(COLORS)])
    return "#888"


def seat_mark(view: Any, seat: Any, tr: Tr) -> str:
    """A letter for a seat besides its colour (colour is never the only signal): the first
    letter of its nation's name in the page's language, or its seat number when two nations
    of the game share a first letter; "♛" for the Crown."""
    if seat == "crown":
        return "♛"
    players = (view.get("players") if isinstance(view, dict) else None) or []
    if not isinstance(seat, int) or not 0 <= seat < len(players):
        return "?"
    letters = [(tr.nation(p.get("nation")) or "?")[:1].upper() for p in players]
    return letters[seat] if letters.count(letters[seat]) == 1 else str(seat + 1)


class Places:
    """What the map makes clickable: place key (zone, colony or site id, or rebels_place) ->
    the options it stands for, each {"id", "label", "action"} (the action as JSON text); and the
    reasons a place cannot be chosen now (why-not sentences), added to its tooltip."""

    def __init__(self, options: dict[str, list[dict]] | None = None, why: dict[str, list[str]] | None = None,
                 active: bool = False) -> None:
        self.options = options or {}
        self.why = why or {}
        self.active = active or bool(self.options)      # a place-naming decision is pending: dim the rest

    def choices(self, drawn: dict[str, tuple[str, tuple[float, float, float, float] | None]]) -> list[dict]:
        """The list static/board.js applies to the map: for each place drawn on it (`drawn`: key
        -> (its name, the box a colony or site is highlighted on, None for a zone)) that is a
        choice, {"k": key, "o": the ids of its options' buttons in the decision list
        (board.option_id), "l": its name, "b": [x, y, w, h]}; with "w": the why-not lines of its
        tooltip when it has some. The page names a place with one option "name: that option's
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
                if box is not None:
                    c["b"] = [round(v) for v in box]
            if why:
                c["w"] = list(why)
            out.append(c)
        return out


def render(view: Any, tr: Tr, info: Info) -> str:
    """The board as SVG, without choices."""
    return render_with_choices(view, tr, info)[0]


def render_with_choices(view: Any, tr: Tr, info: Info, places: Places | None = None) -> tuple[str, list[dict]]:
    """The board as SVG, and the list of its places to choose now (Places.choices), which the
    page applies to the map (static/board.js): the markup is the same whatever is pending."""
    if not isinstance(view, dict) or not info.zones:
        return "", []
    drawn: dict[str, tuple[str, Any]] = {}
    pos = _positions(info)
    width, height = _size(info)
    by_zone: dict[str, dict[str, list]] = {z.id: {"colonies": [], "sites": [], "fleets": []} for z in info.zones}
    for c in view.get("colonies") or []:
        by_zone.get(c.get("zone"), {}).setdefault("colonies", []).append(c)
    for s in view.get("sites") or []:
        by_zone.get(s.get("zone"), {}).setdefault("sites", []).append(s)
    for p in view.get("players") or []:
        fleet = p.get("fleet") or {}
        if fleet.get("zone") in by_zone:
            by_zone[fleet["zone"]]["fleets"].append(p)
    rebels = view.get("rebels") or {}
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
        # the id comes first: render.CHUNKED cuts the map at '<g id="'
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


def _land_contents(view: dict, tr: Tr, x: float, y: float, zone: dict, rebels: int, zone_id: str = "",
                   drawn: dict | None = None) -> list[str]:
    drawn = {} if drawn is None else drawn
    out = []
    left = x - LAND_W / 2 + 5
    row_y = y - LAND_H / 2 + 17
    for i, c in enumerate(zone.get("colonies", [])):
        cx, cy = left, row_y + i * 14
        cid = c.get("id", "")
        owner = c.get("owner")
        fill = seat_color(view, owner) if owner is not None else "#fff"
        who = tr.seat(owner) if isinstance(owner, int) else (owner or "—")
        cname = tr.place_name(c.get("name", cid))
        tip = (f"{cname} ({tr.word(c.get('goods'))}): {who}; {tr.word(c.get('labour')) if c.get('labour') else '—'}; "
               f"{tr('chests_count', n=c.get('chests', 0))}" + (f"; {tr('fort')}" if c.get("fort") else ""))
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


def _fleets(view: dict, tr: Tr, x: float, y: float, kind: str, players: list) -> list[str]:
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
