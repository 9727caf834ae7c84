"""Issue 12: everything a hostile client can send is refused clearly and cheaply, and
changes nothing. One table per layer (HTTP, WebSocket); each row is an input, the
status and code it must get, and the database (games, actions, the game's version)
is read before and after to show nothing changed."""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import re
import socket
import time

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed

from pax_hispanica.web.db import schema as db
from pax_hispanica.web.http import security
from pax_hispanica.web.server import create_app

pytestmark = pytest.mark.timeout(40)

HUMANS = [{"kind": "human"}, {"kind": "human"}]
DEEP = "[" * 10_000 + "]" * 10_000
TEN_MB = b"x" * (10 * 1024 * 1024)
EVIL = "http://evil.example"


# ---------------------------------------------------------------- fixtures
@pytest.fixture
def url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'hard.sqlite3'}"


@pytest.fixture
def app(url):
    return create_app(url, bot_delay=0, rate_limits={"create": "0", "act": "0"}, secret="test")


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


@pytest.fixture
def game(client) -> dict:
    r = client.post("/api/games", json={"players": 2, "seats": HUMANS})
    assert r.status_code == 200, r.text
    return r.json()


def snapshot(url: str, game_id: str | None = None) -> tuple:
    """What a refusal must not change: games and actions rows, and the game's version."""
    eng = sa.create_engine(db.sync_url(url))
    try:
        with eng.connect() as c:
            games = c.execute(sa.select(sa.func.count()).select_from(db.games)).scalar_one()
            actions = c.execute(sa.select(sa.func.count()).select_from(db.actions)).scalar_one()
            version = (c.execute(sa.select(db.games.c.version).where(db.games.c.id == game_id)).scalar_one()
                       if game_id else None)
        return games, actions, version
    finally:
        eng.dispose()


def refusal(r, status: int, code: str) -> dict:
    """The envelope every API refusal has: {"error": {"code", "rule", "message"}}."""
    assert r.status_code == status, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/json"), r.headers
    body = r.json()
    assert set(body) == {"error"}, body
    e = body["error"]
    assert e["code"] == code, e
    assert isinstance(e["message"], str) and e["message"]
    assert "rule" in e
    assert "Traceback" not in r.text
    return e


def acting(client, game) -> tuple[str, dict]:
    for s in game["seats"]:
        v = client.get(f"/api/view/{s['token']}").json()
        if v["legal"]:
            return s["token"], v
    raise AssertionError("nobody acts")


