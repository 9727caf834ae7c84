"""The coastlines under the board (issue 38, "A board that looks like the Spanish Main"): Natural
Earth's land, as the npm package `world-atlas` ships it (TopoJSON), cut to the Caribbean window,
projected (Mercator) onto the board's picture, simplified (Douglas-Peucker) and written once to
src/pax_hispanica/web/static/coast.json, which is committed: a fresh machine needs no npm.

    .venv/bin/python scripts/make_coastlines.py [--npm-dir DIR] [--tolerance 0.6]

Only a developer who re-runs it needs npm: it installs `world-atlas` (pinned below) into DIR
(default ~/.cache/pax-hispanica/world-atlas, never into the repository) unless it is there. The
file keeps the projection (so web/present/svgmap.py places each zone by longitude and latitude), the
Natural Earth attribution and the package's licence text.
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "pax_hispanica" / "web" / "static" / "coast.json"
PACKAGE = "world-atlas@2.0.2"
SOURCE = "land-10m.json"        # 1:10m: every island of the Lesser Antilles; simplified below

# the window (degrees) and the picture: Mercator, WIDTH units across, the height follows
WEST, EAST, SOUTH, NORTH = -98.5, -56.5, 5.0, 31.2
WIDTH = 1000.0


def merc_y(lat: float) -> float:
    return math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))


SCALE = WIDTH / math.radians(EAST - WEST)
HEIGHT = round(SCALE * (merc_y(NORTH) - merc_y(SOUTH)))


def project(lon: float, lat: float) -> tuple[float, float]:
    return (SCALE * math.radians(lon - WEST), SCALE * (merc_y(NORTH) - merc_y(lat)))


def decode(topo: dict) -> list[list[list[tuple[float, float]]]]:
    """The land's polygons (each a list of rings of (lon, lat)) from a quantized TopoJSON."""
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:           # delta-encoded, quantized
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)

    def ring(indices: list[int]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for i in indices:
            pts = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(pts if not out else pts[1:])
        return out

    polys = []
    for geom in topo["objects"]["land"]["geometries"]:
        if geom["type"] == "Polygon":
            polys.append([ring(r) for r in geom["arcs"]])
        elif geom["type"] == "MultiPolygon":
            polys.extend([ring(r) for r in p] for p in geom["arcs"])
    return polys


def clip(ring: list[tuple[float, float]], box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
    """Sutherland-Hodgman: a ring cut to the box (x0, y0, x1, y1); a filled ring stays filled."""
    x0, y0, x1, y1 = box
    edges = [(lambda p: p[0] >= x0, lambda a, b: (x0, a[1] + (b[1] - a[1]) * (x0 - a[0]) / (b[0] - a[0]))),
             (lambda p: p[0] <= x1, lambda a, b: (x1, a[1] + (b[1] - a[1]) * (x1 - a[0]) / (b[0] - a[0]))),
             (lambda p: p[1] >= y0, lambda a, b: (a[0] + (b[0] - a[0]) * (y0 - a[1]) / (b[1] - a[1]), y0)),
             (lambda p: p[1] <= y1, lambda a, b: (a[0] + (b[0] - a[0]) * (y1 - a[1]) / (b[1] - a[1]), y1))]
    pts = ring
    for inside, cross in edges:
        if not pts:
            break
        out = []
        prev = pts[-1]
        for p in pts:
            if inside(p):
                if not inside(prev):
                    out.append(cross(prev, p))
                out.append(p)
            elif inside(prev):
                out.append(cross(prev, p))
            prev = p
        pts = out
    return pts


def simplify(pts: list[tuple[float, float]], tol: float) -> list[tuple[float, float]]:
    """Douglas-Peucker (iterative) on an open line."""
    if len(pts) < 3:
        return pts
    keep = [False] * len(pts)
    keep[0] = keep[-1] = True
    stack = [(0, len(pts) - 1)]
    while stack:
        a, b = stack.pop()
        (ax, ay), (bx, by) = pts[a], pts[b]
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy)
        best, at = -1.0, -1
        for i in range(a + 1, b):
            px, py = pts[i]
            d = abs(dy * (px - ax) - dx * (py - ay)) / norm if norm else math.hypot(px - ax, py - ay)
            if d > best:
                best, at = d, i
        if best > tol:
            keep[at] = True
            stack += [(a, at), (at, b)]
    return [p for p, k in zip(pts, keep) if k]


def simplify_ring(ring: list[tuple[float, float]], tol: float) -> list[tuple[float, float]]:
    """A closed ring simplified: cut at its first point and the point farthest from it."""
    if ring and ring[0] == ring[-1]:
        ring = ring[:-1]
    if len(ring) < 4:
        return ring
    far = max(range(len(ring)), key=lambda i: (ring[i][0] - ring[0][0]) ** 2 + (ring[i][1] - ring[0][1]) ** 2)
    return simplify(ring[:far + 1], tol)[:-1] + simplify(ring[far:] + [ring[0]], tol)[:-1]


def area(ring: list[tuple[float, float]]) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]))) / 2


