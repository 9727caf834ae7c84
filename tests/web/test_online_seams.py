"""Issue 38's online seams in Chromium against a real server: a rematch from a finished game's
page (the opponent told live on their page and by email, as their settings say), the header
(lobby, your games with the count of those waiting for you, ratings, an account menu with Log
out), copy buttons on links, the connection worded apart from the pace, a hot-seat game opening
on its table; axe-core on these pages.

PAXH_SCREENSHOTS=DIR also saves the pages at 1280x800 and 390x844."""
from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from .helpers import open_table, register, wait_for
from .play_fixtures import smtp  # noqa: F401 (fixture)
from .test_page_reading import axe_violations, drive

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]
SHOTS = os.environ.get("PAXH_SCREENSHOTS")
DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


def shot(page, name: str) -> None:
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.screenshot(path=str(Path(SHOTS) / f"seams-{name}-{label}.png"), full_page=label == "phone")
    page.set_viewport_size(DESKTOP)


def device(browser, **kw):
    return browser.new_context(viewport=DESKTOP, bypass_csp=True, **kw).new_page()   # CSP off: axe is injected


def no_serious_axe(page, what: str) -> None:
    bad = axe_violations(page)
    assert not bad, f"{what}: {bad}"


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'paxh.sqlite3'}"


def two_players_at_a_table(browser, base: str, time_control: str | None = None):
    """sol opens a two-seat table, teo (with an email address) joins: the game starts."""
    host, guest = device(browser), device(browser)
    register(host, base, "sol")
    register(guest, base, "teo", email="teo@example.org")
    tid = open_table(host, base, 2, time_control=time_control)
    guest.goto(f"{base}/tables/{tid}")
    with guest.expect_navigation():
        guest.click("#join")
    for p in (host, guest):
        p.goto(f"{base}/tables/{tid}")
        p.wait_for_selector("#my-seat")
    tokens = [p.get_attribute("#my-seat", "href").rsplit("/", 1)[1] for p in (host, guest)]
    for p in (host, guest):     # off the table page, whose poll reloads it when the table's status changes
        p.goto("about:blank")   # (a game played to its end meanwhile: the reload raced the test's next goto)
    return host, guest, tid, tokens


def test_rematch_from_a_finished_game_the_opponent_is_told_live_and_by_email(server_factory, browser, sqlite_url,
                                                                              smtp):  # noqa: F811
    srv = server_factory(sqlite_url, env={"PAXH_SMTP_URL": smtp.url, "PAXH_OUTBOX_POLL_SECONDS": "0.2",
                                               "PAXH_ANALYSIS_WORKERS": "0"})   # no analysis: a shared 2-core machine
    base = srv.url
    host, guest, tid, tokens = two_players_at_a_table(browser, base)
    seats = {srv.get(f"/api/view/{t}")["seat"]: t for t in tokens}
    drive(srv, [seats[0], seats[1]], random.Random(5), lambda views: False, limit=3000)
    # both on their finished game's page: a Rematch button, and the way back to the table
    for p, token in ((host, tokens[0]), (guest, tokens[1])):
        p.goto(f"{base}/play/{token}")
        p.wait_for_selector("#conn.on")
        assert p.is_visible("#rematch")
        assert p.get_attribute("#table-back", "href") == f"/tables/{tid}"
    assert not guest.is_visible("#rematch-live")
    shot(guest, "finished-game")
    no_serious_axe(guest, "finished game")
    host.click("#rematch")
    host.wait_for_url(re.compile(r".*/tables/(?!rematch/).*"))
    rematch = host.url.rsplit("/", 1)[1]
    assert rematch != tid
    host.wait_for_selector("#my-seat")                 # the same two players: it started at once
    new_token = host.get_attribute("#my-seat", "href").rsplit("/", 1)[1]
    assert new_token != tokens[0]
    new_view = srv.get(f"/api/view/{new_token}")
    assert new_view["version"] == 0 and not new_view["over"] and new_view["seat"] == 0   # sol in the same seat
    # the opponent's page is told at once: a status banner with the rematch's link, and the
    # Rematch button turned into that link
    guest.wait_for_selector("#rematch-live:not([hidden])")
    banner = guest.inner_text("#rematch-live")
    assert "sol asks for a rematch" in banner
    assert guest.get_attribute("#rematch-live-link", "href") == f"/tables/{rematch}"
    assert guest.get_attribute("#rematch-link", "href") == f"/tables/{rematch}"
    assert guest.query_selector("#rematch") is None
    shot(guest, "rematch-told")
    no_serious_axe(guest, "finished game, rematch told")
    # and by email (teo's settings: email on), with the table's address; sol gets none
    wait_for(lambda: smtp.box.to("teo@example.org"), timeout=30, what="the rematch email")
    (mail,) = smtp.box.to("teo@example.org")
    assert "rematch" in mail["Subject"].lower() and f"/tables/{rematch}" in mail.get_content()
    assert "sol" in mail.get_content()
    # the guest follows it to a seat in the new game, seat 2 as before
    guest.click("#rematch-live-link")
    guest.wait_for_selector("#my-seat")
    assert srv.get(f"/api/view/{guest.get_attribute('#my-seat', 'href').rsplit('/', 1)[1]}")["seat"] == 1
    # reloaded, the finished game links to the rematch for both
    host.goto(f"{base}/play/{tokens[0]}")
    assert host.get_attribute("#rematch-link", "href") == f"/tables/{rematch}"
    host.context.close()
    guest.context.close()


