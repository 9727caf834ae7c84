"""Schema migrations (Alembic) and the in-memory cache of games."""
from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from pax_hispanica.web.db import schema as db


def alembic_config(url: str) -> Config:
    from pathlib import Path

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(db.__file__).parent.parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", db.sync_url(url).replace("%", "%%"))
    return cfg


def test_migrations_upgrade_existing_data_and_downgrade(database_url):
    cfg = alembic_config(database_url)
    command.upgrade(cfg, "0001")
    eng = sa.create_engine(db.sync_url(database_url))
    try:
        with eng.begin() as c:
            c.execute(sa.text("INSERT INTO games (id, config, seed, host_token, spectator_token) "
                              "VALUES ('g1', '{}', 1, 'h', 's')"))
        db.migrate(database_url)  # to head, as the server does at start-up
        db.migrate(database_url)  # and again: nothing to do
        with eng.connect() as c:
            assert c.execute(sa.text("SELECT bot_turn FROM games WHERE id = 'g1'")).scalar_one() in (True, 1)
            # 0004: the BIGINT seed became the text of the same int (128-bit secrets fit)
            assert c.execute(sa.text("SELECT seed FROM games WHERE id = 'g1'")).scalar_one() == "1"
        command.downgrade(cfg, "base")
        assert "games" not in sa.inspect(eng).get_table_names()
    finally:
        eng.dispose()


def test_idle_games_leave_memory_and_come_back_by_replay(client):
    g = client.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    token = g["seats"][0]["token"]
    before = client.get(f"/api/view/{token}").json()
    svc = client.app.state.svc
    assert g["game"] in svc.live
    assert svc.sweep(time.monotonic() + svc.IDLE_SECONDS + 1) >= 1
    assert g["game"] not in svc.live
    after = client.get(f"/api/view/{token}").json()
    assert after["view"] == before["view"] and g["game"] in svc.live


def test_games_get_128_bit_secrets_and_share_no_hash(client):
    """Seeds come from `secrets` (128 bits, stored as text); two games with the same config
    show no hex digest in common (seed hash, sealed-choice commitments): nothing here
    depends on how the engine derives them."""
    import json
    import re

    from .helpers import first_legal

    seats = [{"kind": "human"}, {"kind": "human"}]
    games = [client.post("/api/games", json={"players": 2, "seats": seats}).json() for _ in range(6)]
    svc = client.app.state.svc
    eng = sa.create_engine(db.sync_url(svc.url))
    with eng.connect() as c:
        seeds = [int(c.execute(sa.text("SELECT seed FROM games WHERE id = :g"), {"g": g["game"]}).scalar_one())
                 for g in games]
    eng.dispose()
    assert len(set(seeds)) == len(seeds)
    assert sum(s.bit_length() > 100 for s in seeds) >= 5 and max(seeds) < 2**128
    digests = []
    for g in games[:2]:  # the same moves in both games
        tokens = [s["token"] for s in g["seats"]]
        for _ in range(4):
            views = [client.get(f"/api/view/{t}").json() for t in tokens]
            for seat, v in enumerate(views):
                if v["legal"]:
                    client.post(f"/api/act/{tokens[seat]}", json={"version": v["version"],
                                                                   "action": first_legal(v["legal"])})
        shown = json.dumps(client.get(f"/api/view/{g['spectator']}").json())
        digests.append(set(re.findall(r"\b[0-9a-f]{32,}\b", shown)))
    assert digests[0] and digests[1], "the views show some hash"
    assert not digests[0] & digests[1]


def test_bot_seeds_are_keyed_hashes_of_the_secret():
    from pax_hispanica.api import derived_seed

    secret = 2**127 + 12345
    seeds = {derived_seed(secret, f"bot|{seat}") for seat in range(5)}
    assert len(seeds) == 5 and all(0 <= s < 2**63 for s in seeds)
    assert derived_seed(secret, "bot|0") == derived_seed(secret, "bot|0")
    assert derived_seed(secret + 1, "bot|0") != derived_seed(secret, "bot|0")
    assert secret * 8 + 1 not in seeds


def test_memory_holds_at_most_max_live_games_least_recently_used_leave_first(client):
    svc = client.app.state.svc
    svc.MAX_LIVE_GAMES = 3
    seats = [{"kind": "human"}, {"kind": "human"}]
    games = [client.post("/api/games", json={"players": 2, "seats": seats}).json() for _ in range(3)]
    watched = svc.live[games[0]["game"]]
    watched.listeners.add(lambda live: None)     # a connection: never evicted
    client.get(f"/api/view/{games[1]['spectator']}")    # games[2] is now the least recently used idle one
    newer = [client.post("/api/games", json={"players": 2, "seats": seats}).json() for _ in range(2)]
    assert len(svc.live) == 3
    assert games[0]["game"] in svc.live and games[2]["game"] not in svc.live and games[1]["game"] not in svc.live
    assert all(g["game"] in svc.live for g in newer)
    # an evicted game comes back by replay when it is needed
    assert client.get(f"/api/view/{games[2]['spectator']}").json()["version"] == 0
    assert len(svc.live) == 3 and games[0]["game"] in svc.live
    watched.listeners.clear()
