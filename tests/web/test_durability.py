"""A server that dies (SIGKILL) does not take its bot games with it: on PostgreSQL another
server takes over their bot lease once it runs out and finishes them, with no page opened
and no restart (games.py: bot leases)."""
from __future__ import annotations

import time

import pytest

from pax_hispanica import api

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(180)]


def test_bot_games_go_on_after_their_server_is_killed(server_factory, pg_url):
    a = server_factory(pg_url, bot_delay=0.1)    # slow enough that games are mid-way when it dies
    b = server_factory(pg_url, bot_delay=0.02)
    bots = [{"kind": "bot", "bot_kind": "heuristic"}, {"kind": "bot", "bot_kind": "random"}]
    games = [a.post("/api/games", {"players": 2, "seats": bots}) for _ in range(4)]
    time.sleep(2.0)
    at_kill = [b.get(f"/api/view/{g['spectator']}") for g in games]
    assert all(v["version"] > 0 for v in at_kill), "server A moved its bots"
    assert not any(v["over"] for v in at_kill), "the games are still going when A dies"
    a.kill()
    killed = time.monotonic()
    pending = {g["spectator"] for g in games}
    while pending and time.monotonic() - killed < 60:
        for tok in list(pending):
            if b.get(f"/api/view/{tok}")["over"]:
                pending.discard(tok)
        time.sleep(0.5)
    took = time.monotonic() - killed
    assert not pending, f"{len(pending)} games did not finish on B within 60 s"
    # the lease is 3 s, the poll 1 s, and the rest of each game well under 5 s on B
    assert took < 30, took
    print(f"all {len(games)} games finished on B {took:.1f} s after A was killed")
    for g in games:
        view = b.get(f"/api/view/{g['spectator']}")
        record = b.get(f"/api/record/{g['spectator']}")
        assert len(record["actions"]) == view["version"]
        assert api.result(api.replay(record).state) == view["result"]
