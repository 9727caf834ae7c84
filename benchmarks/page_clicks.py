"""Issue 38's measures of the game page built around the board, in Debian's Chromium against a
real server on loopback (throwaway SQLite databases):

- clicks (taps on a phone) per kind of decision over played games: a person in seat 0 against two
  heuristic bots, every decision taken on the map and the action bar only, the way
  tests/web/board_play.py plays (a place: its card picked, the place tapped, its menu when it holds
  several; a bid: typed and submitted); median and max per kind, at 1280x800 and 390x844;
- the most buttons the action bar showed at once on the phone (in view, in the bar);
- the smallest map label in px at the default zoom at both sizes (test_board_legible's measure:
  the font size times the SVG's scale on the screen);
- the page's first contentful paint (the game page loaded afresh, median of --loads);
- bytes per update: the update messages seat 0 gets over the first three corpus games
  (benchmarks/page_paint.messages: the whole board first, then what changed), p50, p90 and max.

    PYTHONPATH=src .venv/bin/python benchmarks/page_clicks.py [--games 2] [--cycles 2] [--loads 5]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from web.board_play import SIZES, new_game, open_game, play  # noqa: E402
from web.conftest import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402
from web.test_board_legible import MEASURE  # noqa: E402


def first_paint(browser, srv, token: str, size: str, loads: int) -> float:
    out = []
    for _ in range(loads):
        ctx, page = open_game(browser, srv, token, size)
        out.append(page.evaluate("() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || 0"))
        ctx.close()
    return statistics.median(out)


def update_bytes(games: int = 3) -> dict:
    from page_paint import messages
    sizes = sorted(len(m.encode()) for m in messages(games))
    return {"updates": len(sizes), "p50": sizes[len(sizes) // 2], "p90": sizes[int(0.9 * len(sizes))], "max": sizes[-1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2, help="games played at each size")
    ap.add_argument("--cycles", type=int, default=2, help="each game's cycles (PRJ-31's `cycles`)")
    ap.add_argument("--loads", type=int, default=5, help="page loads for the first paint")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    report: dict = {"clicks": {}, "labels": {}, "paint_ms": {}}
    started = time.time()
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for size in SIZES:
            clicks: dict[str, list[int]] = {}
            buttons = 0
            for n in range(args.games):
                srv = Server(f"sqlite:///{tmp}/{size}-{n}.sqlite3", bot_delay=0.0).start()
                try:
                    token = new_game(srv, cycles=args.cycles)["seats"][0]["token"]
                    if n == 0:      # the map's labels and the first paint, on the game's first decision
                        ctx, page = open_game(browser, srv, token, size)
                        page.evaluate("() => document.fonts.ready.then(() => true)")
                        report["labels"][size] = page.evaluate(MEASURE)["smallest"][0]["px"]
                        ctx.close()
                        report["paint_ms"][size] = round(first_paint(browser, srv, token, size, args.loads))
                    seen = play(browser, srv, token, size, seed=100 + n, budget=600)
                    assert not seen["place_buttons"], seen["place_buttons"][:3]
                    for k, v in seen["clicks"].items():
                        clicks.setdefault(k, []).extend(v)
                    buttons = max(buttons, seen["max_buttons"])
                finally:
                    srv.stop()
            report["clicks"][size] = {k: {"n": len(v), "median": statistics.median(v), "max": max(v)}
                                      for k, v in sorted(clicks.items())}
            report.setdefault("max_buttons", {})[size] = buttons
        browser.close()
    report["bytes"] = update_bytes()
    report["seconds"] = round(time.time() - started)
    print(json.dumps(report, indent=1))
    kinds = sorted({k for s in report["clicks"].values() for k in s})
    print("\n| decision | 1280×800: n, median, max | 390×844: n, median, max |\n|---|---|---|")
    for k in kinds:
        cells = []
        for size in SIZES:
            c = report["clicks"][size].get(k)
            cells.append(f"{c['n']}, {c['median']:g}, {c['max']}" if c else "—")
        print(f"| {k} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
