"""Learn to play's pages and the rules page in plain words, in the app in process (issue 38,
"Teach the game"): the lobby's way in, a lesson's page and its moves over HTTP with their
refusals, the rules page's guide with its pictures, legalities and rule links."""
from __future__ import annotations

import json
import re

import pytest

from pax_hispanica import api
from pax_hispanica.web.learn.lessons import LEARNER, LESSONS, play


def ids_of(page: str) -> list[str]:
    return re.findall(r'\sid="([^"]+)"', page)


@pytest.mark.parametrize("lang,link", [("en", "Learn to play"), ("ca", "Aprèn a jugar")])
def test_the_lobby_leads_to_learn_to_play_and_it_lists_a_lesson_per_year(client, lang, link):
    lobby = client.get(f"/?lang={lang}").text
    assert re.search(rf'<a class="button primary" href="/learn" id="learn-link">{link}</a>', lobby)
    page = client.get("/learn").text
    assert f"<h1>{link}</h1>" in page
    for lesson in LESSONS:
        assert f'href="/learn/{lesson.id}"' in page
    assert client.get("/learn/nowhere").status_code == 404


def test_a_lesson_page_is_the_games_board_with_the_coach_beside_it(client):
    page = client.get("/learn/goods?lang=en").text
    assert '<aside id="learn-coach"' in page and "Staff a vacant colony" in page
    assert 'id="board"' in page and 'data-decision="labour"' in page
    assert '<script src="/static/learn.js"></script>\n<script src="/static/app.js"></script>' in page
    config = json.loads(re.search(r'<script type="application/json" id="paxh-learn">(.*?)</script>', page, re.S).group(1))
    assert config["lesson"] == "goods" and config["url"] == "/learn/goods/act" and config["actions"] == []
    dupes = {i for i in ids_of(page) if ids_of(page).count(i) > 1}
    assert not dupes, dupes


def test_a_lesson_is_played_over_http_to_its_end(client):
    """What static/learn.js sends: the actions so far and the learner's move; the answer is the
    board as the game's socket sends it, the coach and the actions now taken."""
    from pax_hispanica.bots import make_agent
    me = make_agent("heuristic", 3, api=api)
    lesson = LESSONS[1]
    body = {"actions": [], "action": None, "lang": "ca"}
    r = client.post(f"/learn/{lesson.id}/act", json=body)
    assert r.status_code == 200, r.text
    moves = 0
    while not r.json()["done"]:
        out = r.json()
        assert out["update"]["type"] == "update" and 'id="decision"' in out["update"]["html"]
        assert "learn-step" in out["coach"] and "Ara" in out["coach"]            # the page's language
        game = play(lesson, out["actions"]).game
        action = me.decide(api.view(game.state, LEARNER, include_state=False), api.legal_actions(game.state, LEARNER))
        r = client.post(f"/learn/{lesson.id}/act", json={**body, "actions": out["actions"], "action": action})
        assert r.status_code == 200, r.text
        moves += 1
    out = r.json()
    assert 1 <= moves <= 8 and not out["over"] and 'id="learn-done"' in out["coach"] and "Lliçó acabada" in out["coach"]
    assert 'id="learn-next" href="/learn/play"' in out["coach"]
    # playing on: the real rules take over
    on = client.post(f"/learn/{lesson.id}/act", json={**body, "actions": out["actions"], "free": True}).json()
    assert on["free"] and not on["done"] and "learn-free" in on["coach"]


