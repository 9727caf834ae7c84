"""Screenshots of the game page at desktop (1280x800) and phone (390x844) size, in Debian's
chromium against real servers on loopback (throwaway SQLite databases):

- mid-auction, a card's text opened (hover on the desktop, a tap on a phone), Leave's dialog;
- what happened since a player's last move (the Goods Year summed up, its marks on the map) and
  the map zoomed in; the replay with its scrubber; the final score table;
- the decisions taken on the map: a voyage that may attack (the places to click, the battle
  previews; on a phone the map panned to them), a labour decision (the colony and its sources)
  and a support decision (both sides' Strength before choosing);
- what tells and teaches (`--only teach`): "since your last move" in a turn-based game, Learn to
  play (its lessons, the coach at a decision), the analysis of a finished game of bots and its
  replay from one seat;
- the accounts' pages (`--only accounts`, docs/img/accounts-*.png, always in English but the
  one Catalan account page): registering (with an anonymous game to take along), the account
  page (desktop, phone, Catalan), settings, a refused login, a public table waiting for players,
  the lobby listing it, a finished table with its rematch button, and the lobby's house rules
  (the form of named parameters, the phone's in Catalan).

    PYTHONPATH=src .venv/bin/python scripts/screenshots.py [OUT_DIR] [--lang ca] [--seed 3]
        [--only game,board,teach,accounts]

OUT_DIR defaults to docs/img. A bid of $3 is typed (and kept focused) so the shot shows what a
player sees while a sealed bid is being made; the bots act slowly so the auction stays open.
For the map's decisions the script plays all three seats with seeded random legal moves (cards
played more often than at random) until each decision has come up, and shoots the page of the
seat asked (a new game, seed + 1, when one did not come up).
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


def shoot(page, path: Path, full_page: bool = False, locator: str | None = None) -> None:
    page.locator("#banner").wait_for(state="hidden", timeout=5000)   # a year or turn banner fades in 2.6 s
    if locator:
        page.locator(locator).screenshot(path=str(path))
    else:
        page.screenshot(path=str(path), full_page=full_page)
    optimise(path)
    print(path)


def optimise(path: Path, colours: int = 160) -> None:
    """The PNG in a palette of `colours` (Pillow's median cut; a board's flat colours lose nothing
    a reader sees), about a third of its size, so docs/img stays small."""
    try:
        from PIL import Image
    except ImportError:          # the pictures stay as Chromium wrote them
        return
    with Image.open(path) as im:
        small = im.convert("RGB").quantize(colors=colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


# the decisions shot on the map: name -> (is it up now? (the seat's legal decisions, its view),
# what the page shows when it is)
def _attack(legal: list, view: dict) -> bool:
    return any(o.get("type") == "attack" for d in legal if d["kind"] == "choice" for o in d["options"])


def _option(kind: str, **fields):
    def up(legal: list, view: dict) -> bool:
        return any(o.get("type") == kind and all(o.get(k) is not None for k in fields)
                   for d in legal if d["kind"] == "choice" for o in d["options"])
    return up


# each kind of decision the game page shows (issue 38: the action bar beside the board, docked
# on a phone): the map's decisions, and the others
BOARD_SCENES = {
    "board": (_attack, "svg.map [data-place]"),
    "labour": (lambda legal, view: any(d.get("decision") == "labour" for d in legal), "svg.map [data-place]"),
    "support": (lambda legal, view: any(d.get("decision") == "support" for d in legal), "#previews .preview"),
    "initiate": (_option("initiate"), "#decision button.act"),
    "bid": (lambda legal, view: any(d.get("decision") == "bid" for d in legal), "#decision form.range-form"),
    "play": (_option("play", target=True), "#decision button.pick"),
    "haven": (_option("start_at_haven"), "svg.map [data-place]"),
    # loading Chests on a voyage with no attack on offer (else it is the "board" shot again)
    "load": (lambda legal, view: _option("load_chests")(legal, view) and not _attack(legal, view),
             "svg.map [data-place]"),
}


def board_shots(b, out: Path, lang: str, seed: int, suffix: str) -> None:
    """A voyage that may attack, a labour decision and a support decision, each at both sizes
    (and on a phone the map panned to the places to choose), from the page of the seat asked."""
    todo = dict(BOARD_SCENES)
    for game in range(12):
        if not todo:
            return
        with tempfile.TemporaryDirectory() as tmp:
            srv = Server(f"sqlite:///{tmp}/paxh.sqlite3").start()
            try:
                g = srv.post("/api/games", {"players": 3, "seats": [
                    {"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bru"},
                    {"kind": "human", "name": "Cai"}], "nations": ["spanish", "english", "dutch"]})
                tokens = [s["token"] for s in g["seats"]]
                rng = random.Random(seed + game)
                for _ in range(3000):
                    views = [srv.get(f"/api/view/{tk}") for tk in tokens]
                    if views[0]["over"] or not todo:
                        break
                    for tk, v in zip(tokens, views):
                        for scene, (up, ready) in list(todo.items()):
                            if v["legal"] and up(v["legal"], v["view"]):
                                del todo[scene]
                                _board_scene(b, srv, tk, scene, ready, lang, out, suffix)
                    seat = next(i for i, v in enumerate(views) if v["legal"])
                    v = views[seat]
                    opts = [o for d in v["legal"] if d["kind"] == "choice" for o in d["options"] if o["type"] != "undo"]
                    # cards played more often than at random: more colonies, so more labour to choose
                    plays = [o for o in opts if o["type"] == "play"]
                    d = v["legal"][0]
                    action = (rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(opts)) if opts \
                        else {**d["action"], d["field"]: rng.randint(d["min"], min(d["max"], d["min"] + 2))}
                    srv.post(f"/api/act/{tokens[seat]}", {"version": v["version"], "action": action})
            finally:
                srv.stop()
    if todo:
        print(f"not reached in 12 games: {', '.join(todo)}; try another --seed", file=sys.stderr)


def _board_scene(b, srv, token: str, scene: str, ready: str, lang: str, out: Path, suffix: str) -> None:
    for name, size in SIZES.items():
        ctx, page = _page(b, name, size)
        page.goto(f"{srv.url}/play/{token}?lang={lang}")
        page.wait_for_selector("#conn.on")
        page.wait_for_selector(ready, state="attached")
        page.wait_for_timeout(300)
        # what a player sees without scrolling: the map and the action bar beside it (1280x800),
        # the map above the bar docked at the bottom (390x844)
        shoot(page, out / f"game-{scene}-{name}{suffix}.png")
        ctx.close()


# the accounts' shots, as docs/web.md ("Accounts") shows them: scene -> the sizes taken
ACCOUNT_SHOTS = {"register": ("desktop",), "account": ("desktop", "phone"), "account-ca": ("phone",),
                 "settings": ("phone",), "login-refused": ("phone",), "table-open": ("desktop",),
                 "lobby-open-tables": ("desktop", "phone"), "table-over": ("phone",),
                 "house-rules": ("desktop", "phone")}


def accounts_shots(b, out: Path) -> None:
    """The accounts' pages: each scene is reached in a fresh context of each size it is taken
    at (a phone with touch), logged in as the user it shows, against one server."""
    import re

    from web.helpers import open_table, register
    from web.test_accounts_browser import login

    def take(scene: str, size: str, page) -> None:
        page.wait_for_load_state("load")
        shoot(page, out / f"accounts-{scene}-{size}.png", full_page=True)

    def as_user(size: str, user: str | None):
        ctx, page = _page(b, size, SIZES[size])
        if user:
            login(page, srv.url, user)
            page.wait_for_url(re.compile(r".*/account$"))
        return ctx, page

    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(f"sqlite:///{tmp}/paxh.sqlite3", bot_delay=0.0).start()
        base = srv.url
        try:
            # an anonymous game, then "Register" offers to take it along; rosa registers
            ctx, page = _page(b, "desktop", SIZES["desktop"])
            page.goto(base + "/")
            page.select_option("#players", "2")
            page.click("#create")
            page.wait_for_url(re.compile(r".*/play/.*"))
            page.goto(base + "/register")
            page.wait_for_selector("input[name=claim]")
            take("register", "desktop", page)
            register(page, base, "rosa")
            take("account", "desktop", page)
            ctx.close()
            for size in ACCOUNT_SHOTS["account"][1:]:
                ctx, page = as_user(size, "rosa")
                take("account", size, page)
                ctx.close()
            ctx, page = as_user("phone", "rosa")
            page.goto(base + "/account/settings")
            take("settings", "phone", page)
            ctx.close()
            ctx, page = as_user("phone", "rosa")     # last of rosa's: ?lang=ca becomes her language
            page.goto(base + "/account?lang=ca")
            take("account-ca", "phone", page)
            ctx.close()
            ctx, page = as_user("phone", None)
            login(page, base, "rosa", "not the password")
            page.wait_for_selector("#form-error")
            take("login-refused", "phone", page)
            ctx.close()
            # the lobby's house rules: the form of named parameters (English on the desktop,
            # Catalan on the phone), a number changed
            for size in ACCOUNT_SHOTS["house-rules"]:
                ctx, page = _page(b, size, SIZES[size])
                page.goto(base + ("/?lang=ca" if size == "phone" else "/?lang=en"))
                page.click("#new-game details.variant > summary")
                page.click("#new-game details.param-group[data-group=length] > summary")
                page.fill("#p-cycles", "3")
                shoot(page, out / f"accounts-house-rules-{size}.png", locator="#new-game details.variant")
                ctx.close()
            # sol opens a public table for three; teo sees it in the lobby
            for name in ("sol", "teo"):
                ctx, page = _page(b, "desktop", SIZES["desktop"])
                register(page, base, name)
                ctx.close()
            host_ctx, host = as_user("desktop", "sol")
            waiting = open_table(host, base, 3, public=True)
            take("table-open", "desktop", host)
            for size in ACCOUNT_SHOTS["lobby-open-tables"]:
                ctx, page = as_user(size, "teo")
                page.goto(base + "/")
                page.wait_for_selector(f"#open-tables tr[data-table='{waiting}']")
                take("lobby-open-tables", size, page)
                ctx.close()
            # a second table: teo joins, sol starts it with a bot in the last seat, both leave
            # their seats to bots, and the finished table offers a rematch
            played = open_table(host, base, 3, public=True)
            guest_ctx, guest = as_user("desktop", "teo")
            guest.goto(base + "/")
            guest.click(f"#open-tables tr[data-table='{played}'] button.join")
            guest.wait_for_url(f"{base}/tables/{played}")
            host.wait_for_selector("#table-seats a:has-text('teo')")
            host.select_option("select[name=bot_kind]", "random")
            host.click("#start")
            host.wait_for_selector("#my-seat")
            for p in (host, guest):
                p.goto(f"{base}/tables/{played}")
                p.click("#my-seat")
                p.wait_for_selector("#conn.on")
                p.click("#leave")
                p.click("#leave-yes")
                p.wait_for_selector("#leave", state="detached")
            host_ctx.close()
            guest_ctx.close()
            ctx, page = as_user("phone", "teo")
            page.goto(f"{base}/tables/{played}")
            page.wait_for_selector("#over", timeout=300_000)
            page.wait_for_selector("#rematch")
            take("table-over", "phone", page)
            ctx.close()
        finally:
            srv.stop()


def shoot_at_both_sizes(b, url: str, ready: tuple[str, ...], out: Path, stem: str, suffix: str) -> None:
    """The page at `url` in a fresh context of each of SIZES, shot (OUT/STEM-SIZE[SUFFIX].png) once
    each selector of `ready` in turn is visible on it."""
    for name, size in SIZES.items():
        ctx, page = _page(b, name, size)
        page.goto(url)
        for selector in ready:
            page.wait_for_selector(selector)
        shoot(page, out / f"{stem}-{name}{suffix}.png")
        ctx.close()


def teach_shots(b, out: Path, lang: str, suffix: str) -> None:
    """What tells and teaches (`--only teach`), each at both sizes: "since your last move" in a
    turn-based game, Learn to play (its lessons and the coach at the first decision), a game's
    analysis, and the replay from one seat's point of view."""
    from pax_hispanica.web.learn.lessons import LESSONS
    from web.test_since_last_move import _digest_game

    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(f"sqlite:///{tmp}/paxh.sqlite3", bot_delay=0.0,
                     env={"PAXH_ANALYSIS_BUDGET": "0", "PAXH_ANALYSIS_POLL_SECONDS": "0.2"}).start()
        try:
            # two bots play a two-cycle game to its end; the game's end queues its analysis
            g = srv.post("/api/games", {"players": 2, "nations": ["spanish", "english"], "params": {"cycles": 2},
                                        "seats": [{"kind": "bot", "bot_kind": "heuristic", "name": "Ana"},
                                                  {"kind": "bot", "bot_kind": "heuristic", "name": "Bru"}]})
            tokens = _digest_game(srv, 11)      # seat 1 has news since its last move
            shoot_at_both_sizes(b, f"{srv.url}/play/{tokens[1]}?lang={lang}", ("#conn.on", "#digest"),
                                out, "game-digest", suffix)
            for name, size in SIZES.items():
                ctx, page = _page(b, name, size)
                page.goto(f"{srv.url}/learn?lang={lang}")
                page.wait_for_selector("#lessons")
                shoot(page, out / f"learn-lessons-{name}{suffix}.png")
                page.goto(f"{srv.url}/learn/{LESSONS[1].id}")
                page.wait_for_selector("#learn-coach .learn-step")
                shoot(page, out / f"learn-coach-{name}{suffix}.png")
                ctx.close()
            deadline = time.time() + 600
            while not srv.get(f"/api/view/{g['spectator']}")["over"]:
                if time.time() > deadline:
                    raise RuntimeError("the bots did not finish their game")
                time.sleep(0.5)
            shoot_at_both_sizes(b, f"{srv.url}/replay/{g['spectator']}?step=20&seat=0&lang={lang}", ("#scrub",),
                                out, "replay-seat", suffix)
            while True:
                ctx, page = _page(b, "desktop", SIZES["desktop"])
                page.goto(f"{srv.url}/analysis/{g['spectator']}?seat=0&lang={lang}")
                done = page.query_selector("svg.win-chart") is not None
                ctx.close()
                if done:
                    break
                if time.time() > deadline:
                    raise RuntimeError("no analysis in time")
                time.sleep(1)
            shoot_at_both_sizes(b, f"{srv.url}/analysis/{g['spectator']}?seat=0&lang={lang}",
                                ("svg.win-chart",), out, "analysis", suffix)
        finally:
            srv.stop()