# ---------------------------------------------------------------- the HTTP table
# (name, method, path, request kwargs, status, code); {seat} and {spectator} are a game's tokens
J = {"Content-Type": "application/json"}
HTTP_TABLE = [
    # creating a game: missing, extra and wrongly typed fields, a seed
    ("create: players missing", "POST", "/api/games", {"json": {"seats": HUMANS}}, 400, "malformed"),
    ("create: seats missing", "POST", "/api/games", {"json": {"players": 2}}, 400, "malformed"),
    ("create: extra field", "POST", "/api/games", {"json": {"players": 2, "seats": HUMANS, "colour": "red"}},
     400, "malformed"),
    ("create: extra seat field", "POST", "/api/games",
     {"json": {"players": 2, "seats": [{"kind": "human", "admin": True}, {"kind": "human"}]}}, 400, "malformed"),
    ("create: players as a string", "POST", "/api/games", {"json": {"players": "2", "seats": HUMANS}},
     400, "malformed"),
    ("create: players as a float", "POST", "/api/games", {"json": {"players": 2.0, "seats": HUMANS}},
     400, "malformed"),
    ("create: players true", "POST", "/api/games", {"json": {"players": True, "seats": HUMANS}}, 400, "malformed"),
    ("create: seats an object", "POST", "/api/games", {"json": {"players": 2, "seats": {"0": "human"}}},
     400, "malformed"),
    ("create: 1000 seats", "POST", "/api/games", {"json": {"players": 2, "seats": [{"kind": "human"}] * 1000}},
     400, "malformed"),
    ("create: a NUL in a name", "POST", "/api/games",
     {"json": {"players": 2, "seats": [{"kind": "human", "name": "a\x00b"}, {"kind": "human"}]}}, 400, "malformed"),
    ("create: a seed", "POST", "/api/games", {"json": {"players": 2, "seats": HUMANS, "seed": 7}},
     400, "seed_not_allowed"),
    ("create: a null seed", "POST", "/api/games", {"json": {"players": 2, "seats": HUMANS, "seed": None}},
     400, "seed_not_allowed"),
    ("create: a JSON array", "POST", "/api/games", {"json": []}, 400, "malformed"),
    ("create: not JSON", "POST", "/api/games", {"content": b"{nope", "headers": J}, 400, "malformed"),
    ("create: not UTF-8", "POST", "/api/games", {"content": b'{"players": "\xff"}', "headers": J}, 400, "malformed"),
    ("create: empty body", "POST", "/api/games", {"content": b"", "headers": J}, 400, "malformed"),
    ("create: nested 10,000 deep", "POST", "/api/games", {"content": DEEP.encode(), "headers": J}, 400, "malformed"),
    ("create: nested in a seat", "POST", "/api/games",
     {"content": ('{"players": 2, "seats": ' + DEEP + "}").encode(), "headers": J}, 400, "malformed"),
    ("create: players 10**5000", "POST", "/api/games",
     {"content": b'{"players": 1' + b"0" * 5000 + b', "seats": []}', "headers": J}, 400, "malformed"),
    ("create: NaN", "POST", "/api/games", {"content": b'{"players": NaN, "seats": []}', "headers": J},
     400, "malformed"),
    ("create: 10 MB", "POST", "/api/games", {"content": TEN_MB, "headers": J}, 413, "too_large"),
    ("create: 10 MB streamed (no Content-Length)", "POST", "/api/games",
     {"content": iter([TEN_MB[i:i + 65536] for i in range(0, len(TEN_MB), 65536)]), "headers": J},
     413, "too_large"),
    ("create: Content-Length 10**12", "POST", "/api/games",
     {"content": b"{}", "headers": {**J, "Content-Length": str(10**12)}}, 413, "too_large"),
    ("create: Content-Length not a number", "POST", "/api/games",
     {"content": b"{}", "headers": {**J, "Content-Length": "lots"}}, 400, "malformed"),
    # acting
    ("act: not JSON", "POST", "/api/act/{seat}", {"content": b"nope", "headers": J}, 400, "malformed"),
    ("act: a JSON array", "POST", "/api/act/{seat}", {"json": [1, 2]}, 400, "malformed"),
    ("act: nested 10,000 deep", "POST", "/api/act/{seat}",
     {"content": ('{"version": 0, "action": ' + DEEP + "}").encode(), "headers": J}, 400, "malformed"),
    ("act: version 10**5000", "POST", "/api/act/{seat}",
     {"content": b'{"version": 1' + b"0" * 5000 + b', "action": {}}', "headers": J}, 400, "malformed"),
    ("act: version -10**5000", "POST", "/api/act/{seat}",
     {"content": b'{"version": -1' + b"0" * 5000 + b', "action": {}}', "headers": J}, 400, "malformed"),
    ("act: Infinity", "POST", "/api/act/{seat}", {"content": b'{"version": Infinity}', "headers": J},
     400, "malformed"),
    ("act: missing action", "POST", "/api/act/{seat}", {"json": {"version": 0}}, 400, "malformed"),
    ("act: action a string", "POST", "/api/act/{seat}", {"json": {"version": 0, "action": "win"}}, 400, "malformed"),
    ("act: version a string", "POST", "/api/act/{seat}", {"json": {"version": "0", "action": {"type": "pass"}}},
     400, "malformed"),
    ("act: 10 MB", "POST", "/api/act/{seat}", {"content": TEN_MB, "headers": J}, 413, "too_large"),
    ("act: unknown token", "POST", "/api/act/AAAAAAAAAAAAAAAAAAAAAAAA", {"json": {"version": 0, "action": {}}},
     404, "unknown_token"),
    ("act: a NUL in the token", "POST", "/api/act/a%00b", {"json": {"version": 0, "action": {}}},
     404, "unknown_token"),
    ("act: a 10 KB token", "POST", "/api/act/" + "a" * 10_000, {"json": {"version": 0, "action": {}}},
     404, "unknown_token"),
    ("act: a spectator", "POST", "/api/act/{spectator}", {"json": {"version": 0, "action": {"seat": 0,
                                                                                           "type": "pass"}}},
     403, "wrong_seat"),
    ("seat to bot: nested", "POST", "/api/seat/{seat}/bot", {"content": DEEP.encode(), "headers": J},
     400, "malformed"),
    ("seat to bot: seat a string", "POST", "/api/seat/{seat}/bot", {"json": {"seat": "0"}}, 400, "malformed"),
    ("seat to bot: seat 10**5000", "POST", "/api/seat/{seat}/bot",
     {"content": b'{"seat": 1' + b"0" * 5000 + b"}", "headers": J}, 400, "malformed"),
    # FastAPI's own refusals, in the envelope
    ("unknown API path", "GET", "/api/nothing", {}, 404, "not_found"),
    ("wrong method", "GET", "/api/games", {}, 405, "method_not_allowed"),
    ("wrong method on act", "DELETE", "/api/act/{seat}", {}, 405, "method_not_allowed"),
    ("view: unknown token", "GET", "/api/view/nope", {}, 404, "unknown_token"),
    ("view: a NUL in the token", "GET", "/api/view/%00", {}, 404, "unknown_token"),
    ("record: before the end", "GET", "/api/record/{seat}", {}, 403, "game_not_over"),
    ("docs are off", "GET", "/api/docs", {}, 404, "not_found"),
    # another site
    ("create from another site", "POST", "/api/games",
     {"json": {"players": 2, "seats": HUMANS}, "headers": {"Origin": EVIL}}, 403, "cross_origin"),
    ("act from another site", "POST", "/api/act/{seat}",
     {"json": {"version": 0, "action": {}}, "headers": {"Origin": EVIL}}, 403, "cross_origin"),
    ("seat to bot from another site", "POST", "/api/seat/{seat}/bot",
     {"json": {"seat": 0}, "headers": {"Origin": EVIL}}, 403, "cross_origin"),
    ("another site by Referer only", "POST", "/api/games",
     {"json": {"players": 2, "seats": HUMANS}, "headers": {"Referer": EVIL + "/page?x=1"}}, 403, "cross_origin"),
    ("Origin null (sandboxed frame)", "POST", "/api/games",
     {"json": {"players": 2, "seats": HUMANS}, "headers": {"Origin": "null"}}, 403, "cross_origin"),
    ("same host, other port", "POST", "/api/games",
     {"json": {"players": 2, "seats": HUMANS}, "headers": {"Origin": "http://testserver:8080"}}, 403, "cross_origin"),
    ("an Origin that is not http", "POST", "/api/games",
     {"json": {"players": 2, "seats": HUMANS}, "headers": {"Origin": "chrome-extension://abc"}}, 403, "cross_origin"),
]


