"""Issue 37: the attacks that still worked against a public server, each refused (N4, N5, N6,
N9, N10 here; N1, N3's flood and N7 in test_hardening.py's bad-input tables)."""
from __future__ import annotations

import json
import re
import statistics
import time

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from pax_hispanica.web.accounts import schema as adb
from pax_hispanica.web.notify import schema as play_db
from pax_hispanica.web.server import create_app
from pax_hispanica.web.social import schema as social_db

from .helpers import wait_for
from .test_accounts import OFF, csrf_of, logout, register, rows
import contextlib

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'i37.sqlite3'}"


def client(url: str, **limits) -> TestClient:
    return TestClient(create_app(url, bot_delay=0, secret="t", rate_limits={**OFF, **limits}))


def reset_mails(url: str) -> list[dict]:
    return [json.loads(r["payload"]) for r in
            rows(url, play_db.outbox, play_db.outbox.c.dedupe.like("mail:password_reset:%"))]


def forgot(c: TestClient, who: str):
    return c.post("/forgot", data={"csrf": csrf_of(c.get("/forgot").text), "who": who})


# ---------------------------------------------------------------- N6: reset mails are limited
def test_reset_mails_are_limited_per_name_and_per_account(url, monkeypatch):
    monkeypatch.setenv("PAXH_OUTBOX_POLL_SECONDS", "0.1")
    with client(url, reset="100/hour", reset_name="3/hour", reset_account="3/hour") as c:
        register(c, "vic", email="vic@example.org")
        logout(c)
        for _ in range(3):
            assert forgot(c, "vic").status_code == 200
        # the fourth for the name: a clear refusal, the same for a name nobody has
        refused = forgot(c, "VIC")
        for _ in range(3):
            assert forgot(c, "nobody-here").status_code == 200
        unknown = forgot(c, "nobody-here")
        for r in (refused, unknown):
            assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
            assert "Several reset links have been asked for this name or address" in r.text, r.text[-800:]
            assert 'id="reset-sent"' not in r.text
        # by its address: a new name to count, but the account has had its three mails this hour
        for _ in range(3):
            assert forgot(c, "vic@example.org").status_code == 200
        wait_for(lambda: not rows(url, play_db.outbox, play_db.outbox.c.channel == "reset",
                                  play_db.outbox.c.status == "pending"), 20, "the reset jobs to run")
        time.sleep(0.3)
        mails = reset_mails(url)
        assert len(mails) == 3 and {m["headers"]["To"] for m in mails} == {"vic@example.org"}
        assert len(rows(url, adb.password_resets)) == 3
        # the jobs keep no typed name once done
        jobs = rows(url, play_db.outbox, play_db.outbox.c.channel == "reset")
        assert len(jobs) == 9 and all(j["payload"] == "{}" for j in jobs)
        assert sorted(j["status"] for j in jobs) == ["dropped"] * 6 + ["sent"] * 3


def test_reset_mails_are_limited_per_address_with_a_sentence(url, monkeypatch):
    with client(url, reset="2/hour") as c:
        for who in ("ana", "bea"):
            assert forgot(c, who).status_code == 200
        r = forgot(c, "cai")
        assert r.status_code == 429 and "Too many reset links have been asked from this address" in r.text
        assert len(rows(url, play_db.outbox, play_db.outbox.c.channel == "reset")) == 2


# ---------------------------------------------------------------- N10: /forgot takes the same time
def _forgot_gap(c: TestClient, token: str, n: int) -> float:
    """The median over n pairs of (time for a name with an address) - (time for an unknown
    name), each pair sent back to back in a random order: a pair shares the machine's load of
    its moment, so a busy machine moves both and the difference stays."""
    import random

    diffs = []
    for i in range(n):
        pair = [("vic", 1), (f"nobody-{i}", -1)]
        random.shuffle(pair)
        d = 0.0
        for who, sign in pair:
            t = time.perf_counter()
            r = c.post("/forgot", data={"csrf": token, "who": who})
            d += sign * (time.perf_counter() - t)
            assert r.status_code == 200 and 'id="reset-sent"' in r.text
        diffs.append(d)
    return statistics.median(diffs) * 1e3


