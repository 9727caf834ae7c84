"""Online play's remaining gaps (issue 16): days per Year (PRJ-39), a table's time control
running its clocks, games made through the API on the account, paginated account pages,
unsubscribe that only a POST does (RFC 8058), moderators by the account's admin flag, and the
chat's rate limit across servers."""
from __future__ import annotations

import http.cookiejar
import json
import re
import time
import urllib.parse
import urllib.request

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from pax_hispanica import api
from pax_hispanica.web.accounts import schema as adb
from pax_hispanica.web.db import schema as db
from pax_hispanica.web.notify.clocks import Clocks
from pax_hispanica.web.server import create_app

from .helpers import wait_for
from .play_fixtures import hooks  # noqa: F401 (fixture)
from .test_accounts import csrf_of, login, new_client, register, rows

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def fast_sweep(monkeypatch):
    monkeypatch.setattr(Clocks, "POLL_SECONDS", 0.1)


def _create(c, seats, table) -> dict:
    r = c.post("/api/games", json={"players": len(seats), "seats": [{"kind": k} for k in seats], "table": table})
    assert r.status_code == 200, r.text
    return r.json()


def _clock(c, token: str) -> dict:
    return c.get(f"/api/clock/{token}").json()


def _system_lines(c, token: str) -> list[dict]:
    return [m for m in c.get(f"/api/chat/{token}").json()["items"] if m["kind"] == "system"]


def _year(c, gid: str) -> str:
    v = api.model_view(c.app.state.svc.live[gid].state, None)
    return f"{v['cycle']}:{getattr(v['year'], 'value', v['year'])}"


# ---------------------------------------------------------------- days per Year (PRJ-39)
def test_PRJ_39_days_per_year_is_one_budget_for_a_seats_decisions_of_the_year(tmp_path):
    url = f"sqlite:///{tmp_path / 'paxh.sqlite3'}"
    with TestClient(create_app(url, bot_delay=0)) as c:
        t0 = time.time()
        g = _create(c, ["human", "human"], {"pace": "year", "year_seconds": 600})
        tokens = [s["token"] for s in g["seats"]]
        state = _clock(c, tokens[0])
        assert state["pace"] == "year" and state["year_seconds"] == 600 and state["move_seconds"] is None
        v = c.get(f"/api/view/{tokens[0]}").json()
        assert state["year"] == _year(c, g["game"]) == "1:auction"
        first = v["acting"][0]
        seats = {s["seat"]: s for s in state["seats"]}
        # asked between the creation and now: bounds, not a margin guessed for a busy machine
        assert t0 + 600 - 1e-3 <= seats[first]["deadline"] <= time.time() + 600 + 1e-3
        assert seats[1 - first]["deadline"] is None and seats[1 - first]["remaining"] == 600
        time.sleep(1.0)
        # the first player initiates: their next decisions of this Year share what is left
        fv = c.get(f"/api/view/{tokens[first]}").json()
        options = [o for d in fv["legal"] if d["kind"] == "choice" for o in d["options"]]
        action = next(o for o in options if o["type"] == "initiate" and not o.get("buried"))
        t1 = time.time()
        assert c.post(f"/api/act/{tokens[first]}", json={"version": fv["version"], "action": action}).status_code == 200
        after = c.get(f"/api/view/{tokens[first]}").json()
        assert _year(c, g["game"]) == state["year"]     # still the same Year: the sealed bids
        seats = {s["seat"]: s for s in _clock(c, tokens[0])["seats"]}
        assert first in after["acting"]
        t2 = time.time()
        assert seats[first]["remaining"] < 599.5  # spent, not a fresh deadline per move
        # both asked again by the action, between t1 and t2: the first with what is left, the
        # other with its whole budget (remaining is rounded to the millisecond)
        assert t1 - 2e-3 <= seats[first]["deadline"] - seats[first]["remaining"] <= t2 + 2e-3
        assert t1 + 600 - 1e-3 <= seats[1 - first]["deadline"] <= t2 + 600 + 1e-3
        # the page counts it down; the table's pace is said once, in the status line (issue 38),
        # not again above the clocks (a Year of ten minutes in minutes, not "0 days")
        page = c.get(f"/play/{tokens[0]}").text
        assert 'id="clock-rule"' not in page and "left this Year" in page
        assert '<span id="pace" class="pace">Turn-based, 10 min per Year</span>' in page and page.count("per Year") == 1


