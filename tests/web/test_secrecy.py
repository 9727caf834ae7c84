"""A player's page never contains another player's hand: checked in the HTML
the server sent (the page and every WebSocket update) all through a game."""
from __future__ import annotations

import json
import random
import re

import pytest

from pax_hispanica import api

pytestmark = pytest.mark.timeout(180)


def hidden_cards(client, tokens: list[str], seat: int) -> set[str]:
    """Card ids in other seats' hands, as their owners see them."""
    out = set()
    for s, t in enumerate(tokens):
        if s != seat:
            v = client.get(f"/api/view/{t}").json()["view"]
            out.update(v["players"][s]["hand"] or [])
    return out


def own_cards(client, token: str, seat: int) -> list[str]:
    return client.get(f"/api/view/{token}").json()["view"]["players"][seat]["hand"] or []


def contains_id(html: str, cid: str) -> bool:
    return re.search(rf"(?<![\w.-]){re.escape(cid)}(?![\w.-])", html) is not None


def test_pages_never_hold_other_hands(tmp_path):
    from fastapi.testclient import TestClient

    from pax_hispanica.web.server import create_app

    rng = random.Random(5)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.sqlite3'}", bot_delay=0)) as c:
        g = c.post("/api/games", json={"players": 3, "seats": [{"kind": "human"}] * 3}).json()
        tokens = [s["token"] for s in g["seats"]]
        checks = 0
        with c.websocket_connect(f"/ws/{tokens[0]}") as ws0, \
                c.websocket_connect(f"/ws/{g['spectator']}") as wss:
            for _ in range(400):
                views = [c.get(f"/api/view/{t}").json() for t in tokens]
                if views[0]["over"]:
                    break
                someone_holds = any(v["view"]["players"][i]["hand"] for i, v in enumerate(views))
                if someone_holds and views[0]["version"] % 3 == 0:
                    for seat, t in enumerate(tokens):
                        html = c.get(f"/play/{t}").text
                        secret = hidden_cards(c, tokens, seat) - set(own_cards(c, t, seat))
                        for cid in secret:
                            assert not contains_id(html, cid), f"seat {seat}'s page shows {cid}"
                        hand_html = re.search(r'<ul class="hand" id="hand">(.*?)</ul>', html, re.S).group(1)
                        assert sorted(re.findall(r'data-card="([^"]+)"', hand_html)) == sorted(own_cards(c, t, seat))
                    spec = c.get(f"/watch/{g['spectator']}").text
                    for cid in hidden_cards(c, tokens, -1):
                        assert not contains_id(spec, cid)
                    checks += 1
                seat, v = next((i, v) for i, v in enumerate(views) if v["legal"])
                acts = [a for a in api.expand(v["legal"]) if a["type"] != "undo"]
                r = c.post(f"/api/act/{tokens[seat]}", json={"version": v["version"], "action": rng.choice(acts)})
                assert r.status_code == 200, r.text
                # what the sockets were sent since
                for ws, viewer in ((ws0, 0), (wss, -1)):
                    while True:
                        m = json.loads(ws.receive_text())
                        if m["type"] == "update" and m["version"] == v["version"] + 1:
                            break
                    secret = hidden_cards(c, tokens, viewer)
                    if viewer == 0:
                        secret -= set(own_cards(c, tokens[0], 0))
                    for cid in secret:
                        assert not contains_id(json.dumps(m, ensure_ascii=False), cid), f"socket of {viewer} got {cid}"
        assert views[0]["over"], "the game did not finish"
        assert checks > 10


def test_HID_1_a_seat_handed_to_a_bot_shows_its_former_player_only_what_a_spectator_sees(tmp_path):
    from fastapi.testclient import TestClient

    from pax_hispanica.web.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.sqlite3'}", bot_delay=0)) as c:
        g = c.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        t1 = g["seats"][1]["token"]
        assert c.get(f"/api/view/{t1}").json()["seat"] == 1
        r = c.post(f"/api/seat/{g['host']}/bot", json={"seat": 1, "bot_kind": "random"})
        assert r.status_code == 200, r.text
        for _ in range(50):          # the bot may still be moving: compare two reads of one version
            mine, public = c.get(f"/api/view/{t1}").json(), c.get(f"/api/view/{g['spectator']}").json()
            if mine["version"] == public["version"]:
                break
        assert mine["seat"] is None and mine["legal"] == []
        assert mine["view"] == public["view"] and mine["events"] == public["events"]
        page = c.get(f"/play/{t1}?lang=en", follow_redirects=True).text
        assert "A bot plays your seat now" in page and 'id="leave"' not in page