@pytest.mark.parametrize("name,method,path,kw,status,code", HTTP_TABLE, ids=[r[0] for r in HTTP_TABLE])
def test_http_refusals_are_clear_and_change_nothing(client, url, game, name, method, path, kw, status, code):
    path = path.format(seat=game["seats"][0]["token"], spectator=game["spectator"])
    before = snapshot(url, game["game"])
    view_before = client.get(f"/api/view/{game['seats'][0]['token']}").json()
    e = refusal(client.request(method, path, **kw), status, code)
    if code == "seed_not_allowed":
        assert e["rule"] == "PRJ-1"
    assert snapshot(url, game["game"]) == before
    assert client.get(f"/api/view/{game['seats'][0]['token']}").json() == view_before


def test_the_same_site_and_programs_without_origin_may_post(client, url):
    before = snapshot(url)
    for headers in ({}, {"Origin": "http://testserver"}, {"Referer": "http://testserver/"},
                    {"Origin": "http://TESTSERVER:80"}):
        r = client.post("/api/games", json={"players": 2, "seats": HUMANS}, headers=headers)
        assert r.status_code == 200, (headers, r.text)
    assert snapshot(url)[0] == before[0] + 4


def test_PAXH_ALLOWED_ORIGINS_admits_a_proxy_origin(url, monkeypatch):
    monkeypatch.setenv("PAXH_ALLOWED_ORIGINS", "https://pax.example.org")
    with TestClient(create_app(url, bot_delay=0)) as c:
        ok = c.post("/api/games", json={"players": 2, "seats": HUMANS}, headers={"Origin": "https://pax.example.org"})
        assert ok.status_code == 200
        refusal(c.post("/api/games", json={"players": 2, "seats": HUMANS}, headers={"Origin": EVIL}),
                403, "cross_origin")


def test_a_body_that_lies_about_its_length_is_cut_at_the_limit():
    """A Content-Length that says 10 bytes while 10 MB stream in: the ASGI layer stops at 64 KB."""
    seen = []

    async def app(scope, receive, send):
        while True:
            msg = await receive()
            seen.append(len(msg.get("body", b"")))
            if not msg.get("more_body"):
                break
        await security.send_json(send, 200, b"{}")

    chunks = [{"type": "http.request", "body": b"x" * 16384, "more_body": True} for _ in range(640)]
    sent = []

    async def receive():
        return chunks.pop(0)

    async def send(msg):
        sent.append(msg)

    scope = {"type": "http", "method": "POST", "path": "/api/games", "headers": [(b"content-length", b"10")]}
    # in a thread of its own: Playwright's sync API may hold this thread's event loop
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, security.BodyLimit(app)(scope, receive, send)).result()
    assert sent[0]["status"] == 413 and json.loads(sent[1]["body"])["error"]["code"] == "too_large"
    assert sum(seen) <= security.MAX_BODY


def test_nesting_and_long_numbers_are_caught_before_json_loads():
    # this thread's CPU time, not the wall clock: the bound is on the work done, which other
    # processes on a loaded machine do not stretch
    t = time.thread_time()
    for text in (DEEP, '{"a": ' * 5000 + "1" + "}" * 5000, "1" * 60_000, '[1e' + "9" * 40 + "]"):
        with pytest.raises(security.ServerError) as e:
            security.parse_json(text)
        assert e.value.code == "malformed"
    assert time.thread_time() - t < 0.5
    # brackets and digits inside strings are text, not structure
    assert security.parse_json('{"a": "[[[[' + "[" * 100 + '", "b": "' + "9" * 100 + '"}')["b"] == "9" * 100
    assert security.parse_json('{"s": "\\"[[[["}') == {"s": '"[[[['}
    assert security.parse_json("[" * 32 + "]" * 32) is not None
    with pytest.raises(security.ServerError):
        security.parse_json("[" * 33 + "]" * 33)


# ---------------------------------------------------------------- pages
def test_page_refusals_are_pages_in_the_users_language(client, game):
    cases = [("/nothing-here", 404, "There is no such page."),
             ("/play/%00", 404, "This link does not open any game."),
             ("/play/" + "a" * 5000, 404, "This link does not open any game."),
             (f"/replay/{game['spectator']}?step=abc", 400, "The step of a replay is a whole number"),
             (f"/replay/{game['spectator']}?step=" + "9" * 5000, 400, "The step of a replay is a whole number"),
             (f"/replay/{game['spectator']}?step=-1", 400, "The step of a replay is a whole number"),
             (f"/replay/{game['spectator']}?step=3", 403, "The replay opens when the game is over.")]
    for path, status, text in cases:
        r = client.get(path)
        assert r.status_code == status, (path, r.status_code)
        assert r.headers["content-type"].startswith("text/html") and text in r.text, (path, r.text[:300])
    r = client.get("/nothing-here?lang=ca")
    assert r.status_code == 404 and "Aquesta pàgina no existeix." in r.text
    r = client.request("PUT", "/rules")
    assert r.status_code == 405 and "<html" in r.text


def lobby_token(client) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', client.get("/").text).group(1)


FORM = {"players": "2", "kind0": "human", "kind1": "human"}


def test_the_lobby_form_needs_its_csrf_token_and_our_origin(client, url):
    before = snapshot(url)
    client.get("/?lang=ca")           # this browser's user reads Catalan
    token = lobby_token(client)
    for data, headers, text in [
        (FORM, {}, "Aquest formulari havia caducat"),                                    # no token
        ({**FORM, "csrf": "0" * 32}, {}, "Aquest formulari havia caducat"),              # a wrong one
        ({**FORM, "csrf": token}, {"Origin": EVIL}, "des d’un altre lloc web"),          # the right one, elsewhere
        ({**FORM, "csrf": token}, {"Referer": EVIL + "/x"}, "des d’un altre lloc web"),
    ]:
        r = client.post("/games", data=data, headers=headers, follow_redirects=False)
        assert r.status_code == 403, r.text[:300]
        assert text in r.text and 'role="alert"' in r.text and 'name="csrf"' in r.text
    other = TestClient(client.app)    # another browser's token is not this one's
    other.cookies.clear()
    r = client.post("/games", data={**FORM, "csrf": lobby_token(other)}, follow_redirects=False)
    assert r.status_code == 403
    assert snapshot(url) == before
    r = client.post("/games", data={**FORM, "csrf": token}, headers={"Origin": "http://testserver"},
                    follow_redirects=False)
    assert r.status_code == 303
    assert snapshot(url)[0] == before[0] + 1


