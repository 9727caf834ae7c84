"""JSON API and WebSocket: every bad input gets a clear error and changes
nothing; good actions are stored before they are acknowledged.
Runs against SQLite and (marked `postgres`) PostgreSQL."""
from __future__ import annotations

import json
import time

import pytest
import sqlalchemy as sa

from pax_hispanica.web.db import schema as db

from .helpers import as_created, first_legal, wait_for

pytestmark = pytest.mark.timeout(120)


def new_game(client, players=2, seats=None, **extra) -> dict:
    seats = seats or [{"kind": "human"} for _ in range(players)]
    r = client.post("/api/games", json={"players": players, "seats": seats, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def form_post(client, data: dict, **kw):
    """The lobby form as a browser posts it: after loading the lobby, with its CSRF token."""
    import re

    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/").text).group(1)
    return client.post("/games", data={**data, "csrf": token}, follow_redirects=False, **kw)


def seeded_game(client, seed: int, players: int = 2, nations: list | None = None) -> dict:
    """A game with a fixed seed, made on the server side: clients may not choose seeds (PRJ-1)."""
    svc = client.app.state.svc
    return as_created(client.portal.call(lambda: svc.create_game(players, [{"kind": "human"}] * players, nations,
                                                                  seed=seed)))


def acting_token(client, game) -> tuple[str, dict]:
    """The token of a human seat that must act now, with its view."""
    def find():
        for s in game["seats"]:
            if s["token"]:
                v = client.get(f"/api/view/{s['token']}").json()
                if v["legal"]:
                    return s["token"], v
        return None
    # a deadline, not a count of polls (whose time shrinks to nothing... or grows with the load)
    return wait_for(find, 30, "a human seat that must act", pause=lambda: time.sleep(0.02))


def stored_actions(database_url: str, game_id: str) -> int:
    eng = sa.create_engine(db.sync_url(database_url))
    try:
        with eng.connect() as c:
            return c.execute(sa.select(sa.func.count()).select_from(db.actions)
                             .where(db.actions.c.game_id == game_id)).scalar_one()
    finally:
        eng.dispose()


def err(r, status: int, code: str) -> dict:
    assert r.status_code == status, r.text
    body = r.json()["error"]
    assert body["code"] == code, body
    assert body["message"]
    return body


# ---------------------------------------------------------------- creating games
@pytest.mark.parametrize("body", [
    {"players": 1, "seats": [{"kind": "human"}]},
    {"players": 6, "seats": [{"kind": "human"}] * 6},
    {"players": 3, "seats": [{"kind": "human"}] * 2},
    {"players": 2, "seats": [{"kind": "robot"}, {"kind": "human"}]},
    {"players": 2, "seats": [{"kind": "bot", "bot_kind": "skynet"}, {"kind": "human"}]},
    {"players": 2, "seats": [{"kind": "bot", "bot_strength": 9}, {"kind": "human"}]},
    {"players": 2, "seats": [{"kind": "bot", "bot_strength": 5}, {"kind": "human"}]},      # 1..4
    {"players": 2, "seats": [{"kind": "bot", "bot_strength": 0}, {"kind": "human"}]},
    {"players": 2, "seats": [{"kind": "human"}] * 2, "nations": ["spanish", "spanish"]},
    {"players": 2, "seats": [{"kind": "human"}] * 2, "nations": ["martians", "english"]},
    {"players": 2, "seats": [{"kind": "human"}] * 2, "nations": [None, "martians"]},      # a random seat beside
    {"players": 2, "seats": [{"kind": "human"}] * 2, "nations": [None]},                   # one seat short
    {"players": 2, "seats": [{"kind": "human"}] * 2, "nations": [None, None, None]},       # one seat too many
    {"players": 2, "seats": [{"kind": "human"}] * 2, "nations": [None, 3]},                # not a name
    {"players": 2, "seats": [{"kind": "human"}] * 2, "mode": "carrier-pigeon"},
    {"players": "two", "seats": []},
    [],
])
def test_create_game_rejects_bad_input(client, body):
    err(client.post("/api/games", json=body), 400, "malformed")


def test_create_game_rejects_non_json(client):
    err(client.post("/api/games", content=b"{nope", headers={"Content-Type": "application/json"}), 400,
        "malformed")


def test_create_game_gives_secret_links(client):
    g = new_game(client, 3, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot_kind": "random"}])
    tokens = [s["token"] for s in g["seats"]]
    assert tokens[2] is None  # a bot seat has no join link
    assert len(set(tokens[:2] + [g["spectator"], g["host"]])) == 4
    assert all(len(t) >= 20 for t in tokens[:2])


# ---------------------------------------------------------------- unknown links
def test_unknown_token(client):
    err(client.get("/api/view/nope"), 404, "unknown_token")
    err(client.post("/api/act/nope", json={"version": 0, "action": {"seat": 0, "type": "pass"}}), 404,
        "unknown_token")
    assert client.get("/play/nope").status_code == 404
    with client.websocket_connect("/ws/nope") as ws:
        msg = json.loads(ws.receive_text())
        assert msg["type"] == "error" and msg["code"] == "unknown_token"


# ---------------------------------------------------------------- acting over HTTP
def test_bad_actions_change_nothing(client, database_url):
    g = new_game(client)
    token, v = acting_token(client, g)
    seat, version = v["seat"], v["version"]
    other = 1 - seat
    good = first_legal(v["legal"])
    before = stored_actions(database_url, g["game"])
    bad = [
        (b"not json", 400, "malformed"),
        (b"[1, 2]", 400, "malformed"),
        (json.dumps({"version": version}).encode(), 400, "malformed"),                     # no action
        (json.dumps({"version": version, "action": "bid"}).encode(), 400, "malformed"),     # not an object
        (json.dumps({"version": version, "action": {"type": "pass"}}).encode(), 400, "malformed"),  # no seat
        (json.dumps({"version": version, "action": {"seat": "0", "type": "pass"}}).encode(), 400, "malformed"),
        (json.dumps({"version": version, "action": {"seat": True, "type": "pass"}}).encode(), 400, "malformed"),
        (json.dumps({"action": good}).encode(), 400, "malformed"),                          # no version
        (json.dumps({"version": "7", "action": good}).encode(), 400, "malformed"),
        (json.dumps({"version": version + 1, "action": good}).encode(), 409, "stale_version"),
        (json.dumps({"version": version - 1, "action": good}).encode(), 409, "stale_version"),
        (json.dumps({"version": version, "action": {**good, "seat": other}}).encode(), 403, "wrong_seat"),
        (json.dumps({"version": version, "action": {**good, "seat": 7}}).encode(), 403, "wrong_seat"),
        (json.dumps({"version": version, "action": {"seat": seat, "type": "x" * 9000}}).encode(), 400,
         "malformed"),
    ]
    for body, status, code in bad:
        err(client.post(f"/api/act/{token}", content=body), status, code)
    # a well-formed action the engine refuses
    r = client.post(f"/api/act/{token}", json={"version": version,
                                               "action": {"seat": seat, "type": "no_such_action"}})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"]
    # the spectator may not act at all
    err(client.post(f"/api/act/{g['spectator']}", json={"version": version, "action": good}), 403, "wrong_seat")
    after = client.get(f"/api/view/{token}").json()
    assert after["version"] == version
    assert after["view"] == v["view"]
    assert stored_actions(database_url, g["game"]) == before


def test_good_action_is_stored_before_ack(client, database_url):
    g = new_game(client)
    token, v = acting_token(client, g)
    r = client.post(f"/api/act/{token}", json={"version": v["version"], "action": first_legal(v["legal"])})
    assert r.status_code == 200, r.text
    assert r.json()["version"] == v["version"] + 1
    assert stored_actions(database_url, g["game"]) == v["version"] + 1
    # replaying the same request is now stale, not a second action
    r = client.post(f"/api/act/{token}", json={"version": v["version"], "action": first_legal(v["legal"])})
    err(r, 409, "stale_version")


def test_record_is_secret_until_the_end(client):
    g = new_game(client)
    err(client.get(f"/api/record/{g['spectator']}"), 403, "game_not_over")


def test_replay_locked_until_the_end(client):
    g = new_game(client)
    assert client.get(f"/replay/{g['spectator']}").status_code == 403


# ---------------------------------------------------------------- WebSocket
def ws_messages(ws, until_type: str, limit: int = 50) -> list[dict]:
    out = []
    for _ in range(limit):
        m = json.loads(ws.receive_text())
        out.append(m)
        if m["type"] == until_type:
            return out
    raise AssertionError(f"no {until_type} in {out}")


def test_websocket_bad_messages(client, database_url):
    g = new_game(client)
    token, v = acting_token(client, g)
    seat, version = v["seat"], v["version"]
    good = first_legal(v["legal"])
    with client.websocket_connect(f"/ws/{token}?fmt=json") as ws:
        first = json.loads(ws.receive_text())
        assert first["type"] == "update" and first["version"] == version and first["seat"] == seat
        cases = [
            ("not json", "malformed"),
            ("[]", "malformed"),
            (json.dumps({"type": "dance", "id": 1}), "malformed"),
            (json.dumps({"type": "act", "id": 2, "action": good}), "malformed"),
            (json.dumps({"type": "act", "id": 3, "version": version, "action": 5}), "malformed"),
            (json.dumps({"type": "act", "id": 4, "version": version + 3, "action": good}), "stale_version"),
            (json.dumps({"type": "act", "id": 5, "version": version, "action": {**good, "seat": 1 - seat}}),
             "wrong_seat"),
            (json.dumps({"type": "act", "id": 6, "version": version, "action": {"seat": seat, "type": "zzz"}}),
             None),
            (json.dumps({"type": "reveal", "id": 7}), "wrong_seat"),
            ("x" * 10000, "malformed"),
        ]
        for text, code in cases:
            ws.send_text(text)
            m = json.loads(ws.receive_text())
            assert m["type"] == "error", m
            assert m["message"]
            if code:
                assert m["code"] == code, m
        assert stored_actions(database_url, g["game"]) == version
        ws.send_text(json.dumps({"type": "act", "id": 99, "version": version, "action": good}))
        msgs = ws_messages(ws, "ack")
        assert msgs[-1] == {"type": "ack", "id": 99, "version": version + 1}
        assert any(m["type"] == "update" and m["version"] == version + 1 for m in msgs)
        assert stored_actions(database_url, g["game"]) == version + 1


def test_websocket_spectator_gets_updates_but_cannot_act(client):
    g = new_game(client)
    token, v = acting_token(client, g)
    good = first_legal(v["legal"])
    with client.websocket_connect(f"/ws/{g['spectator']}?fmt=json") as spec:
        m = json.loads(spec.receive_text())
        assert m["seat"] is None and m["legal"] == []
        spec.send_text(json.dumps({"type": "act", "id": 1, "version": v["version"], "action": good}))
        assert json.loads(spec.receive_text())["code"] == "wrong_seat"
        assert client.post(f"/api/act/{token}", json={"version": v["version"], "action": good}).status_code == 200
        m = json.loads(spec.receive_text())
        assert m["type"] == "update" and m["version"] == v["version"] + 1


def test_ping_and_echo(client):
    g = new_game(client)
    with client.websocket_connect(f"/ws/{g['spectator']}?fmt=json") as ws:
        ws.receive_text()
        ws.send_text(json.dumps({"type": "ping", "id": "a"}))
        assert json.loads(ws.receive_text()) == {"type": "pong", "id": "a"}
    with client.websocket_connect("/ws/echo") as ws:
        ws.send_text("hello")
        assert ws.receive_text() == "hello"


# ---------------------------------------------------------------- seats and bots
def test_leaving_player_is_replaced_by_a_bot(client):
    g = new_game(client)
    token, v = acting_token(client, g)
    seat = v["seat"]
    other_token = next(s["token"] for s in g["seats"] if s["seat"] != seat)
    # another player may not hand my seat to a bot
    err(client.post(f"/api/seat/{other_token}/bot", json={"seat": seat}), 403, "wrong_seat")
    r = client.post(f"/api/seat/{token}/bot", json={"bot_kind": "random"})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][seat]["kind"] == "bot"
    # the bot acts in that seat on its own
    now = wait_for(lambda: (n := client.get(f"/api/view/{token}").json())["version"] > v["version"] and n,
                   30, "the bot's move", pause=lambda: time.sleep(0.02))
    # and the human can no longer act for it
    if now["legal"]:
        err(client.post(f"/api/act/{token}", json={"version": now["version"], "action": first_legal(now["legal"])}),
            403, "wrong_seat")


def test_host_can_hand_a_seat_to_a_bot(client):
    g = new_game(client)
    r = client.post(f"/api/seat/{g['host']}/bot", json={"seat": 1, "bot_kind": "heuristic"})
    assert r.status_code == 200, r.text
    err(client.post(f"/api/seat/{g['host']}/bot", json={"seat": 1, "bot_kind": "skynet"}), 400, "malformed")
    err(client.post(f"/api/seat/{g['spectator']}/bot", json={"seat": 0}), 403, "wrong_seat")


# ---------------------------------------------------------------- restart
def test_restart_rebuilds_every_game_from_the_record(database_url):
    from fastapi.testclient import TestClient

    from pax_hispanica.web.server import create_app

    with TestClient(create_app(database_url, bot_delay=0)) as c:
        g = new_game(c)
        for _ in range(3):
            token, v = acting_token(c, g)
            assert c.post(f"/api/act/{token}", json={"version": v["version"],
                                                     "action": first_legal(v["legal"])}).status_code == 200
        views = {s["token"]: c.get(f"/api/view/{s['token']}").json() for s in g["seats"]}
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        for token, before in views.items():
            after = c.get(f"/api/view/{token}").json()
            assert after["version"] == before["version"]
            assert after["view"] == before["view"]
            assert after["legal"] == before["legal"]


def test_undo_takes_back_ones_own_last_action(client):
    """The undo button's message: the engine's undo (PRJ-2), stored like any action."""
    import random

    g = seeded_game(client, 3)
    tokens = [s["token"] for s in g["seats"]]
    rng = random.Random(4)
    for _ in range(300):
        views = [client.get(f"/api/view/{t}").json() for t in tokens]
        undoable = next((i for i, v in enumerate(views) if v["can_undo"]), None)
        if undoable is not None:
            break
        seat = next(i for i, v in enumerate(views) if v["legal"])
        from pax_hispanica import api

        acts = [a for a in api.expand(views[seat]["legal"]) if a["type"] != "undo"]
        assert client.post(f"/api/act/{tokens[seat]}", json={"version": views[seat]["version"],
                                                             "action": rng.choice(acts)}).status_code == 200
        previous = views
    else:
        pytest.fail("no seat could undo in 300 moves of this seeded game: choose a seed that reaches one")
    before = previous[undoable]["view"]["players"]
    v = views[undoable]
    other = 1 - undoable
    # only the seat itself may undo
    err(client.post(f"/api/act/{tokens[other]}", json={"version": v["version"],
                                                       "action": {"seat": undoable, "type": "undo"}}), 403, "wrong_seat")
    r = client.post(f"/api/act/{tokens[undoable]}", json={"version": v["version"],
                                                          "action": {"seat": undoable, "type": "undo"}})
    assert r.status_code == 200, r.text
    after = client.get(f"/api/view/{tokens[undoable]}").json()
    assert after["version"] == v["version"] + 1
    assert after["view"]["players"] == before
    html = client.get(f"/play/{tokens[undoable]}").text
    assert ('id="undo"' in html) == after["can_undo"]


def test_lobby_lists_my_games_without_leaking_the_host_link(client):
    import re

    r = form_post(client, {"players": "2", "mode": "online", "kind0": "human", "kind1": "human",
                           "nation0": "", "nation1": ""})
    assert r.status_code == 303
    assert r.headers["location"].startswith("/play/")   # the creator lands in their seat ...
    seat_page = client.get(r.headers["location"]).text
    host_token = re.search(r'id="host-link" href="/host/([^"]+)"', seat_page).group(1)  # ... the links a click away
    links = client.get(f"/host/{host_token}").text
    join = re.findall(r'href="/play/([^"]+)"', links)
    assert len(join) == 2
    lobby = client.get("/").text
    assert host_token in lobby and join[0] in lobby  # the creator sits in the first seat
    # another browser (no cookie) that opens the second seat's link sees the game, but not the host link
    client.cookies.clear()
    assert client.get(f"/play/{join[1]}").status_code == 200
    mine = client.get("/").text
    assert join[1] in mine and host_token not in mine and join[0] not in mine
    assert 'id="host-link"' not in client.get(f"/play/{join[1]}").text   # nor on the seat's page


def test_random_garbage_actions_never_break_the_game(client, database_url):
    """Odd field values of every type, for every action type: a clear refusal or a legal move,
    never a server error, and the record stays in step with the version."""
    import random

    from pax_hispanica import api

    rng = random.Random(11)
    g = new_game(client)
    declared = [fields for d in api.decision_types() for fields in d["actions"].items()]   # every decision's actions
    types = list(dict.fromkeys(["undo"] + [kind for kind, _f in declared])) + ["fly"]
    fields = list(dict.fromkeys(f for _k, fs in declared for f in fs))
    values = [None, True, -1, 0, 1, 7, 10**12, 2.5, "", "market", "europe", "atlantico", "galeon-1", "employ",
              "attacker", [], {}, [1, 2], {"a": 1}, "x" * 50]
    for _ in range(300):
        token, v = acting_token(client, g)
        action = {"seat": v["seat"], "type": rng.choice(types)}
        for f in rng.sample(fields, rng.randint(0, 3)):
            action[f] = rng.choice(values)
        r = client.post(f"/api/act/{token}", json={"version": v["version"], "action": action})
        assert r.status_code in (200, 400, 403, 409, 422), (action, r.status_code, r.text)
        if r.status_code != 200:
            assert r.json()["error"]["code"]
    final = client.get(f"/api/view/{g['seats'][0]['token']}").json()
    assert stored_actions(database_url, g["game"]) == final["version"]


def test_a_failing_bot_does_not_stall_the_game(tmp_path, monkeypatch):
    """If a bot raises or keeps proposing refused moves, a seeded random move keeps the game going."""
    from fastapi.testclient import TestClient

    from pax_hispanica.web.play import service as games
    from pax_hispanica.web.server import create_app

    class Broken:
        def decide(self, view, legal):
            raise RuntimeError("bot crashed")

    monkeypatch.setattr(games, "make_bot", lambda kind, seed, strength=None: Broken())
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.sqlite3'}", bot_delay=0)) as c:
        g = c.post("/api/games", json={"players": 2, "seats": [{"kind": "bot"}, {"kind": "bot"}]}).json()
        # a whole game of fallback moves: a deadline (the old 500 polls of 20 ms were ~10 s,
        # short for a loaded machine), and on failure where it stalled
        seen = {}

        def over() -> bool:
            seen.update(c.get(f"/api/view/{g['spectator']}").json())
            return seen["over"]
        try:
            wait_for(over, 90, "the game's end", pause=lambda: time.sleep(0.02))
        except AssertionError:
            raise AssertionError(f"stalled at version {seen.get('version')}") from None


def test_a_player_who_left_can_be_replaced_by_the_others(client):
    svc = client.app.state.svc
    g = new_game(client)
    t0, t1 = (s["token"] for s in g["seats"])
    with client.websocket_connect(f"/ws/{t0}?fmt=json") as ws0:
        ws0.receive_text()
        with client.websocket_connect(f"/ws/{t1}?fmt=json") as ws1:
            ws1.receive_text()
            ws0.send_text(json.dumps({"type": "takeover", "id": 1, "seat": 1}))
            while (m := json.loads(ws0.receive_text()))["type"] != "error":
                pass
            assert m["code"] == "wrong_seat"  # seat 1's player is here
        svc.AWAY_AFTER_SECONDS = 0.0  # seat 1's page closed: gone at once, for the test
        time.sleep(0.05)
        client.get(f"/play/{t0}")  # presence is refreshed on page loads and heartbeats
        assert 1 in svc.live[g["game"]].away
        assert "(away)" in client.get(f"/play/{t0}").text
        ws0.send_text(json.dumps({"type": "takeover", "id": 2, "seat": 1}))
        while (m := json.loads(ws0.receive_text()))["type"] != "update" or m["seats"][1]["kind"] != "bot":
            assert m["type"] != "error", m


@pytest.mark.parametrize("form", [
    {"players": "9999"},
    {"players": "two"},
    {"players": "2", "kind0": "human", "kind1": "human", "nation0": "dutch", "nation1": "dutch"},
    {"players": "2", "kind0": "human", "kind1": "human", "nation0": "dutch", "nation1": "atlantis"},
    {"players": "2", "kind0": "human", "kind1": "human", "variant": "cycles"},
    {"players": "2", "kind0": "human", "kind1": "human", "variant": "royal_fifth=5"},
])
def test_new_game_form_errors_are_shown_on_the_lobby(client, form):
    r = form_post(client, form)
    assert r.status_code == 400
    assert 'role="alert"' in r.text


def test_PRJ_31_a_variant_game_is_created_stored_shown_and_replayed(client, database_url):
    g = new_game(client, params={"conquistador_prestige": 2, "cycles": 2})
    token = g["seats"][0]["token"]
    view = client.get(f"/api/view/{token}").json()
    assert view["view"]["ruleset_params"] == {"conquistador_prestige": 2, "cycles": 2}
    assert "CONQUISTADOR: Prestige per Chest: 2" in client.get(f"/play/{token}").text   # in words (issue 38)
    eng = sa.create_engine(db.sync_url(database_url))
    try:
        with eng.connect() as c:
            config = json.loads(c.execute(sa.select(db.games.c.config).where(db.games.c.id == g["game"])).scalar_one())
    finally:
        eng.dispose()
    assert config["params"] == {"conquistador_prestige": 2, "cycles": 2}


def test_PRJ_31_a_bad_variant_is_refused_and_stores_nothing(client, database_url):
    def count() -> int:
        eng = sa.create_engine(db.sync_url(database_url))
        try:
            with eng.connect() as c:
                return c.execute(sa.select(sa.func.count()).select_from(db.games)).scalar_one()
        finally:
            eng.dispose()
    before = count()
    r = client.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}] * 2, "params": {"cycles": 0}})
    body = err(r, 400, "bad_config")
    assert body["rule"] == "PRJ-31" and "cycles must be at least 1" in body["message"]
    form = form_post(client, {"players": "2", "kind0": "human", "kind1": "bot",
                              "variant": "conquistador_prestige=two"})
    # the lobby's refusal is in the player's language (issue 38), from the catalogue, not the engine's English
    assert form.status_code == 400
    assert "“CONQUISTADOR: Prestige per Chest” takes a whole number, not “two”." in form.text
    assert count() == before
    ok = form_post(client, {"players": "2", "kind0": "human", "kind1": "bot",
                            "variant": "conquistador_prestige=2, cycles=3"})
    assert ok.status_code == 303
    assert count() == before + 1
