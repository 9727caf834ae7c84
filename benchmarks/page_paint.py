"""Page update time in the browser, on a fixed workload: from an update message to painted.

The updates seat 0 gets over the first N two-player corpus games (`tests/corpus/bots_2p.jsonl`,
`updates.html_update` + `updates.html_message`, the same measure as the bytes in docs/web.md) are
played into a real game page in a headless Chromium (Debian's /usr/bin/chromium, Playwright):
a server on loopback serves the page, Playwright's WebSocket routing stands in for the server's
socket (the probe is put in front of app.js, so that it wraps that stand-in), and each message is
sent only once the page has painted the previous one. The page
times each update from its message event (`event.timeStamp`) to painted (the first task after
the next animation frame) and its own handler's part (parse, idiomorph, the map's choices):
benchmarks/load.py's probe. Unlike load.py's --browser-tabs (live games, bots and server on the
same cores), the work is the same from run to run, so two versions of the code can be compared:

    PYTHONPATH=src .venv/bin/python benchmarks/page_paint.py [--games 3] [--repeat 1]

Run it with another checkout's src on PYTHONPATH to measure that code (the page, its scripts
and the messages all come from it).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import PAINT_PROBE, free_port, post, start_server

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "bots_2p.jsonl"


def messages(games: int) -> list[str]:
    """The update messages seat 0's page gets over `games` corpus games, as the server sends them
    (the whole board first on each game, then what changed)."""
    from pax_hispanica import api
    from pax_hispanica.web.play.model import LiveGame, Seat
    from pax_hispanica.web import templating
    from pax_hispanica.web.present import jinja_env, updates

    templating.install(jinja_env.env)   # what create_app does: the templates' globals
    out = []
    with CORPUS.open() as f:
        records = [json.loads(line)["record"] for line, _ in zip(f, range(games))]
    for n, rec in enumerate(records):
        last = None
        for k in range(len(rec["actions"]) + 1):
            r = dict(rec, actions=rec["actions"][:k])
            game = api.replay(r)
            seats = [Seat(i, "human", None, None, "", f"t{i}", None) for i in range(rec["config"]["players"])]
            live = LiveGame(f"paint-{n}", r, 1, "online", "h", "s", None, seats, game.state, game.events)
            full = updates.html_update(live, 0, None, "seat", "en")
            out.append(json.dumps(updates.html_message(full, last), default=str))
            last = full
    return out


def stats(xs: list[float]) -> dict:
    xs = sorted(xs)
    return {"n": len(xs), "p50": round(statistics.median(xs), 1), "p99": round(xs[min(len(xs) - 1, int(0.99 * len(xs)))], 1),
            "max": round(xs[-1], 1), "mean": round(statistics.mean(xs), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=1, help="play the messages this many times (one page each)")
    args = ap.parse_args()
    msgs = messages(args.games)
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="paxh-paint-")
    proc = start_server(port, f"sqlite:///{tmp}/paint.sqlite3", f"{tmp}/server.log")
    base = f"http://127.0.0.1:{port}"
    from playwright.sync_api import sync_playwright

    paint: list[list[float]] = []
    try:
        g = post(base, "/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path="/usr/bin/chromium",
                                  args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"])
            for _ in range(args.repeat):
                ctx = b.new_context(viewport={"width": 1280, "height": 800})
                page = ctx.new_page()

                def probe(route) -> None:
                    # the probe goes in front of app.js, so it wraps Playwright's WebSocket stand-in
                    resp = route.fetch()
                    route.fulfill(response=resp, body=PAINT_PROBE + "\n" + resp.text())

                page.route("**/static/app.js", probe)
                sockets = []
                page.route_web_socket("**/ws/**", lambda ws, sockets=sockets: sockets.append(ws))   # no server socket
                page.goto(f"{base}/play/{g['seats'][0]['token']}?lang=en")
                page.wait_for_load_state("load")
                while not sockets:
                    page.wait_for_timeout(20)
                ws = sockets[0]
                for i, m in enumerate(msgs):
                    ws.send(m)
                    page.wait_for_function("n => window.__paint.length > n", arg=i, polling=5)
                got = page.evaluate("window.__paint")
                paint.extend(x + [0 if json.loads(msgs[i]).get("html") else 1] for i, x in enumerate(got))
                ctx.close()
            b.close()
    finally:
        proc.terminate()
        proc.wait(10)
    later = [x for x in paint if x[3]]
    print(json.dumps({"updates": len(paint), "games": args.games, "repeat": args.repeat,
                      "painted_ms": stats([x[0] for x in paint]),
                      "painted_ms_partial_updates": stats([x[0] for x in later]),
                      "handler_ms": stats([x[1] for x in paint]),
                      "handler_ms_partial_updates": stats([x[1] for x in later]),
                      "when": time.strftime("%Y-%m-%d %H:%M:%S")}, indent=1))


if __name__ == "__main__":
    main()
