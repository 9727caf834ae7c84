"""The board over real Caribbean coastlines (issue 38, "The board first" and "A board that looks
like the Spanish Main"): the coastlines are Natural Earth's, converted once by
scripts/make_coastlines.py into a small committed file with its attribution; the reference map is
drawn over them; and in Debian's chromium every name on the map is at least 11 px on a 1280 px
wide screen and 10 px on a 390x844 phone at the default zoom, no name spills out of its plaque
and no two plaques or sea names cover each other."""
from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path

import pytest

from pax_hispanica import api
from pax_hispanica.web.present import svgmap
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.present.info import ruleset_info

from .conftest import Server
from .test_page_reading import drive

ROOT = Path(__file__).resolve().parents[2]
SIZES = {"desktop": ({"width": 1280, "height": 800}, 11.0), "phone": ({"width": 390, "height": 844}, 10.0)}


def test_the_coastlines_are_natural_earth_with_their_attribution_and_small():
    path = ROOT / "src" / "pax_hispanica" / "web" / "static" / "coast.json"
    assert (ROOT / "scripts" / "make_coastlines.py").exists()
    assert 5_000 < path.stat().st_size < 60_000, path.stat().st_size
    data = json.loads(path.read_text())
    assert "Natural Earth" in data["attribution"] and "world-atlas" in data["source"]
    assert "Permission to use, copy, modify, and/or distribute" in data["licence"]     # world-atlas's ISC text
    assert data["projection"]["kind"] == "mercator" and data["size"][0] == 1000
    assert len(data["land"]) > 50 and all(re.fullmatch(r"M[-\d. ]+(l[-\d. ]+)?z", p) for p in data["land"])


def test_the_reference_map_is_drawn_over_the_coastlines_and_another_map_keeps_its_layout(tmp_path):
    info = ruleset_info()
    view = api.view(api.new_game(api.Config(players=3), seed=1), 0)
    svg = svgmap.render(view, Tr("en", ["A", "B", "C"], info.names), info)
    assert 'data-board="geo"' in svg and '<path class="coast" d="M' in svg and "Natural Earth" in svg
    # the land and what never changes come before the first zone (render.CHUNKED's pieces)
    assert svg.index('class="coast"') < svg.index('<g id="zone-')
    # every zone is drawn, and every land zone points at its coast
    for z in info.zones:
        assert f'<g id="zone-{z.id}" class="zone-group">' in svg
    assert svg.count('class="anchor"') == sum(z.kind == "land" for z in info.zones)
    # Havana is drawn north-west of Cartagena, and the Gulf west of the Lesser Antilles, as on a map
    (hx, hy), (cx, cy) = svgmap.project(-82.4, 23.1), svgmap.project(-75.5, 10.4)
    assert hx < cx and hy < cy
    # a ruleset that moves a zone of the map keeps its own (abstract) layout
    assert not svgmap.geographic(ruleset_info("reference").__class__(
        info.zones, info.names, info.card_cost, info.card_deck, info.nations,
        {**info.positions, "florida": (12, 34)}, info.size, info.colors))


def _boxes(svg: str) -> dict[str, tuple[float, float, float, float]]:
    """What must stay uncovered on the geographic board, as (x0, y0, x1, y1): each land plaque and
    Europe's box, each sea's name and each ship at sea."""
    out = {}
    for g in re.finditer(r'<g id="zone-([a-z_]+)" class="zone-group">(.*?)</g>(?=<g id="zone-|</svg>)', svg, re.S):
        zone, body = g[1], g[2]
        m = re.search(r'<rect class="zone (?:land|europe)"[^>]* x="([\d.-]+)" y="([\d.-]+)" '
                      r'width="([\d.]+)" height="([\d.]+)"', body)
        if m:
            x, y, w, h = map(float, m.groups())
            out[zone] = (x, y, x + w, y + h)
        m = re.search(r'<text x="([\d.-]+)" y="([\d.-]+)" text-anchor="middle" class="sea-name">([^<]*)<', body)
        if m and 'class="zone sea"' in body:
            x, y, half = float(m[1]), float(m[2]), svgmap.text_width(html.unescape(m[3]), 16) / 2
            out[zone] = (x - half, y - 12, x + half, y + 4)
            for i, ship in enumerate(re.finditer(r'<path class="hull" d="M([\d.-]+),([\d.-]+)', body)):
                sx, sy = float(ship[1]), float(ship[2])
                out[f"{zone}#ship{i}"] = (sx, sy - 21, sx + 50, sy + 8)
    return out


