"""Every page has a title of its own (WCAG 2.4.2, "Page Titled"): a tab, a bookmark or a screen
reader's list of windows tells the rules from a replay or a table's links, in the page's language."""
from __future__ import annotations

import html
import re
import time

from .helpers import wait_for

TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def title(page: str) -> str:
    m = TITLE.search(page)
    assert m, "no <title>"
    return html.unescape(m.group(1)).strip()


def test_the_rules_page_is_titled_with_the_rule_asked_in_either_language(client):
    assert title(client.get("/rules?lang=en").text) == "Rules · Pax Hispanica"
    assert title(client.get("/rules?lang=ca").text) == "Regles · Pax Hispanica"
    page = client.get("/rules?rule=AUC-3&lang=en").text
    assert title(page) == "Rules · AUC-3 · Pax Hispanica" and '<code id="rule">AUC-3</code>' in page


def test_a_rule_the_engine_does_not_list_is_not_echoed_into_the_rules_page(client):
    page = client.get("/rules", params={"rule": "Your account is closed: call 555", "lang": "en"}).text
    assert "555" not in page and title(page) == "Rules · Pax Hispanica" and 'id="rule"' not in page


def test_a_tables_links_and_its_replay_are_titled(client):
    g = client.post("/api/games", json={"players": 2, "seats": [{"kind": "bot", "bot_kind": "random"},
                                                                 {"kind": "bot", "bot_kind": "random"}]}).json()
    host = client.get(f"/host/{g['host']}?lang=en")
    assert host.status_code == 200 and title(host.text) == f"Links · {g['game']} · Pax Hispanica"
    assert title(client.get(f"/host/{g['host']}?lang=ca").text) == f"Enllaços · {g['game']} · Pax Hispanica"
    wait_for(lambda: client.get(f"/api/view/{g['spectator']}").json()["over"], 120, "the bots' game to end",
             pause=lambda: time.sleep(0.05))
    replay = client.get(f"/replay/{g['spectator']}?lang=en")
    assert replay.status_code == 200 and title(replay.text) == "Replay with everything revealed · Pax Hispanica"
    assert title(client.get(f"/replay/{g['spectator']}?lang=ca").text) == "Repetició amb tot revelat · Pax Hispanica"
