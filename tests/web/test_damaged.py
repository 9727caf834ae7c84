"""A stored record that does not check out (integrity.py) marks its game damaged: the API
answers `damaged_game` (409), pages say so in the user's language, the server logs the game
and the action number, `paxh db check` lists it, and the rows are kept as they were: never
a silently different game, a 500, or "busy" for ever. SQLite and PostgreSQL."""
from __future__ import annotations

import json
import logging

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from pax_hispanica import api
from pax_hispanica.cli import app as cli_app
from pax_hispanica.web.db import schema as db
from pax_hispanica.web.server import create_app

from .helpers import first_legal

pytestmark = pytest.mark.timeout(120)
ACTIONS = 6


def played_game(url: str) -> dict:
    """A 2-player game with ACTIONS stored actions; the app is closed afterwards."""
    with TestClient(create_app(url, bot_delay=0)) as c:
        g = c.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        tokens = [s["token"] for s in g["seats"]]
        for _ in range(ACTIONS):
            views = [c.get(f"/api/view/{t}").json() for t in tokens]
            seat = next(i for i, v in enumerate(views) if v["legal"])
            r = c.post(f"/api/act/{tokens[seat]}", json={"version": views[seat]["version"],
                                                           "action": first_legal(views[seat]["legal"])})
            assert r.status_code == 200, r.text
    return {**g, "tokens": tokens}


def rows(url: str, gid: str) -> tuple:
    eng = sa.create_engine(db.sync_url(url))
    try:
        with eng.connect() as c:
            acts = c.execute(sa.text("SELECT n, action, state_hash FROM actions WHERE game_id = :g ORDER BY n"),
                             {"g": gid}).all()
            version = c.execute(sa.text("SELECT version FROM games WHERE id = :g"), {"g": gid}).scalar_one()
        return [tuple(r) for r in acts], version
    finally:
        eng.dispose()


def sql(url: str, text: str, **params) -> None:
    eng = sa.create_engine(db.sync_url(url))
    try:
        with eng.begin() as c:
            c.execute(sa.text(text), params)
    finally:
        eng.dispose()


def other_legal_action(url: str, gid: str) -> tuple[int, str]:
    """(n, a legal action number n that is not the stored one): only the chain can tell."""
    acts, _ = rows(url, gid)
    eng = sa.create_engine(db.sync_url(url))
    with eng.connect() as c:
        config, seed = c.execute(sa.text("SELECT config, seed FROM games WHERE id = :g"), {"g": gid}).one()
    eng.dispose()
    game = api.Game.new(json.loads(config), int(seed))
    for n, text, _h in acts:
        stored = json.loads(text)
        choices = [a for a in api.expand(api.legal_actions(game.state, stored["seat"]))
                   if a != stored and a.get("type") != "undo"]
        if choices:
            return n, json.dumps(choices[-1])
        game.act(stored)
    raise AssertionError("no other legal action to swap in")


def edit_action(url, gid):
    n, action = other_legal_action(url, gid)
    sql(url, "UPDATE actions SET action = :a WHERE game_id = :g AND n = :n", a=action, g=gid, n=n)
    return n, "does not match"


def delete_action(url, gid):
    sql(url, "DELETE FROM actions WHERE game_id = :g AND n = 2", g=gid)
    return 2, "gap"


def bad_json(url, gid):
    sql(url, "UPDATE actions SET action = '{not json' WHERE game_id = :g AND n = 3", g=gid)
    return 3, "not JSON"


def version_off_by_one(url, gid):
    sql(url, "UPDATE games SET version = version + 1 WHERE id = :g", g=gid)
    return ACTIONS, "games.version"


def edit_state_hash(url, gid):
    sql(url, "UPDATE actions SET state_hash = :h WHERE game_id = :g AND n = 4", h="0" * 64, g=gid)
    return 4, "does not match"