def test_no_plaque_covers_another_or_a_seas_name_wherever_up_to_three_fleets_are():
    """Every zone with one, two or three fleets, and every two zones with one fleet each, in English
    and Catalan (longer names), and one to three fleets anywhere when every colony has Chests and
    there are Rebels (the widest plaques): the plaques stay on the board and none covers another
    plaque, a sea's name or a ship at sea (svgmap._fit moves a plaque that grew). Four or five
    fleets in one zone may still crowd a corner of the map."""
    info = ruleset_info()
    base = api.view(api.new_game(api.Config(players=5), seed=1), 0)
    full = json.loads(json.dumps(base))          # the widest plaques: Chests on every colony, Rebels
    for c in full["colonies"]:
        c["chests"] = 2
    full["rebels"] = {"venezuela": 2, "yucatan": 1, "tierra_firme": 1}
    ids = [z.id for z in info.zones]
    alone = [[z] * n for z in ids for n in (1, 2, 3)]
    cases = [(base, zones) for zones in alone + [[a, b] for i, a in enumerate(ids) for b in ids[i + 1:]]]
    cases += [(full, zones) for zones in alone]
    width, height = svgmap.coast()["size"]
    bad = []
    for lang in ("en", "ca"):
        words = Tr(lang, ["Ana", "Bru", "Cai", "Dani", "Eva"], info.names)
        for start, zones in cases:
            view = json.loads(json.dumps(start))
            for i, p in enumerate(view["players"]):
                p["fleet"]["zone"] = zones[i] if i < len(zones) else "europe"
            boxes = _boxes(svgmap.render(view, words, info))
            keys = list(boxes)
            for i, k in enumerate(keys):
                x0, y0, x1, y1 = boxes[k]
                if "#" not in k and (x0 < 0 or y0 < 0 or x1 > width or y1 > height):
                    bad.append((lang, zones, k, "off the board"))
                for o in keys[i + 1:]:
                    a, b = boxes[k], boxes[o]
                    same = k.split("#")[0] == o.split("#")[0] or ("#" in k and "#" in o)
                    if not same and a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1:
                        bad.append((lang, zones, k, o))
    assert not bad, bad[:10]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A 3-player game some way into its first Sail Year: fleets at sea and on the coasts."""
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('legible') / 'p.sqlite3'}").start()
    try:
        g = srv.post("/api/games", {"players": 3, "seats": [{"kind": "human", "name": n} for n in ("Ana", "Bru", "Cai")]})
        tokens = [s["token"] for s in g["seats"]]
        drive(srv, tokens, random.Random(8),
              lambda views: sum((p.get("fleet") or {}).get("zone") not in (None, "europe")
                                for p in views[0]["view"]["players"]) >= 2)
        yield srv, tokens
    finally:
        srv.stop()


MEASURE = """() => {
  const svg = document.querySelector('svg.map');
  const scale = svg.getScreenCTM().a;                      // board units -> CSS px at this zoom
  const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() && t.getBBox().width > 0);
  const sizes = texts.map(t => ({px: parseFloat(getComputedStyle(t).fontSize) * scale, text: t.textContent}));
  sizes.sort((a, b) => a.px - b.px);
  const box = e => e.getBoundingClientRect();
  const inside = (a, b) => a.left >= b.left - 1.5 && a.right <= b.right + 1.5 && a.top >= b.top - 1.5 && a.bottom <= b.bottom + 1.5;
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const plaques = [...svg.querySelectorAll('.zone.land, .zone.europe')];
  const spills = [], covers = [];
  plaques.forEach(p => p.parentNode.querySelectorAll('text').forEach(t => {
    if (!inside(box(t), box(p))) spills.push(t.textContent);
  }));
  [...plaques, ...svg.querySelectorAll('.zone.sea')].forEach(p => {
    if (!inside(box(p), box(svg))) spills.push(p.dataset.zone);
  });
  const names = [...svg.querySelectorAll('.sea-name')];
  plaques.forEach((p, i) => {
    plaques.slice(i + 1).forEach(q => { if (meets(box(p), box(q))) covers.push([p.dataset.zone, q.dataset.zone]); });
    names.forEach(n => { if (meets(box(p), box(n))) covers.push([p.dataset.zone, n.textContent]); });
  });
  return {scale: scale, smallest: sizes.slice(0, 3), count: sizes.length, spills: spills, covers: covers,
          coast: svg.querySelector('path.coast').getBBox().width, board: svg.dataset.board};
}"""


@pytest.mark.browser
@pytest.mark.parametrize("size", list(SIZES))
def test_map_names_are_legible_at_the_default_zoom(browser, game, size):
    srv, tokens = game
    viewport, least = SIZES[size]
    phone = size == "phone"
    ctx = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
    page = ctx.new_page()
    try:
        page.goto(f"{srv.url}/play/{tokens[0]}")
        page.wait_for_selector("#conn.on")
        page.evaluate("() => document.fonts.ready.then(() => true)")
        m = page.evaluate(MEASURE)
        assert m["board"] == "geo" and m["coast"] > 900, m
        assert m["count"] > 60, m
        assert m["smallest"][0]["px"] >= least, (size, m["smallest"], m["scale"])
        assert not m["spills"], m["spills"]
        assert not m["covers"], m["covers"]
        # zoom in (the + button) and out: the names grow, then come back
        page.click(".zoom-in")
        assert page.evaluate(MEASURE)["smallest"][0]["px"] > m["smallest"][0]["px"] * 1.3
        page.click(".zoom-reset")
        assert abs(page.evaluate(MEASURE)["smallest"][0]["px"] - m["smallest"][0]["px"]) < 0.01
        # the wheel over the map zooms in where the pointer is; on a phone two fingers pinch
        page.locator(".map-scroll").scroll_into_view_if_needed()
        box = page.locator(".map-scroll").bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + min(box["height"], viewport["height"] - box["y"]) / 2
        if phone:
            cdp = ctx.new_cdp_session(page)

            def fingers(kind: str, spread: float) -> None:
                points = [] if kind == "touchEnd" else [{"x": cx - spread, "y": cy, "id": 1},
                                                        {"x": cx + spread, "y": cy, "id": 2}]
                cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

            fingers("touchStart", 30)
            for spread in (45, 60, 75, 90):
                fingers("touchMove", spread)
            fingers("touchEnd", 0)
        else:
            page.mouse.move(cx, cy)
            page.mouse.wheel(0, -200)
        page.wait_for_function("() => document.querySelector('svg.map').classList.contains('zoomed')")
        assert page.evaluate(MEASURE)["smallest"][0]["px"] > m["smallest"][0]["px"] * 1.1
    finally:
        ctx.close()
