"""Screenshots of the game page during a voyage that may attack: the places to click on the map,
the why-not reasons and the battle preview (issue 14), at desktop (1280x800) and phone (390x844)
size, in Debian's chromium against a real server on loopback (a throwaway SQLite database).

    PYTHONPATH=src .venv/bin/python scripts/screenshots_board.py [OUT_DIR] [--lang ca] [--seed 3]

OUT_DIR defaults to docs/img. One person (seat 0) plays random legal moves against a random and
a heuristic bot until a voyage of theirs can attack; the bots act at once, so the position
depends on their timing as well as on the seed.
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

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=str(ROOT / "docs" / "img"))
    ap.add_argument("--lang", default="en")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PAXH_RATE_CREATE", "0")
    os.environ.setdefault("PAXH_RATE_ACT", "0")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(f"sqlite:///{tmp}/paxh.sqlite3", bot_delay=0.0).start()
        try:
            g = srv.post("/api/games", {"players": 3, "seats": [
                {"kind": "human", "name": "Ana"}, {"kind": "bot", "bot_kind": "random"},
                {"kind": "bot", "bot_kind": "heuristic"}]})
            token = g["seats"][0]["token"]
            rng = random.Random(args.seed)
            for _ in range(4000):
                v = srv.get(f"/api/view/{token}")
                if v["over"]:
                    raise SystemExit("the game ended before a voyage could attack; try another --seed")
                if not v["legal"]:
                    time.sleep(0.03)
                    continue
                opts = [o for d in v["legal"] if d["kind"] == "choice" for o in d["options"] if o["type"] != "undo"]
                if any(o["type"] == "attack" for o in opts):
                    break
                d = v["legal"][0]
                action = rng.choice(opts) if opts else {**d["action"], d["field"]: d["min"]}
                srv.post(f"/api/act/{token}", {"version": v["version"], "action": action})
            suffix = "" if args.lang == "en" else "-" + args.lang
            with sync_playwright() as p:
                b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for name, size in SIZES.items():
                    phone = name == "phone"
                    ctx = b.new_context(viewport=size, device_scale_factor=1, has_touch=phone, is_mobile=phone)
                    page = ctx.new_page()
                    page.goto(f"{srv.url}/play/{token}?lang={args.lang}")
                    page.wait_for_selector("#conn.on")
                    page.wait_for_selector("svg.map [data-place]")
                    path = out / f"game-board-{name}{suffix}.png"
                    page.screenshot(path=str(path), full_page=not phone)
                    print(path)
                    if phone:          # the map, panned to the places to choose
                        page.locator(".map-scroll").scroll_into_view_if_needed()
                        path = out / f"game-board-map-{name}{suffix}.png"
                        page.screenshot(path=str(path))
                        print(path)
                    ctx.close()
                b.close()
        finally:
            srv.stop()


if __name__ == "__main__":
    main()
