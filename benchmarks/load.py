"""Load benchmark for the web game: N concurrent games played by scripted
clients over WebSockets on loopback, against one server process.

For every action we measure the round trip from sending {"type": "act"} to
receiving its {"type": "ack"} (the action is checked by the engine and stored
in the database before the ack). For comparison, the same number of
connections send messages to the server's bare WebSocket echo (/ws/echo).

    .venv/bin/python benchmarks/load.py                  # 100 games, SQLite
    .venv/bin/python benchmarks/load.py --games 20 --database-url postgresql+psycopg://...

Clients think before each action (uniform 0..2x --think ms), like bots pacing a
game for people to follow. Echo clients run alongside the games (same server
and machine load), and once more alone on the idle server. Prints p50/p99 of
each and the ratios (target: action p99 < 50 ms and < 5x echo p99).

Bytes per update: with --html-tabs K, the first K games also have a browser-format connection
on seat 1's link (`/ws/{token}`, the HTML board the page morphs in; it only listens), and
the size of every update it gets is counted (p50, p99, max), next to the JSON updates'
sizes on the players' connections (`fmt=json&view=0`).

Page update time: with --browser-tabs K, the first K games also have their seat 1 page
(`/play/{token}`) open in a headless Chromium (Debian's /usr/bin/chromium, through Playwright);
the scripted client still plays the seat, the page only follows. For every update message the
page times, from the message event (`event.timeStamp`) to painted (the first task after the
next animation frame, i.e. after that frame's paint), and how much of it is the page's own
handler (parsing, idiomorph, applying the map's choices): p50 and p99 of each.

Bot games and spectators (issue 37, P1): with --bot-games N the server also runs N games of
heuristic bots (moving --bot-delay s apart, the server's pacing; 0 = flat out), and with
--spectators K, K spectator connections (`/ws/{spectator token}?fmt=json`, listening only) are
spread over those games. The p99 is still the scripted players' round trip, now next to the
bots' and spectators' load. Side by side: give --database-url more than once ("sqlite" for a
fresh SQLite file); each database gets its own server and run, one after the other, and a table
of the runs is printed at the end.

Memory: the server's resident set size (RSS, from /proc) is read before the games, right
after them, and again after --idle-seconds with no client (default 600: games unused for
IDLE_SECONDS = 600 s leave memory at the next minute's sweep, so the default idle is just
about long enough; --idle-seconds 0 skips the wait). --rss-every S also reads it every S
seconds of the idle period (the curve: compaction at 60 s, eviction after IDLE_SECONDS plus up to
one minute's sweep). --wait-bot-games keeps the load going until every bot game is over (each
polled by its spectator link's `/api/view` every 5 s until seen over, bounded by --seconds), so
the idle period starts with no game in play (issue 37, M1: the idle period of the earlier runs
still had bots moving).

Interleaved rounds (issue 37, P1, on a noisy machine): --rounds R runs the list of
--database-url R times over, alternating (PG, SQLite, PG, SQLite, ...), each run short and on a
fresh database (SQLite: a new file; PostgreSQL: a new database `paxh_load_<pid>_<n>` created on
the given server and dropped after the run), the scripted clients' random streams the same in
every run (the games' own seeds are drawn by the server, which refuses client seeds). Printed:
each round's p99 ratio of the second database to the first, and the median and range of those
ratios, with the load average at the start and end of every run. --out FILE writes every run's
figures as JSON.
"""
from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import socket
import statistics
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, database_url: str, log_path: str, bot_delay: float = 0.0,
                 extra_env: dict[str, str] | None = None) -> subprocess.Popen:
    code = f"from pax_hispanica.web.server import run; run('127.0.0.1', {port}, {database_url!r})"
    log = open(log_path, "w")  # noqa: SIM115 -- the server writes to it while it runs
    # one address plays every game: rate limits off (PAXH_RATE_*, docs/web.md "Hardening")
    env = {**os.environ, "PAXH_BOT_DELAY": str(bot_delay), "PAXH_RATE_CREATE": "0", "PAXH_RATE_ACT": "0",
           **(extra_env or {})}
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=log, stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return proc
        except OSError:
            if proc.poll() is not None:
                raise SystemExit(Path(log_path).read_text()) from None
            time.sleep(0.1)
    raise SystemExit("server did not start")