def test_a_lessons_refusals(client):
    start = client.post("/learn/goods/act", json={"actions": [], "action": None}).json()
    bad = client.post("/learn/goods/act", json={"actions": start["actions"],
                                                  "action": {"seat": LEARNER, "type": "end_turn"}})
    assert bad.status_code == 422 and bad.json()["error"]["rule"] == "LAB-1"
    lost = client.post("/learn/goods/act", json={"actions": [{"seat": 0, "type": "fly"}], "action": None})
    assert lost.status_code == 409 and lost.json()["error"]["code"] == "lesson_lost"
    other = client.post("/learn/goods/act", json={"actions": [], "action": {"seat": 0, "type": "pass"}})
    assert other.status_code == 422 and other.json()["error"]["code"] == "wrong_seat"
    assert client.post("/learn/goods/act", content=b"[1, 2").status_code == 400
    assert client.post("/learn/nowhere/act", json={"actions": []}).status_code == 404
    foreign = client.post("/learn/goods/act", json={"actions": []}, headers={"Origin": "https://elsewhere.example"})
    assert foreign.status_code == 403


@pytest.mark.parametrize("lang,heading,legal", [("en", "The game in plain words", "PRIVATEER"),
                                                ("ca", "El joc en paraules planeres", "CORSARI")])
def test_the_rules_page_opens_on_the_game_in_plain_words_with_pictures(client, lang, heading, legal):
    page = client.get(f"/rules?lang={lang}").text
    assert f'<h2 id="plain-h">{heading}</h2>' in page
    assert page.index('id="plain"') < page.index('id="rules-by-id"') < page.index('id="rule-ids"')
    assert page.count('<figure class="board-picture"') == 2 and page.count('<svg role="img"') == 2
    assert len(re.findall(r'<div class="legality[^"]*" data-legality="', page)) == 4 and legal in page
    # the rule IDs are links to their row of the list below, which holds every one of them
    refs = set(re.findall(r'class="rule-ref">([A-Z]+-\d+)<', page))
    assert len(refs) > 30 and all(f'<tr id="{r}"' in page for r in refs)
    assert '<details id="rule-ids">' in page                      # folded: not the headline
    assert '<details id="rule-ids" open>' in client.get("/rules?rule=AUC-4").text
    dupes = {i for i in ids_of(page) if ids_of(page).count(i) > 1}
    assert not dupes, dupes


@pytest.mark.parametrize("lang,scores", [("en", "Scores in Europe"), ("ca", "Puntua a Europa")])
def test_the_game_page_explains_each_fleets_legality_where_it_is_shown(client, lang, scores):
    from .test_api import new_game
    g = new_game(client, players=3, nations=["spanish", "english", "french"])
    page = client.get(f"/play/{g['seats'][0]['token']}?lang={lang}").text
    tips = re.findall(r'<details class="legality-tip" data-legality="([A-Z]+)">(.*?)</details>', page, re.S)
    assert [code for code, _ in tips] == ["CONQUISTADOR", "PRIVATEER", "PLUNDER"]     # the nations' own (CYC-4)
    n = {k: v["value"] for k, v in api.parameters("reference").items()}
    privateer = dict(tips)["PRIVATEER"]
    assert scores in privateer and str(n["privateer_prestige"]) in privateer
    money = f"${n['privateer_money']}" if lang == "en" else f"{n['privateer_money']} $"
    assert money in privateer


def test_a_play_turn_that_offers_a_legality_card_compares_the_four_beside_it(client):
    page = client.get("/learn/play?lang=en").text      # the learner holds Red de Contrabando
    box = re.search(r'<details class="legalities" id="legalities-offered">(.*?)</details>', page, re.S)
    assert box, "no legalities beside the card"
    assert re.findall(r'data-legality="([A-Z]+)"', box.group(1)) == ["CONQUISTADOR", "PRIVATEER", "SMUGGLER", "PLUNDER"]
    assert '<div class="legality mine" data-legality="PRIVATEER">' in box.group(1)
    assert 'id="learn-legalities"' not in page          # the coach does not say it twice
    # and the card's own text says what its legality scores, on the rules page's catalogue too
    rules = client.get("/rules?lang=en").text
    row = re.search(r'<tr id="card-red_contrabando".*?</tr>', rules, re.S).group(0)
    smuggler = api.parameters("reference")["smuggler_money"]["value"]
    assert f"Scores in Europe: ${smuggler} a Chest, no Prestige." in row