def test_forgot_does_the_same_work_and_takes_the_same_time_for_any_name(url, monkeypatch):
    """Before: 11.9 ms for a name with an address, 6.8 ms for an unknown name (the issue's
    measure; here 11.9 against 9.5). Now the request writes one job row whatever the name, and
    the worker does the rest later: with the worker off, both leave the same row and nothing
    else, and over 60 pairs the median gap is under 0.5 ms (three tries, for a busy
    machine), as the median of paired differences (the old code's, measured the same way on this
    machine: 3.16, 2.28 and 0.93 ms; the new code's 0.97 unwarmed, then 0.06 and 0.1 ms)."""
    monkeypatch.setenv("PAXH_OUTBOX_WORKER", "0")   # the request path alone
    with client(url, reset_name="0") as c:
        register(c, "vic", email="vic@example.org")
        register(c, "noaddr")
        logout(c)
        token = csrf_of(c.get("/forgot").text)
        for who in ("vic", "noaddr", "nobody"):   # the same rows, whoever is named
            before = rows(url, play_db.outbox)
            c.post("/forgot", data={"csrf": token, "who": who})
            (new,) = [r for r in rows(url, play_db.outbox) if r not in before]
            assert new["channel"] == "reset" and json.loads(new["payload"])["who"] == who
        assert rows(url, adb.password_resets) == [] and reset_mails(url) == []
        _forgot_gap(c, token, 20)   # warm up: the first requests pay for imports and caches
        gaps = []
        for _ in range(3):
            gaps.append(round(_forgot_gap(c, token, 60), 2))
            if abs(gaps[-1]) < 0.5:
                break
        else:
            raise AssertionError(f"/forgot's median gap (with an address - unknown), ms: {gaps}")


# ---------------------------------------------------------------- N5: PAXH_ADMINS names no stranger
def test_an_admin_name_nobody_has_cannot_be_registered_in_any_case(url, monkeypatch, caplog):
    with client(url) as c:
        assert register(c, "Dan").status_code == 303          # an account that exists before
    monkeypatch.setenv("PAXH_ADMINS", "Boss, dan")
    with client(url) as c:   # the server's start: the existing account gets the flag, "Boss" nothing
        assert "'Boss', which no account has" in caplog.text
        for name in ("Boss", "boss", "BOSS", "bOsS"):
            r = register(c, name)
            assert r.status_code == 409 and "That user name is reserved on this server" in r.text, name
        assert register(c, "bossy").status_code == 303          # a name merely like it is fine
    accts = {a["user_name"]: a["is_admin"] for a in rows(url, adb.accounts)}
    assert accts == {"Dan": True, "bossy": False}


def test_registering_never_gives_the_admin_flag(url, monkeypatch):
    with client(url) as c:
        monkeypatch.setenv("PAXH_ADMINS", "carla")    # set after the server's start: read at registration today
        r = register(c, "CARLA")
        assert r.status_code == 409
        monkeypatch.delenv("PAXH_ADMINS")
        assert register(c, "carla").status_code == 303
    assert [a["is_admin"] for a in rows(url, adb.accounts)] == [False]