def rss_mb(pid: int) -> float | None:
    """Resident set size of a process and its children, in MB (Linux /proc)."""
    def one(p: int) -> int:
        try:
            with open(f"/proc/{p}/status") as f:
                return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            return 0
    kids: list[int] = []
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(x) for x in f.read().split()]
    except OSError:
        pass
    total = one(pid) + sum(one(k) for k in kids)
    return round(total / 1024, 1) if total else None


def rss_split(pid: int) -> tuple[float | None, float | None]:
    """(the server process's own RSS, its children's together), in MB: the children are the
    worker processes (the analysis worker, search bots) and multiprocessing's resource tracker."""
    total = rss_mb(pid)
    own = None
    try:
        with open(f"/proc/{pid}/status") as f:
            own = round(next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024, 1)
    except (OSError, StopIteration):
        pass
    return own, (round(total - own, 1) if total is not None and own is not None else None)


TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu(pid: int, reaped: bool = False) -> float:
    """CPU seconds (user + system) of a process, with those of its children it reaped if `reaped`."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12]) + ((int(fields[13]) + int(fields[14])) if reaped else 0)
    return ticks / TICK


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def cpu_split(pid: int) -> tuple[float, float]:
    """(the server process's CPU seconds, its live children's: the analysis worker, search bots)."""
    return _cpu(pid), sum(_cpu(k) for k in _children(pid))


def pg_cluster_cpu() -> float | None:
    """CPU seconds of the whole PostgreSQL cluster of scripts/services.sh ($PAXH_PG_DIR): the
    postmaster with the backends it reaped, and its live processes (None without it)."""
    try:
        pm = int(Path(os.environ["PAXH_PG_DIR"], "data", "postmaster.pid").read_text().split()[0])
    except (KeyError, OSError, ValueError, IndexError):
        return None
    return _cpu(pm, reaped=True) + sum(_cpu(k) for k in _children(pm))


def stored_actions(url: str) -> int | None:
    """Actions stored in the database (every game's version): bots' and people's alike."""
    import sqlalchemy as sa
    try:
        eng = sa.create_engine(url, poolclass=sa.pool.NullPool)
        try:
            with eng.connect() as c:
                return int(c.execute(sa.text("SELECT COALESCE(SUM(version), 0) FROM games")).scalar() or 0)
        finally:
            eng.dispose()
    except Exception:  # only a figure of the report
        return None


def post(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def expand(legal: list) -> list[dict]:
    out = []
    for d in legal:
        if d["kind"] == "range":
            out.append({**d["action"], d["field"]: random.randint(d["min"], d["max"])})
        else:
            out.extend(o for o in d["options"] if o.get("type") != "undo")
    return out


async def html_tab(ws_url: str, sizes: list[int], deadline: float, wire: list[int] | None = None,
                   later: list[int] | None = None) -> None:
    """A browser tab's connection: receives the HTML updates, never acts. `wire`: each update's
    size after permessage-deflate as a browser negotiates it with the server (context takeover,
    a 32 KB window: one compressor for the connection, flushed per message), estimated here with
    zlib since the client library hands over the inflated text. `later`: the sizes of the updates
    after the first (the whole board, once per connection)."""
    import zlib
    deflate = zlib.compressobj(wbits=-15)
    sizes_seen = 0
    async with connect(ws_url, max_size=None, open_timeout=60, ping_interval=None) as ws:
        if wire is not None:
            wire.append(-1 if "permessage-deflate" not in str(ws.response.headers.get("Sec-WebSocket-Extensions"))
                        else 0)
        while time.perf_counter() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, deadline - time.perf_counter()))
            except TimeoutError:
                return
            m = json.loads(raw)
            if m["type"] == "update":
                data = raw.encode() if isinstance(raw, str) else raw
                if later is not None and sizes_seen:
                    later.append(len(data))
                sizes_seen += 1
                sizes.append(len(data))
                if wire is not None:
                    wire.append(len(deflate.compress(data) + deflate.flush(zlib.Z_SYNC_FLUSH)) - 4)
                if m["over"]:
                    return