def path(ring: list[tuple[float, float]]) -> str:
    """A ring as SVG path data: an absolute move, then relative lines, one decimal."""
    q = [(round(x * 10), round(y * 10)) for x, y in ring]
    out = [f"M{q[0][0] / 10:g} {q[0][1] / 10:g}"]
    parts = []
    for (x0, y0), (x1, y1) in itertools.pairwise(q):
        if (x0, y0) != (x1, y1):
            parts.append(f"{(x1 - x0) / 10:g} {(y1 - y0) / 10:g}")
    return out[0] + ("l" + " ".join(parts) if parts else "") + "z"


def npm_dir(arg: str | None) -> Path:
    d = Path(arg) if arg else Path.home() / ".cache" / "pax-hispanica" / "world-atlas"
    if not (d / "node_modules" / "world-atlas" / SOURCE).exists():
        d.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--no-save", "--no-package-lock", "--prefix", str(d), PACKAGE], check=True)
    return d / "node_modules" / "world-atlas"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--npm-dir", help="where world-atlas is (or is installed): default ~/.cache/pax-hispanica/world-atlas")
    ap.add_argument("--tolerance", type=float, default=0.6, help="Douglas-Peucker tolerance, in board units")
    ap.add_argument("--min-area", type=float, default=1.5, help="drop islands smaller than this (board units²)")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    pkg = npm_dir(args.npm_dir)
    topo = json.loads((pkg / SOURCE).read_text())
    meta = json.loads((pkg / "package.json").read_text())
    margin = 4.0
    box = (-margin, -margin, WIDTH + margin, HEIGHT + margin)
    paths = []
    for poly in decode(topo):
        for ring in poly:
            lons = [p[0] for p in ring]
            lats = [p[1] for p in ring]
            if max(lons) < WEST - 1 or min(lons) > EAST + 1 or max(lats) < SOUTH - 1 or min(lats) > NORTH + 1:
                continue
            pts = clip([project(*p) for p in ring], box)
            if len(pts) < 3 or area(pts) < args.min_area:
                continue
            pts = simplify_ring(pts, args.tolerance)
            if len(pts) >= 3:
                paths.append(path(pts))
    data = {
        "about": "Coastlines of the board (web/present/svgmap.py): Natural Earth land, 1:10m, from the npm package "
                 f"{meta['name']} {meta['version']}, projected and simplified by scripts/make_coastlines.py.",
        "attribution": "Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com "
                       "(public domain); TopoJSON by world-atlas (ISC licence, Michael Bostock).",
        "source": f"npm {meta['name']}@{meta['version']} {SOURCE}",
        "licence": (pkg / "LICENSE").read_text(),
        "projection": {"kind": "mercator", "west": WEST, "east": EAST, "south": SOUTH, "north": NORTH,
                       "width": WIDTH, "height": HEIGHT},
        "size": [int(WIDTH), HEIGHT],
        "land": paths,
    }
    Path(args.out).write_text(json.dumps(data, ensure_ascii=False, indent=0) + "\n")
    print(f"{args.out}: {len(paths)} rings, {Path(args.out).stat().st_size} bytes, board {int(WIDTH)}x{HEIGHT}")


if __name__ == "__main__":
    main()