def test_PRJ_39_a_spent_year_counts_as_one_timeout_and_a_new_year_gives_the_time_again(tmp_path, fast_sweep):
    url = f"sqlite:///{tmp_path / 'paxh.sqlite3'}"
    with TestClient(create_app(url, bot_delay=0)) as c:
        g = _create(c, ["human", "bot"], {"pace": "year", "year_seconds": 1.5, "timeouts_to_bot": 2})
        token = g["seats"][0]["token"]
        wait_for(lambda: c.get(f"/api/view/{token}").json()["seats"][0]["kind"] == "bot", 60,
                 "the bot to take the seat after two Years whose time ran out")
        lines = _system_lines(c, token)
        moves = [m for m in lines if "ran out of time" in m["text"]]
        assert all(m["rule"] == "PRJ-34" for m in lines)
        assert "a bot plays the seat now" in lines[-1]["text"]
        # the seat owes several decisions in its first Year: each was a timeout move, yet the
        # Year counted once, so with timeouts_to_bot 2 the seat went to a bot only after three
        # or more timeout moves, in its second Year whose time ran out
        live = c.app.state.svc.live[g["game"]]
        assert len(moves) >= 3, [m["text"] for m in lines]
        timed_out_years = set()
        st = api.replay(live.record, upto=0).state
        for a in live.record["actions"]:
            v = api.model_view(st, None)
            if a["seat"] == 0:
                timed_out_years.add((v["cycle"], str(v["year"])))
            st, _ = api.apply(st, a)
        assert len(timed_out_years) >= 2
        assert api.snapshot(api.replay(live.record).state) == api.snapshot(live.state)


def test_the_lobby_form_makes_a_days_per_year_game(tmp_path):
    url = f"sqlite:///{tmp_path / 'paxh.sqlite3'}"
    with TestClient(create_app(url, bot_delay=0)) as c:
        page = c.get("/").text
        assert 'value="year"' in page and 'name="year_days"' in page
        data = {"csrf": csrf_of(page), "players": "2", "mode": "online", "kind0": "human", "kind1": "human",
                "pace": "year", "year_days": "2"}
        r = c.post("/games", data=data, follow_redirects=False)
        assert r.status_code == 303, r.text
        state = _clock(c, r.headers["location"].rsplit("/", 1)[1])
        assert state["pace"] == "year" and state["year_seconds"] == 2 * 86400
        assert c.post("/games", data={**data, "year_days": "0"}).status_code == 400