# wraps the page's WebSocket: each "update" message is timed from its event to the task after
# the next animation frame (painted), and its handler's own time; read back as window.__paint
PAINT_PROBE = """(() => {
  const Native = window.WebSocket;
  window.__paint = [];
  class Timed extends Native {
    set onmessage(fn) {
      super.onmessage = function (ev) {
        const update = typeof ev.data === "string" && ev.data.slice(0, 40).indexOf('"update"') >= 0;
        const t0 = performance.now();
        fn.call(this, ev);
        if (!update) return;
        const t1 = performance.now(), n = ev.data.length;
        requestAnimationFrame(function () {
          const ch = new MessageChannel();
          ch.port1.onmessage = function () { window.__paint.push([performance.now() - ev.timeStamp, t1 - t0, n]); };
          ch.port2.postMessage(0);
        });
      };
    }
    get onmessage() { return super.onmessage; }
  }
  window.WebSocket = Timed;
})();"""


async def browser_tabs(base: str, tokens: list[str], deadline: float, paint: list[list[float]]) -> None:
    """Seat pages in a headless Chromium that follow their games until they end (or the deadline);
    appends each update's [ms from message to painted, ms in the page's handler, characters, its
    number on that page (0: the whole board)]."""
    from playwright.async_api import async_playwright

    args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        try:
            pages = []
            for tok in tokens:
                ctx = await b.new_context(viewport={"width": 1280, "height": 800})
                await ctx.add_init_script(PAINT_PROBE)
                page = await ctx.new_page()
                await page.goto(f"{base}/play/{tok}?lang=en")
                pages.append(page)
            while time.perf_counter() < deadline:
                await asyncio.sleep(1)
                done = [await pg.query_selector("#result") is not None for pg in pages]
                if all(done):
                    break
            for pg in pages:
                paint.extend(x + [i] for i, x in enumerate(await pg.evaluate("window.__paint")))
        finally:
            await b.close()


async def spectate(ws_url: str, counts: dict, deadline: float) -> None:
    """A spectator's connection to a bot game: receives the updates until the game ends."""
    async with connect(ws_url, max_size=None, open_timeout=60, ping_interval=None) as ws:
        while time.perf_counter() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, deadline - time.perf_counter()))
            except TimeoutError:
                return
            except ConnectionClosed:
                counts["errors"]["spectator_closed"] = counts["errors"].get("spectator_closed", 0) + 1
                return
            m = json.loads(raw)
            if m["type"] == "update":
                counts["spectator_updates"] += 1
                if m["over"]:
                    counts["bot_games_over"] += 1
                    return


