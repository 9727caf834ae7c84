"""The SVG map of the Spanish Main, drawn from a view: land and sea zones,
sites (colonies with owner, labour, Chests and forts; Cathedrals with Citizens;
Tribal Sites and Visitas with Indigenous), Rebels and fleets. Zones the player
name is written on the board. Every place a pending decision names (a zone to sail to or
start at, a colony to attack, load, unload, staff or target with a card, a site to attack,
kidnap or employ from, a zone's Rebels) is a focusable button on the map carrying the
options it stands for (`places`, built by render.place_options); other places are dimmed
while such a decision is pending (issue 14, "A board you click")."""
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
    the options it stands for, each {"label", "action"} (the action as JSON text); and the
    reasons a place cannot be chosen now (why-not sentences), shown in its tooltip."""

    def __init__(self, options: dict[str, list[dict]] | None = None, why: dict[str, list[str]] | None = None,
                 active: bool = False) -> None:
        self.options = options or {}
        self.why = why or {}
        self.active = active or bool(self.options)      # a place-naming decision is pending: dim the rest

    def attrs(self, key: str, label: str) -> str:
        """The attributes of a place that is a choice: a focusable button naming its options by
        the ids of their buttons in the decision list (`data-options`, board.option_id)."""
        opts = self.options.get(key)
        if not opts:
            return ""
        name = label if len(opts) > 1 else f"{label}: {opts[0]['label']}"
        ids = " ".join(o["id"] for o in opts)
        return (f' data-place="{escape(key)}" data-options="{escape(ids)}" tabindex="0" role="button"'
                f' aria-label="{escape(name)}"')

    def title(self, key: str, text: str) -> str:
        lines = [text] + self.why.get(key, [])
        return f"<title>{escape(chr(10).join(lines))}</title>"

    def state(self, key: str) -> str:
        """A CSS class: "choice" for a place to click (the others are dimmed by the stylesheet
        while some zone of the map has a choice)."""
        return " choice" if key in self.options else ""

    def hit(self, key: str, x: float, y: float, w: float, h: float) -> str:
        """The highlighted box a place to click is drawn on (none for the others: updates stay small)."""
        if key not in self.options:
            return ""
        return f'<rect class="hit" x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{h:.0f}" rx="3"/>'


def render(view: Any, clickable: dict[str, str], tr: Tr, info: Info, places: Places | None = None) -> str:
    """The board as SVG. `clickable` (zone id -> action JSON) is the older form of `places`:
    one action per zone."""
    if not isinstance(view, dict) or not info.zones:
        return ""
    if places is None:
        from .board import option_id
        places = Places({z: [{"id": option_id(a), "label": tr.place(z, z), "action": a}] for z, a in clickable.items()})
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
    # no "choosing" class on the map itself: the stylesheet dims by svg.map:has(.has-choice), so
    # the map's head stays the same and an update sends only the zones that changed
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
        inside = [z.id, rebels_place(z.id)] + [c.get("id") for c in by_zone[z.id]["colonies"]] \
            + [s.get("id") for s in by_zone[z.id]["sites"]]
        has_choice = any(k in places.options for k in inside)
        group_cls = "zone-group" + (" has-choice" if has_choice else "")
        cls = f"zone {z.kind}" + (" clickable" if z.id in places.options else "")
        attrs = f'class="{cls}" data-zone="{escape(z.id)}"' + places.attrs(z.id, name)
        title = places.title(z.id, name)
        # the id comes first: render.CHUNKED cuts the map at '<g id="', whatever the classes
        out.append(f'<g id="zone-{escape(z.id)}" class="{group_cls}">')
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
            out.extend(_land_contents(view, tr, x, y, by_zone[z.id], rebels.get(z.id, 0), z.id, places))
        out.extend(_fleets(view, tr, x, y, z.kind, by_zone[z.id]["fleets"]))
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def _short(name: str) -> str:
    """A site's name as the board writes it beside its symbol ("Visita of Tolú" -> "Tolú")."""
    for prefix in ("Visita of ", "Visita de ", "Cathedral of ", "Catedral de "):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


CHAR_W = 5.3      # about the width of a character of the board's small type (8.5px sans-serif)


def _land_contents(view: dict, tr: Tr, x: float, y: float, zone: dict, rebels: int, zone_id: str = "",
                   places: Places | None = None) -> list[str]:
    places = places or Places()
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
        out.append(f'<g class="colony{places.state(cid)}" data-colony="{escape(cid)}"{places.attrs(cid, cname)}>'
                   f'{places.title(cid, tip)}'
                   f'{places.hit(cid, cx - 2, cy - 1, LAND_W - 6, 14)}'
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
        out.append(f'<g class="{cls}{places.state(key)}"{data}{places.attrs(key, tip)}>{places.title(key, tip)}'
                   f'{places.hit(key, sx - 2, sy - 9, w, 12)}'
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
