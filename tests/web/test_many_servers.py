"""Two server processes on one PostgreSQL database serve the same game; updates
fan out through LISTEN/NOTIFY, and the database decides who stored first."""
from __future__ import annotations

import json
import urllib.error

import pytest
from websockets.sync.client import connect

from .helpers import first_legal

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(120)]


def next_update(ws, version: int) -> dict:
    while True:
        m = json.loads(ws.recv(timeout=15))
        if m["type"] == "update" and m["version"] >= version:
            return m


def test_two_servers_share_games_through_postgres(server_factory, pg_url):
    a = server_factory(pg_url)
    b = server_factory(pg_url)
    g = a.post("/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    t0, t1 = (s["token"] for s in g["seats"])
    with connect(f"ws://127.0.0.1:{a.port}/ws/{g['spectator']}?fmt=json") as ws_a, \
            connect(f"ws://127.0.0.1:{b.port}/ws/{g['spectator']}?fmt=json") as ws_b:
        start = next_update(ws_b, 0)["version"]
        next_update(ws_a, 0)
        for step in range(6):
            # alternate the server that receives the action
            srv = (a, b)[step % 2]
            views = [srv.get(f"/api/view/{t}") for t in (t0, t1)]
            seat = next(i for i, v in enumerate(views) if v["legal"])
            v = views[seat]
            r = srv.post(f"/api/act/{(t0, t1)[seat]}", {"version": v["version"], "action": first_legal(v["legal"])})
            assert r["version"] == v["version"] + 1
            # both servers' sockets hear of it
            for ws in (ws_a, ws_b):
                assert next_update(ws, r["version"])["version"] == r["version"]
        # the same stale request sent to the other server is refused there too
        other = b if srv is a else a
        with pytest.raises(urllib.error.HTTPError) as e:
            other.post(f"/api/act/{(t0, t1)[seat]}", {"version": v["version"], "action": first_legal(v["legal"])})
        assert e.value.code in (409, 422)
        assert a.get(f"/api/view/{t0}")["version"] == b.get(f"/api/view/{t0}")["version"] == start + 6


def test_servers_starting_at_once_on_an_empty_database_all_come_up(server_factory):
    """Migrations run under a PostgreSQL advisory lock (db.migrate): the second server waits
    for the first one's upgrade instead of failing on CREATE TABLE."""
    import threading

    from .conftest import PG_URL, fresh_pg_database

    if not PG_URL:
        pytest.skip("no PostgreSQL")
    for _trial in range(3):
        url = fresh_pg_database()
        errors: list[BaseException] = []
        up: list = []

        def start(up: list = up, url: str = url, errors: list[BaseException] = errors) -> None:
            try:
                up.append(server_factory(url))
            except BaseException as e:  # reported below
                errors.append(e)

        threads = [threading.Thread(target=start) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(150)     # longer than Server.start's own 90 s deadline: it reports first
        assert not errors, errors
        assert len(up) == 2 and all(s.get("/healthz")["ok"] for s in up)
        for s in up:
            s.stop()


def test_a_seat_handed_to_a_bot_refuses_its_former_player_on_another_server(server_factory, pg_url):
    """The store checks the acting seat's kind in the same statement (games._STORE_PG), so
    server B's stale cache of the seats does not let the old player in."""
    a = server_factory(pg_url, bot_delay=30)   # the new bot waits: only the refusal is measured
    b = server_factory(pg_url)
    for _ in range(10):
        g = a.post("/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
        tokens = [s["token"] for s in g["seats"]]
        views = [b.get(f"/api/view/{t}") for t in tokens]   # B caches the game, both seats human
        seat = next(i for i, v in enumerate(views) if v["legal"])
        a.post(f"/api/seat/{tokens[seat]}/bot", {"seat": seat})
        with pytest.raises(urllib.error.HTTPError) as e:
            b.post(f"/api/act/{tokens[seat]}", {"version": views[seat]["version"],
                                                 "action": first_legal(views[seat]["legal"])})
        assert e.value.code == 403
        assert json.loads(e.value.read())["error"]["code"] == "wrong_seat"
        assert b.get(f"/api/view/{tokens[seat]}")["version"] == views[seat]["version"]