async def play_seat(ws_url: str, rng: random.Random, rtts: list[float], counts: dict, deadline: float,
                    think: float, sizes: list[int] | None = None) -> None:
    async with connect(ws_url, max_size=None, open_timeout=60, ping_interval=None) as ws:
        pending: dict[int, float] = {}
        next_id = 0
        latest: dict | None = None
        while time.perf_counter() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, deadline - time.perf_counter()))
            except TimeoutError:
                break
            except ConnectionClosed:      # the server dropped it (a saturated machine): counted, not fatal
                counts["errors"]["connection_closed"] = counts["errors"].get("connection_closed", 0) + 1
                return
            m = json.loads(raw)
            if m["type"] == "update":
                if sizes is not None:
                    sizes.append(len(raw.encode() if isinstance(raw, str) else raw))
                latest = m
                if m["over"]:
                    counts["over"] += 1
                    return
            elif m["type"] == "ack":
                rtts.append(time.perf_counter() - pending.pop(m["id"]))
                counts["actions"] += 1
            elif m["type"] == "error":
                pending.pop(m.get("id"), None)
                counts["errors"][m["code"]] = counts["errors"].get(m["code"], 0) + 1
            if latest is not None and latest["legal"] and not pending:
                actions = expand(latest["legal"])
                if actions:
                    if think:
                        await asyncio.sleep(rng.uniform(0, 2 * think))
                    next_id += 1
                    pending[next_id] = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "id": next_id, "version": latest["version"],
                                              "action": rng.choice(actions)}))
                    latest = dict(latest, legal=[])  # wait for the next update before acting again


async def echo_client(url: str, n: int, rtts: list[float], think: float, rng: random.Random,
                      stop: asyncio.Event | None = None) -> None:
    async with connect(url, open_timeout=60, ping_interval=None) as ws:
        for i in range(n):
            if stop is not None and stop.is_set():
                return
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            t = time.perf_counter()
            await ws.send(json.dumps({"type": "echo", "id": i}))
            await ws.recv()
            rtts.append(time.perf_counter() - t)


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] * 1000 if xs else float("nan")


