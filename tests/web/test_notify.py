"""Turn-based games notify the seat whose move it is, by email (a real SMTP server, aiosmtpd on
loopback) and webhook (a local HTTP receiver), through the durable outbox: batched per waiting
period, one-click unsubscribe, delivered once after a restart and once with two servers on
PostgreSQL (SELECT ... FOR UPDATE SKIP LOCKED)."""
from __future__ import annotations

import asyncio
import concurrent.futures
import re
import time
import urllib.request

import pytest
import sqlalchemy as sa

from pax_hispanica.web.db import schema as db
from pax_hispanica.web.notify import schema as play_db
from pax_hispanica.web.notify.outbox import Outbox, Signer

from .helpers import wait_for
from .play_fixtures import hooks, smtp, smtp_later  # noqa: F401 (fixtures)

pytestmark = pytest.mark.timeout(180)

TURN = {"pace": "turn", "move_seconds": 86400}


def _env(smtp_url: str, public: str = "http://paxh.test") -> dict:
    return {"PAXH_SMTP_URL": smtp_url, "PAXH_PUBLIC_URL": public, "PAXH_OUTBOX_POLL_SECONDS": "0.2",
            "PAXH_OUTBOX_BACKOFF": "0.2", "PAXH_SECRET": "test-secret",
            "PAXH_WEBHOOK_PRIVATE": "1"}   # the test's receiver is on loopback


def _turn_game(srv, emails=("a@example.com", "b@example.com"), hook: str | None = None) -> dict:
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], "table": TURN})
    for s, addr in zip(g["seats"], emails):
        srv.post(f"/api/notify/{s['token']}", {"email": addr, "webhook": hook})
    return g


def _first(srv, g: dict) -> int:
    """The seat asked first (the player order is drawn)."""
    return srv.get(f"/api/view/{g['seats'][0]['token']}")["acting"][0]


def _initiate(srv, g: dict) -> dict:
    """The first player starts an auction: the sealed bid then asks both seats (the other
    seat's new waiting period)."""
    token = g["seats"][_first(srv, g)]["token"]
    v = srv.get(f"/api/view/{token}")
    options = [o for d in v["legal"] if d["kind"] == "choice" for o in d["options"]]
    action = next(o for o in options if o["type"] == "initiate" and not o.get("buried"))
    return srv.post(f"/api/act/{token}", {"version": v["version"], "action": action})


def _rows(url: str) -> list[dict]:
    eng = sa.create_engine(db.sync_url(url))
    try:
        with eng.connect() as c:
            return [dict(r) for r in c.execute(sa.select(play_db.outbox).order_by(play_db.outbox.c.id)).mappings()]
    finally:
        eng.dispose()


def _settled(url: str, n: int) -> list[dict] | None:
    """The outbox's rows once there are n and every one is sent (nothing left to deliver), else
    None: what a test waits for instead of a fixed sleep before it counts what arrived."""
    rows = _rows(url)
    return rows if len(rows) == n and all(r["status"] == "sent" for r in rows) else None


def _unsubscribed(url: str, gid: str, seat: int) -> bool:
    eng = sa.create_engine(db.sync_url(url))
    try:
        with eng.connect() as conn:
            c = play_db.seat_contacts.c
            return bool(conn.execute(sa.select(c.unsubscribed).where(sa.and_(c.game_id == gid, c.seat == seat)))
                        .scalar())
    finally:
        eng.dispose()


