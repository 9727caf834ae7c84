"""Learn to play in Debian's chromium against a real server (issue 38, "Teach the game"): from
the lobby, through the four lessons by clicks to the end of the game, in English on a 1280x800
screen and in Catalan on a 390x844 phone; the coach speaks at every decision; axe-core finds no
serious or critical violation on the lessons' pages; a Catalan lesson has no English UI words."""
from __future__ import annotations

import re
import time

import pytest

from pax_hispanica.web.learn.lessons import LESSONS

from .learn_driver import play_lesson
from .test_page_reading import axe_violations, english_ui_strings, page_words

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

WORDS = {"en": {"link": "Learn to play", "done": "Lesson complete", "next": "Next lesson", "now": "Now",
                "end": "The game is over", "real": "Start a real game"},
         "ca": {"link": "Aprèn a jugar", "done": "Lliçó acabada", "next": "Lliçó següent", "now": "Ara",
                "end": "La partida s'ha acabat", "real": "Comença una partida de debò"}}


@pytest.mark.parametrize("lang,size", [("en", (1280, 800)), ("ca", (390, 844))], ids=["en-desktop", "ca-phone"])
def test_learn_to_play_from_the_lobby_to_the_end_of_the_game_by_clicks(server_factory, browser, tmp_path, lang, size):
    srv = server_factory(f"sqlite:///{tmp_path / 'p.sqlite3'}")
    w, h = size
    ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=w < 600, is_mobile=w < 600,
                              bypass_csp=True)      # to inject axe
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{srv.url}/?lang={lang}")
    words = WORDS[lang]
    link = page.locator("#learn-link")
    assert link.inner_text().strip() == words["link"]
    link.click()
    page.wait_for_selector("#lessons")
    assert page.locator("#lessons li").count() == len(LESSONS)
    assert axe_violations(page) == [], "the lessons' list"
    page.click("#learn-start")
    english = english_ui_strings() if lang == "ca" else set()
    started = time.time()
    decisions = []
    for n, lesson in enumerate(LESSONS, start=1):
        page.wait_for_selector("#learn-coach .learn-step, #learn-done")
        assert page.url.endswith(f"/learn/{lesson.id}")
        coach = page.inner_text("#learn-coach")
        assert f"{n}." in coach and words["now"] in coach          # the lesson's setting, then the first note
        bad = axe_violations(page)
        assert bad == [], (lesson.id, bad)
        if english:
            text = page_words(page)
            hits = sorted(s for s in english if re.search(rf"(?<![\w’']){re.escape(s)}(?![\w’'])", text))
            assert not hits, (lesson.id, hits)
        decisions.append(play_lesson(page))
        done = page.inner_text("#learn-done")
        assert words["done"] in done
        assert page.evaluate("() => document.body.dataset.lessonDone") == "yes"
        assert not page.locator("#decision").is_visible()      # the next Year waits for "play on"
        if n < len(LESSONS):
            assert words["next"] in page.inner_text("#learn-next")
            page.click("#learn-next")
        else:
            assert words["end"] in done and page.locator("#learn-real-game").inner_text().strip() == words["real"]
            assert page.query_selector("#result")                # the game's own final table
            assert axe_violations(page) == [], "the end of the game"
    took = time.time() - started
    assert 8 <= sum(decisions) <= 25 and all(d >= 1 for d in decisions), decisions
    assert errors == [], errors
    print(f"\nLearn to play ({lang}, {w}x{h}): decisions per lesson {decisions}, "
          f"{sum(decisions)} in all, clicked through in {took:.1f} s")
    ctx.close()


def test_a_lesson_survives_a_reload_and_plays_on_to_the_end(server_factory, browser, tmp_path):
    """The page keeps the lesson's moves (sessionStorage): a reload goes on where it was; after
    the lesson's Year, "Play this game to the end" gives the game back to the real rules."""
    srv = server_factory(f"sqlite:///{tmp_path / 'p.sqlite3'}")
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{srv.url}/learn/goods?lang=en")
    page.wait_for_selector("#learn-coach .learn-step")
    first = page.get_attribute("#board", "data-version")
    assert play_lesson(page) == 2
    version = page.get_attribute("#board", "data-version")
    page.reload()
    page.wait_for_selector("#learn-done")
    assert page.get_attribute("#board", "data-version") == version
    page.click("#learn-play-on")
    page.wait_for_selector("#learn-coach .learn-free")
    assert page.locator("#decision").is_visible()
    assert play_lesson(page, timeout=200) >= 3
    assert "The game is over" in page.inner_text("#learn-done") and page.query_selector("#result")
    page.click("#learn-restart")
    page.wait_for_selector("#learn-coach .learn-step")
    assert page.get_attribute("#board", "data-version") == first
    page.context.close()