def refused_action(url, gid):
    sql(url, "UPDATE actions SET action = :a WHERE game_id = :g AND n = 5",
        a=json.dumps({"seat": 0, "type": "no_such_action"}), g=gid)
    return 5, "refuses"


DAMAGE = [edit_action, delete_action, bad_json, version_off_by_one, edit_state_hash, refused_action]


@pytest.mark.parametrize("damage", DAMAGE, ids=[d.__name__ for d in DAMAGE])
def test_damage_is_detected_reported_and_kept(database_url, damage, caplog):
    g = played_game(database_url)
    n, words = damage(database_url, g["game"])
    before = rows(database_url, g["game"])
    caplog.set_level(logging.ERROR, logger="pax_hispanica.web")
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        for tok in (g["tokens"][0], g["spectator"], g["host"]):
            r = c.get(f"/api/view/{tok}")
            assert r.status_code == 409, r.text
            err = r.json()["error"]
            assert err["code"] == "damaged_game" and f"action {n}:" in err["message"] and words in err["message"]
        r = c.post(f"/api/act/{g['tokens'][0]}", json={"version": ACTIONS, "action": {"seat": 0, "type": "pass"}})
        assert r.status_code == 409 and r.json()["error"]["code"] == "damaged_game"
        assert c.get(f"/api/record/{g['spectator']}").json()["error"]["code"] == "damaged_game"
        page = c.get(f"/play/{g['tokens'][0]}?lang=en")
        assert page.status_code == 409 and "record is damaged" in page.text
        assert "malmès" in c.get(f"/watch/{g['spectator']}?lang=ca").text
        assert c.get(f"/host/{g['host']}").status_code == 409
    logged = [r.getMessage() for r in caplog.records if g["game"] in r.getMessage()]
    assert len(logged) == 1 and f"action {n}:" in logged[0], logged
    # kept: the rows are as they were (only games.status/damage say what was found)
    assert rows(database_url, g["game"]) == before
    out = CliRunner().invoke(cli_app, ["db", "check", "--database-url", database_url, "-q"])
    assert out.exit_code == 1, out.output
    assert f"damaged game {g['game']}: action {n}:" in out.output


def test_a_clean_database_checks_out(database_url):
    played_game(database_url)
    out = CliRunner().invoke(cli_app, ["db", "check", "--database-url", database_url])
    assert out.exit_code == 0, out.output
    assert "1 games checked, 0 damaged" in out.output


def test_db_check_refuses_a_missing_or_unmigrated_database_and_creates_nothing(tmp_path):
    out = CliRunner().invoke(cli_app, ["db", "check", "--data-dir", str(tmp_path)])
    assert out.exit_code == 2 and "no database file" in out.output, out.output
    assert not (tmp_path / "paxh.sqlite3").exists()
    empty = tmp_path / "empty.sqlite3"
    sa.create_engine(f"sqlite:///{empty}").connect().close()
    out = CliRunner().invoke(cli_app, ["db", "check", "--database-url", f"sqlite:///{empty}"])
    assert out.exit_code == 2 and "migrate" in out.output, out.output
    assert not sa.inspect(sa.create_engine(f"sqlite:///{empty}")).has_table("games")


