"""Corpus games played through the web server (tests/corpus/web.jsonl, issue 13).

The server runs in-process (FastAPI's TestClient, a throwaway SQLite database, no rate
limits, bots without delay). Each game has one human seat, played by a client that reads
``GET /api/view/{token}`` and answers with ``POST /api/act/{token}`` exactly as the page
does, choosing with a local bot; the other seats are the server's own bots. The client
never chooses the seed (``POST /api/games`` refuses one, PRJ-1): the server draws a
128-bit secret. After the end the record is fetched from ``GET /api/record/{token}``.
Needs the ``web`` extra (fastapi, httpx).
"""
from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..bots import make_agent
from ..bots.base import stable_seed
from . import corpus

# (players, the human seat's bot, the server bots of the other seats)
GAMES = [(2, "heuristic", ["random"]), (3, "random", ["heuristic", "random"]),
         (4, "heuristic", ["random", "heuristic", "random"]), (5, "random", ["heuristic"] * 4),
         (2, "random", ["heuristic"]), (3, "heuristic", ["random", "random"])]


def _wait_turn(client: Any, token: str, timeout: float = 120.0) -> dict[str, Any]:
    t0 = time.monotonic()
    while True:
        v: dict[str, Any] = client.get(f"/api/view/{token}").json()
        if v["over"] or v["legal"]:
            return v
        if time.monotonic() - t0 > timeout:
            raise RuntimeError("the server's bots did not move")
        time.sleep(0.005)


def play_web_game(client: Any, players: int, human: str, bots: list[str], k: int) -> dict[str, Any]:
    seats = [{"kind": "human", "name": "Corpus"}] + [{"kind": "bot", "bot_kind": b} for b in bots]
    r = client.post("/api/games", json={"players": players, "seats": seats})
    r.raise_for_status()
    g = r.json()
    token = g["seats"][0]["token"]
    agent = make_agent(human, stable_seed("corpus-web", k))
    while True:
        v = _wait_turn(client, token)
        if v["over"]:
            break
        action = agent.decide(v["view"], v["legal"])
        r = client.post(f"/api/act/{token}", json={"version": v["version"], "action": action})
        if r.status_code != 200 and r.json().get("error", {}).get("code") != "stale_version":
            raise RuntimeError(f"the server refused {action}: {r.text[:300]}")
    record: dict[str, Any] = client.get(f"/api/record/{g['spectator']}").json()
    return record


def web_entries(n: int) -> Iterator[dict[str, Any]]:
    os.environ.setdefault("PAXH_RATE_CREATE", "0")
    os.environ.setdefault("PAXH_RATE_ACT", "0")
    from fastapi.testclient import TestClient

    from .. import api
    from ..web.server import create_app
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'corpus.sqlite3'}"
        with TestClient(create_app(url, data_dir=tmp, bot_delay=0)) as client:
            for k in range(n):
                players, human, bots = GAMES[k % len(GAMES)]
                record = play_web_game(client, players, human, bots, k)
                game = api.replay(record)
                yield corpus.entry(game, id=f"web-{players}p-{k}", source="web",
                                   bots=[human] + bots, seats=["client"] + ["server"] * len(bots))
