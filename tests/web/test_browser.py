"""Playwright driving Debian's chromium against a real server on 127.0.0.1."""
from __future__ import annotations

import re
import time

import pytest

from .helpers import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'paxh.sqlite3'}"


def open_page(browser, url: str):
    ctx = browser.new_context(viewport={"width": 1300, "height": 900})
    page = ctx.new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    page.goto(url)
    page.wait_for_selector("#conn.on")
    page.frames_seen = frames  # type: ignore[attr-defined]
    return page



def log_types(page) -> list[str]:
    return page.eval_on_selector_all("#log li", "els => els.map(e => e.dataset.type)")


def test_auction_bids_hidden_until_all_are_in(server_factory, browser, database_url):
    srv = server_factory(database_url)
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human", "name": "Ana"},
                                                         {"kind": "human", "name": "Bru"}]})
    players = [open_page(browser, f"{srv.url}/play/{s['token']}") for s in g["seats"]]
    spectator = open_page(browser, f"{srv.url}/watch/{g['spectator']}")
    # whoever must start an auction starts one on the Market deck
    starter = wait_for(lambda: next((p for p in players if p.query_selector("[data-decision=initiate]")), None),
                       what="an initiate decision")
    starter.click("[data-decision=initiate] button[data-type=initiate]")
    for p in players:
        p.wait_for_selector("[data-decision=bid] form.range-form")
    bids = {0: 2, 1: 1}
    first, second = players[0], players[1]
    assert "cannot see your choice" in first.inner_text("#decision")  # the page says the bid is sealed
    first.fill("[data-decision=bid] input[name=value]", str(bids[0]))
    first.click("[data-decision=bid] button[type=submit]")
    first.wait_for_selector("#my-sealed")
    assert "ChoiceSealed" in log_types(first)
    # the others see that a bid was placed, never its amount
    for p in (second, spectator):
        wait_for(lambda p=p: "ChoiceCommitted" in log_types(p), what="the commit on the other pages")
        types = log_types(p)
        assert "ChoiceSealed" not in types and "ChoicesRevealed" not in types
        assert p.query_selector("#my-sealed") is None or (p is second and p.inner_text("#my-sealed") == "")
    # the spectator's and the other bidder's pages (and everything their sockets got) hold no amount
    for p in (second, spectator):
        assert not any('"ChoiceSealed"' in f or "ChoiceSealed" in f for f in p.frames_seen)
    second.fill("[data-decision=bid] input[name=value]", str(bids[1]))
    second.click("[data-decision=bid] button[type=submit]")
    # then everyone sees all the bids at once
    for p in (first, second, spectator):
        wait_for(lambda p=p: "ChoicesRevealed" in log_types(p), what="the reveal")
        text = p.inner_text("#log li[data-type=ChoicesRevealed]")
        names = [p.inner_text(f"table.players tr[data-seat='{s}'] th") for s in (0, 1)]
        assert re.search(r"Ana\)?\s*\$2\b", text) and re.search(r"Bru\)?\s*\$1\b", text), (text, names)


def choose(page, sail_by_map: bool = False) -> bool:
    """Take one decision on the page, preferring to end things quickly. False when none is shown
    (or the board was redrawn under our hand: the caller tries again). With sail_by_map, a
    voyage move is made by clicking a highlighted zone of the map."""
    from playwright.sync_api import Error

    try:
        if sail_by_map and page.query_selector("svg .zone.clickable"):
            page.click("svg .zone.clickable", timeout=2000)
            page.sailed_by_map = getattr(page, "sailed_by_map", 0) + 1  # type: ignore[attr-defined]
            return True
        if page.query_selector("form.range-form"):
            page.click("form.range-form button[type=submit]", timeout=2000)
            return True
        for kind in ("end_voyage", "end_turn", "pass", "unload_haven"):
            if page.query_selector(f"button.act[data-type={kind}]"):
                page.click(f"button.act[data-type={kind}]", timeout=2000)
                return True
        if page.query_selector("#decision button.act:not(.undo)"):
            page.click("#decision button.act:not(.undo)", timeout=2000)
            return True
        # a decision with places only (issue 38: no button per place): a place on the map
        if page.query_selector("svg.map [data-place]"):
            from .board_play import take_option
            take_option(page, page.get_attribute("svg.map [data-place]", "data-options").split()[0])
            return True
    except (Error, AssertionError):
        return False
    return False