def in_chromium(shots, *args) -> None:
    """`shots(browser, *args)` in a Chromium of its own, closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            shots(b, *args)
        finally:
            b.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=str(ROOT / "docs" / "img"))
    ap.add_argument("--lang", default="en")
    ap.add_argument("--seed", type=int, default=3, help="the random moves of the map's decisions")
    ap.add_argument("--only", default="game,board,teach,accounts",
                    help="which shots: game (auction, card, leave, happened, zoom, replay, score table), "
                         "board (the map's decisions), teach (the digest since your last move, Learn to play, "
                         "the analysis, the replay from a seat), accounts (docs/img/accounts-*: the accounts' pages)")
    args = ap.parse_args()
    only = set(args.only.split(","))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PAXH_RATE_CREATE", "0")
    os.environ.setdefault("PAXH_RATE_ACT", "0")
    from playwright.sync_api import sync_playwright

    suffix = "" if args.lang == "en" else "-" + args.lang
    if "accounts" in only and args.lang == "en":   # their one Catalan page is among them
        in_chromium(accounts_shots, out)
    if "board" in only:
        in_chromium(board_shots, out, args.lang, args.seed, suffix)
    if "teach" in only:
        in_chromium(teach_shots, out, args.lang, suffix)
    if "game" not in only:
        return
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
            with sync_playwright() as p:
                b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for name, size in SIZES.items():
                    ctx, page = _page(b, name, size)
                    page.goto(f"{srv.url}/play/{tokens[0]}?lang={args.lang}")
                    page.wait_for_selector("#conn.on")
                    page.wait_for_selector("[data-decision=bid] input[name=value]")
                    page.fill("[data-decision=bid] input[name=value]", "3")
                    page.focus("[data-decision=bid] input[name=value]")
                    shoot(page, out / f"game-auction-{name}{suffix}.png", full_page=name == "desktop")
                    # a card's text, opened by hover on a desktop and by a tap on a phone
                    card = page.locator("#lot .card-ref, #hand .card-ref, ul.decks .card-ref").first
                    card.scroll_into_view_if_needed()
                    card.tap() if name == "phone" else card.hover()
                    shoot(page, out / f"game-card-{name}{suffix}.png")
                    page.keyboard.press("Escape")
                    if name == "phone":   # "Leave" asks first
                        page.click("#leave")
                        page.wait_for_selector("#confirm-leave[open]")
                        shoot(page, out / f"game-leave-{name}{suffix}.png")
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
                    if name == "phone":   # the summary sits below the map: scrolled to the top of the screen
                        page.evaluate("() => document.getElementById('happened').scrollIntoView({block: 'start'})")
                    shoot(page, out / f"game-happened-{name}{suffix}.png")
                    page.click(".zoom-in")
                    page.locator("#part-map").scroll_into_view_if_needed()
                    shoot(page, out / f"game-zoom-{name}{suffix}.png", locator="#part-map")
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
                    shoot(page, out / f"replay-{name}{suffix}.png")
                    ctx.close()
                # the end of a game: the score table
                for name, size in SIZES.items():
                    ctx, page = _page(b, name, size)
                    page.goto(f"{srv.url}/play/{end_tokens[0]}?lang={args.lang}")
                    page.wait_for_selector("#score-table")
                    page.locator("#result").scroll_into_view_if_needed()
                    shoot(page, out / f"game-over-{name}{suffix}.png", locator="#result")
                    ctx.close()
                b.close()
        finally:
            srv.stop()


if __name__ == "__main__":
    main()