def test_turn_based_players_are_told_by_email_and_webhook_with_the_game_link(server_factory, tmp_path, smtp,  # noqa: F811 -- fixtures
                                                                            hooks):  # noqa: F811 -- fixtures
    url = f"sqlite:///{tmp_path / 'paxh.sqlite3'}"
    srv = server_factory(url, env=_env(smtp.url))
    emails = ("a@example.com", "b@example.com")
    g = _turn_game(srv, emails, hook=hooks.url)
    first = _first(srv, g)
    other = 1 - first
    t_first, t_other = g["seats"][first]["token"], g["seats"][other]["token"]
    # the first player is asked: one email, one webhook, with their own link
    (m0,) = wait_for(lambda: smtp.box.to(emails[first]), 30, "the first player's email")
    assert f"http://paxh.test/play/{t_first}" in m0.get_content()
    assert g["game"] in m0["Subject"]
    wait_for(lambda: len(hooks.bodies) >= 1, 30, "the first player's webhook")
    assert hooks.bodies[0]["url"] == f"http://paxh.test/play/{t_first}" and hooks.bodies[0]["seat"] == first
    assert not smtp.box.to(emails[other])
    # they start an auction: the other player owes a sealed bid and is told; the first is still
    # asked in the same waiting period (they bid too), so they get nothing new
    _initiate(srv, g)
    (m1,) = wait_for(lambda: smtp.box.to(emails[other]), 30, "the other player's email")
    assert f"http://paxh.test/play/{t_other}" in m1.get_content()
    wait_for(lambda: len(hooks.bodies) >= 2, 30, "the other player's webhook")
    assert hooks.bodies[1]["url"] == f"http://paxh.test/play/{t_other}" and hooks.bodies[1]["decision"] == "bid"
    # nothing more is queued: four rows (two emails, two webhooks), all delivered
    wait_for(lambda: _settled(url, 4), 30, "the outbox to have sent its four messages")
    assert len(smtp.box.to(emails[first])) == 1 and len(hooks.bodies) == 2
    # one click unsubscribes: the link is in the body and in List-Unsubscribe (RFC 8058)
    link = re.search(r"http://paxh\.test(/unsubscribe/\S+)", m1.get_content()).group(1)
    assert m1["List-Unsubscribe"] == f"<http://paxh.test{link}>"
    assert m1["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # a GET (a mail scanner, a link preview) only shows the page with its button
    with urllib.request.urlopen(srv.url + link, timeout=10) as r:
        page = r.read().decode()
        assert r.status == 200 and 'id="unsubscribe"' in page and "no more emails" not in page
        assert re.search(r'<form method="post" action="' + re.escape(link) + '"', page)
    assert not _unsubscribed(url, g["game"], other)
    # the mail client's one-click POST (RFC 8058) does it
    one_click = urllib.request.Request(srv.url + link, data=b"List-Unsubscribe=One-Click", method="POST",
                                       headers={"Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(one_click, timeout=10) as r:
        assert r.status == 200 and "no more emails" in r.read().decode()
    assert _unsubscribed(url, g["game"], other) and not _unsubscribed(url, g["game"], first)
    # a forged or edited token unsubscribes nobody, by GET or POST
    for data in (None, b"List-Unsubscribe=One-Click"):
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(urllib.request.Request(srv.url + link[:-3] + "abc", data=data), timeout=10)
        assert e.value.code == 404
    assert _settled(url, 4)


def test_outbox_survives_a_restart_and_each_message_goes_out_once(server_factory, tmp_path,
                                                                 smtp_later):  # noqa: F811
    url = f"sqlite:///{tmp_path / 'paxh.sqlite3'}"
    env = _env(smtp_later.url)   # the SMTP server is down at first: sends fail and are retried
    srv = server_factory(url, env=env)
    games = [_turn_game(srv, emails=(f"a{i}@example.com", f"b{i}@example.com")) for i in range(3)]
    for g in games:
        _initiate(srv, g)
    wait_for(lambda: all(r["attempts"] >= 1 for r in _rows(url)) and len(_rows(url)) == 6, 60, "failed attempts")
    srv.stop()
    assert {r["status"] for r in _rows(url)} == {"pending"}
    smtp_later.start()
    srv2 = server_factory(url, env=env)
    wait_for(lambda: len(smtp_later.box.messages) >= 6, 60, "six messages")
    wait_for(lambda: _settled(url, 6), 30, "every row marked sent")
    time.sleep(0.5)   # a window for a duplicate to show (nothing is left to send, so none should)
    keys = smtp_later.box.keys()
    assert len(keys) == len(set(keys)) == 6
    assert srv2.get("/healthz")["ok"]


@pytest.mark.postgres
def test_two_servers_on_postgres_send_each_message_once(server_factory, pg_url, smtp_later):  # noqa: F811
    env = _env(smtp_later.url)
    a = server_factory(pg_url, env=env)
    b = server_factory(pg_url, env=env)
    games = []
    for i in range(8):   # created and played on both servers
        srv = (a, b)[i % 2]
        g = _turn_game(srv, emails=(f"a{i}@example.com", f"b{i}@example.com"))
        _initiate((b, a)[i % 2], g)
        games.append(g)
    wait_for(lambda: len(_rows(pg_url)) == 16 and all(r["attempts"] >= 1 for r in _rows(pg_url)), 60,
             "sixteen messages tried")
    smtp_later.start()     # now both servers' workers race for the same rows
    wait_for(lambda: len(smtp_later.box.messages) >= 16, 60, "sixteen messages")
    wait_for(lambda: _settled(pg_url, 16), 30, "every row marked sent")
    time.sleep(1.0)   # a window for a duplicate from the other server (every row is sent: none should come)
    keys = smtp_later.box.keys()
    assert len(keys) == len(set(keys)) == 16


@pytest.mark.postgres
def test_skip_locked_claims_each_row_once_between_two_workers(pg_url, monkeypatch):
    """Two outbox workers (separate engines, as two servers) on one table of 40 due messages
    and a slow sender: every message sent exactly once, by one of them."""
    from pax_hispanica.web.db.store import Storage
    from pax_hispanica.web.notify import outbox as outbox_mod

    db.migrate(pg_url)
    sent: list[str] = []

    def slow_send(_url, payload):
        time.sleep(0.01)
        sent.append(payload["headers"]["X-Paxh-Game"])

    monkeypatch.setattr(outbox_mod, "send_email", slow_send)

    async def run() -> tuple[int, int]:
        stores = [Storage(pg_url), Storage(pg_url)]
        boxes = [Outbox(s, Signer("k")) for s in stores]
        for box in boxes:
            box.smtp_url = "smtp://127.0.0.1:1"
        async with stores[0].write() as conn:
            await conn.execute(play_db.outbox.insert(), [
                {"channel": "email", "dedupe": f"email:g{i}", "payload": '{"headers": {"X-Paxh-Game": "g' + str(i) + '"}, '
                 '"text": ""}', "status": "pending", "attempts": 0, "next_attempt": 0, "created": 0}
                for i in range(40)])

        async def drain(box: Outbox) -> int:
            n = 0
            while await box.deliver_one():
                n += 1
            return n

        counts = await asyncio.gather(*(drain(b) for b in boxes))
        for s in stores:
            await s.close()
        return counts

    # in a thread of its own: Playwright's sync API may hold this thread's event loop
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        counts = pool.submit(asyncio.run, run()).result()
    assert sorted(sent) == sorted(f"g{i}" for i in range(40))
    assert sum(counts) == 40 and min(counts) > 0   # both took part, neither sent a row twice


def test_webhooks_to_internal_addresses_are_refused_unless_allowed(monkeypatch):
    from pax_hispanica.web.notify.outbox import SendError, post_webhook
    monkeypatch.delenv("PAXH_WEBHOOK_PRIVATE", raising=False)
    for url in ("http://127.0.0.1:9/x", "http://10.1.2.3/x", "http://169.254.169.254/latest", "http://[::1]/x",
                "ftp://example.com/x", "http:///x"):
        with pytest.raises(SendError):
            post_webhook(url, {})


class _Receiver:
    """A loopback HTTP server that records POSTs to /hook and answers /go with a redirect to /hook."""

    def __init__(self) -> None:
        import http.server
        import threading
        got = self.got = []

        class H(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                got.append(self.path)
                if self.path == "/go":
                    self.send_response(303)
                    self.send_header("Location", f"http://127.0.0.1:{self.server.server_port}/hook")
                else:
                    self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self) -> None:               # where a followed 303 would land
                got.append("GET " + self.path)
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *a) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_webhooks_do_not_follow_redirects():
    """A URL that passes the address check and answers with a redirect (to an internal address,
    here) fails the send; the redirect's target is never called."""
    from pax_hispanica.web.notify.outbox import SendError, post_webhook
    rcv = _Receiver()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("PAXH_WEBHOOK_PRIVATE", "1")
            post_webhook(rcv.url + "/hook", {})          # the receiver works
            with pytest.raises(SendError, match="redirect"):
                post_webhook(rcv.url + "/go", {})
        assert rcv.got == ["/hook", "/go"]
    finally:
        rcv.close()


def test_webhooks_check_the_address_they_connected_to(monkeypatch):
    """DNS rebinding: the name's check says public, the connection lands on loopback; the
    connected address is checked too and nothing is sent."""
    from pax_hispanica.web.notify import outbox
    monkeypatch.delenv("PAXH_WEBHOOK_PRIVATE", raising=False)
    monkeypatch.setattr(outbox, "resolve_public", lambda host, port: ["127.0.0.1"])   # a check that missed it
    rcv = _Receiver()
    try:
        with pytest.raises(outbox.SendError, match="internal address"):
            outbox.post_webhook(rcv.url + "/hook", {})
        assert rcv.got == []
    finally:
        rcv.close()


def test_unsubscribe_tokens_are_signed():
    s = Signer("one")
    token = s.sign("u1:g:0")
    assert s.open(token) == "u1:g:0"
    assert Signer("two").open(token) is None
    assert s.open(token.replace(".", "x.")) is None and s.open("nonsense") is None