def test_a_new_browser_posting_the_form_gets_the_lobby_back_with_a_token(client, url):
    client.cookies.clear()
    r = client.post("/games", data=FORM, headers={"Accept-Language": "ca"}, follow_redirects=False)
    assert r.status_code == 403 and "Aquest formulari havia caducat" in r.text
    token = re.search(r'name="csrf" value="([^"]+)"', r.text).group(1)
    assert client.post("/games", data={**FORM, "csrf": token}, follow_redirects=False).status_code == 303


# ---------------------------------------------------------------- rate limits
def test_rate_limits_refuse_with_429_and_retry_after(url):
    app = create_app(url, bot_delay=0, rate_limits={"create": "2/minute", "act": "3/minute"}, secret="t")
    with TestClient(app) as c:
        made = [c.post("/api/games", json={"players": 2, "seats": HUMANS}) for _ in range(2)]
        assert all(r.status_code == 200 for r in made)
        before = snapshot(url)
        r = c.post("/api/games", json={"players": 2, "seats": HUMANS})
        e = refusal(r, 429, "rate_limited")
        assert 1 <= e["retry_after"] <= 60 and r.headers["Retry-After"] == str(e["retry_after"])
        # the lobby form too, as the lobby page with the reason
        r = c.post("/games", data={**FORM, "csrf": lobby_token(c)}, follow_redirects=False)
        assert r.status_code == 429 and "Too many games" in r.text and "Retry-After" in r.headers
        assert snapshot(url) == before
        # actions: refused ones count too (a flood of garbage is a flood)
        g = made[0].json()
        token, v = acting(c, g)
        for _ in range(3):
            assert c.post(f"/api/act/{token}", json={"version": -1, "action": {}}).status_code != 429
        gid = g["game"]
        before = snapshot(url, gid)
        refusal(c.post(f"/api/act/{token}", json={"version": v["version"], "action": v["legal"][0]
                                                  .get("options", [{}])[0]}), 429, "rate_limited")
        with c.websocket_connect(f"/ws/{token}?fmt=json") as ws:
            json.loads(ws.receive_text())
            ws.send_text(json.dumps({"type": "act", "id": 9, "version": v["version"], "action": {}}))
            m = json.loads(ws.receive_text())
            assert m["type"] == "error" and m["code"] == "rate_limited" and m["id"] == 9 and m["retry_after"] >= 1
            ws.send_text(json.dumps({"type": "ping", "id": 10}))      # other messages are not limited
            assert json.loads(ws.receive_text()) == {"type": "pong", "id": 10}
        assert snapshot(url, gid) == before
        assert c.get("/api/view/" + token).status_code == 200       # reading is not limited


def test_rate_limit_settings(monkeypatch):
    from pax_hispanica.web.http.ratelimit import RateLimits

    monkeypatch.setenv("PAXH_RATE_CREATE", "off")
    monkeypatch.setenv("PAXH_RATE_ACT", "5/second;100/minute")
    r = RateLimits()
    assert r.describe() == {"create": "off", "act": "5 per 1 second; 100 per 1 minute",
                            # the accounts' limits (issue 16), at their defaults
                            "login": "10 per 1 minute; 60 per 1 hour", "login_name": "20 per 1 hour",
                            "register": "5 per 1 minute; 20 per 1 hour", "reset": "5 per 1 hour",
                            # reset mails per name and per account, chat reports (issue 37, N6 and N3)
                            "reset_name": "3 per 1 hour", "reset_account": "3 per 1 hour; 10 per 1 day",
                            "report": "5 per 1 minute; 30 per 1 day"}
    for _ in range(1000):
        r.check("create", "1.2.3.4")
    for _ in range(5):
        r.check("act", "1.2.3.4")
    with pytest.raises(Exception) as e:
        r.check("act", "1.2.3.4")
    assert e.value.code == "rate_limited"
    r.check("act", "5.6.7.8")     # per address
    monkeypatch.delenv("PAXH_RATE_CREATE")
    monkeypatch.delenv("PAXH_RATE_ACT")
    defaults = RateLimits().describe()
    assert {k: defaults.pop(k) for k in ("create", "act")} == {"create": "30 per 1 minute", "act": "20 per 1 second"}
    assert defaults == {"login": "10 per 1 minute; 60 per 1 hour", "login_name": "20 per 1 hour",
                        "register": "5 per 1 minute; 20 per 1 hour", "reset": "5 per 1 hour",
                        "reset_name": "3 per 1 hour", "reset_account": "3 per 1 hour; 10 per 1 day",
                        "report": "5 per 1 minute; 30 per 1 day"}


