"""The game page built around the board (issue 38), in Chromium against a real server: a whole
game (two cycles, two bots) played by clicks on the map and the action bar only, at 1280x800 and
on a 390x844 phone (taps); no option that names a place has a button of its own; the map and the
decision are both in view at 1280x800; a phone's action bar shows at most six buttons at once;
after every kind of action the focus is on the next thing to decide (never <body>). And the
pieces: a forbidden place says why on focus and tap, the arrow keys go from place to place, a
card with targets is picked before its place, the log's "mine" filter, the chat's unread count."""
from __future__ import annotations

import json
import os
import random
import time
import urllib.error

import pytest

from pax_hispanica import api

from .board_play import SIZES, new_game, open_game, play
from .helpers import seeded_game, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'paxh.sqlite3'}"


@pytest.mark.parametrize("size", list(SIZES))
def test_a_whole_game_by_clicks_on_the_board_and_the_action_bar(server_factory, browser, sqlite_url, size):
    srv = server_factory(sqlite_url, bot_delay=0.0)
    g = new_game(srv, cycles=2)
    token = g["seats"][0]["token"]
    seen = play(browser, srv, token, size, seed=38 if size == "desktop" else 39)
    record = srv.get(f"/api/record/{token}")
    game = api.replay(record)
    assert api.is_over(game.state) and seen.get("result")
    # every decision of the person's came from clicks on the page
    mine = [a for a in record["actions"] if a.get("seat") == 0]
    assert len(mine) == seen["landed"] and len(mine) >= 5, (len(mine), seen["landed"])
    kinds = {k for k in seen["clicks"]}
    assert {"labour", "voyage"} <= kinds or len(kinds) >= 3, kinds
    # no option that names a place was ever a button of the action bar
    assert seen["place_buttons"] == [], seen["place_buttons"][:3]
    # the focus after every kind of action taken: on the next decision, never <body>
    assert seen["focus"] and not seen["bad_focus"], [(k, f["what"]) for k, f in seen["bad_focus"][:3]]
    if size == "desktop":
        assert not seen["not_in_view"], seen["not_in_view"][:1]      # the map and the decision, unscrolled
    else:
        assert seen["max_buttons"] <= 6, seen["max_buttons"]
    print(size, {k: (len(v), max(v)) for k, v in seen["clicks"].items()}, "buttons", seen["max_buttons"],
          "focus", seen["focus"])


def _until(srv, token: str, want, rng: random.Random, others: list[str], limit: int = 3000):
    """Random legal moves (cards played more often) by whoever acts until `want(legal, view)` holds
    for the seat of `token`; its view then."""
    tokens = [token] + others
    for _ in range(limit):
        views = [srv.get(f"/api/view/{t}") for t in tokens]
        assert not views[0]["over"], "the game ended first"
        if views[0]["legal"] and want(views[0]["legal"], views[0]["view"]):
            return views[0]
        seat = next(i for i, v in enumerate(views) if v["legal"])
        opts = [a for a in api.expand(views[seat]["legal"]) if a["type"] != "undo"]
        plays = [a for a in opts if a["type"] == "play"]
        a = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(opts)
        try:
            srv.post(f"/api/act/{tokens[seat]}", {"version": views[seat]["version"], "action": a})
        except urllib.error.HTTPError:      # the game moved on meanwhile (a sealed choice, a stale version)
            time.sleep(0.02)
    raise AssertionError("not reached")


# the game's seed (PAXH_FORBIDDEN_SEED tries another: seeds 1-14 were tried when it was set)
FORBIDDEN_SEED = int(os.environ.get("PAXH_FORBIDDEN_SEED", "1"))