# ---------------------------------------------------------------- N4: X-Forwarded-For is trusted from nobody by default
def _creates(srv, forwarded: list[str]) -> list[int]:
    import urllib.error
    import urllib.request
    codes = []
    for ip in forwarded:
        req = urllib.request.Request(srv.url + "/api/games", method="POST", data=json.dumps(
            {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).encode(),
            headers={"Content-Type": "application/json", "X-Forwarded-For": ip, "X-Real-IP": ip,
                     "Forwarded": f"for={ip}"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                codes.append(r.status)
        except urllib.error.HTTPError as e:
            codes.append(e.code)
    return codes


@pytest.mark.timeout(240)   # two server processes' cold starts on a loaded machine
def test_a_spoofed_x_forwarded_for_does_not_change_the_address_the_limiter_sees(server_factory, url, tmp_path):
    """A real `paxh serve` (uvicorn trusted X-Forwarded-For from 127.0.0.1 by default, so a client
    on the same host, or behind a proxy that passes the header on, had a fresh address per
    request: 45 login guesses in 27 s went through). The default now trusts nobody; naming the
    proxy (PAXH_FORWARDED_ALLOW_IPS) makes its header count."""
    spoofed = ["203.0.113.1", "203.0.113.2", "203.0.113.3"]
    srv = server_factory(url, env={"PAXH_RATE_CREATE": "2/minute", "PAXH_FORWARDED_ALLOW_IPS": ""})
    assert _creates(srv, spoofed) == [200, 200, 429]
    srv.stop()
    proxied = server_factory(f"sqlite:///{tmp_path / 'proxied.sqlite3'}",
                             env={"PAXH_RATE_CREATE": "2/minute", "PAXH_FORWARDED_ALLOW_IPS": "127.0.0.1"})
    assert _creates(proxied, spoofed) == [200, 200, 200]   # behind a named proxy: one address each
    assert _creates(proxied, ["203.0.113.1", "203.0.113.1"]) == [200, 429]


def test_a_bad_forwarded_allow_ips_stops_the_start_with_a_sentence():
    from pax_hispanica.web.http.security import trusted_proxies
    assert trusted_proxies("") == "" and trusted_proxies(" 10.0.0.1 , 192.168.0.0/16,::1") == \
        "10.0.0.1,192.168.0.0/16,::1"
    for bad in ("10.0.0.300", "proxy.example", "10.0.0.1;rm"):
        with pytest.raises(ValueError, match="PAXH_FORWARDED_ALLOW_IPS"):
            trusted_proxies(bad)


# ---------------------------------------------------------------- N9: DNS rebinding reaches no internal address
class _Listener:
    """A TCP listener on 127.0.0.1 that records every byte anyone sends it (a TLS hello too)."""

    def __init__(self) -> None:
        import socket
        import threading
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.received = b""
        self.sock.settimeout(0.2)
        self.stop = False

        def run() -> None:
            while not self.stop:
                try:
                    c, _ = self.sock.accept()
                except OSError:
                    continue
                self.accepted += 1
                c.settimeout(1)
                with contextlib.suppress(OSError):
                    self.received += c.recv(65536)
                c.close()
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.stop = True
        self.thread.join(2)
        self.sock.close()


@pytest.mark.parametrize("scheme", ["https", "http"])
def test_dns_rebinding_sends_no_byte_to_an_internal_address(monkeypatch, scheme):
    """The name answers a public address first and 127.0.0.1 after (a rebinding resolver stub at
    the socket layer). No connection to 127.0.0.1 is tried and the local listener gets no byte;
    the one connection tried is to the checked public address (refused here: no network)."""
    import socket

    from pax_hispanica.web.notify import outbox
    monkeypatch.delenv("PAXH_WEBHOOK_PRIVATE", raising=False)
    lst = _Listener()
    real_getaddrinfo, real_connect = socket.getaddrinfo, socket.socket.connect
    answers = ["93.184.216.34", "127.0.0.1", "127.0.0.1", "127.0.0.1"]
    asked, tried = [], []

    def rebinding(host, port, *a, **kw):
        if host != "rebind.example":
            return real_getaddrinfo(host, port, *a, **kw)
        ip = answers[min(len(asked), len(answers) - 1)]
        asked.append(ip)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port))]

    def connect(self, address):
        tried.append(address)
        if address[0] != "127.0.0.1":
            raise ConnectionRefusedError("no network in the test")
        return real_connect(self, address)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    monkeypatch.setattr(socket.socket, "connect", connect)
    try:
        with pytest.raises(outbox.SendError):
            outbox.post_webhook(f"{scheme}://rebind.example:{lst.port}/hook", {"type": "your_move"})
        time.sleep(0.3)
    finally:
        lst.close()
    assert [a for a in tried if a[0] == "127.0.0.1"] == [], tried
    assert lst.accepted == 0 and lst.received == b""
    assert asked == ["93.184.216.34"] and tried == [("93.184.216.34", lst.port)]