# ---------------------------------------------------------------- no 500s
def test_an_unexpected_failure_is_logged_and_answered_without_a_trace(url, caplog):
    app = create_app(url, bot_delay=0)
    with TestClient(app, raise_server_exceptions=False) as c:
        g = c.post("/api/games", json={"players": 2, "seats": HUMANS}).json()

        async def broken(*a, **k):
            raise RuntimeError("secret internals")

        app.state.svc.get = broken
        for path in (f"/api/view/{g['seats'][0]['token']}", f"/api/record/{g['seats'][0]['token']}"):
            r = c.get(path)
            refusal(r, 500, "internal")
            assert "secret internals" not in r.text and r.headers["cache-control"] == "no-store"
            assert "default-src 'self'" in r.headers["content-security-policy"]
        r = c.get(f"/play/{g['seats'][0]['token']}?lang=ca")
        assert r.status_code == 500 and "El servidor ha fallat" in r.text and "secret internals" not in r.text
        assert r.headers["x-frame-options"] == "DENY"
    assert "secret internals" in caplog.text


# ---------------------------------------------------------------- headers
def test_security_headers_on_pages_api_and_refusals(client, game):
    token = game["seats"][0]["token"]
    for method, path, kw, cached in [
        ("GET", "/", {}, False), ("GET", f"/play/{token}", {}, False), ("GET", f"/watch/{game['spectator']}", {}, False),
        ("GET", f"/host/{game['host']}", {}, False), ("GET", f"/replay/{game['spectator']}", {}, False),
        ("GET", f"/api/view/{token}", {}, False), ("POST", "/api/games", {"json": {}}, False),
        ("POST", "/api/games", {"content": TEN_MB}, False), ("GET", "/api/nothing", {}, False),
        ("POST", "/api/games", {"json": {}, "headers": {"Origin": EVIL}}, False),
        ("GET", "/static/app.js", {}, True), ("GET", "/rules", {}, True), ("GET", "/openapi.json", {}, True),
    ]:
        r = client.request(method, path, **kw)
        h = r.headers
        csp = h["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp, path
        assert h["x-frame-options"] == "DENY" and h["x-content-type-options"] == "nosniff", path
        assert h["referrer-policy"] == ("same-origin" if path == "/" else "no-referrer"), path
        assert (h.get("cache-control") == "no-store") == (not cached), (path, h.get("cache-control"))


def test_templates_hold_no_inline_script_or_style(client, game):
    token = game["seats"][0]["token"]
    for path in ("/", f"/play/{token}", f"/host/{game['host']}", "/rules", f"/watch/{game['spectator']}"):
        html = client.get(path).text
        for script in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S):
            attrs, body = script
            assert ("src=" in attrs and not body.strip()) or 'type="application/json"' in attrs, (path, script)
        assert not re.search(r"\son[a-z]+\s*=", html), path
        assert "style=" not in html and "<style" not in html and "javascript:" not in html, path