def test_a_place_the_rules_forbid_says_why_on_focus_and_tap_and_the_arrow_keys_go_between_places(
        server_factory, browser, sqlite_url):
    srv = server_factory(sqlite_url, bot_delay=0.0)
    # a known position (the seed and every move fixed): a run never hangs on the seed the server
    # would have drawn (one CI run met a forbidden site that no tap reached: now a box is drawn
    # under it, test_board_places)
    g = seeded_game(sqlite_url, FORBIDDEN_SEED, [{"kind": "human", "name": n} for n in ("Ana", "Bru", "Cai")])
    tokens = [s["token"] for s in g["seats"]]
    rng = random.Random(7)
    found = None
    places = lambda legal, view: any(o.get("type") in ("move", "labour", "attack", "play")      # noqa: E731
                                     for d in legal if d["kind"] == "choice" for o in d["options"])
    for _ in range(40):        # a seat with places to choose and a place forbidden, both on the map
        seat = next((i for i, t in enumerate(tokens) if places(**{k: srv.get(f"/api/view/{t}")[k] for k in ("legal", "view")})), None)
        if seat is None:
            try:
                _until(srv, tokens[0], places, rng, tokens[1:])
            except AssertionError:
                break
            continue
        ctx, page = open_game(browser, srv, tokens[seat], "desktop")
        page.wait_for_timeout(300)
        if page.query_selector("svg.map [data-why]") and page.query_selector("svg.map [data-place]"):
            found = (ctx, page, tokens[seat])
            break
        ctx.close()
        v = srv.get(f"/api/view/{tokens[seat]}")        # one move on, and look again
        opts = [a for a in api.expand(v["legal"]) if a["type"] != "undo"]
        srv.post(f"/api/act/{tokens[seat]}", {"version": v["version"], "action": rng.choice(opts)})
    assert found, "no forbidden place came up in 40 decisions"
    ctx, page, token = found
    # focus: the tip names the place and why not; it is no button that acts
    forbidden = page.locator("svg.map [data-why]").first
    assert forbidden.get_attribute("aria-disabled") == "true" and forbidden.get_attribute("data-options") is None
    forbidden.focus()
    tip = page.locator("#place-tip")
    assert tip.is_visible() and "⊘" in tip.inner_text(), tip.inner_text()
    assert forbidden.get_attribute("aria-label") and "Not now" in forbidden.get_attribute("aria-label")
    version = page.get_attribute("#board", "data-version")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert page.get_attribute("#board", "data-version") == version       # nothing taken
    # the arrow keys move between the map's places
    places = page.locator("svg.map [data-place], svg.map [data-why]").count()
    page.locator("svg.map [data-place]").first.focus()
    seen = set()
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp") * 3:
        page.keyboard.press(key)
        seen.add(page.evaluate("() => document.activeElement.getAttribute('data-place') || document.activeElement.getAttribute('data-why')"))
    seen.discard(None)
    assert len(seen) >= min(3, places - 1), (seen, places)
    ctx.close()
    # a phone: a tap on the forbidden place shows the same tip
    ctx, page = open_game(browser, srv, token, "phone")
    page.wait_for_selector("svg.map [data-why]")
    # a point of it a finger reaches (not under the action bar, another place or a label's place)
    point = page.evaluate("""() => { for (const el of document.querySelectorAll('svg.map [data-why]')) {
        el.scrollIntoView({block: 'center', inline: 'center'});
        const r = el.getBoundingClientRect();
        for (const fy of [.5, .3, .7, .15, .85]) for (const fx of [.5, .3, .7, .15, .85]) {
          const x = r.left + r.width * fx, y = r.top + r.height * fy, t = document.elementFromPoint(x, y);
          if (t && t.closest && t.closest('svg.map [data-place], svg.map [data-why]') === el) return [x, y];
        } } return null; }""")
    assert point, "no forbidden place can be tapped"
    page.touchscreen.tap(*point)
    wait_for(lambda: page.locator("#place-tip").is_visible(), what="the tip on a tap")
    assert "⊘" in page.inner_text("#place-tip")
    ctx.close()


