"""Small fixes a player hit (issue 14), in chromium: spectators see the auction lot and who is
still choosing; a map zone is taken with Enter; the lobby's Strength is only for the search bot."""
from __future__ import annotations

import time

import pytest

from .helpers import wait_for
from .test_browser import choose
from .test_input import drive_to_bids, open_page, version

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'paxh.sqlite3'}"


def test_spectators_see_the_lot_and_who_is_still_choosing(server_factory, browser, sqlite_url):
    srv = server_factory(sqlite_url)
    g = srv.post("/api/games", {"players": 2, "nations": ["spanish", "english"],
                                "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bru"}]})
    drive_to_bids(srv, g)
    watch = open_page(browser, f"{srv.url}/watch/{g['spectator']}")
    assert "Up for auction" in watch.inner_text("#lot-panel")
    assert "Spanish (Ana)" in watch.inner_text("#choosing") and "English (Bru)" in watch.inner_text("#choosing")
    before = version(watch)
    v = srv.get(f"/api/view/{g['seats'][0]['token']}")
    bid = next(d for d in v["legal"] if d.get("decision") == "bid")
    srv.post(f"/api/act/{g['seats'][0]['token']}", {"version": v["version"], "action": {**bid["action"], bid["field"]: 1}})
    wait_for(lambda: version(watch) > before, what="the bid to show")
    assert "Spanish (Ana)" not in watch.inner_text("#choosing") and "English (Bru)" in watch.inner_text("#choosing")
    # the player who has bid sees the lot too, with no controls
    ana = open_page(browser, f"{srv.url}/play/{g['seats'][0]['token']}")
    assert ana.query_selector("#decision") is None and "Up for auction" in ana.inner_text("#lot-panel")


def test_a_map_zone_is_taken_with_enter(server_factory, browser, sqlite_url):
    srv = server_factory(sqlite_url, bot_delay=0.0)
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot_kind": "random"}]})
    page = open_page(browser, f"{srv.url}/play/{g['seats'][0]['token']}")
    deadline = time.time() + 150
    while not page.query_selector("svg .zone.clickable"):
        assert time.time() < deadline, "no voyage came up"
        assert not page.query_selector("#result"), "the game ended with no voyage"
        if not choose(page):
            page.wait_for_timeout(50)
        else:
            page.wait_for_timeout(100)
    before = version(page)
    zone = page.locator("svg .zone.clickable").first
    zone.focus()
    page.keyboard.press("Enter")
    wait_for(lambda: version(page) > before or page.query_selector("#error:not([hidden])"), what="the move")
    assert page.is_hidden("#error") or page.get_attribute("#error", "data-code") == "stale_version"
    assert [m for m in page.sent if m.get("type") == "act"][-1]["action"].get("type") in ("move", "sail", "voyage",
                                                                                          "attack")


def test_strength_is_only_for_the_search_bot(server_factory, browser, sqlite_url):
    srv = server_factory(sqlite_url)
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(srv.url + "/")
    page.select_option("#players", "2")
    page.select_option("select[name=kind1]", "bot")
    page.select_option("select[name=bot1]", "heuristic")
    assert page.is_disabled("select[name=strength1]")
    page.select_option("select[name=bot1]", "ismcts")
    assert page.is_enabled("select[name=strength1]")
    page.select_option("select[name=kind1]", "human")
    assert page.is_disabled("select[name=strength1]")
    ctx.close()


def test_going_back_keeps_the_language_chosen(server_factory, browser, sqlite_url):
    """The EN/CA links store the language and redirect to the page without ?lang, so going Back
    shows the page in the language chosen last, not in the one an old address named."""
    srv = server_factory(sqlite_url)
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    page = open_page(browser, f"{srv.url}/play/{g['seats'][0]['token']}?lang=en")
    assert "?lang" not in page.url and page.get_attribute("html", "lang") == "en"
    page.click("a[data-lang=ca]")
    page.wait_for_selector("html[lang=ca]")
    assert "?lang" not in page.url
    page.go_back()
    page.wait_for_selector("#conn.on")
    assert page.get_attribute("html", "lang") == "ca"
    assert "Registre" in page.inner_text("#board")
    page.goto(f"{srv.url}/rules")
    page.go_back()
    page.wait_for_selector("#conn.on")
    assert page.get_attribute("html", "lang") == "ca"


def test_the_lobby_shows_only_the_chosen_paces_numbers(server_factory, browser, sqlite_url):
    """On a phone, four greyed-out number fields for paces not chosen read as one jumble: only
    the chosen pace's fields are shown (and sent)."""
    srv = server_factory(sqlite_url)
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(srv.url + "/")
    fields = ["#clock-minutes", "#clock-increment", "#turn-hours", "#year-days"]
    assert [page.is_visible(f) for f in fields] == [False] * 4           # live: no numbers
    page.select_option("#pace", "clock")
    assert [page.is_visible(f) for f in fields] == [True, True, False, False]
    page.select_option("#pace", "turn")
    assert [page.is_visible(f) for f in fields] == [False, False, True, False]
    page.select_option("#pace", "year")
    assert [page.is_visible(f) for f in fields] == [False, False, False, True]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    ctx.close()