def test_version_off_by_one_on_a_cached_game_is_damage_not_busy(database_url):
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        g = c.post("/api/games", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        tokens = [s["token"] for s in g["seats"]]
        views = [c.get(f"/api/view/{t}").json() for t in tokens]     # cached in this server
        seat = next(i for i, v in enumerate(views) if v["legal"])
        sql(database_url, "UPDATE games SET version = version + 1 WHERE id = :g", g=g["game"])
        r = c.post(f"/api/act/{tokens[seat]}", json={"version": 0, "action": first_legal(views[seat]["legal"])})
        assert r.status_code == 409 and r.json()["error"]["code"] == "damaged_game", r.text
        assert c.get(f"/api/view/{tokens[0]}").json()["error"]["code"] == "damaged_game"


def test_actions_from_before_the_chain_are_accepted_and_filled(database_url):
    """Rows stored before migration 0004 have no state_hash: a game made only of those replays,
    and loading it fills in the hashes (the same ones the server would have stored)."""
    g = played_game(database_url)
    before, _ = rows(database_url, g["game"])
    sql(database_url, "UPDATE actions SET state_hash = NULL WHERE game_id = :g", g=g["game"])
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        assert c.get(f"/api/view/{g['spectator']}").json()["version"] == ACTIONS
    assert rows(database_url, g["game"])[0] == before
    # but a hash missing after a hashed action is damage
    sql(database_url, "UPDATE actions SET state_hash = NULL WHERE game_id = :g AND n = 3", g=g["game"])
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        r = c.get(f"/api/view/{g['spectator']}")
        assert r.status_code == 409 and "action 3: its state hash is missing" in r.json()["error"]["message"]


def test_a_repaired_record_is_served_again(database_url):
    g = played_game(database_url)
    good, _ = rows(database_url, g["game"])
    sql(database_url, "UPDATE actions SET state_hash = :h WHERE game_id = :g AND n = 1", h="f" * 64, g=g["game"])
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        assert c.get(f"/api/view/{g['spectator']}").status_code == 409
    sql(database_url, "UPDATE actions SET state_hash = :h WHERE game_id = :g AND n = 1", h=good[1][2], g=g["game"])
    with TestClient(create_app(database_url, bot_delay=0)) as c:   # a new process: checks again
        assert c.get(f"/api/view/{g['spectator']}").json()["version"] == ACTIONS
    eng = sa.create_engine(db.sync_url(database_url))
    with eng.connect() as conn:
        assert conn.execute(sa.text("SELECT status, damage FROM games")).one() == ("active", None)
    eng.dispose()


def test_a_game_made_by_the_old_generator_is_reported_never_replayed(database_url):
    """PRJ-1: format-1 records (SplitMix64) would replay to another game under the keyed
    generator: such a game is reported as damaged with the reason, its rows kept."""
    g = played_game(database_url)
    sql(database_url, "UPDATE games SET record_format = 'paxh-record-1' WHERE id = :g", g=g["game"])
    before = rows(database_url, g["game"])
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        r = c.get(f"/api/view/{g['spectator']}")
        assert r.status_code == 409 and r.json()["error"]["code"] == "damaged_game"
        assert "paxh-record-1" in r.json()["error"]["message"]
    assert rows(database_url, g["game"]) == before
    out = CliRunner().invoke(cli_app, ["db", "check", "--database-url", database_url, "-q"])
    assert out.exit_code == 1 and "SplitMix64" in out.output, out.output


@pytest.mark.parametrize("old", ["reference-1", "reference-0"])
def test_PRJ_37_a_game_of_an_earlier_reference_ruleset_is_reported_never_replayed(database_url, old):
    """A stored game whose row names reference-1 (the reference before PRJ-37, refused) or a
    version this engine does not have is damaged with the reason and the versions it plays
    (PRJ-50), its rows kept: it is never replayed under the current numbers. (A reference-2
    game continues: tests/web/test_versions_web.py.)"""
    g = played_game(database_url)
    sql(database_url, "UPDATE games SET ruleset_version = :v WHERE id = :g", v=old, g=g["game"])
    before = rows(database_url, g["game"])
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        r = c.get(f"/api/view/{g['spectator']}")
        assert r.status_code == 409 and r.json()["error"]["code"] == "damaged_game"
        msg = r.json()["error"]["message"]
        assert old in msg and "reference-8" in msg and "PRJ-37" in msg, msg
        assert "reference-2 (reference-3 with prestige_to_win=25)" in msg, msg
    assert rows(database_url, g["game"]) == before
    out = CliRunner().invoke(cli_app, ["db", "check", "--database-url", database_url, "-q"])
    assert out.exit_code == 1 and old in out.output, out.output
