"""A server that dies (SIGKILL) does not take its bot games with it: on PostgreSQL another
server takes over their bot lease once it runs out and finishes them, with no page opened
and no restart (games.py: bot leases)."""
from __future__ import annotations

import time

import pytest

from pax_hispanica import api

from .helpers import wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(240)]


def test_bot_games_go_on_after_their_server_is_killed(server_factory, pg_url):
    a = server_factory(pg_url, bot_delay=0.1)    # slow enough that games are mid-way when it dies
    b = server_factory(pg_url, bot_delay=0.02)
    bots = [{"kind": "bot", "bot_kind": "heuristic"}, {"kind": "bot", "bot_kind": "random"}]
    games = [a.post("/api/games", {"players": 2, "seats": bots}) for _ in range(4)]
    # A has moved every game (waited for, not a fixed sleep: a busy machine may be slow to start)
    wait_for(lambda: all(b.get(f"/api/view/{g['spectator']}")["version"] > 0 for g in games), 60,
             "server A to move its bots")
    at_kill = [b.get(f"/api/view/{g['spectator']}") for g in games]
    assert not any(v["over"] for v in at_kill), "the games are still going when A dies"
    a.kill()
    killed = time.monotonic()
    # what A had stored when it died (read after the kill: A moves nothing more)
    stored = {g["spectator"]: b.get(f"/api/view/{g['spectator']}")["version"] for g in games}
    moved: dict[str, float] = {}    # when B was first seen moving each game
    pending = {g["spectator"] for g in games}
    while pending and time.monotonic() - killed < 150:
        for tok in list(pending):
            v = b.get(f"/api/view/{tok}")
            if v["version"] > stored[tok]:
                moved.setdefault(tok, time.monotonic() - killed)
            if v["over"]:
                pending.discard(tok)
        time.sleep(0.5)
    took = time.monotonic() - killed
    assert not pending, f"{len(pending)} games did not finish on B within 150 s"
    # B takes each game over once A's lease runs out (the lease is 3 s, the poll 1 s): the
    # takeover is what is timed, not the rest of the games, which a loaded machine may slow
    assert set(moved) == set(stored) and max(moved.values()) < 30, moved
    print(f"all {len(games)} games finished on B {took:.1f} s after A was killed")
    for g in games:
        view = b.get(f"/api/view/{g['spectator']}")
        record = b.get(f"/api/record/{g['spectator']}")
        assert len(record["actions"]) == view["version"]
        assert api.result(api.replay(record).state) == view["result"]
