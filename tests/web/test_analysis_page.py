"""The analysis page (issue 40, web/analysis_jobs/): a finished game is analysed in the
background of a real server process (the queue is fed by the game's last action) and its page
shows the win-probability chart (inline SVG, the Years ruled), every decision of the seat with
its mark and the best move, and the key moments, in English and Catalan; a game that is on shows
none. In Chromium at 1280 and 390 wide: chart present and within the screen, moves listed,
reachable by keyboard, axe clean (PAXH_SCREENSHOTS=dir saves the screenshots)."""
from __future__ import annotations

import os
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import sqlalchemy as sa

from .conftest import Server
from .test_page_reading import axe_violations

SHOTS = os.environ.get("PAXH_SCREENSHOTS")
BOTS = {"players": 2, "seats": [{"kind": "bot", "bot_kind": "heuristic"}, {"kind": "bot", "bot_kind": "heuristic"}],
        "nations": ["spanish", "english"]}


def fetch(url: str, opener=None) -> tuple[int, str]:
    try:
        with (opener or urllib.request.build_opener()).open(url, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("analysis")
    srv = Server(f"sqlite:///{tmp / 'a.sqlite3'}", bot_delay=0,
                 env={"PAXH_ANALYSIS_BUDGET": "0", "PAXH_ANALYSIS_POLL_SECONDS": "0.2"}).start()
    try:
        g = srv.post("/api/games", BOTS)
        deadline = time.time() + 240
        while not srv.get(f"/api/view/{g['spectator']}")["over"]:
            assert time.time() < deadline, "the bots did not finish the game"
            time.sleep(0.3)
        # the game's last action queued its analysis, before any page asked
        eng = sa.create_engine(f"sqlite:///{tmp / 'a.sqlite3'}", poolclass=sa.pool.NullPool)
        for _ in range(50):     # the hook runs right after the last action's commit
            with eng.connect() as c:
                queued = c.execute(sa.text("SELECT seat FROM analysis_jobs WHERE game_id = :g ORDER BY seat"),
                                   {"g": g["game"]}).scalars().all()
            if queued:
                break
            time.sleep(0.1)
        eng.dispose()
        # a game of bots alone: its first seat only, when it ends (not an analysis per bot seat)
        assert queued == [0]
        url = f"{srv.url}/analysis/{g['spectator']}"
        for seat in (1, 0):      # asking for the other seat's decisions queues them then
            while True:
                status, html = fetch(f"{url}?seat={seat}")
                assert status == 200, html[:500]
                if 'class="win-chart"' in html:
                    break
                assert time.time() < deadline, "no analysis within the time"
                time.sleep(0.5)
        yield {"srv": srv, "game": g, "url": url, "html": html}
    finally:
        srv.stop()


def test_the_page_shows_the_chart_with_the_years_the_decisions_and_the_key_moments(analysed):
    html = analysed["html"]
    svg = re.search(r'<svg class="win-chart".*?</svg>', html, re.S).group(0)
    assert svg.count('class="seat-line"') == 2                         # a line per seat
    years = re.findall(r'data-year="(\w+)"', svg)                      # every Year ruled ...
    assert len(years) >= 9 and {"auction", "play", "sail"} <= set(years)
    assert len(re.findall(r'<text [^>]*>\d+</text>', svg)) >= 3         # ... and each cycle numbered
    assert "<title" in svg and "<desc" in svg
    summary = re.search(r'id="analysis-summary">[^:]+: (\d+) decisions reviewed', html)
    rows = re.findall(r'<tr class="decision[^"]*" data-mark="(\w*)"', html)
    assert summary and len(rows) == int(summary.group(1)) > 5          # every decision of the seat listed
    marked = [m for m in rows if m]
    assert all(m in ("inaccuracy", "mistake", "blunder") for m in marked)
    assert html.count('class="mark"') == len(marked)                  # each mark named in its row
    assert "the same" in html or "Best" in html
    assert re.search(r'<ol class="moments"><li><a href="/replay/', html) or "No single move" in html
    # the other seat's review, and the words in Catalan
    status, other = fetch(analysed["url"] + "?seat=1")
    assert status == 200 and "Decisions of English" in other
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())   # ?lang=ca is kept in a cookie
    status, ca = fetch(analysed["url"] + "?lang=ca", browser)
    assert status == 200
    assert "Probabilitat de guanyar" in ca and "Moments clau" in ca and "decisions revisades" in ca