def test_one_person_plays_a_whole_game_against_bots(server_factory, browser, sqlite_url):
    srv = server_factory(sqlite_url, bot_delay=0.0)
    g = srv.post("/api/games", {"players": 3, "seats": [
        {"kind": "human", "name": "Ana"}, {"kind": "bot", "bot_kind": "random"},
        {"kind": "bot", "bot_kind": "heuristic"}]})
    page = open_page(browser, f"{srv.url}/play/{g['seats'][0]['token']}")
    deadline = time.time() + 180
    moves = 0
    while time.time() < deadline and not page.query_selector("#result"):
        version = page.get_attribute("#board", "data-version")
        if choose(page, sail_by_map=getattr(page, "sailed_by_map", 0) < 3):
            moves += 1
            wait_for(lambda version=version: page.get_attribute("#board", "data-version") != version
                     or page.query_selector("#error:not([hidden])"), what="the move to land")
            error = page.query_selector("#error:not([hidden])")
            # a click that raced a redraw may be refused as stale; anything else is a bug
            assert error is None or "stale_version" in page.inner_text("#error"), page.inner_text("#error")
        else:
            page.wait_for_timeout(50)
    assert page.query_selector("#result"), "the game did not end"
    assert moves > 5
    assert getattr(page, "sailed_by_map", 0) > 0, "never sailed by clicking the map"
    assert page.inner_text("#result")
    # the replay reveals everything, step by step
    page.click("#replay-link")
    page.wait_for_selector("#step")
    assert int(page.inner_text("#step")) > 0
    page.click("#prev")
    page.wait_for_selector("#step")


def test_server_killed_and_restarted_mid_game(server_factory, browser, database_url):
    from .conftest import Server

    srv = server_factory(database_url, bot_delay=0.0)
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot_kind": "random"}]})
    page = open_page(browser, f"{srv.url}/play/{g['seats'][0]['token']}")
    for _ in range(6):
        version = page.get_attribute("#board", "data-version")
        wait_for(lambda: choose(page), what="a decision")
        wait_for(lambda version=version: page.get_attribute("#board", "data-version") != version, what="the move")
    time.sleep(0.3)
    before = srv.get(f"/api/view/{g['seats'][0]['token']}")
    srv.kill()
    page.wait_for_selector("#conn.off")
    again = Server(database_url, port=srv.port, bot_delay=0.0).start()
    try:
        page.wait_for_selector("#conn.on", timeout=15000)
        after = again.get(f"/api/view/{g['seats'][0]['token']}")
        assert after["version"] >= before["version"]
        assert after["events"][: len(before["events"])] == before["events"]
        # and the game goes on from the same page
        version = page.get_attribute("#board", "data-version")
        wait_for(lambda: choose(page), what="a decision after the restart")
        wait_for(lambda: page.get_attribute("#board", "data-version") != version, what="a move after the restart")
    finally:
        again.stop()


def test_hot_seat_passes_the_device(server_factory, browser, sqlite_url):
    srv = server_factory(sqlite_url)
    g = srv.post("/api/games", {"players": 2, "mode": "hotseat",
                                "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bru"}]})
    page = open_page(browser, f"{srv.url}/play/{g['host']}")
    page.wait_for_selector("#pass-device")
    assert page.query_selector("#hand") is None and page.query_selector("#decision") is None
    page.click("#reveal")
    page.wait_for_selector("#decision")
    me = page.inner_text("#me")
    page.click("[data-decision=initiate] button[data-type=initiate]")
    # both bid: after the first bid the screen hides again before the second player sees anything
    page.wait_for_selector("#pass-device, [data-decision=bid]")
    for _ in range(2):
        if page.query_selector("#pass-device"):
            page.click("#reveal")
        page.wait_for_selector("[data-decision=bid]")
        page.click("[data-decision=bid] button[type=submit]")
        page.wait_for_function("() => !document.querySelector('[data-decision=bid]') || "
                               "document.querySelector('#pass-device')")
    wait_for(lambda: "ChoicesRevealed" in log_types(page), what="the reveal")
    assert me