def test_openapi_schema_stays_and_docs_can_be_turned_on(client, url):
    schema = client.get("/openapi.json").json()
    assert "/api/games" in schema["paths"]
    body = schema["paths"]["/api/games"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert "seed" not in body["properties"] and body["additionalProperties"] is False
    with TestClient(create_app(url, bot_delay=0, api_docs=True)) as c:
        assert c.get("/api/docs").status_code == 200


# ---------------------------------------------------------------- the WebSocket table
# (name, frame: ("text"|"bytes", payload), code)
WS_TABLE = [
    ("binary frame", ("bytes", b"\x00\x01\x02"), "malformed"),
    ("binary JSON", ("bytes", b'{"type": "ping"}'), "malformed"),
    ("not JSON", ("text", "hello"), "malformed"),
    ("a JSON array", ("text", "[]"), "malformed"),
    ("a JSON string", ("text", '"act"'), "malformed"),
    ("nested 10,000 deep", ("text", DEEP), "malformed"),
    ("nested action", ("text", '{"type": "act", "version": 0, "action": ' + DEEP + "}"), "malformed"),
    ("version 10**5000", ("text", '{"type": "act", "version": 1' + "0" * 5000 + ', "action": {}}'), "malformed"),
    ("NaN", ("text", '{"type": "act", "version": NaN, "action": {}}'), "malformed"),
    ("100 KB text", ("text", '{"type": "ping", "pad": "' + "x" * 100_000 + '"}'), "too_large"),
    ("1 MB binary", ("bytes", b"x" * 1_000_000), "malformed"),
    ("unknown type", ("text", '{"type": "win"}'), "malformed"),
    ("no type", ("text", '{"id": 1}'), "malformed"),
    ("act without action", ("text", '{"type": "act", "version": 0}'), "malformed"),
    ("takeover seat a string", ("text", '{"type": "takeover", "seat": "1"}'), "malformed"),
    ("takeover seat 10**5000", ("text", '{"type": "takeover", "seat": 1' + "0" * 5000 + "}"), "malformed"),
    ("reveal outside hot-seat", ("text", '{"type": "reveal"}'), "wrong_seat"),
]


@pytest.mark.parametrize("name,frame,code", WS_TABLE, ids=[r[0] for r in WS_TABLE])
def test_websocket_refusals_are_error_frames_and_change_nothing(client, url, game, name, frame, code):
    token = game["seats"][0]["token"]
    before = snapshot(url, game["game"])
    with client.websocket_connect(f"/ws/{token}?fmt=json") as ws:
        first = json.loads(ws.receive_text())
        assert first["type"] == "update"
        kind, payload = frame
        (ws.send_bytes if kind == "bytes" else ws.send_text)(payload)
        m = json.loads(ws.receive_text())
        assert m["type"] == "error" and m["code"] == code and m["message"], m
        assert "Traceback" not in m["message"]
        # the connection is still open and well
        ws.send_text(json.dumps({"type": "ping", "id": "after"}))
        assert json.loads(ws.receive_text()) == {"type": "pong", "id": "after"}
    assert snapshot(url, game["game"]) == before


def test_echo_socket_answers_binary_frames_too(client):
    with client.websocket_connect("/ws/echo") as ws:
        ws.send_bytes(b"\x00")
        assert json.loads(ws.receive_text())["code"] == "malformed"
        ws.send_text("hi")
        assert ws.receive_text() == "hi"


@pytest.mark.parametrize("headers", [{"Origin": EVIL}, {"Origin": "null"}, {"Origin": "http://testserver.evil.example"}])
def test_a_websocket_from_another_site_is_refused(client, url, game, headers):
    before = snapshot(url, game["game"])
    with client.websocket_connect(f"/ws/{game['seats'][0]['token']}", headers=headers) as ws:
        m = json.loads(ws.receive_text())
        assert m["type"] == "error" and m["code"] == "cross_origin"
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_text()
        assert e.value.code == 4403
    with client.websocket_connect("/ws/echo", headers=headers) as ws:
        assert json.loads(ws.receive_text())["code"] == "cross_origin"
    assert snapshot(url, game["game"]) == before
    # our own page's origin is fine
    with client.websocket_connect(f"/ws/{game['seats'][0]['token']}?fmt=json",
                                  headers={"Origin": "http://testserver"}) as ws:
        assert json.loads(ws.receive_text())["type"] == "update"


def test_websocket_with_an_unknown_or_nul_token_is_closed_4404(client):
    for token in ("nope", "a%00b", "x" * 3000):
        with client.websocket_connect(f"/ws/{token}") as ws:
            assert json.loads(ws.receive_text())["code"] == "unknown_token"
            with pytest.raises(WebSocketDisconnect) as e:
                ws.receive_text()
            assert e.value.code == 4404


# ---------------------------------------------------------------- a real server
def raw_request(port: int, data: bytes, timeout: float = 10) -> bytes:
    import threading

    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        def send() -> None:
            with contextlib.suppress(OSError):  # the server may close before it has read everything: that is the point
                s.sendall(data)

        # send while reading: a server that answers early and closes while a big body is still
        # coming resets the connection, and a reset discards a response not yet read
        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except OSError:
            pass
        sender.join(timeout=2)
        return out


@pytest.mark.timeout(180)   # a server process's cold start on a loaded machine
def test_a_real_server_refuses_big_and_lying_bodies_and_big_frames(server_factory, url):
    import websockets.sync.client as wsc

    srv = server_factory(url)
    before = snapshot(url)
    head = b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    # 10 MB announced: refused from the header, the body is never read
    t = time.perf_counter()
    out = raw_request(srv.port, head + b"Content-Length: 10485760\r\n\r\n" + b"x" * 100_000)
    assert out.startswith(b"HTTP/1.1 413") and b'"too_large"' in out, out[:300]
    # chunked, no length: cut off at 64 KB
    chunk = b"%x\r\n%s\r\n" % (65536, b"x" * 65536)
    out = raw_request(srv.port, head + b"Transfer-Encoding: chunked\r\n\r\n" + chunk * 160 + b"0\r\n\r\n")
    assert out.startswith(b"HTTP/1.1 413") and b'"too_large"' in out, out[:300]
    # a Content-Length that lies low: the server reads what it says; the rest is not a request
    out = raw_request(srv.port, head + b"Content-Length: 2\r\n\r\n{}" + b"x" * 1_000_000)
    assert out.startswith(b"HTTP/1.1 400"), out[:300]
    assert b"Traceback" not in out
    assert time.perf_counter() - t < 10
    # a WebSocket frame over 64 KB: uvicorn closes with 1009 (message too big), the server lives on
    g = srv.post("/api/games", {"players": 2, "seats": HUMANS})
    with wsc.connect(f"ws://127.0.0.1:{srv.port}/ws/{g['seats'][0]['token']}?fmt=json", max_size=None) as ws:
        json.loads(ws.recv())
        ws.send(json.dumps({"type": "ping", "pad": "x" * 200_000}))
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
        assert ws.close_code == 1009
    assert srv.get("/healthz") == {"ok": True}
    assert snapshot(url)[0] == before[0] + 1


# ---------------------------------------------------------------- the CSP in a real browser
@pytest.mark.browser
@pytest.mark.timeout(240)   # the file's 40 s is for in-process tests: this one takes ~20 s unloaded
def test_the_pages_work_under_the_csp_in_chromium(server_factory, browser, url):
    """No CSP violation on the lobby, the host page and a game page; the lobby form (its script
    and CSRF token) creates a game; a click on an action is sent and the board updates.
    PAXH_SCREENSHOTS=DIR saves the lobby and the game page at desktop and phone size."""
    import os

    srv = server_factory(url)
    shots = os.environ.get("PAXH_SCREENSHOTS")
    violations: list[str] = []

    def watch(page):
        page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text
                or "Refused to" in m.text else None)
        page.add_init_script("document.addEventListener('securitypolicyviolation', e => "
                             "console.error('Refused to (CSP) ' + e.violatedDirective + ' ' + e.blockedURI))")
        return page

    for name, size in (("desktop", {"width": 1280, "height": 800}), ("phone", {"width": 390, "height": 844})):
        ctx = browser.new_context(viewport=size)
        page = watch(ctx.new_page())
        page.goto(srv.url + "/")
        page.select_option("#players", "2")                 # lobby.js shows two seat rows
        assert page.is_hidden(".seat-row[data-seat='2']") and page.is_visible(".seat-row[data-seat='1']")
        page.select_option("select[name=kind1]", "bot")
        page.select_option("select[name=bot1]", "random")
        if shots:
            page.screenshot(path=f"{shots}/lobby-{name}.png", full_page=True)
        page.click("#create")
        page.wait_for_url(re.compile(r".*/play/.*"))       # the creator lands in their seat
        page.click("#host-link")                             # the invite links are one click away
        page.wait_for_url(re.compile(r".*/host/.*"))
        page.click(".join-link")
        page.wait_for_selector("#conn.on")
        before = int(page.get_attribute("#board", "data-version"))
        # what a player can click: an option's button, a number's submit, or (a phone with many
        # options, the Hint among them) the compact list's Go
        button = page.wait_for_selector("#decision [data-action]:visible, #decision form.range-form "
                                        "button[type=submit]:visible, #decision form.opt-list button.opt-go:visible",
                                        timeout=20_000)
        button.click()
        deadline = time.time() + 20       # polled from here: wait_for_function would eval, which the CSP forbids
        while int(page.get_attribute("#board", "data-version")) <= before:
            assert time.time() < deadline, "the board did not update"
            time.sleep(0.05)
        if shots:
            page.screenshot(path=f"{shots}/game-{name}.png", full_page=name == "desktop")
        ctx.close()
    assert violations == []