def test_it_is_linked_from_the_finished_game_and_the_replay_and_never_shown_while_a_game_is_on(analysed):
    srv, g = analysed["srv"], analysed["game"]
    _s, watch = fetch(f"{srv.url}/watch/{g['spectator']}")
    assert f'id="analysis-link" href="/analysis/{g["spectator"]}"' in watch
    _s, replay = fetch(f"{srv.url}/replay/{g['spectator']}")
    assert f'href="/analysis/{g["spectator"]}"' in replay
    on = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    status, page = fetch(f"{srv.url}/analysis/{on['seats'][0]['token']}")
    assert status == 403 and "The analysis opens when the game is over." in page
    _s, play = fetch(f"{srv.url}/play/{on['seats'][0]['token']}")
    assert "/analysis/" not in play


@pytest.mark.browser
@pytest.mark.timeout(300)
@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}],
                         ids=["1280", "390"])
def test_in_a_browser_the_chart_and_moves_are_there_reachable_by_keyboard_and_axe_clean(browser, analysed, size):
    phone = size["width"] < 600
    ctx = browser.new_context(viewport=size, has_touch=phone, is_mobile=phone, bypass_csp=True)   # axe is injected
    page = ctx.new_page()
    try:
        page.goto(analysed["url"])
        page.wait_for_load_state("load")
        chart = page.locator("svg.win-chart").bounding_box()
        assert chart and chart["width"] > min(300, size["width"] - 60) and chart["x"] + chart["width"] <= size["width"]
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]   # no sideways scroll
        assert page.locator("tr.decision").count() > 5
        assert page.locator("tr.decision").first.is_visible()
        # Tab reaches the seats' choice, the chart's table and the decisions (their replay links)
        reached = set()
        for _ in range(60):
            page.keyboard.press("Tab")
            reached.add(page.evaluate("""() => { const a = document.activeElement;
                return a.closest('#analysis-decisions') ? 'decisions' : a.closest('.analysis-seats') ? 'seats'
                     : a.closest('#analysis-chart') ? 'chart' : a.closest('#analysis-moments') ? 'moments' : a.tagName; }"""))
            if {"decisions", "seats", "chart"} <= reached:
                break
        assert {"decisions", "seats", "chart"} <= reached, reached
        for _ in range(5):                                             # past the table's scroll region to a row's link
            if page.evaluate("() => document.activeElement.matches('#analysis-decisions a')"):
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")                                   # a decision's link opens its replay step
        page.wait_for_url(re.compile(r"/replay/.*\?step=\d+"))
        page.go_back()
        page.wait_for_load_state("load")
        bad = axe_violations(page)
        assert not bad, bad
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.evaluate("() => window.scrollTo(0, 0)")
            page.screenshot(path=str(Path(SHOTS) / f"analysis-{size['width']}.png"))
            page.locator("#analysis-decisions").scroll_into_view_if_needed()
            page.screenshot(path=str(Path(SHOTS) / f"analysis-{size['width']}-decisions.png"))
    finally:
        ctx.close()


def test_a_key_moment_of_a_move_is_said_in_the_pages_words_even_when_stored_with_ids():
    """A stored key moment of kind "swing" (a move no event tells) is worded by the page: the
    game's deed with the seats' names, then how the chance moved; an analysis stored before moves
    had words ("English: move atlantico") shows no ids either. Other kinds keep their text."""
    from pax_hispanica.web.analysis_jobs import present
    from pax_hispanica.web.present.i18n import Tr

    swing = {"index": 3, "cycle": 1, "year": "sail", "seat": 1, "before": 0.47, "after": 0.57, "kind": "swing",
             "params": {"seat": 1, "action": {"seat": 1, "type": "move", "to": "atlantico"}},
             "text": {"en": "English: move atlantico: English's chance of winning rose from 47% to 57%.", "ca": "x"}}
    other = {**swing, "kind": "legality", "params": {"seat": 1, "legality": "PRIVATEER"},
             "text": {"en": "English changed legality to PRIVATEER: ...", "ca": "..."}}
    for lang, names, want in (
            ("en", ["Spanish (Ana)", "English (Bru)"],
             "English (Bru) sailed to Atlantic Ocean: English (Bru)'s chance of winning rose from 47% to 57%."),
            ("ca", ["Espanya (Ana)", "Anglaterra (Bru)"],
             "Anglaterra (Bru) va navegar fins a l'Oceà Atlàntic: la probabilitat de guanyar d'Anglaterra (Bru) "
             "puja del 47 % al 57 %.")):
        tr = Tr(lang, names, {"atlantico": "Atlantic Ocean"})
        got = present.moments({"key_moments": [swing, other]}, names, lang, tr)
        assert got[0]["text"] == want
        assert got[1]["text"] == other["text"][lang]
    # without the page's words, the stored text
    assert present.moments({"key_moments": [swing]}, ["a", "b"], "en")[0]["text"] == swing["text"]["en"]