# ---------------------------------------------------------------- a table's time control, real server
class Browser:
    """A browser's cookies against a real server process (urllib), with its forms' CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as r:
            return r.read().decode()

    def post(self, path: str, form: dict, csrf_from: str = "/") -> tuple[int, str]:
        data = {"csrf": csrf_of(self.get(csrf_from)), **form}
        try:
            with self.opener.open(self.base + path, data=urllib.parse.urlencode(data).encode(), timeout=30) as r:
                return r.status, r.geturl()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def json(self, path: str) -> dict:
        return json.loads(self.get(path))

    def register(self, name: str) -> None:
        status, _ = self.post("/register", {"user_name": name, "password": "correct horse",
                                            "password2": "correct horse"}, "/register")
        assert status == 200


def test_a_tables_time_control_runs_its_games_clocks_through_the_real_server(server_factory, tmp_path):
    srv = server_factory(f"sqlite:///{tmp_path / 'paxh.sqlite3'}")
    host, guest = Browser(srv.url), Browser(srv.url)
    host.register("lea")
    guest.register("max")
    status, where = host.post("/tables", {"players": "2", "time_control": "turn:24h", "public": "1"})
    assert status == 200 and "/tables/" in where
    tid = where.rsplit("/", 1)[1]
    assert "turn-based, 24 h per move" in guest.get("/")
    status, _ = guest.post(f"/tables/{tid}/join", {})
    assert status == 200                               # the last seat: the game starts
    token = re.search(r'href="/play/([^"]+)" id="my-seat"', guest.get(f"/tables/{tid}")).group(1)
    clock = guest.json(f"/api/clock/{token}")
    assert clock["pace"] == "turn" and clock["move_seconds"] == 86400
    running = [s for s in clock["seats"] if s["deadline"] is not None]
    assert len(running) == 1 and 86000 < running[0]["deadline"] - time.time() <= 86400
    # days per Year, started early with a bot in the free seat
    status, where = host.post("/tables", {"players": "3", "time_control": "year:3d", "public": "1"})
    tid = where.rsplit("/", 1)[1]
    assert "turn-based, 3 days per Year" in guest.get("/")
    status, _ = host.post(f"/tables/{tid}/start", {"bot_kind": "random", "strength": "2"}, f"/tables/{tid}")
    assert status == 200
    token = re.search(r'href="/play/([^"]+)" id="my-seat"', host.get(f"/tables/{tid}")).group(1)
    # only a person's clock runs (bots have none): when the random Player Order puts the bots
    # first, the host is asked once they have moved, a moment after the start
    for _ in range(100):
        clock = host.json(f"/api/clock/{token}")
        running = [s for s in clock["seats"] if s["deadline"] is not None]
        if running:
            break
        time.sleep(0.1)
    assert clock["pace"] == "year" and clock["year_seconds"] == 3 * 86400
    assert running and all(3 * 86400 - 300 < s["deadline"] - time.time() <= 3 * 86400 for s in running)
    # a live table's chess clock
    status, where = host.post("/tables", {"players": "2", "time_control": "live:10+10"})
    tid = where.rsplit("/", 1)[1]
    guest.post(f"/tables/{tid}/join", {})
    token = re.search(r'href="/play/([^"]+)" id="my-seat"', guest.get(f"/tables/{tid}")).group(1)
    clock = guest.json(f"/api/clock/{token}")
    assert (clock["pace"], clock["base_seconds"], clock["increment_seconds"]) == ("live", 600, 10)
    assert any(s["deadline"] for s in clock["seats"])


# ---------------------------------------------------------------- API games on the account
def test_a_game_made_through_the_api_while_logged_in_is_on_the_account_on_every_device(tmp_path):
    url = f"sqlite:///{tmp_path / 'paxh.sqlite3'}"
    with new_client(url) as phone, new_client(url) as laptop:
        register(phone, "lea")
        r = phone.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]})
        assert r.status_code == 200, r.text
        g = r.json()
        assert login(laptop, "lea").status_code == 303
        page = laptop.get("/account").text
        assert f'data-game="{g["game"]}"' in page and f'/play/{g["seats"][0]["token"]}' in page
        (game,) = rows(url, db.games, db.games.c.id == g["game"])
        (acct,) = rows(url, adb.accounts)
        seat0 = rows(url, db.seats, db.seats.c.game_id == g["game"], db.seats.c.seat == 0)[0]
        assert game["host_user"] == acct["user_id"] == seat0["user_id"]
    with new_client(url) as anon:   # without a session: the browser's anonymous user's, as before
        anon.get("/")
        r = anon.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]})
        (game,) = rows(url, db.games, db.games.c.id == r.json()["game"])
        assert game["host_user"] == anon.cookies["paxh_user"] != acct["user_id"]


# ---------------------------------------------------------------- unsubscribe (RFC 8058)
def test_unsubscribe_asks_on_get_and_a_one_click_post_stops_an_accounts_emails(tmp_path):
    from pax_hispanica.web.notify.outbox import recipient_for
    url = f"sqlite:///{tmp_path / 'paxh.sqlite3'}"
    with new_client(url) as c:
        assert register(c, "lea", email="lea@example.com").status_code == 303
        g = c.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}],
                                       "table": {"pace": "turn"}}).json()
        play = c.app.state.site.play

        async def where() -> object:
            async with c.app.state.svc.storage.read() as conn:
                return await recipient_for(conn, g["game"], 0)

        assert c.portal.call(where).email == "lea@example.com"    # the account's address
        link = play.outbox.unsubscribe_url(g["game"], 0).split("://", 1)[1].split("/", 1)[1]
        page = c.get("/" + link)
        assert page.status_code == 200 and 'id="unsubscribe"' in page.text
        assert c.portal.call(where).email == "lea@example.com"    # a GET changed nothing
        mail_client = TestClient(c.app)   # RFC 8058: the mail client's POST: no cookie, no CSRF token
        r = mail_client.post("/" + link, content=b"List-Unsubscribe=One-Click",
                             headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert r.status_code == 200 and "no more emails" in r.text
        assert c.portal.call(where) is None
        assert c.post("/" + link).status_code == 200                # twice is still done
        assert c.post("/" + link[:-2] + "xx").status_code == 404
        assert c.get("/" + link[:-2] + "xx").status_code == 404


# ---------------------------------------------------------------- chat limits across servers
def _chat_status(srv, token: str, text: str) -> int:
    req = urllib.request.Request(srv.url + f"/api/chat/{token}", data=json.dumps({"text": text}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


@pytest.mark.postgres
def test_the_chat_rate_limit_holds_across_two_servers_on_postgres(server_factory, pg_url):
    import concurrent.futures
    env = {"PAXH_RATE_CHAT": "5 per 30 seconds"}
    a = server_factory(pg_url, env=env)
    b = server_factory(pg_url, env=env)
    g = a.post("/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    mine, theirs = g["seats"][0]["token"], g["seats"][1]["token"]
    # ten messages at once, half through each server: five are taken, whichever server
    with concurrent.futures.ThreadPoolExecutor(10) as pool:
        codes = list(pool.map(lambda i: _chat_status((a, b)[i % 2], mine, f"hello {i}"), range(10)))
    assert sorted(codes) == [200] * 5 + [429] * 5, codes
    assert _chat_status(a, mine, "again") == 429 and _chat_status(b, mine, "again") == 429
    # the limit is the seat's own: the other player still writes
    assert _chat_status(b, theirs, "hi") == 200
    items = [m for m in b.get(f"/api/chat/{theirs}")["items"] if m["kind"] == "player"]
    assert [m["seat"] for m in items].count(0) == 5


def test_the_chat_rate_limit_is_counted_in_the_database(tmp_path, monkeypatch):
    """Two apps (two servers) on one SQLite file share the count."""
    monkeypatch.setenv("PAXH_RATE_CHAT", "3 per 30 seconds")
    url = f"sqlite:///{tmp_path / 'paxh.sqlite3'}"
    with TestClient(create_app(url, bot_delay=0)) as a, TestClient(create_app(url, bot_delay=0)) as b:
        g = a.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        token = g["seats"][0]["token"]
        codes = [(a, b)[i % 2].post(f"/api/chat/{token}", json={"text": f"m{i}"}).status_code for i in range(5)]
        assert codes == [200, 200, 200, 429, 429]
        assert b.post(f"/api/chat/{token}", json={"text": "x"}).json()["error"]["code"] == "rate_limited"


# ---------------------------------------------------------------- moderators: the admin flag
def _report(c, text: str = "<b>rude</b> words") -> None:
    g = c.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    t0, t1 = (s["token"] for s in g["seats"])
    mid = c.post(f"/api/chat/{t0}", json={"text": text}).json()["id"]
    with c.websocket_connect(f"/ws/{t1}") as ws:
        ws.send_json({"type": "chat_report", "id": "r1", "message": mid, "reason": "rude"})
        while (m := ws.receive_json())["type"] != "ack":
            assert m["type"] != "error", m


def test_moderators_are_accounts_with_the_admin_flag_granted_by_the_cli(tmp_path):
    from typer.testing import CliRunner

    from pax_hispanica.cli import app as cli
    url = f"sqlite:///{tmp_path / 'paxh.sqlite3'}"
    with new_client(url) as c, new_client(url) as other:
        register(c, "ana")
        register(other, "bob")
        _report(other)
        for who in (c, other, TestClient(c.app)):          # logged in or not: nobody is a moderator yet
            assert who.get("/admin/reports").status_code == 404
            assert who.get("/api/admin/chat-reports").status_code == 403
        runner = CliRunner()
        r = runner.invoke(cli, ["admin", "grant", "ana", "--database-url", url])
        assert r.exit_code == 0, r.output
        assert runner.invoke(cli, ["admin", "grant", "nobody", "--database-url", url]).exit_code == 1
        assert runner.invoke(cli, ["admin", "list", "--database-url", url]).output.split() == ["ana"]
        page = c.get("/admin/reports")                      # read with each request: no restart
        assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
        row = re.search(r'<tr data-report="\d+">(.*?)</tr>', page.text, re.DOTALL).group(1)
        assert "&lt;b&gt;rude&lt;/b&gt; words" in row and "<b>rude" not in row and ">rude<" in row
        assert 'id="moderation"' in c.get("/account").text and 'id="moderation"' not in other.get("/account").text
        assert c.get("/api/admin/chat-reports").json()["reports"][0]["text"] == "<b>rude</b> words"
        assert other.get("/admin/reports").status_code == 404
        assert runner.invoke(cli, ["admin", "revoke", "ana", "--database-url", url]).exit_code == 0
        assert c.get("/admin/reports").status_code == 404


def test_paxh_admins_grants_the_flag_when_a_server_starts(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'paxh.sqlite3'}"
    with new_client(url) as c:
        register(c, "Carla")
        assert c.get("/admin/reports").status_code == 404
    monkeypatch.setenv("PAXH_ADMINS", "carla, dan")
    with new_client(url) as c:     # a restart with PAXH_ADMINS: the existing account gets the flag
        from .test_accounts import login
        login(c, "carla")
        assert c.get("/admin/reports").status_code == 200
    (acct,) = rows(url, adb.accounts)
    assert acct["is_admin"] is True


# ---------------------------------------------------------------- the account page, a page at a time
def _section(html: str, sid: str) -> str:
    return re.search(rf'<section class="panel" id="{sid}">(.*?)</section>', html, re.DOTALL).group(1)


def _walk(c, sid: str) -> list[list[str]]:
    """Every page of one list, following its "older" links from the first page."""
    pages, path = [], "/account"
    for _ in range(50):
        html = c.get(path).text
        part = _section(html, sid)
        pages.append(re.findall(r'<li data-game="([0-9a-f]+)"', part))
        m = re.search(rf'<a href="([^"]+)" id="older-{sid}"', part)
        if m is None:
            return pages
        path = m.group(1).replace("&amp;", "&").split("#")[0]
        assert f'id="newest-{sid}"' in _section(c.get(path).text, sid)
    raise AssertionError("no end of the older links")


@pytest.mark.parametrize("database_url", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
                         indirect=True)
def test_the_account_page_lists_its_games_a_page_at_a_time(database_url, monkeypatch):
    from pax_hispanica.web.accounts import game_lists as account_games
    monkeypatch.setattr(account_games, "PAGE", 3)
    monkeypatch.setattr(account_games, "SCAN", 5)
    with new_client(database_url) as c:
        register(c, "lea")
        made = [c.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
                for _ in range(19)]
        over = [g["game"] for g in made[:7]]
        eng = sa.create_engine(db.sync_url(database_url))
        with eng.begin() as conn:   # seven of them finished, at distinct times (the oldest first)
            for i, gid in enumerate(over):
                conn.execute(db.games.update().where(db.games.c.id == gid).values(
                    status="over", updated_at=sa.func.now() - sa.text(f"{1000 - i} * interval '1 second'")
                    if "postgresql" in database_url else sa.func.datetime("now", f"-{1000 - i} seconds")))
        eng.dispose()
        svc = c.app.state.svc
        mine = {g["game"]: 0 in api.acting(c.portal.call(svc.get, g["game"]).state) for g in made[7:]}
        to_move, waiting, finished = (_walk(c, sid) for sid in ("to-move", "waiting", "finished"))
        for pages in (to_move, waiting, finished):
            flat = [g for p in pages for g in p]
            assert len(flat) == len(set(flat)) and all(len(p) <= 3 for p in pages)
        assert sorted(g for p in to_move for g in p) == sorted(g for g, yes in mine.items() if yes)
        assert sorted(g for p in waiting for g in p) == sorted(g for g, yes in mine.items() if not yes)
        assert [g for p in finished for g in p] == over[::-1]          # newest first, by when they ended
        assert [len(p) for p in finished] == [3, 3, 1]
        assert len(to_move) + len(waiting) >= 4                          # 12 games in pages of 3 at most
        # a cursor that is not one is the first page, not an error
        assert c.get("/account?finished=nonsense~x&to_move=2026-99~zz").status_code == 200


# ---------------------------------------------------------------- an account's own webhook
def test_an_accounts_webhook_is_told_of_its_move(tmp_path, monkeypatch, hooks):  # noqa: F811
    monkeypatch.setenv("PAXH_WEBHOOK_PRIVATE", "1")     # the receiver is on loopback
    url = f"sqlite:///{tmp_path / 'paxh.sqlite3'}"
    with new_client(url) as c:
        register(c, "lea")
        page = c.get("/account/settings").text
        assert 'name="webhook"' in page
        r = c.post("/account/settings", data={"csrf": csrf_of(page), "lang": "en", "time_control": "",
                                              "email": "", "webhook": "ftp://nowhere"})
        assert r.status_code == 400 and "http:// or https://" in r.text
        c.post("/account/settings", data={"csrf": csrf_of(page), "lang": "en", "time_control": "", "email": "",
                                          "notify_webhook": "1", "webhook": hooks.url})
        assert hooks.url in c.get("/account/settings").text
        g = c.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}],
                                       "table": {"pace": "year", "year_seconds": 86400}}).json()
        body = wait_for(lambda: hooks.bodies, 20, "the account's webhook")[0]
        assert body["type"] == "your_move" and body["game"] == g["game"] and body["seat"] == 0
        assert body["url"].endswith(f"/play/{g['seats'][0]['token']}")
        # settings posted without the field keep the address (with the box off: not told)
        c.post("/account/settings", data={"csrf": csrf_of(page), "lang": "en", "time_control": "", "email": ""})
        (acct,) = rows(url, adb.accounts)
        settings = json.loads(acct["settings"])
        assert settings["webhook"] == hooks.url and settings["notify"]["webhook"] is False