# ---------------------------------------------------------------- unsubscribe links of any shape (issue 37, N7)
# (name, the path's token as sent): every shape is refused with the "not valid" page, by GET and by POST;
# `abc.%C3%A9` answered 500 (hmac.compare_digest raised TypeError on a non-ASCII str)
UNSUBSCRIBE_SHAPES = [
    ("non-ASCII mac", "abc.%C3%A9"),
    ("non-ASCII body", "%C3%A9.0123456789abcdef0123456789abcdef"),
    ("an emoji on both sides", "%F0%9F%98%80.%F0%9F%98%80"),
    ("a byte that is no UTF-8", "abc.%FF"),
    ("NUL on both sides", "%00.%00"),
    ("no mac", "abc."),
    ("no body", ".0123456789abcdef0123456789abcdef"),
    ("two dots", "a.b.c"),
    ("upper-case hex", "YWJj.0123456789ABCDEF0123456789ABCDEF"),
    ("a right-shaped forgery", "dTE6eDow.0123456789abcdef0123456789abcdef"),
    ("a space", "abc.%20"),
    ("399 characters", "x" * 399),
    ("10 KB", "y" * 10_000),
    ("a mac of full width digits", "abc.%EF%BC%91" * 3),
]


@pytest.mark.parametrize("name,token", UNSUBSCRIBE_SHAPES, ids=[r[0] for r in UNSUBSCRIBE_SHAPES])
def test_unsubscribe_links_of_any_shape_get_a_clear_4xx_page(client, url, game, name, token):
    before = snapshot(url, game["game"])
    for method in ("GET", "POST"):
        r = client.request(method, f"/unsubscribe/{token}", headers={"Accept-Language": "ca"})
        assert r.status_code == 404, (method, r.status_code, r.text[:200])
        assert r.headers["content-type"].startswith("text/html")
        assert "Aquest enllaç per donar-se de baixa no és vàlid." in r.text, r.text[:500]
        assert "Traceback" not in r.text
    assert snapshot(url, game["game"]) == before


# ---------------------------------------------------------------- reset-link poisoning (issue 37, N1)
# (name, the headers of the POST /forgot): a reset link is always built from the configured public
# URL (PAXH_PUBLIC_URL), never from what the request says its host is
PUBLIC = "https://pax.example.org"
RESET_POISON_TABLE = [
    ("Host", {"Host": "evil.example"}),
    ("Host with a port", {"Host": "evil.example:8443"}),
    ("Host with a path", {"Host": "evil.example/x?"}),
    ("X-Forwarded-Host", {"X-Forwarded-Host": "evil.example"}),
    ("X-Forwarded-Proto and Host", {"X-Forwarded-Proto": "http", "X-Forwarded-Host": "evil.example",
                                    "Host": "evil.example"}),
    ("Forwarded", {"Forwarded": "for=1.2.3.4;host=evil.example;proto=http"}),
    ("X-Original-URL", {"X-Original-URL": "http://evil.example/forgot", "X-Rewrite-URL": "http://evil.example/"}),
    ("X-Forwarded-Prefix", {"X-Forwarded-Prefix": "//evil.example"}),
]


def _reset_mails(url: str) -> list[dict]:
    from pax_hispanica.web.notify import schema as play_db
    eng = sa.create_engine(db.sync_url(url))
    try:
        with eng.connect() as c:
            got = c.execute(sa.select(play_db.outbox.c.payload)
                            .where(play_db.outbox.c.dedupe.like("mail:password_reset:%"))).scalars().all()
        return [json.loads(p) for p in got]
    finally:
        eng.dispose()


@pytest.mark.parametrize("name,headers", RESET_POISON_TABLE, ids=[r[0] for r in RESET_POISON_TABLE])
def test_a_reset_link_comes_from_the_public_url_never_the_request(url, monkeypatch, name, headers):
    from .helpers import wait_for
    from .test_accounts import csrf_of, logout, register

    monkeypatch.setenv("PAXH_PUBLIC_URL", PUBLIC)
    monkeypatch.setenv("PAXH_OUTBOX_POLL_SECONDS", "0.1")
    app = create_app(url, bot_delay=0, secret="test", rate_limits={"create": "0", "act": "0", "reset": "0"})
    with TestClient(app) as c:
        register(c, "vic", email="vic@example.org")
        logout(c)
        r = c.post("/forgot", data={"csrf": csrf_of(c.get("/forgot").text), "who": "vic"}, headers=headers)
        assert r.status_code == 200 and 'id="reset-sent"' in r.text, r.text[:300]
        (mail,) = wait_for(lambda: _reset_mails(url), 10, "the reset mail")
    assert "evil" not in json.dumps(mail)
    assert re.search(r"^" + re.escape(PUBLIC) + r"/reset/[A-Za-z0-9_-]{40,}$", mail["text"], re.M), mail["text"]


