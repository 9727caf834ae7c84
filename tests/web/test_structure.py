"""The web layer's structure (issue 14, "Structure first"): the map draws itself from the
ruleset's data, the bot kinds come from the bots registry, and WebSocket messages are
dispatched through a table of typed handlers."""
from __future__ import annotations

import json
import re
import shutil

from pax_hispanica import api, bots
from pax_hispanica.rulesets import DATA
from pax_hispanica.web.present import svgmap
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.present.info import ruleset_info
from pax_hispanica.web.play import ws_routes as ws

from .test_api import new_game


def test_a_ruleset_with_another_board_draws_itself(tmp_path):
    folder = tmp_path / "other"
    shutil.copytree(DATA / "reference", folder)
    m = folder / "map.toml"
    m.write_text(m.read_text().replace("width = 1000", "width = 1200").replace("pos = [330, 55]", "pos = [1111, 77]"))
    n = folder / "nations.toml"
    n.write_text(n.read_text().replace('color = "#c0392b"', 'color = "#010203"'))
    info = ruleset_info(str(folder))
    view = api.view(api.new_game(api.Config(players=3, ruleset=str(folder)), seed=1), 0)
    svg = svgmap.render(view, Tr("en", ["A", "B", "C"], info.names), info)
    assert 'viewBox="0 0 1200 660"' in svg
    florida = re.search(r'<g id="zone-florida" class="zone-group[^"]*"><rect [^>]*x="(\d+)" y="(\d+)"', svg)
    assert florida and (int(florida[1]), int(florida[2])) == (1111 - svgmap.LAND_W // 2, 77 - svgmap.LAND_H // 2)
    spanish = next(p["seat"] for p in view["players"] if p["nation"] == "spanish")
    assert svgmap.seat_color(view, spanish, info) == "#010203"
    reference = ruleset_info()
    assert svgmap.seat_color(view, spanish, reference) == api.board_layout()["nations"]["spanish"]["color"]


def test_the_lobby_offers_the_registered_bot_kinds_and_the_api_accepts_each(client):
    page = client.get("/").text
    offered = re.findall(r'<option value="([a-z]+)"( data-search)?>', page.split('name="bot0"')[1].split("</select>")[0])
    assert sorted(k for k, _ in offered) == sorted(bots.KINDS)
    assert offered[0][0] == bots.DEFAULT_KIND
    assert {k for k, s in offered if s} == set(bots.SEARCH_KINDS)
    for kind in bots.KINDS:
        r = client.post("/api/games", json={"players": 2, "seats": [{"kind": "human"},
                                                                    {"kind": "bot", "bot_kind": kind}]})
        assert r.status_code == 200 and r.json()["seats"][1]["bot_kind"] == kind
    r = client.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot_kind": "x"}]})
    assert r.status_code == 400 and r.json()["error"]["code"] == "malformed"


def test_every_websocket_message_type_has_a_typed_handler(client):
    # the game's own messages, and play/turn_based.py's (social/chat_routes.py: clocks and chat; chat has its own
    # per-seat limit, social/chat.py)
    assert set(ws.HANDLERS) == {"act", "reveal", "refresh", "ping", "leave", "takeover",
                                "hello", "chat", "chat_mute", "chat_report", "chat_end"}
    assert all(issubclass(h.model, ws.Message) for h in ws.HANDLERS.values())
    assert {k for k, h in ws.HANDLERS.items() if h.limited} == {"act", "leave", "takeover"}
    g = new_game(client)
    with client.websocket_connect(f"/ws/{g['spectator']}?fmt=json") as sock:
        sock.receive_text()
        sock.send_text(json.dumps({"type": "dance", "id": 3}))
        m = json.loads(sock.receive_text())
        assert m["code"] == "malformed" and m["id"] == 3 and all(k in m["message"] for k in ws.HANDLERS)
        sock.send_text(json.dumps({"type": "act", "id": 4, "version": True, "action": {}}))
        m = json.loads(sock.receive_text())
        assert m["code"] == "malformed" and m["id"] == 4 and "version" in m["message"]
