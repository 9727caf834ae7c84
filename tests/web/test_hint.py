"""The Hint (issue 38, web/analysis_jobs/hint.py): in an unrated game the seat to move gets the
strongest bot's move and its explanation, in the page's language; a game that counts for ratings
(made from a table, no variant) shows no Hint button and the server refuses the Hint with
`hint_rated`, changing nothing."""
from __future__ import annotations

import time

import pytest
import sqlalchemy as sa

from pax_hispanica.web.db import schema as db
from pax_hispanica.web.social import schema as social_db

TWO = {"players": 2, "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bru"}],
       "nations": ["spanish", "english"]}


def to_move(client, tokens: list[str]) -> tuple[str, dict]:
    views = [client.get(f"/api/view/{t}").json() for t in tokens]
    i = next(i for i, v in enumerate(views) if v["legal"])
    return tokens[i], views[i]


def make_rated(database_url: str, gid: str) -> None:
    """The game as a table's game: what social/tables.py records when a table starts."""
    eng = sa.create_engine(db.sync_url(database_url), poolclass=sa.pool.NullPool)
    with eng.begin() as c:
        c.execute(social_db.open_tables.insert().values(id="t" + gid[:20], host_user="someone", public=True, players=2,
                                                        params="{}", status="started", game_id=gid,
                                                        created_at=time.time(), expires_at=time.time() + 3600))
    eng.dispose()


def test_an_unrated_game_offers_the_hint_with_the_bots_move_and_why(client):
    g = client.post("/api/games", json=TWO).json()
    tokens = [s["token"] for s in g["seats"]]
    token, view = to_move(client, tokens)
    page = client.get(f"/play/{token}").text
    assert 'id="hint"' in page and "/static/hint.js" in page
    r = client.post(f"/api/hint/{token}")
    assert r.status_code == 200, r.text
    hint = r.json()
    legal = [a for d in view["legal"] for a in d.get("options", [])]
    assert hint["action"] in legal or hint["action"]["type"] in {d.get("action", {}).get("type") for d in view["legal"]}
    assert hint["move"] and hint["how"]
    assert client.get(f"/api/view/{token}").json()["version"] == view["version"]     # nothing was played
    # a seat that is not to move gets no hint; and the Catalan words
    other = next(t for t in tokens if t != token)
    assert client.post(f"/api/hint/{other}").json()["error"]["code"] == "not_your_turn"
    client.get("/?lang=ca")
    ca = client.post(f"/api/hint/{token}").json()
    assert "partides" in ca["how"] or "regles" in ca["how"]


def test_a_rated_game_shows_no_hint_and_the_server_refuses_it_changing_nothing(client, database_url):
    g = client.post("/api/games", json=TWO).json()
    tokens = [s["token"] for s in g["seats"]]
    make_rated(database_url, g["game"])
    token, view = to_move(client, tokens)
    page = client.get(f"/play/{token}").text
    assert 'id="hint"' not in page
    r = client.post(f"/api/hint/{token}")
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "hint_rated"
    assert "rated" in r.json()["error"]["message"]
    after = client.get(f"/api/view/{token}").json()
    assert (after["version"], after["legal"]) == (view["version"], view["legal"])



def test_another_server_reads_whether_a_game_gets_the_hint_when_it_loads_it(client, database_url):
    """Whether a game gets the Hint is kept on the game, read once when a server loads it (never by
    the action bar's template: a render that started database work each time it did not know
    emptied the connection pool under load). A second server on the same database, with hints
    turned off, offers none on the same game."""
    from fastapi.testclient import TestClient

    from pax_hispanica.web.server import create_app

    unrated = client.post("/api/games", json=TWO).json()
    rated = client.post("/api/games", json=TWO).json()
    make_rated(database_url, rated["game"])
    app = create_app(database_url, bot_delay=0)
    with TestClient(app) as other:
        for g, offered in ((unrated, True), (rated, False)):
            token, _ = to_move(other, [s["token"] for s in g["seats"]])
            assert app.state.site.svc.live[g["game"]].hint is offered
            assert ('id="hint"' in other.get(f"/play/{token}").text) is offered
        app.state.hints.budget = 0           # this server gives no hints: a game it loads gets none
        svc = app.state.site.svc
        svc.live.clear()
        token, _ = to_move(other, [s["token"] for s in unrated["seats"]])
        assert svc.live[unrated["game"]].hint is False
        assert 'id="hint"' not in other.get(f"/play/{token}").text
        assert other.post(f"/api/hint/{token}").json()["error"]["code"] == "hint_off"


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_in_a_browser_the_hint_button_shows_the_move_and_why(browser, tmp_path):
    import os
    from pathlib import Path

    from .conftest import Server
    from .test_page_reading import axe_violations

    srv = Server(f"sqlite:///{tmp_path / 'h.sqlite3'}").start()
    try:
        g = srv.post("/api/games", TWO)
        tokens = [s["token"] for s in g["seats"]]
        views = [srv.get(f"/api/view/{t}") for t in tokens]
        token = tokens[next(i for i, v in enumerate(views) if v["legal"])]
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)   # axe is injected
        page = ctx.new_page()
        page.goto(f"{srv.url}/play/{token}")
        page.wait_for_selector("#conn.on")
        page.locator("#hint").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#hint-answer .hint-answer strong", timeout=60000)
        answer = page.inner_text("#hint-answer")
        assert "The strongest bot would play:" in answer and len(answer.splitlines()) >= 3
        assert not axe_violations(page)
        if os.environ.get("PAXH_SCREENSHOTS"):
            Path(os.environ["PAXH_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
            page.locator("#decision").screenshot(path=str(Path(os.environ["PAXH_SCREENSHOTS"]) / "hint-1280.png"))
        ctx.close()
    finally:
        srv.stop()