async def main_async(args: argparse.Namespace, base: str, port: int) -> dict:
    # no client seed: the server draws a secret one for every game
    games = [post(base, "/api/games", {"players": args.players, "seats": [{"kind": "human"}] * args.players})
             for _ in range(args.games)]
    bot_seats = [{"kind": "bot", "bot_kind": "heuristic"}] * args.players
    bot_games = [post(base, "/api/games", {"players": args.players, "seats": bot_seats})
                 for _ in range(args.bot_games)]
    rtts: list[float] = []
    counts: dict = {"actions": 0, "over": 0, "errors": {}, "spectator_updates": 0, "bot_games_over": 0}
    deadline = time.perf_counter() + args.seconds
    t0 = time.perf_counter()
    # echo clients run alongside the games: the same server, client and machine load, so
    # the ratio isolates what the game (engine check, storing, views) adds to a round trip
    stop = asyncio.Event()
    loaded_echo: list[float] = []
    echoes = [asyncio.create_task(echo_client(f"ws://127.0.0.1:{port}/ws/echo", 10**9, loaded_echo,
                                              args.think / 1000, random.Random(-i), stop))
              for i in range(args.echo_clients)]
    html_sizes: list[int] = []
    html_wire: list[int] = []
    html_later: list[int] = []
    json_sizes: list[int] = []
    tabs = [html_tab(f"ws://127.0.0.1:{port}/ws/{g['seats'][0]['token']}?lang=en", html_sizes, deadline, html_wire,
                     html_later)
            for g in games[:args.html_tabs]]
    paint: list[list[float]] = []
    if args.browser_tabs:
        tabs.append(browser_tabs(base, [g["seats"][0]["token"] for g in games[:args.browser_tabs]], deadline, paint))

    watchers = [spectate(f"ws://127.0.0.1:{port}/ws/{bot_games[i % len(bot_games)]['spectator']}?fmt=json",
                         counts, deadline) for i in range(args.spectators if bot_games else 0)]
    await asyncio.gather(*tabs, *watchers, *[
        play_seat(f"ws://127.0.0.1:{port}/ws/{s['token']}?fmt=json&view=0", random.Random(gi * 10 + s["seat"]),
                  rtts, counts, deadline, args.think / 1000, json_sizes)
        for gi, g in enumerate(games) for s in g["seats"]])
    bot_games_over = None
    if args.wait_bot_games and bot_games:
        bot_games_over = await wait_over(base, [g["spectator"] for g in bot_games], deadline)
    elapsed = time.perf_counter() - t0
    stop.set()
    await asyncio.gather(*echoes)
    # and the echo alone, on an idle server, for reference
    per_conn = max(1, len(rtts) // max(1, args.games * args.players))
    echo: list[float] = []
    if args.idle_echo:
        await asyncio.gather(*[echo_client(f"ws://127.0.0.1:{port}/ws/echo", per_conn, echo, args.think / 1000,
                                           random.Random(i)) for i in range(args.games * args.players)])
    return {
        "games": args.games, "players": args.players, "think_ms": args.think, "connections": args.games * args.players,
        "bot_games": args.bot_games, "spectators": len(watchers), "spectator_updates": counts["spectator_updates"],
        "bot_games_over_seen": counts["bot_games_over"],
        **({"bot_games_over": bot_games_over} if bot_games_over is not None else {}),
        "actions": counts["actions"], "games_finished": counts["over"] // args.players,
        "errors": counts["errors"], "seconds": round(elapsed, 1),
        "actions_per_second": round(counts["actions"] / elapsed, 1),
        "action_p50_ms": round(pct(rtts, 50), 2), "action_p99_ms": round(pct(rtts, 99), 2),
        "echo_p50_ms": round(pct(loaded_echo, 50), 2), "echo_p99_ms": round(pct(loaded_echo, 99), 2),
        "p99_ratio": round(pct(rtts, 99) / pct(loaded_echo, 99), 2) if loaded_echo else None,
        "p99_ratio_vs_idle_echo": round(pct(rtts, 99) / pct(echo, 99), 2) if echo else None,
        "echo_messages": len(loaded_echo),
        "idle_echo_p50_ms": round(pct(echo, 50), 2), "idle_echo_p99_ms": round(pct(echo, 99), 2),
        "mean_ms": round(statistics.mean(rtts) * 1000, 2) if rtts else None,
        "json_update_bytes": size_stats(json_sizes),
        **({"html_update_bytes": size_stats(html_sizes),
            "html_update_bytes_after_first": size_stats(html_later),
            "html_deflate_negotiated": all(x == 0 for x in html_wire if x <= 0),
            "html_update_deflated_bytes": size_stats([x for x in html_wire if x > 0])} if args.html_tabs else {}),
        **({"page_updates": len(paint),
            "page_update_to_painted_ms": ms_stats([x[0] for x in paint]),
            "page_update_to_painted_ms_after_first": ms_stats([x[0] for x in paint if x[3] > 0]),
            "page_handler_ms": ms_stats([x[1] for x in paint])} if args.browser_tabs else {}),
    }


async def wait_over(base: str, spectator_tokens: list[str], deadline: float) -> int:
    """Poll each bot game's public view every 5 s until it is over (or the deadline); a game seen
    over is not asked again, so it is not touched after its end. Returns how many are over."""
    def over(tok: str) -> bool:
        with urllib.request.urlopen(f"{base}/api/view/{tok}", timeout=60) as r:
            return bool(json.loads(r.read())["over"])
    left = list(spectator_tokens)
    while left and time.perf_counter() < deadline:
        left = [t for t in left if not await asyncio.to_thread(over, t)]
        if left:
            await asyncio.sleep(min(5.0, max(0.0, deadline - time.perf_counter())))
    return len(spectator_tokens) - len(left)


def ms_stats(xs: list[float]) -> dict:
    xs = sorted(xs)
    if not xs:
        return {"n": 0}
    return {"n": len(xs), "p50": round(xs[len(xs) // 2], 1), "p99": round(xs[min(len(xs) - 1, int(0.99 * len(xs)))], 1),
            "max": round(xs[-1], 1), "mean": round(statistics.mean(xs), 1)}


def size_stats(xs: list[int]) -> dict:
    xs = sorted(xs)
    if not xs:
        return {"updates": 0}
    return {"updates": len(xs), "p50": xs[len(xs) // 2], "p99": xs[min(len(xs) - 1, int(0.99 * len(xs)))],
            "max": xs[-1], "mean": round(statistics.mean(xs))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=120, help="stop after this long even if games go on")
    ap.add_argument("--think", type=float, default=1000,
                    help="mean think time before each action and each echo, in ms (uniform 0..2x); 0 = flat out")
    ap.add_argument("--echo-clients", type=int, default=50, help="echo connections running during the games")
    ap.add_argument("--html-tabs", type=int, default=0,
                    help="this many games also get a listening browser-format (HTML) connection on seat 1")
    ap.add_argument("--browser-tabs", type=int, default=0,
                    help="this many games also have seat 1's page open in a headless Chromium, which times each "
                         "update from message to painted")
    ap.add_argument("--database-url", action="append", default=None,
                    help="default: a fresh SQLite file; give it more than once (\"sqlite\": a fresh SQLite file) "
                         "for runs side by side, one server each, one after the other")
    ap.add_argument("--bot-games", type=int, default=0, help="games of heuristic bots running alongside")
    ap.add_argument("--spectators", type=int, default=0, help="spectator connections spread over the bot games")
    ap.add_argument("--bot-delay", type=float, default=0.0, help="the server's pause before each bot move (s)")
    ap.add_argument("--url", default=None, help="use a running server (http://127.0.0.1:PORT) instead")
    ap.add_argument("--idle-seconds", type=float, default=600,
                    help="after the games, wait this long with no client and read the server's RSS again")
    ap.add_argument("--rss-every", type=float, default=0,
                    help="also read the RSS every this many seconds of the idle period (0: only at its end)")
    ap.add_argument("--wait-bot-games", action="store_true",
                    help="after the scripted games, go on until every bot game is over (bounded by --seconds)")
    ap.add_argument("--no-idle-echo", dest="idle_echo", action="store_false",
                    help="skip the echo round on the idle server after the load")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run the --database-url list this many times over, interleaved, each run on a fresh "
                         "database; prints each round's p99 ratio and their median and range")
    ap.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                    help="an environment variable for the server (e.g. PAXH_IDLE_SECONDS=120), repeatable")
    ap.add_argument("--out", default=None, help="write every run's results to this JSON file")
    args = ap.parse_args()
    urls = args.database_url or [None]
    if args.rounds > 1:
        rounds(args, urls)
        return
    results = [run_one(args, None if u in (None, "sqlite") else u) for u in urls]
    if args.out:
        Path(args.out).write_text(json.dumps({"argv": sys.argv, "runs": results}, indent=1))
    for result in results:
        print(json.dumps(result, indent=1))
        print("p99 < 50 ms:", "met" if result["action_p99_ms"] < 50 else "NOT met")
        print("p99 < 5x echo p99 under the same load:", "met" if (result["p99_ratio"] or 99) < 5 else "NOT met")
        print("p99 < 5x echo p99 on an idle server:",
              "met" if (result["p99_ratio_vs_idle_echo"] or 99) < 5 else "NOT met")
    if len(results) > 1:
        print("\n| database | actions | action p50 | action p99 | echo p99 | spectator updates | errors |")
        print("|---|---|---|---|---|---|---|")
        for r in results:
            print(f"| {r['database']} | {r['actions']} | {r['action_p50_ms']} ms | {r['action_p99_ms']} ms | "
                  f"{r['echo_p99_ms']} ms | {r['spectator_updates']} | {sum(r['errors'].values())} |")
        for before, r in itertools.pairwise(results):
            if r["database"] != before["database"]:
                print(f"{r['database']} p99 / {before['database']} p99 (runs {results.index(r)} and "
                      f"{results.index(r) + 1}) = {r['action_p99_ms'] / before['action_p99_ms']:.2f}")


def rounds(args: argparse.Namespace, urls: list[str | None]) -> None:
    """--rounds: the databases interleaved, round after round, each run on a fresh database; the
    p99 of each database over the first's, per round, then the median and range of those."""
    names = [("postgresql" if u and u.startswith("postgresql") else "sqlite") for u in urls]
    runs: list[dict] = []
    t_start = time.time()
    for r in range(args.rounds):
        for i, u in enumerate(urls):
            random.seed(1000 + r)       # the scripted clients' own draws (expand), the same per round
            fresh = None
            if u and u.startswith("postgresql"):
                fresh = f"paxh_load_{os.getpid()}_{r}_{i}"
                pg_admin(u, f'CREATE DATABASE "{fresh}"')
            try:
                load0 = os.getloadavg()[0]
                result = run_one(args, None if u in (None, "sqlite") else u.rsplit("/", 1)[0] + "/" + fresh
                                 if fresh else u)
                result.update(round=r, load_avg_start=round(load0, 2), load_avg_end=round(os.getloadavg()[0], 2),
                              clock=time.strftime("%H:%M:%S", time.gmtime()))
            finally:
                if fresh:
                    pg_admin(u, f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)')
            runs.append(result)
            print(f"round {r} {names[i]}: p50 {result['action_p50_ms']} ms, p99 {result['action_p99_ms']} ms, "
                  f"{result['actions']} actions, errors {result['errors']}, load {result['load_avg_start']}"
                  f"->{result['load_avg_end']}, stored {result.get('stored_actions')}, CPU ms per stored action "
                  f"{result.get('cpu_ms_per_stored_action')} ({time.time() - t_start:.0f} s in)",
                  file=sys.stderr, flush=True)
    print("\n| round | database | load avg (start-end) | actions | action p50 | action p99 | errors "
          "| stored actions | CPU ms per stored action (server; workers; PostgreSQL) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in runs:
        cpu = r.get("cpu_ms_per_stored_action") or {}
        print(f"| {r['round']} | {r['database']} | {r['load_avg_start']}-{r['load_avg_end']} | {r['actions']} | "
              f"{r['action_p50_ms']} ms | {r['action_p99_ms']} ms | {sum(r['errors'].values())} | "
              f"{r.get('stored_actions')} | {cpu.get('server')}; {cpu.get('children')}; {cpu.get('postgresql', '-')} |")
    summary: dict = {}
    base = names.index("sqlite") if "sqlite" in names else 0   # ratios over SQLite's, whatever the order
    for i in range(len(urls)):
        if i == base:
            continue
        ratios = [runs[r * len(urls) + i]["action_p99_ms"] / runs[r * len(urls) + base]["action_p99_ms"]
                  for r in range(args.rounds)]
        p50s = [runs[r * len(urls) + i]["action_p50_ms"] / runs[r * len(urls) + base]["action_p50_ms"]
                for r in range(args.rounds)]
        key = f"{names[i]}/{names[base]}"
        summary[key] = {"p99_ratios": [round(x, 2) for x in ratios], "p99_ratio_median": round(statistics.median(ratios), 2),
                        "p99_ratio_min": round(min(ratios), 2), "p99_ratio_max": round(max(ratios), 2),
                        "p50_ratio_median": round(statistics.median(p50s), 2)}
        print(f"\n{key} p99 per round: {', '.join(f'{x:.2f}' for x in ratios)}; median {statistics.median(ratios):.2f}"
              f" (range {min(ratios):.2f}-{max(ratios):.2f}); p50 ratio median {statistics.median(p50s):.2f}")
        for name, idx in ((names[base], base), (names[i], i)):
            p99 = [runs[r * len(urls) + idx]["action_p99_ms"] for r in range(args.rounds)]
            print(f"{name} p99 median {statistics.median(p99):.1f} ms (range {min(p99):.1f}-{max(p99):.1f})")
    print(f"whole run: {time.time() - t_start:.0f} s")
    if args.out:
        Path(args.out).write_text(json.dumps({"argv": sys.argv, "runs": runs, "summary": summary}, indent=1))


def pg_admin(url: str, statement: str) -> None:
    """One statement in autocommit on the server of `url` (CREATE / DROP DATABASE)."""
    import psycopg
    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as c:
        c.execute(statement)


def run_one(args: argparse.Namespace, database_url: str | None) -> dict:
    proc = None
    if args.url:
        base = args.url.rstrip("/")
        port = int(base.rsplit(":", 1)[1])
    else:
        port = free_port()
        tmp = tempfile.mkdtemp(prefix="paxh-load-")
        url = database_url or f"sqlite:///{tmp}/load.sqlite3"
        proc = start_server(port, url, f"{tmp}/server.log", args.bot_delay,
                            dict(kv.split("=", 1) for kv in args.server_env))
        print(f"server log: {tmp}/server.log", file=sys.stderr)
        base = f"http://127.0.0.1:{port}"
    try:
        rss_start = rss_mb(proc.pid) if proc else None
        split_start = rss_split(proc.pid) if proc else None
        cpu0 = cpu_split(proc.pid) if proc else None
        pg0 = pg_cluster_cpu() if database_url and database_url.startswith("postgresql") else None
        result = asyncio.run(main_async(args, base, port))
        if proc is not None and cpu0 is not None:
            # where the CPU went during the load (issue 37, P1): the server process, its worker
            # processes, the PostgreSQL cluster; per stored action (bots' and people's)
            cpu1 = cpu_split(proc.pid)
            pg1 = pg_cluster_cpu() if pg0 is not None else None
            n = stored_actions(url)
            result["stored_actions"] = n
            result["cpu_s_server"] = round(cpu1[0] - cpu0[0], 2)
            result["cpu_s_children"] = round(cpu1[1] - cpu0[1], 2)
            if pg0 is not None and pg1 is not None:
                result["cpu_s_postgresql"] = round(pg1 - pg0, 2)
            if n:
                result["cpu_ms_per_stored_action"] = {
                    k: round(1000 * result[f"cpu_s_{k}"] / n, 2)
                    for k in ("server", "children", "postgresql") if f"cpu_s_{k}" in result}
        result["database"] = "postgresql" if database_url and database_url.startswith("postgresql") else (
            "sqlite" if not args.url else args.url)
        if proc is not None:
            result["rss_mb_at_start"] = rss_start
            result["rss_mb_after_games"] = rss_mb(proc.pid)
            result["rss_mb_server_children_at_start"] = split_start
            result["rss_mb_server_children_after_games"] = rss_split(proc.pid)
            if args.idle_seconds > 0:
                print(f"idle for {args.idle_seconds:.0f} s to measure memory ...", file=sys.stderr)
                t_idle = time.perf_counter()
                curve = []
                while (waited := time.perf_counter() - t_idle) < args.idle_seconds:
                    step = args.idle_seconds - waited
                    if args.rss_every > 0:
                        step = min(step, args.rss_every - waited % args.rss_every)
                    time.sleep(step)
                    if args.rss_every > 0:
                        curve.append([round(time.perf_counter() - t_idle), rss_mb(proc.pid), *rss_split(proc.pid)])
                        print(f"  idle {curve[-1][0]} s: RSS {curve[-1][1]} MB (server {curve[-1][2]}, children "
                              f"{curve[-1][3]})", file=sys.stderr, flush=True)
                if curve:
                    result["rss_mb_idle_curve"] = curve
                result["idle_seconds"] = args.idle_seconds
                result["rss_mb_after_idle"] = rss_mb(proc.pid)
                result["rss_mb_server_children_after_idle"] = rss_split(proc.pid)
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:   # a saturated machine: its bots still at work
                proc.kill()
                proc.wait(10)
    return result


if __name__ == "__main__":
    # a SIGTERM (kill, a stopped session) ends the run through its `finally`, which stops the
    # server it started: without this the server and its worker processes outlived the run
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    main()
