"""PRJ-50: a stored web game of reference-2 (the goal of 25 Prestige, before PRJ-55), in the
rows the old server stored (tests/web/data/reference_2_stored.json: made by the server of the
commit before reference-3, scripts/make_reference2_fixture.py), is not damaged: today's
server replays it under reference-2, its hash chain checks, it continues, `paxh db check`
counts it by version, and its page and the rules page show its goal of 25 Prestige.
SQLite and PostgreSQL."""
from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from pax_hispanica import api
from pax_hispanica.cli import app as cli_app
from pax_hispanica.web.db import schema as db
from pax_hispanica.web.server import create_app

from .helpers import first_legal

pytestmark = pytest.mark.timeout(180)
FIXTURE = Path(__file__).parent / "data" / "reference_2_stored.json"


def old_rows() -> dict:
    return json.loads(FIXTURE.read_text())


def store_old_game(url: str) -> dict:
    """The old server's rows, as it stored them, in a database of today's schema."""
    db.migrate(url)
    data = old_rows()
    eng = sa.create_engine(db.sync_url(url))
    try:
        with eng.begin() as conn:
            for name in ("games", "seats", "actions"):
                table = db.metadata.tables[name]
                rows = [{k: datetime.fromisoformat(v) if isinstance(table.c[k].type, sa.DateTime) and v else v
                         for k, v in row.items()} for row in data[name]]
                conn.execute(table.insert(), rows)
    finally:
        eng.dispose()
    return data


def game_row(url: str, gid: str) -> dict:
    eng = sa.create_engine(db.sync_url(url))
    try:
        with eng.connect() as conn:
            g = conn.execute(sa.select(db.games).where(db.games.c.id == gid)).mappings().one()
            acts = conn.execute(sa.select(db.actions.c.n, db.actions.c.state_hash)
                                .where(db.actions.c.game_id == gid).order_by(db.actions.c.n)).all()
        return {**g, "actions": [tuple(a) for a in acts]}
    finally:
        eng.dispose()


def test_PRJ_50_the_fixture_is_the_old_servers_reference_2_game():
    data = old_rows()
    (g,) = data["games"]
    assert g["ruleset_version"] == "reference-2" and g["record_format"] == api.RECORD_FORMAT
    assert g["version"] == len(data["actions"]) == 9 and all(a["state_hash"] for a in data["actions"])
    assert json.loads(g["config"])["ruleset"] == "reference" and g["status"] == "active"


def test_PRJ_50_a_stored_reference_2_game_continues_under_its_own_numbers(database_url):
    data = store_old_game(database_url)
    gid, tokens, spectator = data["game"], data["tokens"], data["spectator_token"]
    old_hashes = [(a["n"], a["state_hash"]) for a in data["actions"]]
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        r = c.get(f"/api/view/{spectator}")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["version"] == 9 and body["view"]["ruleset_version"] == "reference-2"
        assert body["view"]["ruleset_params"] == {}
        views = [c.get(f"/api/view/{t}").json() for t in tokens]
        seat = next(i for i, v in enumerate(views) if v["legal"])
        r = c.post(f"/api/act/{tokens[seat]}", json={"version": views[seat]["version"],
                                                       "action": first_legal(views[seat]["legal"])})
        assert r.status_code == 200 and r.json()["version"] == 10, r.text
        page = c.get(f"/watch/{spectator}").text
        goal = re.search(r'<a id="goal" href="([^"]+)"[^>]*data-goal="(\d+)"[^>]*>([^<]*)</a>', page)
        assert goal is not None, page[:2000]
        assert goal.group(1) == "/rules?version=reference-2#win-condition" and goal.group(2) == "25"
        assert "25 Prestige" in goal.group(3) and "ruleset version 2" in goal.group(3)   # the version in words (issue 38)
        rules = c.get(goal.group(1).split("#")[0]).text
        win = re.search(r'<p id="win-condition">([^<]*)</p>', rules).group(1)
        assert "someone has 25 Prestige" in win, win
        assert 'data-version="reference-2"' in rules
    row = game_row(database_url, gid)
    assert (row["status"], row["damage"], row["ruleset_version"], row["version"]) == ("active", None,
                                                                                       "reference-2", 10)
    assert row["actions"][:9] == old_hashes and row["actions"][9][1]       # the chain goes on
    with TestClient(create_app(database_url, bot_delay=0)) as c:         # another server loads it again
        assert c.get(f"/api/view/{spectator}").json()["version"] == 10
    out = CliRunner().invoke(cli_app, ["db", "check", "--database-url", database_url, "-q"])
    assert out.exit_code == 0, out.output
    assert "ruleset reference-2: 1 games, 0 damaged (earlier, replayed under its own numbers)" in out.output


def test_PRJ_50_db_check_reports_games_by_version(database_url):
    store_old_game(database_url)
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        c.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    eng = sa.create_engine(db.sync_url(database_url))
    with eng.begin() as conn:       # a third game, of a version this engine does not play
        g = conn.execute(sa.select(db.games).where(db.games.c.ruleset_version == "reference-8")).mappings().one()
        conn.execute(db.games.insert(), [{**g, "id": "f" * 16, "ruleset_version": "reference-1",
                                          "host_token": "h" * 20, "spectator_token": "s" * 20}])
    eng.dispose()
    out = CliRunner().invoke(cli_app, ["db", "check", "--database-url", database_url, "-q"])
    assert out.exit_code == 1, out.output
    assert "ruleset reference-2: 1 games, 0 damaged (earlier, replayed under its own numbers)" in out.output
    assert "ruleset reference-8: 1 games, 0 damaged (current)" in out.output
    assert "ruleset reference-1: 1 games, 1 damaged (not replayed)" in out.output
    assert f"damaged game {'f' * 16}: record made with ruleset reference-1" in out.output


def test_PRJ_50_the_rules_page_shows_the_numbers_of_the_version_asked(client):
    now = client.get("/rules").text
    assert "someone has 5 Prestige" in now and 'data-version="reference-8"' in now and "(the current one)" in now
    old = client.get("/rules?version=reference-2").text
    assert "someone has 25 Prestige" in old and 'data-version="reference-2"' in old and "(the current one)" not in old
    ca = client.get("/rules?version=reference-2&lang=ca").text
    assert "algú té 25 de Prestigi" in ca and "Aquestes xifres són les del reglament, versió 2." in ca
    for unknown in ("reference-1", "reference-9", "x" * 300):    # refused or unknown: the current numbers
        page = client.get(f"/rules?version={unknown}&lang=en")
        assert page.status_code == 200 and "someone has 5 Prestige" in page.text


def test_PRJ_50_a_current_games_page_shows_its_goal_and_variant_goal(client):
    g = client.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}],
                                        "params": {"prestige_to_win": 7}})
    assert g.status_code == 200, g.text
    page = client.get(f"/watch/{g.json()['spectator']}").text
    assert 'data-goal="7"' in page and 'href="/rules?version=reference-8#win-condition"' in page
