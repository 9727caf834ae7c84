"""The SVG map of the Spanish Main, drawn from a view: land and sea zones,
sites (colonies with owner, labour, Chests and forts; Cathedrals with Citizens;
Tribal Sites and Visitas with Indigenous), Rebels and fleets. Zones the player
may sail to are clickable (they carry the action to send)."""
from __future__ import annotations

from typing import Any

from markupsafe import escape

from .i18n import Tr
from .info import Info, ruleset_info

W, H = 1000, 660          # the board picture, unless the ruleset's map.toml gives its [board] size
LAND_W, LAND_H = 156, 92

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


def render(view: Any, clickable: dict[str, str], tr: Tr, info: Info) -> str:
    if not isinstance(view, dict) or not info.zones:
        return ""
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
    out = [f'<svg class="map" id="map" viewBox="0 0 {width:.0f} {height:.0f}" xmlns="http://www.w3.org/2000/svg" role="img" '
           f'aria-label="{escape(tr("map"))}">']
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
        action = clickable.get(z.id)
        cls = f"zone {z.kind}" + (" clickable" if action else "")
        attrs = f'class="{cls}" data-zone="{escape(z.id)}"'
        if action:
            attrs += f" data-action='{escape(action)}' tabindex=\"0\""
        name = tr.place(z.id, z.name)
        title = f"<title>{escape(name)}</title>"
        out.append(f'<g class="zone-group" id="zone-{escape(z.id)}">')
        if z.kind == "sea":
            out.append(f'<ellipse {attrs} cx="{x:.0f}" cy="{y:.0f}" rx="70" ry="38">{title}</ellipse>')
            out.append(f'<text x="{x:.0f}" y="{y - 14:.0f}" text-anchor="middle" class="sea-name">'
                       f'{escape(name)}</text>')
        elif z.kind == "europe":
            out.append(f'<rect {attrs} x="{x - 60:.0f}" y="{y - 38:.0f}" width="120" height="76" rx="10">'
                       f'{title}</rect>')
            out.append(f'<text x="{x:.0f}" y="{y - 20:.0f}" text-anchor="middle">{escape(name)}</text>')
        else:
            out.append(f'<rect {attrs} x="{x - LAND_W / 2:.0f}" y="{y - LAND_H / 2:.0f}" width="{LAND_W}" '
                       f'height="{LAND_H}" rx="8">{title}</rect>')
            out.append(f'<text x="{x:.0f}" y="{y - LAND_H / 2 + 13:.0f}" text-anchor="middle" '
                       f'font-weight="bold">{escape(name)}</text>')
            out.extend(_land_contents(view, tr, x, y, by_zone[z.id], rebels.get(z.id, 0)))
        out.extend(_fleets(view, tr, x, y, z.kind, by_zone[z.id]["fleets"]))
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def _land_contents(view: dict, tr: Tr, x: float, y: float, zone: dict, rebels: int) -> list[str]:
    out = []
    left = x - LAND_W / 2 + 6
    row_y = y - LAND_H / 2 + 28
    for i, c in enumerate(zone.get("colonies", [])):
        cx = left + (i % 4) * 37
        cy = row_y + (i // 4) * 24
        owner = c.get("owner")
        fill = seat_color(view, owner) if owner is not None else "#fff"
        who = tr.seat(owner) if isinstance(owner, int) else (owner or "—")
        tip = (f"{tr.place_name(c.get('name', c.get('id')))} "
               f"({tr.word(c.get('goods'))}): {who}; {tr.word(c.get('labour')) if c.get('labour') else '—'}; "
               f"{tr('chests_count', n=c.get('chests', 0))}" + (f"; {tr('fort')}" if c.get("fort") else ""))
        out.append(f'<g class="colony" data-colony="{escape(c.get("id", ""))}"><title>{escape(tip)}</title>'
                   f'<rect x="{cx:.0f}" y="{cy:.0f}" width="16" height="16" fill="{fill}" stroke="#333" '
                   f'stroke-width="{2.5 if c.get("fort") else 1}"/>')
        if owner is not None:
            out.append(f'<text x="{cx + 8:.0f}" y="{cy + 12:.0f}" text-anchor="middle" class="mark">'
                       f'{escape(seat_mark(view, owner, tr))}</text>')
        if c.get("labour"):
            lab = "#fff" if c["labour"] == "citizen" else "#222"
            out.append(f'<circle cx="{cx + 16:.0f}" cy="{cy + 16:.0f}" r="4" fill="{lab}" stroke="#333"/>')
        if c.get("chests"):
            out.append(f'<text x="{cx + 18:.0f}" y="{cy + 13:.0f}" class="chests">{int(c["chests"])}▣</text>')
        out.append("</g>")
    ncol = len(zone.get("colonies", []))
    sy = row_y + ((ncol + 3) // 4) * 24 + 12
    parts = []
    for s in zone.get("sites", []):
        kind = s.get("kind")
        if kind == "cathedral":
            sym = f"✝{s.get('count', 0)}/{s.get('capacity', 0)}"
        elif kind == "tribal":
            sym = ("△" if s.get("wilderness") else "▲") + str(s.get("count", 0))
        elif kind == "visita":
            sym = f"⌂{s.get('count', 0)}"
        else:
            sym = f"{kind}:{s.get('count', 0)}"
        parts.append(f'<tspan class="site {escape(str(kind))}" data-site="{escape(s.get("id", ""))}">'
                     f'<title>{escape(tr.place_name(s.get("name", "")))}</title>{escape(sym)} </tspan>')
    if rebels:
        parts.append(f'<tspan class="rebels" fill="#b00020" font-weight="bold">R{int(rebels)}</tspan>')
    if parts:
        out.append(f'<text x="{left:.0f}" y="{sy:.0f}" class="sites">{"".join(parts)}</text>')
    return out


def _fleets(view: dict, tr: Tr, x: float, y: float, kind: str, players: list) -> list[str]:
    out = []
    base_y = y + (LAND_H / 2 - 12 if kind == "land" else 12 if kind == "sea" else 14)
    for i, p in enumerate(players):
        f = p.get("fleet") or {}
        fx = x - 50 + i * 26
        seat = p.get("seat")
        tip = (f"{tr.seat(seat)}: {tr.n('ships', f.get('ships', 1))}, {tr.word(f.get('legality', ''))}, "
               f"{tr('cargo')} {len(f.get('cargo') or [])}")
        out.append(f'<g class="fleet" data-seat="{seat}"><title>{escape(tip)}</title>'
                   f'<path d="M{fx:.0f},{base_y:.0f} l22,0 l-4,8 l-14,0 z M{fx + 11:.0f},{base_y:.0f} '
                   f'l0,-14 l8,10 z" fill="{seat_color(view, seat)}" stroke="#222"/>'
                   f'<text x="{fx + 8:.0f}" y="{base_y + 19:.0f}" class="ships">{escape(seat_mark(view, seat, tr))}{int(f.get("ships", 1))}</text></g>')
    return out