def test_a_webhook_is_pinned_to_its_checked_address_and_names_its_host(monkeypatch):
    """The connection goes to the address checked, and the request still names the URL's host."""
    import socket

    from pax_hispanica.web.notify import outbox

    from .play_fixtures import Hooks
    monkeypatch.setenv("PAXH_WEBHOOK_PRIVATE", "1")        # the receiver is on loopback
    real_getaddrinfo = socket.getaddrinfo
    asked = []

    def stub(host, port, *a, **kw):
        if host == "hooks.example":
            asked.append(host)
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]
        return real_getaddrinfo(host, port, *a, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", stub)
    h = Hooks()
    try:
        outbox.post_webhook(f"http://hooks.example:{h.port}/hook", {"type": "your_move", "n": 1})
    finally:
        h.stop()
    assert h.bodies == [{"type": "your_move", "n": 1}] and asked == ["hooks.example"]


# ---------------------------------------------------------------- N3: chat reports are limited, the moderators' page pages
def _report(ws, message: int, rid) -> dict:
    ws.send_text(json.dumps({"type": "chat_report", "id": rid, "message": message, "reason": "rude"}))
    while True:
        m = json.loads(ws.receive_text())
        if m.get("id") == rid and m["type"] in ("ack", "error"):
            return m


def test_chat_reports_are_limited_per_account_and_once_per_message(url):
    with client(url, report="3/minute") as c:
        g = c.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        t0, t1 = (s["token"] for s in g["seats"])
        ids = [c.post(f"/api/chat/{t0}", json={"text": f"rude {i}"}).json()["id"] for i in range(5)]
        with c.websocket_connect(f"/ws/{t1}") as ws:
            assert [_report(ws, mid, f"r{mid}")["type"] for mid in ids[:3]] == ["ack"] * 3
            again = _report(ws, ids[0], "dup")     # the same message twice: refused, not counted
            assert again["code"] == "already_reported"
            over = _report(ws, ids[3], "over")
            assert over["code"] == "rate_limited" and "too many reports from this account" in over["message"]
            assert over["retry_after"] >= 1
            assert _report(ws, 99999, "none")["code"] == "malformed"   # no such message: refused first
        assert len(rows(url, social_db.chat_reports)) == 3


def test_the_moderators_page_pages_through_every_report(url):
    from pax_hispanica.web.social.admin_routes import PAGE
    with client(url, report="0") as c:
        g = c.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        t0 = g["seats"][0]["token"]
        mid = c.post(f"/api/chat/{t0}", json={"text": "rude"}).json()["id"]
        n = 2 * PAGE + 7     # more than the 200 the page used to cut at, in a test's time: rows written directly
        eng = sa.create_engine(url)
        with eng.begin() as conn:
            conn.execute(social_db.chat_reports.insert(), [
                {"game_id": g["game"], "message_id": mid, "reporter_seat": 1, "reason": f"r{i}", "text": "rude",
                 "created": 1e9 + i} for i in range(n)])
        eng.dispose()
        register(c, "mod")
        assert c.portal.call(c.app.state.site.accounts.set_admin, "mod")
        import re
        seen, path, pages = [], "/admin/reports", 0
        while path:
            page = c.get(path)
            assert page.status_code == 200
            seen += re.findall(r'<tr data-report="(\d+)">', page.text)
            pages += 1
            m = re.search(r'href="(/admin/reports\?before=\d+)" id="reports-older"', page.text)
            path = m.group(1) if m else None
        assert pages == 3 and len(seen) == n == len(set(seen))
        assert [int(x) for x in seen] == sorted((int(x) for x in seen), reverse=True)
        assert "Newest reports" in c.get(seen and f"/admin/reports?before={seen[10]}").text
        assert c.get("/admin/reports?before=%C3%A9").status_code == 200       # a bad cursor: the newest page
        api = c.get("/api/admin/chat-reports?limit=5").json()
        assert len(api["reports"]) == 5 and api["older"] == api["reports"][-1]["id"]
        nxt = c.get(f"/api/admin/chat-reports?limit=5&before={api['older']}").json()
        assert nxt["reports"][0]["id"] == api["older"] - 1


# ---------------------------------------------------------------- U1: notifications a player can trust
NEVER_CALLED = [   # (webhook, code): what the sender would never call is refused when it is saved
    ("http://127.0.0.1:9/x", "internal_webhook"),
    ("http://10.1.2.3/x", "internal_webhook"),
    ("http://192.168.0.10/hook", "internal_webhook"),
    ("http://169.254.169.254/latest/meta-data", "internal_webhook"),
    ("http://[::1]:8000/x", "internal_webhook"),
    ("http://[fe80::1%25eth0]/x", "internal_webhook"),
    ("http://localhost:8000/x", "internal_webhook"),
    ("https://printer.local/x", "internal_webhook"),
    ("http://0.0.0.0/x", "internal_webhook"),
    ("ftp://example.org/x", "bad_webhook"),
    ("javascript:alert(1)", "bad_webhook"),
    ("http:///x", "bad_webhook"),
    ("https://example.org:99999/x", "bad_webhook"),
]


def _seat_game(c: TestClient) -> dict:
    return c.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
                                      "table": {"pace": "turn", "move_seconds": 86400}}).json()


@pytest.mark.parametrize("hook,code", NEVER_CALLED, ids=[h for h, _ in NEVER_CALLED])
def test_a_webhook_the_server_would_never_call_is_refused_when_saved(url, monkeypatch, hook, code):
    monkeypatch.delenv("PAXH_WEBHOOK_PRIVATE", raising=False)
    with client(url) as c:
        token = _seat_game(c)["seats"][0]["token"]
        r = c.post(f"/api/notify/{token}", json={"webhook": hook})
        assert r.status_code == 400 and r.json()["error"]["code"] == code, r.text
        assert rows(url, play_db.seat_contacts) == []
        # the account's settings too, with the sentence, in English and Catalan
        register(c, "lea")
        for lang, words in (("en", {"internal_webhook": "The server never calls this address",
                                    "bad_webhook": "A webhook is an http:// or https:// address"}),
                            ("ca", {"internal_webhook": "El servidor no crida mai aquesta adreça",
                                    "bad_webhook": "https://"})):
            page = c.get(f"/account/settings?lang={lang}").text
            r = c.post("/account/settings", data={"csrf": csrf_of(page), "lang": lang, "time_control": "",
                                                  "email": "", "notify_webhook": "1", "webhook": hook})
            assert r.status_code == 400 and words[code] in r.text, r.text[-1500:]
        (acct,) = rows(url, adb.accounts)
        assert json.loads(acct["settings"])["webhook"] == ""