def test_a_card_with_targets_is_picked_then_placed_and_no_place_is_a_button(server_factory, browser, sqlite_url):
    srv = server_factory(sqlite_url, bot_delay=0.0)

    def targets(legal, view) -> bool:
        return any(o.get("type") == "play" and o.get("target") for d in legal if d["kind"] == "choice" for o in d["options"])
    v = None
    for attempt in range(4):       # the server draws each game's seed (PRJ-1): a game may end first
        g = srv.post("/api/games", {"players": 3, "seats": [{"kind": "human", "name": n} for n in ("Ana", "Bru", "Cai")]})
        tokens = [s["token"] for s in g["seats"]]
        try:
            v = _until(srv, tokens[0], targets, random.Random(11 + attempt), tokens[1:])
            break
        except AssertionError:
            continue
    assert v is not None, "no card with targets came up for seat 0 in four games"
    cards = sorted({o["card"] for a in api.expand(v["legal"]) for o in [a] if a["type"] == "play" and a.get("target")})
    ctx, page = open_game(browser, srv, tokens[0], "desktop")
    page.wait_for_selector("#decision button.pick")
    picks = page.eval_on_selector_all("#decision button.pick", "bs => bs.map(b => [b.dataset.card, b.getAttribute('aria-pressed')])")
    assert sorted(c for c, _ in picks) == cards
    # no button of the action bar names a place: the card's places are on the map and in the list
    actions = [json.loads(a) for a in page.eval_on_selector_all("#decision button[data-action]", "bs => bs.map(b => b.dataset.action)")]
    assert not [a for a in actions if a.get("type") == "play" and a.get("target")], actions
    card = cards[0]
    if len(cards) > 1:
        assert all(p == "false" for _, p in picks)
        assert page.locator("svg.map [data-place]").count() == 0        # no card picked: no place yet
        page.click(f'#decision button.pick[data-card="{card}"]')
        assert page.evaluate("() => document.activeElement.matches('svg.map [data-place]')")   # on to its places
    else:
        page.locator("svg.map [data-place]").first.focus()
    assert page.get_attribute(f'#decision button.pick[data-card="{card}"]', "aria-pressed") == "true"
    # the map offers that card's targets, and only them
    ids = page.eval_on_selector_all("svg.map [data-place]", "es => es.flatMap(e => e.dataset.options.split(' '))")
    offered = [json.loads(page.get_attribute(f"#{i}", "data-action")) for i in ids]
    want = [a for a in api.expand(v["legal"]) if a["type"] == "play" and a.get("card") == card and a.get("target")]
    assert sorted(map(json.dumps, offered)) == sorted(json.dumps(a) for a in want)
    version = page.get_attribute("#board", "data-version")
    page.keyboard.press("Enter")                         # the focused place: the card is played there
    if page.locator("#place-menu:not([hidden])").count():
        page.locator("#place-menu button.act").first.click()
    wait_for(lambda: page.get_attribute("#board", "data-version") != version, what="the play")
    tableau = srv.get(f"/api/view/{tokens[0]}")["view"]["players"][0]["tableau"]
    assert card in [t.get("card") if isinstance(t, dict) else t for t in tableau], tableau
    ctx.close()


