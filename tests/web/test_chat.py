"""The game's chat: text only (a `<script>` is shown as text), length- and rate-limited, muted per
player, read by spectators unless the table says no, never by bots; the host ends it; reports
are kept for a moderator. The browser test also shows the clock ticking and takes the
screenshots (PAXH_SCREENSHOTS=DIR keeps them)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from pax_hispanica.web.play.model import Rights
from pax_hispanica.web.server import create_app

from .helpers import pump_until, wait_for

pytestmark = pytest.mark.timeout(240)
SCRIPT = "<script>window.pwned = 1</script><b>bold?</b>"


def _game(c, table: dict | None = None, seats=("human", "human")) -> dict:
    body = {"players": len(seats), "seats": [{"kind": k, "name": n} for k, n in zip(seats, ("Ana", "Bru", "Cai"))]}
    if table is not None:
        body["table"] = table
    r = c.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'paxh.sqlite3'}", bot_delay=0)) as c:
        yield c


def test_chat_is_kept_limited_and_stored_as_text(client):
    g = _game(client)
    t0, t1 = (s["token"] for s in g["seats"])
    assert client.post(f"/api/chat/{t0}", json={"text": f"  {SCRIPT}\n\x00 hi  "}).status_code == 200
    items = client.get(f"/api/chat/{t1}").json()["items"]
    assert [m["text"] for m in items] == [f"{SCRIPT} hi"]            # control characters dropped, kept as text
    assert items[0]["author"].startswith("Ana (")
    r = client.post(f"/api/chat/{t0}", json={"text": "x" * 301})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_long"
    assert client.post(f"/api/chat/{t0}", json={"text": "   "}).json()["error"]["code"] == "malformed"
    assert client.post(f"/api/chat/{t0}", json={"text": 5}).json()["error"]["code"] == "malformed"
    # five messages in ten seconds per seat, then refused (the refused one is not stored)
    codes = [client.post(f"/api/chat/{t1}", json={"text": f"m{i}"}).status_code for i in range(6)]
    assert codes == [200] * 5 + [429]
    assert len(client.get(f"/api/chat/{t0}").json()["items"]) == 6
    # spectators read, never write; the host's link writes nothing either
    assert client.get(f"/api/chat/{g['spectator']}").json()["items"]
    assert client.post(f"/api/chat/{g['spectator']}", json={"text": "hello"}).status_code == 403
    assert client.post(f"/api/chat/{g['host']}", json={"text": "hello"}).status_code == 403
    # the chat never reaches a seat's view (what bots decide from) and bots read none of it
    assert "pwned" not in client.get(f"/api/view/{t0}").text
    svc = client.app.state.svc
    live = svc.live[g["game"]]
    assert client.portal.call(client.app.state.site.play.chat.state, live, Rights(g["game"], "bot", frozenset([0])), "en") is None


def test_spectators_are_kept_out_when_the_table_says_so_and_the_host_ends_the_chat(client):
    g = _game(client, {"chat": "players"})
    t0 = g["seats"][0]["token"]
    client.post(f"/api/chat/{t0}", json={"text": "players only"})
    spec = client.get(f"/api/chat/{g['spectator']}").json()
    assert spec["items"] == [] and spec["hidden"]
    assert client.get(f"/api/chat/{g['seats'][1]['token']}").json()["items"][0]["text"] == "players only"
    # only the host ends it; then nobody writes, and what was said stays
    assert client.post(f"/api/chat/{t0}/end").status_code == 403
    assert client.post(f"/api/chat/{g['host']}/end").status_code == 200
    r = client.post(f"/api/chat/{t0}", json={"text": "more"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "chat_off"
    assert [m["text"] for m in client.get(f"/api/chat/{t0}").json()["items"]] == ["players only"]


def _finish(c, g: dict) -> None:
    """Hand every seat to a random bot and wait until the bots have finished the game."""
    svc = c.app.state.svc
    for seat in range(len(g["seats"])):
        c.portal.call(svc.seat_to_bot, Rights(g["game"], "host"), seat, "random")
    wait_for(lambda: c.get(f"/api/view/{g['spectator']}").json()["over"], 120, "the bots to finish the game")


def test_the_host_cannot_end_a_finished_games_chat_nor_end_it_twice(client):
    """A finished game's page offers no "End the table's chat", and the routes (HTTP and
    WebSocket) refuse it cleanly, changing nothing; a chat ended already is refused the same way."""
    client.get("/")                 # this browser's user (its cookie) makes the game: it is the host
    g = _game(client)
    t0 = g["seats"][0]["token"]
    assert 'id="chat-end"' in client.get(f"/play/{t0}").text           # the host's own page, the game on
    assert client.get(f"/api/chat/{t0}").json()["may_end"] is True
    _finish(client, g)
    assert 'id="chat-end"' not in client.get(f"/play/{t0}").text
    assert client.get(f"/api/chat/{t0}").json()["may_end"] is False
    r = client.post(f"/api/chat/{g['host']}/end")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over", r.text
    with client.websocket_connect(f"/ws/{g['host']}?fmt=json") as ws:
        ws.send_json({"type": "chat_end", "id": "e1"})
        while (m := ws.receive_json())["type"] not in ("error", "ack"):
            pass
        assert m["type"] == "error" and m["code"] == "game_over", m
    chat = client.get(f"/api/chat/{t0}").json()
    assert chat["enabled"] is True                                     # nothing was changed
    # a live game's chat ended once: the second end is refused, the chat stays closed
    g2 = _game(client)
    assert client.post(f"/api/chat/{g2['host']}/end").status_code == 200
    assert client.get(f"/api/chat/{g2['seats'][0]['token']}").json()["may_end"] is False
    r = client.post(f"/api/chat/{g2['host']}/end")
    assert r.status_code == 409 and r.json()["error"]["code"] == "chat_off", r.text


def test_reports_are_kept_for_a_moderator(client, monkeypatch):
    g = _game(client)
    t0, t1 = (s["token"] for s in g["seats"])
    mid = client.post(f"/api/chat/{t0}", json={"text": "rude words"}).json()["id"]
    with client.websocket_connect(f"/ws/{t1}") as ws:
        ws.send_json({"type": "chat_report", "id": "p1", "message": mid, "reason": "rude"})
        while (m := ws.receive_json())["type"] != "ack":
            assert m["type"] != "error", m
    assert client.get("/api/admin/chat-reports").status_code == 403   # this browser's user is no moderator
    # an anonymous user who calls itself "mod" is no moderator either: only an account's admin flag counts
    svc = client.app.state.svc
    uid = client.cookies.get("paxh_user") or client.portal.call(svc.user, None)["id"]
    client.portal.call(lambda: svc.set_user(uid, name="mod"))
    client.cookies.set("paxh_user", uid)
    assert client.get("/api/admin/chat-reports").status_code == 403
    # the account "mod", once granted the flag (`paxh admin grant`; registering never gives it, issue 37 N5)
    from .test_accounts import register
    assert register(client, "mod").status_code == 303
    assert client.get("/api/admin/chat-reports").status_code == 403
    assert client.portal.call(client.app.state.site.accounts.set_admin, "mod")
    reports = client.get("/api/admin/chat-reports").json()["reports"]
    assert [(r["text"], r["reason"], r["reporter_seat"]) for r in reports] == [("rude words", "rude", 1)]


def _shots() -> Path | None:
    d = os.environ.get("PAXH_SCREENSHOTS")
    return Path(d) if d else None


@pytest.mark.browser
def test_chat_in_the_browser_is_escaped_muted_and_the_clock_ticks(server_factory, browser, tmp_path):
    srv = server_factory(f"sqlite:///{tmp_path / 'paxh.sqlite3'}")
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bru"}],
                                "table": {"pace": "live", "base_seconds": 600, "increment_seconds": 10}})
    ctxs = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    pages = [c.new_page() for c in ctxs]
    errors: list[str] = []
    for p in pages:
        p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        p.on("pageerror", lambda e: errors.append(str(e)))
    ana, bru, spec = pages
    ana.goto(f"{srv.url}/play/{g['seats'][0]['token']}")
    bru.goto(f"{srv.url}/play/{g['seats'][1]['token']}")
    spec.goto(f"{srv.url}/watch/{g['spectator']}")
    for p in pages:
        p.wait_for_selector("#conn.on")
        p.wait_for_selector("#clock-list li.running")
        # the chat is the second tab of the panel beside the board (issue 38: log | chat)
        p.click('.side-tab[data-tab="chat"]')
    # the clock of whoever is asked counts down on the page, from the server's deadline
    running = ana.locator("#clock-list li.running .clock-time")
    first = running.inner_text()
    pump_until(ana, lambda: running.inner_text() != first, 5, "the clock to tick")
    assert spec.locator("#chat-form").count() == 0      # spectators read only
    # a script typed into the chat is text on every page
    ana.fill("#chat-input", SCRIPT)
    ana.press("#chat-input", "Enter")
    for p in pages:
        p.wait_for_selector("#chat-log li.chat-player")
        assert p.locator("#chat-log .chat-text").first.inner_text() == SCRIPT
        assert p.locator("#chat-log script, #chat-log b:not(.chat-author)").count() == 0
        assert p.evaluate("window.pwned") is None
    # too long: refused with a sentence, nothing stored
    ana.evaluate("document.getElementById('chat-input').removeAttribute('maxlength')")
    ana.fill("#chat-input", "y" * 301)
    ana.press("#chat-input", "Enter")
    ana.wait_for_selector("#chat-error[data-code=too_long]")
    assert "too long" in ana.inner_text("#chat-error")
    # Bru mutes Ana: Ana's next line reaches the spectator, not Bru
    bru.click("#chat-log li.chat-player button[data-mute='0']")
    bru.wait_for_selector("#chat-muted button[data-unmute='0']")
    assert bru.locator("#chat-log li.chat-player").count() == 0
    ana.fill("#chat-input", "can you hear me?")
    ana.press("#chat-input", "Enter")
    wait_for(lambda: spec.locator("#chat-log li.chat-player").count() == 2, 10, "the spectator to read it")
    bru.fill("#chat-input", "Bru here")
    bru.press("#chat-input", "Enter")
    wait_for(lambda: ana.locator("#chat-log li.chat-player").count() == 3, 10, "Ana to read Bru")
    assert "can you hear me?" not in bru.inner_text("#chat-log")
    assert "Bru here" in bru.inner_text("#chat-log")
    # unmuting brings Ana back
    bru.click("#chat-muted button[data-unmute='0']")
    wait_for(lambda: "can you hear me?" in bru.inner_text("#chat-log"), 10, "the unmuted lines")
    shots = _shots() or tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    ana.evaluate("window.scrollTo(0, 0)")
    ana.screenshot(path=str(shots / "play-clock-desktop.png"))
    ana.locator("#chat-form").scroll_into_view_if_needed()
    ana.screenshot(path=str(shots / "play-chat-desktop.png"))
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                has_touch=True)
    pp = phone.new_page()
    pp.goto(f"{srv.url}/play/{g['seats'][1]['token']}")
    pp.wait_for_selector("#clock-list li.running")
    pp.click('.side-tab[data-tab="chat"]')
    pp.wait_for_selector("#chat-log li.chat-player")
    pp.screenshot(path=str(shots / "play-clock-phone.png"))
    pp.locator("#chat-form").scroll_into_view_if_needed()
    pp.screenshot(path=str(shots / "play-chat-phone.png"))
    width = pp.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width       # no sideways scroll on a phone
    assert not errors, errors
    for c in ctxs + [phone]:
        c.close()


@pytest.mark.browser
def test_the_end_chat_button_goes_when_the_game_ends_under_the_hosts_page(server_factory, browser, tmp_path):
    """The host's open page loses "End the table's chat" when the game ends (the chat panel is
    outside the board the updates redraw); a fresh load of the finished game has none either."""
    srv = server_factory(f"sqlite:///{tmp_path / 'paxh.sqlite3'}", bot_delay=0.0)
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(srv.url + "/")
    page.select_option("#players", "2")
    page.select_option("select[name=kind1]", "bot")
    page.select_option("select[name=bot1]", "random")
    page.click("#create")                                   # this browser hosts the game
    page.wait_for_selector("#conn.on")
    page.click('.side-tab[data-tab="chat"]')     # the chat's tab beside the board (issue 38)
    page.wait_for_selector("#chat-end", state="visible")
    page.click("#leave")                                    # a bot takes the host's seat: bots finish it
    page.click("#leave-yes")
    page.wait_for_selector("#result", timeout=180_000)
    page.wait_for_selector("#chat-end", state="detached")
    page.reload()
    page.wait_for_selector("#result")
    assert page.query_selector("#chat-end") is None
    assert errors == []
    page.context.close()
