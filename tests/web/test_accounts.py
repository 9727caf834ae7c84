"""Accounts, sessions, CSRF, rate limits, lost passwords, claiming anonymous seats, open tables
and rematches, over HTTP on a real SQLite file and (marked postgres) a real PostgreSQL database
(issue 16). The browser flows are in test_accounts_browser.py, ratings in test_ratings.py."""
from __future__ import annotations

import asyncio
import json
import re

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from pax_hispanica.web.accounts import schema as adb
from pax_hispanica.web.accounts.service import SESSION_COOKIE, digest
from pax_hispanica.web.http import schema as http_db
from pax_hispanica.web.notify import schema as play_db
from pax_hispanica.web.server import create_app
from pax_hispanica.web.social import schema as social_db

from .helpers import wait_for
from .play_fixtures import smtp  # noqa: F401 (fixture)

OFF = {"create": "0", "act": "0", "login": "0", "login_name": "0", "register": "0", "reset": "0"}


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf" value="([0-9a-f]+)"', html)
    assert m, "no CSRF token on the page"
    return m.group(1)


def new_client(database_url: str, **kw) -> TestClient:
    return TestClient(create_app(database_url, bot_delay=0, rate_limits={**OFF, **kw.pop("limits", {})}, **kw))


def register(c: TestClient, name: str, password: str = "correct horse", email: str = "", claim: bool = False):
    token = csrf_of(c.get("/register").text)
    data = {"csrf": token, "user_name": name, "password": password, "password2": password, "email": email}
    if claim:
        data["claim"] = "1"
    return c.post("/register", data=data, follow_redirects=False)


def login(c: TestClient, name: str, password: str = "correct horse", **extra):
    token = csrf_of(c.get("/login").text)
    return c.post("/login", data={"csrf": token, "user_name": name, "password": password, **extra},
                  follow_redirects=False)


def logout(c: TestClient):
    token = csrf_of(c.get("/account/settings").text)
    return c.post("/logout", data={"csrf": token}, follow_redirects=False)


def rows(url: str, table: sa.Table, *where) -> list:
    eng = sa.create_engine(url)
    try:
        with eng.connect() as conn:
            return list(conn.execute(sa.select(table).where(*where)).mappings().all())
    finally:
        eng.dispose()


@pytest.fixture
def app_client(database_url):
    with new_client(database_url) as c:
        yield c, database_url