def test_the_log_shows_mine_or_all_and_the_chat_counts_unread(server_factory, browser, sqlite_url):
    srv = server_factory(sqlite_url, bot_delay=0.0)
    # the other player's name holds Ana's: "Mine" picks a line by the seats its event names, not by a name
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Anabel"}]})
    tokens = [s["token"] for s in g["seats"]]
    _until(srv, tokens[0], lambda legal, view: view.get("year") == "play", random.Random(3), tokens[1:])
    ctx, ana = open_game(browser, srv, tokens[0], "desktop")
    bru_ctx, bru = open_game(browser, srv, tokens[1], "desktop")
    total = ana.locator("#log > li").count()
    ana.click('.log-show[data-show="mine"]')
    shown = ana.locator("#log > li:visible").count()
    assert 0 < shown < total
    lines = ana.eval_on_selector_all("#log > li", "es => es.map(e => [e.getClientRects().length > 0, e.dataset.s || '',"
                                                  " e.textContent])")
    assert all("0" in s for seen, s, _ in lines if seen)
    hidden = [(s, text) for seen, s, text in lines if not seen]
    assert all("0" not in s for s, _ in hidden)
    assert any(s == "1" and "Anabel" in text for s, text in hidden), hidden    # Anabel's own lines are not Ana's
    ana.click('.log-show[data-show="all"]')
    assert ana.locator("#log > li:visible").count() == total
    # Bru writes twice while Ana reads the log: her chat tab counts 2, and opening it clears it
    ana.wait_for_selector('.side-tab[data-tab="chat"]:not([hidden])')
    bru.click('.side-tab[data-tab="chat"]')
    bru.wait_for_selector("#chat-form:not([hidden])")
    for text in ("hola", "bona partida"):
        bru.fill("#chat-input", text)
        bru.click("#chat-send")
    wait_for(lambda: ana.inner_text("#chat-unread").startswith("2"), what="the unread count")
    assert ana.locator("#chat-unread").is_visible() and not ana.locator("#chat-log").is_visible()
    ana.click('.side-tab[data-tab="chat"]')
    assert ana.locator("#chat-unread").is_hidden() and ana.locator("#chat-log").is_visible()
    assert "bona partida" in ana.inner_text("#chat-log")
    ctx.close()
    bru_ctx.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_banner_is_over_the_map_never_over_the_status_line(server_factory, browser, sqlite_url, size):
    """A new Year's or turn's banner (2.6 s) used to cover the status line it repeats."""
    srv = server_factory(sqlite_url, bot_delay=0.0)
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bru"}]})
    ctx, page = open_game(browser, srv, g["seats"][0]["token"], size)
    boxes = page.evaluate("""() => { PaxBoard.banner('Goods Year');
      const r = e => { const b = document.querySelector(e).getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
      return {banner: r('#banner'), status: r('#part-status'), map: r('.map-scroll')}; }""")
    b, s, m = boxes["banner"], boxes["status"], boxes["map"]
    assert b[1] >= s[3] - 0.5, boxes                      # below the status line
    assert m[0] <= (b[0] + b[2]) / 2 <= m[2] and m[1] <= b[1] <= m[3], boxes   # on the map
    ctx.close()


def test_a_phones_map_ends_at_the_action_bar_and_its_legend_never_peeks_above_it(server_factory, browser, sqlite_url):
    """On a 390x844 phone, at the top of the page, the map fills the room down to the docked
    action bar and its legend starts under the bar (hidden whole, not a line of it showing above
    the bar, as it did); scrolled down, the legend shows whole above the bar."""
    srv = server_factory(sqlite_url, bot_delay=0.0)
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bru"}]})
    token = next(s["token"] for s in g["seats"] if srv.get(f"/api/view/{s['token']}")["legal"])
    ctx, page = open_game(browser, srv, token, "phone")
    geometry = """() => { const r = s => document.querySelector(s).getBoundingClientRect();
      return {map: r('#part-map .map-scroll').bottom, legend: r('#part-map .legend').top,
              legend_end: r('#part-map .legend').bottom, bar: r('#part-top').top,
              fixed: getComputedStyle(document.getElementById('part-top')).position}; }"""
    page.wait_for_function("() => document.documentElement.style.getPropertyValue('--map-h') !== ''")
    at_top = page.evaluate(geometry)
    assert at_top["fixed"] == "fixed", at_top
    assert at_top["legend"] >= at_top["bar"], at_top                 # under the bar, none of it above
    assert at_top["bar"] - 12 <= at_top["map"] <= at_top["bar"], at_top   # the map reaches the bar
    page.evaluate("d => window.scrollBy(0, d)", at_top["legend_end"] - at_top["bar"] + 8)
    scrolled = page.evaluate(geometry)
    assert scrolled["legend_end"] <= scrolled["bar"], scrolled     # the whole legend, above the bar
    ctx.close()