def test_what_is_saved_is_read_back_and_email_is_offered_only_with_a_mail_server(url, monkeypatch):
    monkeypatch.delenv("PAXH_SMTP_URL", raising=False)
    monkeypatch.setenv("PAXH_WEBHOOK_PRIVATE", "1")
    with client(url) as c:
        g = _seat_game(c)
        token = g["seats"][0]["token"]
        assert c.get(f"/api/notify/{token}").json() == {"email": None, "webhook": None, "unsubscribed": False,
                                                        "source": None, "mail": False}
        r = c.post(f"/api/notify/{token}", json={"email": "ana@example.org"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "mail_off"
        assert c.post(f"/api/notify/{token}", json={"webhook": "http://127.0.0.1:9/hook"}).status_code == 200
        assert c.get(f"/api/notify/{token}").json()["webhook"] == "http://127.0.0.1:9/hook"
        assert c.get(f"/api/notify/{g['spectator']}").status_code == 403
        # the game page and the settings page say why email is off, in both languages
        page = c.get(f"/play/{token}?lang=en").text
        assert 'id="notify-mail-off"' in page and 'id="notify-email"' not in page
        assert "Email is off on this server" in page
        assert "El correu està desactivat en aquest servidor" in c.get(f"/play/{token}?lang=ca").text
        register(c, "lea")
        page = c.get("/account/settings?lang=en").text
        assert 'id="mail-off"' in page and re.search(r'id="notify_email"[^>]*disabled', page)
        assert "Email is off on this server" in c.get("/forgot").text
    monkeypatch.setenv("PAXH_SMTP_URL", "smtp://127.0.0.1:9")
    with client(url) as c:
        page = c.get(f"/play/{token}?lang=en").text
        assert 'id="notify-email"' in page and 'id="notify-mail-off"' not in page
        assert c.post(f"/api/notify/{token}", json={"email": "ana@example.org",
                                                   "webhook": "http://127.0.0.1:9/hook"}).status_code == 200
        assert c.get(f"/api/notify/{token}").json() == {
            "email": "ana@example.org", "webhook": "http://127.0.0.1:9/hook", "unsubscribed": False,
            "source": "seat", "mail": True}
        login_page = c.get("/account/settings")
        assert 'id="mail-off"' not in login_page.text


@pytest.mark.browser
@pytest.mark.timeout(240)
def test_the_game_pages_form_shows_a_refusal_and_what_is_saved(server_factory, browser, url):
    srv = server_factory(url, env={"PAXH_WEBHOOK_PRIVATE": "", "PAXH_SMTP_URL": "smtp://127.0.0.1:9"})
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
                                "table": {"pace": "turn", "move_seconds": 86400}})
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(f"{srv.url}/play/{g['seats'][0]['token']}?lang=en")
    page.wait_for_selector("#conn.on")
    page.click("#notify summary")
    page.wait_for_function("document.getElementById('notify-now').textContent.length > 0")
    assert page.text_content("#notify-now") == "Nothing is saved: you are not told."
    page.fill("#notify-webhook", "http://127.0.0.1:9/hook")
    page.click("#notify-save")
    page.wait_for_selector("#notify-error:not([hidden])")
    assert page.text_content("#notify-error").startswith("The server never calls this address")
    assert page.is_hidden("#notify-done")
    page.fill("#notify-email", "ana@example.org")
    page.fill("#notify-webhook", "")
    page.click("#notify-save")
    page.wait_for_selector("#notify-done:not([hidden])")
    assert page.is_hidden("#notify-error")
    page.reload()
    page.wait_for_selector("#conn.on")
    page.click("#notify summary")
    page.wait_for_function("document.getElementById('notify-now').textContent.indexOf('ana@') > 0")
    assert page.text_content("#notify-now") == "Saved: you are told by email at ana@example.org."
    assert page.input_value("#notify-email") == "ana@example.org"
    ctx.close()