def test_without_a_public_url_a_reset_link_is_the_servers_own_address(url, monkeypatch):
    """No PAXH_PUBLIC_URL: the links point at the address the server was configured with
    (`paxh serve --host/--port`; create_app's default http://127.0.0.1:8000), never at Host."""
    from .helpers import wait_for
    from .test_accounts import csrf_of, logout, register

    monkeypatch.delenv("PAXH_PUBLIC_URL", raising=False)
    monkeypatch.setenv("PAXH_OUTBOX_POLL_SECONDS", "0.1")
    app = create_app(url, bot_delay=0, secret="test", rate_limits={"create": "0", "act": "0", "reset": "0"})
    with TestClient(app) as c:
        register(c, "vic", email="vic@example.org")
        logout(c)
        c.post("/forgot", data={"csrf": csrf_of(c.get("/forgot").text), "who": "vic"}, headers={"Host": "evil.example"})
        (mail,) = wait_for(lambda: _reset_mails(url), 10, "the reset mail")
    assert "evil" not in mail["text"] and "http://127.0.0.1:8000/reset/" in mail["text"], mail["text"]


# ---------------------------------------------------------------- a WebSocket flood (issue 37, N3)
# (name, frames sent at once, replies before the refusals (updates aside), refusals, the last
# refusal's code): a connection's budget is ws.WS_BURST messages at once, refilled at ws.WS_RATE a
# second; a refresh costs ws.WS_COSTS["refresh"]; ws.WS_FLOOD_CLOSE refusals in a row close the
# socket with 1008 (one socket sending `refresh` moved another player's p99 from 96 to 1,192 ms)
PING = json.dumps({"type": "ping"})
FLOOD_TABLE = [
    ("31 pings at once", [PING] * 31, 30, 1, "rate_limited"),
    ("7 refreshes at once", [json.dumps({"type": "refresh"})] * 7, 0, 1, "rate_limited"),
    ("31 bad frames at once", ["hello"] * 31, 30, 1, "rate_limited"),
    ("31 chat reports at once", [json.dumps({"type": "chat_report", "message": 1})] * 31, 30, 1, "rate_limited"),
    ("a flood of 300 pings", [PING] * 300, 30, 51, "flooding"),
]


@pytest.mark.parametrize("name,frames,answered,refused,code", FLOOD_TABLE, ids=[r[0] for r in FLOOD_TABLE])
def test_a_websocket_flood_is_refused_then_closed_and_changes_nothing(client, url, game, name, frames, answered,
                                                                       refused, code):
    import functools

    from pax_hispanica.web.http.ratelimit import TokenBucket
    from pax_hispanica.web.play import ws_routes as wsmod
    token = game["seats"][0]["token"]
    before = snapshot(url, game["game"])
    clock = [1000.0]   # the bucket's clock stands still while the frames go in: the test does not race it
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(wsmod, "TokenBucket", functools.partial(TokenBucket, clock=lambda: clock[0]))
        mp.setattr(wsmod, "_penalised", {})   # this test's flooder's wait stays in this test
        with client.websocket_connect(f"/ws/{token}?fmt=json") as ws:
            assert json.loads(ws.receive_text())["type"] == "update"
            for f in frames:
                ws.send_text(f)
            got, errors = 0, []
            while len(errors) < refused:
                m = json.loads(ws.receive_text())
                if m["type"] == "error" and m["code"] in ("rate_limited", "flooding"):
                    assert not got < answered, (got, m)          # the budget's messages were all answered
                    errors.append(m)
                    assert m["message"] and "Traceback" not in m["message"]
                    if m["code"] == "rate_limited":
                        assert m["retry_after"] >= 1 and "at most 10 a second" in m["message"], m
                elif m["type"] != "update":
                    got += 1
            assert got == answered and errors[-1]["code"] == code, (got, errors[-2:])
            if code == "flooding":
                assert len(errors) == wsmod.WS_FLOOD_CLOSE + 1
                with pytest.raises(WebSocketDisconnect) as e:
                    while True:
                        ws.receive_text()
                assert e.value.code == 1008
                # and the address waits ws.WS_FLOOD_PENALTY seconds before a new game socket: no board is rendered
                with client.websocket_connect(f"/ws/{token}?fmt=json") as again:
                    m = json.loads(again.receive_text())
                    assert m["type"] == "error" and m["code"] == "flooding" and m["retry_after"] >= 1, m
                    with pytest.raises(WebSocketDisconnect) as e:
                        again.receive_text()
                    assert e.value.code == 1008
            else:   # a second later the budget is back: the connection is still open and well
                clock[0] += 1.0
                ws.send_text(json.dumps({"type": "ping", "id": "after"}))
                while (m := json.loads(ws.receive_text()))["type"] == "update":
                    pass
                assert m == {"type": "pong", "id": "after"}
    assert snapshot(url, game["game"]) == before


@pytest.mark.parametrize("scheme, secure", [("https", True), ("http", False)])
def test_the_browsers_user_cookie_is_secure_over_https(app, scheme, secure):
    """Issue 37 (seen by the deployment test): the anonymous user cookie names the browser's
    seats, so over https it is Secure like the session cookie; over plain http (a local game)
    a Secure cookie would never come back, so it is not."""
    with TestClient(app, base_url=f"{scheme}://testserver") as c:
        r = c.get("/")
        assert r.status_code == 200
        cookies = [h for h in r.headers.get_list("set-cookie") if h.startswith("paxh_user=")]
        assert len(cookies) == 1, r.headers.get_list("set-cookie")
        assert ("; secure" in cookies[0].lower()) is secure, cookies[0]
        assert "httponly" in cookies[0].lower() and "samesite=lax" in cookies[0].lower()
