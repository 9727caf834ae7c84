"""Schema migrations (Alembic) and the in-memory cache of games."""
from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from pax_hispanica.web import db


def alembic_config(url: str) -> Config:
    from pathlib import Path

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
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
