"""Every page has one <h1> (WCAG 1.3.1 / 2.4.6; issue 38): the game page (a seat's, a
spectator's, a finished one), its replay, its links and the message pages too, in English and
Catalan; a screen reader's "next heading" lands on what the page is."""
from __future__ import annotations

import re
import time

import pytest

from .helpers import wait_for
from .test_api import new_game

pytestmark = pytest.mark.timeout(180)

H1 = re.compile(r"<h1[\s>].*?</h1>", re.S)


def one_h1(page: str, what: str) -> str:
    found = H1.findall(page)
    assert len(found) == 1, (what, found)
    text = re.sub(r"<[^>]+>", "", found[0]).strip()
    assert text, what
    return text


@pytest.mark.parametrize("lang", ["en", "ca"])
def test_a_game_page_a_spectator_page_and_the_links_page_have_one_h1(client, lang):
    g = new_game(client, players=2)
    seat = next(s["token"] for s in g["seats"] if s["token"])
    assert "Pax Hispanica" in one_h1(client.get(f"/play/{seat}?lang={lang}").text, "seat")
    assert "Pax Hispanica" in one_h1(client.get(f"/watch/{g['spectator']}?lang={lang}").text, "spectator")
    one_h1(client.get(f"/host/{g['host']}?lang={lang}").text, "links")


def test_a_finished_game_and_its_replay_have_one_h1(client):
    g = client.post("/api/games", json={"players": 2, "seats": [{"kind": "bot", "bot_kind": "random"},
                                                                 {"kind": "bot", "bot_kind": "random"}]}).json()
    wait_for(lambda: client.get(f"/api/view/{g['spectator']}").json()["over"], 120, "the bots' game to end",
             pause=lambda: time.sleep(0.05))
    one_h1(client.get(f"/watch/{g['spectator']}").text, "finished game")
    one_h1(client.get(f"/replay/{g['spectator']}").text, "replay")


@pytest.mark.parametrize("path", ["/", "/rules", "/login", "/register", "/ratings"])
def test_the_site_pages_have_one_h1(client, path):
    one_h1(client.get(path).text, path)


def test_a_message_page_has_an_h1(client):
    r = client.get("/play/no-such-token")
    assert r.status_code >= 400
    one_h1(r.text, "message")
