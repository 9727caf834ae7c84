"""Screenshots of the game page mid-auction at desktop (1280x800) and phone (390x844) size,
a card's text opened by a tap on a phone, what happened since a player's last move (the summary
of the Goods Year and the marks on the map, the map zoomed in), the replay with its scrubber,
and the final score table at both sizes, in Debian's chromium against a real server on loopback
(a throwaway SQLite database).

    PYTHONPATH=src .venv/bin/python scripts/screenshots.py [OUT_DIR] [--lang ca]

OUT_DIR defaults to docs/img. A bid of $3 is typed (and kept focused) so the shot shows what a
player sees while a sealed bid is being made; the bots act slowly so the auction stays open.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from web.conftest import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402
from web.test_page_reading import drive  # noqa: E402

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def _page(browser, name: str, size: dict):
    """A fresh context and page at one of SIZES (a phone has touch, as a real one)."""
    phone = name == "phone"
    ctx = browser.new_context(viewport=size, device_scale_factor=1, has_touch=phone, is_mobile=phone)
    return ctx, ctx.new_page()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=str(ROOT / "docs" / "img"))
    ap.add_argument("--lang", default="en")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PAXH_RATE_CREATE", "0")
    os.environ.setdefault("PAXH_RATE_ACT", "0")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(f"sqlite:///{tmp}/paxh.sqlite3", bot_delay=30.0).start()
        try:
            g = srv.post("/api/games", {"players": 3, "seats": [
                {"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bru"},
                {"kind": "bot", "bot_kind": "heuristic"}], "nations": ["spanish", "english", "dutch"]})
            tokens = [s["token"] for s in g["seats"][:2]]
            starter = tokens[0]
            # start an auction on the Market deck from whichever person must start one
            for _ in range(100):
                views = [srv.get(f"/api/view/{t}") for t in tokens]
                if any(any(d.get("decision") == "bid" for d in v["legal"]) for v in views):
                    break
                for t, v in zip(tokens, views):
                    opts = [o for d in v["legal"] if d["kind"] == "choice" for o in d["options"]
                            if o.get("type") == "initiate"]
                    # an open lot (not buried), so the shot shows the card up for auction
                    opts.sort(key=lambda o: bool(o.get("buried")))
                    if opts:
                        srv.post(f"/api/act/{t}", {"version": v["version"], "action": opts[0]})
                        starter = t
                        break
                else:
                    time.sleep(0.1)
            # a game played to its end by random moves, for the score table
            g2 = srv.post("/api/games", {"players": 3, "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bru"},
                                                                  {"kind": "human", "name": "Cai"}]})
            end_tokens = [s["token"] for s in g2["seats"]]
            drive(srv, end_tokens, random.Random(7), lambda views: False, limit=2000)
            suffix = "" if args.lang == "en" else "-" + args.lang
            with sync_playwright() as p:
                b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for name, size in SIZES.items():
                    ctx, page = _page(b, name, size)
                    page.goto(f"{srv.url}/play/{tokens[0]}?lang={args.lang}")
                    page.wait_for_selector("#conn.on")
                    page.wait_for_selector("[data-decision=bid] input[name=value]")
                    page.fill("[data-decision=bid] input[name=value]", "3")
                    page.focus("[data-decision=bid] input[name=value]")
                    path = out / f"game-auction-{name}{suffix}.png"
                    page.screenshot(path=str(path), full_page=name == "desktop")
                    print(path)
                    # a card's text, opened by hover on a desktop and by a tap on a phone
                    card = page.locator("#lot .card-ref, #hand .card-ref").first
                    card.scroll_into_view_if_needed()
                    card.tap() if name == "phone" else card.hover()
                    path = out / f"game-card-{name}{suffix}.png"
                    page.screenshot(path=str(path))
                    print(path)
                    page.keyboard.press("Escape")
                    if name == "phone":   # "Leave" asks first
                        page.click("#leave")
                        page.wait_for_selector("#confirm-leave[open]")
                        path = out / f"game-leave-{name}{suffix}.png"
                        page.screenshot(path=str(path))
                        print(path)
                        page.click("#leave-no")
                    ctx.close()
                # what happened: the second person has not acted yet, so their page sums up the
                # first Goods Year and marks its new Chests; the map zoomed in once
                for name, size in SIZES.items():
                    ctx, page = _page(b, name, size)
                    waiter = next(t for t in tokens if t != starter)   # has not acted yet
                    page.goto(f"{srv.url}/play/{waiter}?lang={args.lang}")
                    page.wait_for_selector("#conn.on")
                    page.wait_for_selector("#happened")
                    path = out / f"game-happened-{name}{suffix}.png"
                    page.screenshot(path=str(path))
                    print(path)
                    page.click(".zoom-in")
                    page.locator("#part-map").scroll_into_view_if_needed()
                    path = out / f"game-zoom-{name}{suffix}.png"
                    page.locator("#part-map").screenshot(path=str(path))
                    print(path)
                    ctx.close()
                # the replay, stepped to a Goods Year with its scrubber
                for name, size in SIZES.items():
                    ctx, page = _page(b, name, size)
                    page.goto(f"{srv.url}/replay/{end_tokens[0]}?lang={args.lang}")
                    page.wait_for_selector("#scrub")
                    page.click("#years summary")
                    page.locator("#years a").nth(4).click()
                    step = page.locator("#years a").nth(4).get_attribute("data-step")
                    page.wait_for_function(f"() => document.getElementById('step').textContent === '{step}'")
                    path = out / f"replay-{name}{suffix}.png"
                    page.screenshot(path=str(path))
                    print(path)
                    ctx.close()
                # the end of a game: the score table
                for name, size in SIZES.items():
                    ctx, page = _page(b, name, size)
                    page.goto(f"{srv.url}/play/{end_tokens[0]}?lang={args.lang}")
                    page.wait_for_selector("#score-table")
                    page.locator("#result").scroll_into_view_if_needed()
                    path = out / f"game-over-{name}{suffix}.png"
                    page.locator("#result").screenshot(path=str(path))
                    print(path)
                    ctx.close()
                b.close()
        finally:
            srv.stop()


if __name__ == "__main__":
    main()