def test_the_header_has_lobby_your_games_with_the_waiting_count_ratings_and_log_out(server_factory, browser,
                                                                                    sqlite_url):
    srv = server_factory(sqlite_url)
    base = srv.url
    host, guest, _tid, tokens = two_players_at_a_table(browser, base, time_control="year:3d")
    acting = next(i for i, t in enumerate(tokens) if srv.get(f"/api/view/{t}")["legal"])
    waiting_page = (host, guest)[acting]
    other = (host, guest)[1 - acting]
    for p in (host, guest):
        p.goto(base + "/rules")
        nav = p.locator("header.top nav")
        assert nav.locator("#nav-lobby").get_attribute("href") == "/"
        assert nav.locator("#nav-games").get_attribute("href") == "/account"
        assert nav.locator("#nav-ratings").get_attribute("href") == "/ratings"
    # the count: 1 for the seat whose move it is, none for the other
    waiting_page.wait_for_selector("#nav-waiting:not([hidden])")
    assert waiting_page.inner_text("#nav-waiting") == "1"
    assert "1 waiting for your move" in waiting_page.get_attribute("#nav-games", "aria-label")
    other.wait_for_load_state("networkidle")
    assert other.locator("#nav-waiting").is_hidden()
    # the account menu: closed, then open with Log out, which logs out
    assert waiting_page.locator("#nav-logout").is_hidden()
    waiting_page.click("#nav-account")
    assert waiting_page.locator("#nav-logout").is_visible()
    shot(waiting_page, "header-menu")
    no_serious_axe(waiting_page, "a page with the header's menu open")
    ratings = waiting_page.locator("#nav-ratings")
    ratings.click()
    waiting_page.wait_for_url(f"{base}/ratings")
    waiting_page.click("#nav-account")
    waiting_page.click("#nav-logout")
    waiting_page.wait_for_url(f"{base}/")
    assert waiting_page.query_selector("#nav-login") is not None
    assert waiting_page.query_selector("#nav-games") is None and waiting_page.query_selector("#nav-account") is None
    assert waiting_page.locator("#nav-ratings").is_visible()
    # a phone: the header still holds them without sideways scrolling
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    register(phone, base, "ona")
    phone.goto(base + "/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.click("#nav-account")
    assert phone.locator("#nav-logout").is_visible()
    box = phone.locator("#account-menu .menu").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    for p in (host, guest, phone):
        p.context.close()


def test_copy_buttons_on_links_say_copied_and_put_the_link_on_the_clipboard(server_factory, browser, sqlite_url):
    srv = server_factory(sqlite_url)
    base = srv.url
    ctx = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page = ctx.new_page()
    page.goto(base + "/")
    page.select_option("#players", "2")
    page.select_option("select[name=kind1]", "human")
    page.click("#create")
    page.wait_for_url(re.compile(r".*/(play|host)/.*"))
    if "/host/" not in page.url:
        page.click("#host-link")
    page.wait_for_selector("#links")
    buttons = page.locator("#links button.copy")
    assert buttons.count() == 3          # two seats' links and the spectator's
    assert page.inner_text("#copy-status") == ""
    spectator = page.locator("#spectator-link")
    page.locator("button.copy[data-copy='#spectator-link']").click()
    page.wait_for_function("document.getElementById('copy-status').textContent === 'Copied'")
    assert page.get_attribute("#copy-status", "role") == "status"
    assert page.evaluate("navigator.clipboard.readText()") == spectator.evaluate("a => a.href")
    assert page.locator("button.copy[data-copy='#spectator-link']").inner_text() == "Copied"
    page.wait_for_function("document.querySelector(\"button.copy[data-copy='#spectator-link']\").textContent === 'Copy'")
    shot(page, "links-copy")
    no_serious_axe(page, "links page")
    ctx.close()


def test_the_connection_is_worded_apart_from_the_pace_and_a_hot_seat_game_opens_on_its_table(
        server_factory, browser, sqlite_url):
    srv = server_factory(sqlite_url)
    base = srv.url
    page = device(browser)
    # a hot-seat game: the form lands on the table everyone plays at, not on the links page
    page.goto(base + "/")
    page.select_option("#players", "2")
    page.select_option("select[name=mode]", "hotseat")
    page.select_option("select[name=kind1]", "human")
    page.click("#create")
    page.wait_for_url(re.compile(r".*/play/.*"))
    token = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#conn.on")
    assert page.evaluate("JSON.parse(document.getElementById('paxh-config').textContent).role") == "table"
    assert page.inner_text("#conn") == "Connected"
    assert page.inner_text("#pace") == "Live game"
    assert page.get_attribute("#host-link", "href") == f"/host/{token}"   # the links one click away
    # a turn-based game says so, and its connection is still "Connected", never "live"
    page.goto(base + "/")
    page.select_option("#players", "2")
    page.select_option("#pace", "year")
    page.fill("#year-days", "4")
    page.click("#create")
    page.wait_for_url(re.compile(r".*/(play|host)/.*"))
    if "/host/" in page.url:
        page.click(".join-link[data-seat='0']")
    page.wait_for_selector("#conn.on")
    assert page.inner_text("#pace") == "Turn-based, 4 days per Year"
    assert page.inner_text("#conn") == "Connected"
    assert "live" not in page.inner_text("#status-bar").lower()
    shot(page, "pace")
    # in Catalan
    page.goto(page.url + "?lang=ca")
    page.wait_for_selector("#conn.on")
    assert page.inner_text("#pace") == "Per torns, 4 dies per Any"
    assert page.inner_text("#conn") == "Connectat"
    # the connection lost: "Reconnecting…", the pace unchanged
    srv.kill()
    page.wait_for_selector("#conn.off", timeout=20_000)
    assert page.inner_text("#conn") == "Reconnectant…"
    assert page.inner_text("#pace") == "Per torns, 4 dies per Any"
    page.context.close()


def test_origin_null_is_ours_only_when_the_browser_says_same_origin(client):
    """A game page (Referrer-Policy no-referrer) posts its forms with "Origin: null"; the origin
    guard takes them when the browser's Sec-Fetch-Site says same-origin, and refuses a null
    origin from anywhere else (a sandboxed frame, another site)."""

    body = {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    for site, status in (("cross-site", 403), ("same-site", 403), (None, 403), ("same-origin", 200)):
        headers = {"Origin": "null", **({"Sec-Fetch-Site": site} if site else {})}
        r = client.post("/api/games", json=body, headers=headers)
        assert r.status_code == status, (site, r.text)
        if status == 403:
            assert r.json()["error"]["code"] == "cross_origin"