def test_register_login_logout(app_client):
    c, url = app_client
    r = register(c, "ana_1")
    assert r.status_code == 303 and r.headers["location"] == "/account"
    cookie = r.headers["set-cookie"]
    assert SESSION_COOKIE in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
    assert "Secure" not in cookie   # plain http here; https below
    page = c.get("/account")
    assert page.status_code == 200 and "ana_1" in page.text and 'id="to-move"' in page.text
    # the password is an argon2 hash, never the password
    (acct,) = rows(url, adb.accounts, adb.accounts.c.user_name == "ana_1")
    assert acct["password"].startswith("$argon2id$") and "correct horse" not in acct["password"]
    # only the session's hash is stored
    token = c.cookies.get(SESSION_COOKIE)
    (sess,) = rows(url, adb.account_sessions, adb.account_sessions.c.user_id == acct["user_id"])
    assert sess["id"] == digest(token) and sess["id"] != token
    assert logout(c).status_code == 303
    assert rows(url, adb.account_sessions, adb.account_sessions.c.user_id == acct["user_id"]) == []
    r = c.get("/account", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/login")
    assert login(c, "ANA_1").status_code == 303   # names are matched without case
    assert "ana_1" in c.get("/account").text


def test_wrong_password_refused_and_names_unique(app_client):
    c, _ = app_client
    register(c, "bru")
    logout(c)
    r = login(c, "bru", "wrong password")
    assert r.status_code == 401 and "Wrong user name or password" in r.text
    assert SESSION_COOKIE not in r.headers.get("set-cookie", "")
    r = login(c, "nobody", "whatever1")
    assert r.status_code == 401 and "Wrong user name or password" in r.text   # the same answer
    assert c.get("/account", follow_redirects=False).status_code == 303
    r = register(c, "BRU")
    assert r.status_code == 409 and "taken" in r.text
    assert register(c, "x").status_code == 400            # bad name
    assert register(c, "carla", "short").status_code == 400   # weak password


def test_secure_cookie_over_https(database_url):
    with new_client(database_url) as c:
        c.base_url = "https://testserver"
        r = register(c, "dana")
        assert r.status_code == 303
        assert "Secure" in r.headers["set-cookie"]


def test_brute_force_is_rate_limited(database_url):
    with new_client(database_url, limits={"login": "5/minute", "login_name": "8/hour"}) as c:
        register(c, "eva")
        logout(c)
        codes = [login(c, "eva", f"guess{i:04d}").status_code for i in range(5)]
        assert codes == [401] * 5
        r = login(c, "eva")                  # even the right password, once over the limit
        assert r.status_code == 429 and r.headers.get("retry-after")
        assert c.get("/account", follow_redirects=False).status_code == 303
    # per name too: another server (another limiter, its per-address limit far off) still counts
    # the name's tries, from a browser that never logged in to it
    with new_client(database_url, limits={"login_name": "3/hour"}) as c:
        register(c, "fay")
    with new_client(database_url, limits={"login": "100/minute", "login_name": "3/hour"}) as c:
        for i in range(3):
            assert login(c, "fay", f"guess{i:04d}").status_code == 401
        assert login(c, "fay").status_code == 429


def test_PRJ_73_the_accounts_rate_limits_hold_across_two_servers_on_one_database(database_url):
    """Counted in the database (rate_hits), not in each server's memory: two servers let a
    client through the limit once, not twice. Retry-After is at most two windows (a sliding
    window counter waits for the last window's count to weigh little enough)."""
    limits = {"login": "4/minute", "register": "2/minute", "reset": "3/hour"}
    with new_client(database_url, limits=limits) as a, new_client(database_url, limits=limits) as b:
        codes = [login(c, "nobody", f"guess{i}").status_code for i, c in enumerate([a, b, a, b])]
        assert codes == [401] * 4
        for c in (a, b):
            r = login(c, "nobody", "again")
            assert r.status_code == 429 and 1 <= int(r.headers["retry-after"]) <= 120
            assert "try again" in r.text.lower() or "torna-ho" in r.text.lower()
        assert register(a, "reg_x").status_code == 303 and register(b, "reg_y").status_code == 303
        logout(a)
        r = register(a, "reg_z")
        assert r.status_code == 429 and 1 <= int(r.headers["retry-after"]) <= 120
        for _i, c in enumerate([a, b, a]):
            assert c.post("/forgot", data={"csrf": csrf_of(c.get("/forgot").text), "who": "x"}).status_code == 200
        r = b.post("/forgot", data={"csrf": csrf_of(b.get("/forgot").text), "who": "x"})
        assert r.status_code == 429 and 1 <= int(r.headers["retry-after"]) <= 7200
    assert 0 < len(rows(database_url, http_db.rate_hits)) <= 6   # (kind, window) x one address


def test_PRJ_73_strangers_spending_a_names_login_limit_do_not_lock_its_owner_out_of_his_browser(database_url):
    """A browser that has logged in to a name before counts its tries for it apart (the
    paxh_known cookie): strangers who spend the name's limit lock out only browsers that never
    logged in to it, and only until their own tries leave the window."""
    limits = {"login": "100/minute", "login_name": "3/hour"}
    with new_client(database_url, limits=limits) as owner, new_client(database_url, limits=limits) as stranger:
        assert register(owner, "gil", "gil's password").status_code == 303
        assert owner.cookies.get("paxh_known")
        logout(owner)
        for i in range(3):
            assert login(stranger, "gil", f"guess{i}").status_code == 401
        assert login(stranger, "gil", "gil's password").status_code == 429   # the name's limit
        assert login(owner, "gil", "gil's password").status_code == 303      # his browser's own count
        logout(owner)
        # the owner's tag copied into another browser is not that browser's: still the name's count
        stranger.cookies.set("paxh_known", owner.cookies.get("paxh_known"))
        assert login(stranger, "gil", "gil's password").status_code == 429
        # and the owner's browser has a limit of its own for the name
        for i in range(2):
            assert login(owner, "gil", f"typo{i}").status_code == 401
        assert login(owner, "gil", "gil's password").status_code == 429


def test_registration_is_rate_limited(database_url):
    with new_client(database_url, limits={"register": "2/minute"}) as c:
        assert register(c, "reg_a").status_code == 303
        logout(c)
        assert register(c, "reg_b").status_code == 303
        logout(c)
        assert register(c, "reg_c").status_code == 429


def test_session_fixation_refused(app_client):
    c, url = app_client
    register(c, "fay")
    logout(c)
    planted = "attacker-chosen-session-value-0123456789"
    c.cookies.set(SESSION_COOKIE, planted, domain="testserver.local")
    r = login(c, "fay")
    assert r.status_code == 303
    new = c.cookies.get(SESSION_COOKIE)
    assert new and new != planted
    # the planted value opens nothing, the new one opens the account
    with new_client(url) as other:
        other.cookies.set(SESSION_COOKIE, planted, domain="testserver.local")
        assert other.get("/account", follow_redirects=False).status_code == 303
        other.cookies.set(SESSION_COOKIE, new, domain="testserver.local")
        assert "fay" in other.get("/account").text
    # a second login gives a second new session and ends the one the browser had
    old = c.cookies.get(SESSION_COOKIE)
    login(c, "fay")
    assert c.cookies.get(SESSION_COOKIE) != old
    with new_client(url) as other:
        other.cookies.set(SESSION_COOKIE, old, domain="testserver.local")
        assert other.get("/account", follow_redirects=False).status_code == 303


def test_csrf_refused(app_client):
    c, url = app_client
    register(c, "gil")
    before = rows(url, social_db.open_tables)
    for path, data in [("/tables", {"players": "3", "public": "1"}), ("/logout", {}),
                       ("/account/settings", {"lang": "ca", "time_control": ""})]:
        for token in (None, "0" * 32, "deadbeef"):
            body = dict(data) if token is None else {**data, "csrf": token}
            r = c.post(path, data=body, follow_redirects=False)
            assert r.status_code == 403, (path, token, r.status_code)
    assert rows(url, social_db.open_tables) == before
    assert "gil" in c.get("/account").text   # still logged in: the logout was refused
    # a token from before the login (the anonymous one) no longer works after it
    with new_client(url) as d:
        anon_token = csrf_of(d.get("/").text)
        register(d, "hal")
        r = d.post("/tables", data={"csrf": anon_token, "players": "2"}, follow_redirects=False)
        assert r.status_code == 403
    # another site's page cannot post at all (Origin)
    r = c.post("/tables", data={"csrf": csrf_of(c.get("/").text), "players": "2"},
               headers={"Origin": "https://evil.example"}, follow_redirects=False)
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin"
    # the login form too (login CSRF)
    r = c.post("/login", data={"user_name": "gil", "password": "correct horse"}, follow_redirects=False)
    assert r.status_code == 403


def test_lost_password_reset_by_mailed_link(app_client):
    c, url = app_client
    register(c, "ines", email="ines@example.org")
    logout(c)
    token = csrf_of(c.get("/forgot").text)
    for who in ("ines", "nobody-here"):
        r = c.post("/forgot", data={"csrf": token, "who": who})
        assert r.status_code == 200 and 'id="reset-sent"' in r.text   # the same answer for both
    # the mail is a row of the notifications outbox (the worker sends it; no SMTP server here),
    # queued by the worker's "reset" job (issue 37, N10); its link is the public URL's (N1)
    (row,) = wait_for(lambda: rows(url, play_db.outbox, play_db.outbox.c.dedupe.like("mail:password_reset:%")),
                      20, "the reset mail")
    mail = json.loads(row["payload"])
    assert mail["headers"]["To"] == "ines@example.org" and row["channel"] == "email" and row["game_id"] is None
    link = re.search(r"http://127\.0\.0\.1:8000/reset/(\S+)", mail["text"]).group(1)
    page = c.get(f"/reset/{link}")
    assert page.status_code == 200
    r = c.post(f"/reset/{link}", data={"csrf": csrf_of(page.text), "password": "a new secret", "password2":
                                       "a new secret"}, follow_redirects=False)
    assert r.status_code == 303
    logout(c)
    assert login(c, "ines").status_code == 401
    assert login(c, "ines", "a new secret").status_code == 303
    # once only
    assert c.get(f"/reset/{link}").status_code == 400
    r = c.post(f"/reset/{link}", data={"csrf": csrf_of(c.get("/").text), "password": "third one!",
                                       "password2": "third one!"}, follow_redirects=False)
    assert r.status_code == 400


def test_the_reset_link_reaches_a_real_smtp_server_through_the_outbox(database_url, smtp,  # noqa: F811
                                                                      monkeypatch):
    monkeypatch.setenv("PAXH_SMTP_URL", smtp.url)
    monkeypatch.setenv("PAXH_OUTBOX_POLL_SECONDS", "0.2")
    with new_client(database_url) as c:
        register(c, "rosa", email="rosa@example.org")
        logout(c)
        c.post("/forgot", data={"csrf": csrf_of(c.get("/forgot").text), "who": "rosa"})
        (m,) = wait_for(lambda: smtp.box.to("rosa@example.org"), 20, "the reset mail")
        link = re.search(r"http://127\.0\.0\.1:8000/reset/(\S+)", m.get_content()).group(1)
        assert m["X-Paxh-Kind"] == "password_reset" and m["Subject"]
        assert c.get(f"/reset/{link}").status_code == 200
    (row,) = rows(database_url, play_db.outbox, play_db.outbox.c.dedupe.like("mail:password_reset:%"))
    assert row["status"] == "sent" and row["attempts"] == 1


def test_anonymous_seats_claimed_into_an_account(app_client):
    c, url = app_client
    token = csrf_of(c.get("/").text)
    r = c.post("/games", data={"csrf": token, "players": "2", "mode": "online", "kind0": "human", "kind1": "bot",
                               "bot1": "random"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/play/")
    c.get(r.headers["location"])
    assert "Move this browser" in c.get("/register").text
    register(c, "jon", claim=True)
    page = c.get("/account").text
    assert r.headers["location"] in page     # the anonymous game is the account's now
    # and on another device
    with new_client(url) as phone:
        login(phone, "jon")
        assert r.headers["location"] in phone.get("/account").text
    # logging out leaves the browser anonymous, with no games (they moved)
    logout(c)
    assert r.headers["location"] not in c.get("/").text


def test_settings_are_stored(app_client):
    c, url = app_client
    register(c, "kim")
    page = c.get("/account/settings")
    r = c.post("/account/settings", data={"csrf": csrf_of(page.text), "lang": "ca", "notify_email": "1",
                                          "time_control": "turn:24h", "email": "kim@example.org"},
               follow_redirects=False)
    assert r.status_code == 303
    page = c.get("/account/settings")
    assert 'lang="ca"' in page.text and "per torns, 24 h per jugada" in page.text
    (acct,) = rows(url, adb.accounts, adb.accounts.c.user_name == "kim")
    assert acct["email"] == "kim@example.org"
    assert '"webhook": false' in acct["settings"] and '"email": true' in acct["settings"]
    assert '"time_control": "turn:24h"' in acct["settings"]
    # the default time control is the new-table form's
    assert re.search(r'<option value="turn:24h" selected', c.get("/").text)


def _open_table(c: TestClient, players: int = 3, public: bool = True, variant: str = "") -> str:
    token = csrf_of(c.get("/").text)
    data = {"csrf": token, "players": str(players), "time_control": "live:10+10", "variant": variant}
    if public:
        data["public"] = "1"
    r = c.post("/tables", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def test_public_table_join_start_with_bot_and_rematch(database_url):
    with new_client(database_url) as host, new_client(database_url) as guest, new_client(database_url) as anon:
        register(host, "lea")
        register(guest, "max")
        tid = _open_table(host, 3)
        lobby = anon.get("/").text
        assert f'data-table="{tid}"' in lobby and "live, 10 min + 10 s" in lobby
        row = re.search(rf'<tr data-table="{tid}">(.*?)</tr>', lobby, re.DOTALL).group(1)
        assert ">lea<" in row and ">3<" in row and ">2<" in row   # host, players, free seats
        # joining needs an account
        r = anon.post(f"/tables/{tid}/join", data={"csrf": csrf_of(lobby)}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].startswith("/login")
        # one click from the lobby
        r = guest.post(f"/tables/{tid}/join", data={"csrf": csrf_of(guest.get("/").text)}, follow_redirects=False)
        assert r.status_code == 303
        assert 'id="free-seats"' not in guest.get("/").text
        row = re.search(rf'<tr data-table="{tid}">(.*?)</tr>', anon.get("/").text, re.DOTALL).group(1)
        assert ">1<" in row
        # only the host starts early
        page = guest.get(f"/tables/{tid}").text
        assert 'id="start"' not in page
        r = guest.post(f"/tables/{tid}/start", data={"csrf": csrf_of(page)}, follow_redirects=False)
        assert r.status_code == 403
        page = host.get(f"/tables/{tid}").text
        r = host.post(f"/tables/{tid}/start", data={"csrf": csrf_of(page), "bot_kind": "random", "strength": "2"},
                      follow_redirects=False)
        assert r.status_code == 303
        assert f'data-table="{tid}"' not in anon.get("/").text    # no longer listed
        page = guest.get(f"/tables/{tid}").text
        seat_link = re.search(r'href="(/play/[^"]+)" id="my-seat"', page).group(1)
        assert guest.get(seat_link).status_code == 200
        # both accounts see the game on their account page (any device); nobody, not even the
        # table's host, gets a link page listing the others' seats
        for c in (host, guest):
            page = c.get("/account").text
            assert "/play/" in page and "/host/" not in page
            my = re.search(r'href="(/play/[^"]+)"', page).group(1)
            assert "/host/" not in c.get(my).text
        (t,) = rows(database_url, social_db.open_tables, social_db.open_tables.c.id == tid)
        assert t["status"] == "started" and t["game_id"]
        seats = rows(database_url, social_db.table_seats, social_db.table_seats.c.table_id == tid)
        assert [s["kind"] for s in sorted(seats, key=lambda s: s["seat"])] == ["human", "human", "bot"]
        # a rematch needs the game to be over
        r = guest.post(f"/tables/rematch/{t['game_id']}", data={"csrf": csrf_of(guest.get("/").text)},
                       follow_redirects=False)
        assert r.status_code == 409
        _finish_with_bots(host, database_url, t["game_id"])
        page = guest.get(f"/tables/{tid}").text
        assert 'id="over"' in page and 'id="rematch"' in page
        assert "a bot took over a seat" in page     # PRJ-35: unrated
        r = guest.post(f"/tables/rematch/{t['game_id']}", data={"csrf": csrf_of(page)}, follow_redirects=False)
        assert r.status_code == 303
        rematch = r.headers["location"].rsplit("/", 1)[1]
        # the same players, at once: a new game; a second click gives the same rematch
        r = host.post(f"/tables/rematch/{t['game_id']}", data={"csrf": csrf_of(host.get('/account').text)},
                      follow_redirects=False)
        assert r.headers["location"].endswith(rematch)
        (t2,) = rows(database_url, social_db.open_tables, social_db.open_tables.c.id == rematch)
        assert t2["status"] == "started" and t2["game_id"] != t["game_id"] and t2["rematch_of"] == t["game_id"]
        seats2 = sorted(rows(database_url, social_db.table_seats, social_db.table_seats.c.table_id == rematch),
                        key=lambda s: s["seat"])
        assert [(s["kind"], s["user_id"], s["bot_kind"]) for s in seats2] == \
            [(s["kind"], s["user_id"], s["bot_kind"]) for s in sorted(seats, key=lambda s: s["seat"])]
        assert re.search(r'href="/play/[^"]+" id="my-seat"', host.get(f"/tables/{rematch}").text)


def _finish_with_bots(c: TestClient, url: str, gid: str) -> None:
    """Hand every person's seat to a random bot and wait for the bots to finish the game."""
    svc = c.app.state.svc
    live = c.portal.call(svc.get, gid)
    from pax_hispanica.web.play.model import Rights
    for s in live.seats:
        if s.kind == "human":
            c.portal.call(svc.seat_to_bot, Rights(gid, "host"), s.seat, "random")
    import time
    deadline = time.time() + 120
    while time.time() < deadline:
        (g,) = rows(url, __import__("pax_hispanica.web.db.schema", fromlist=["games"]).games,
                    sa.column("id") == gid)
        if g["status"] == "over":
            return
        time.sleep(0.2)
    raise AssertionError("the bots did not finish the game")


def test_private_table_by_link_and_expiry(database_url):
    with new_client(database_url) as host, new_client(database_url) as guest:
        register(host, "ned")
        register(guest, "oli")
        tid = _open_table(host, 2, public=False)
        assert f'data-table="{tid}"' not in guest.get("/").text       # not listed
        page = guest.get(f"/tables/{tid}").text                         # but the link opens it
        assert 'id="join"' in page
        # a table nobody joins expires (documented time); checked lazily and by the sweep
        tables = host.app.state.site.tables
        eng = sa.create_engine(database_url)
        with eng.begin() as conn:
            conn.execute(social_db.open_tables.update().where(social_db.open_tables.c.id == tid).values(expires_at=1.0))
        eng.dispose()
        r = guest.post(f"/tables/{tid}/join", data={"csrf": csrf_of(page)})
        assert r.status_code == 409 and "started or expired" in r.text
        assert 'id="expired"' in guest.get(f"/tables/{tid}").text
        assert host.portal.call(tables.expire) == 1
        (t,) = rows(database_url, social_db.open_tables, social_db.open_tables.c.id == tid)
        assert t["status"] == "expired"


def test_full_table_starts_itself_and_two_joiners_never_share_a_seat(database_url):
    with new_client(database_url) as host:
        register(host, "pia")
        tid = _open_table(host, 3)
        tables = host.app.state.site.tables
        accounts = host.app.state.site.accounts
        uids = [host.portal.call(accounts.register, f"racer{i}", "password12") for i in range(4)]

        async def race():
            return await asyncio.gather(*(tables.join(tid, u) for u in uids), return_exceptions=True)

        results = host.portal.call(race)
        seats = [r for r in results if isinstance(r, int)]
        assert sorted(seats) == [1, 2]
        assert all(getattr(r, "code", None) in ("table_full", "table_closed") for r in results if not isinstance(r, int))
        (t,) = rows(database_url, social_db.open_tables, social_db.open_tables.c.id == tid)
        assert t["status"] == "started" and t["game_id"]


def test_a_seat_an_account_sits_in_is_notified_at_the_accounts_address(app_client):
    """outbox.recipient_for: no contact row of the seat's own, so the account's email, while
    its settings have email on; off, nobody."""
    import concurrent.futures

    from pax_hispanica.web.db import schema as db
    from pax_hispanica.web.db.store import Storage
    from pax_hispanica.web.notify.outbox import recipient_for

    c, url = app_client
    register(c, "tomas", email="tomas@example.org")
    (acct,) = rows(url, adb.accounts, adb.accounts.c.user_name == "tomas")
    # made by another browser (a game made while logged in would be tomas's from seat 0 on)
    g = TestClient(c.app).post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    eng = sa.create_engine(url)
    with eng.begin() as conn:
        conn.execute(db.seats.update().where(sa.and_(db.seats.c.game_id == g["game"], db.seats.c.seat == 1))
                     .values(user_id=acct["user_id"]))
    eng.dispose()

    async def ask() -> list:
        store = Storage(url)
        try:
            async with store.read() as conn:
                return [await recipient_for(conn, g["game"], s) for s in (0, 1)]
        finally:
            await store.close()

    def run() -> list:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, ask()).result()

    nobody, tomas = run()
    assert nobody is None and tomas.email == "tomas@example.org" and tomas.webhook is None
    page = c.get("/account/settings").text
    c.post("/account/settings", data={"csrf": csrf_of(page), "lang": "ca", "time_control": "",
                                      "email": "tomas@example.org"})      # every channel off
    assert run() == [None, None]
