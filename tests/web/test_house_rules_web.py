"""PRJ-81, PRJ-83: a web game with house rules names them on its pages (English and Catalan),
and the lobby offers the named sets of house rules."""
from __future__ import annotations

import re

import pytest

from pax_hispanica import api
from pax_hispanica.web.present import panels
from pax_hispanica.web.present.i18n import Tr

from .test_api import form_post, new_game

pytestmark = pytest.mark.timeout(120)


def test_PRJ_83_the_lobby_offers_the_named_sets_and_a_game_of_one_names_its_house_rules(client):
    lobby = client.get("/").text
    assert 'name="house_rules"' in lobby and '<option value="reference-7">' in lobby
    r = form_post(client, {"players": "2", "kind0": "human", "kind1": "bot", "house_rules": "reference-7"})
    assert r.status_code == 303, r.text
    page = client.get(r.headers["location"]).text
    line = re.search(r'<strong id="house-rules"[^>]*>(.*?)</strong>', page, re.S)
    assert line, "the status line names the house rules"
    assert "House rules" in line.group(1) and "The rules of version 7" in line.group(1) and "TRS-2" in line.group(1)
    assert "reference-7" not in line.group(1)                # the set in words, not its id (issue 38)


def test_PRJ_83_a_bad_set_is_refused_by_the_lobby(client):
    r = form_post(client, {"players": "2", "kind0": "human", "kind1": "bot", "house_rules": "reference-99"})
    assert r.status_code == 400 and "PRJ-83" in r.text


def test_PRJ_81_a_game_of_the_printed_rules_names_no_house_rule(client):
    g = new_game(client, params={"conquistador_prestige": 2})      # a variant, not a house rule
    page = client.get(f"/play/{g['seats'][0]['token']}").text
    assert 'id="variant"' in page and 'id="house-rules"' not in page
    g = new_game(client, params={"sell_price": 2})                  # HND-3's $1: a house rule
    page = client.get(f"/play/{g['seats'][0]['token']}").text
    assert 'id="house-rules"' in page and "HND-3" in page


def test_PRJ_81_the_house_rules_line_in_english_and_catalan():
    g = api.Game.new(api.Config(players=2, params={"house_rules": "reference-7"}), 5)
    view = api.view(g.state, None, include_state=False)
    en, ca = panels.house_rules_line(view, Tr("en")), panels.house_rules_line(view, Tr("ca"))
    assert en.startswith("The rules of version 7: ") and "TRS-2" in en and "TRS-1" in en   # the set in words
    assert ca.startswith("Les regles de la versió 7: ") and "TRS-2" in ca and ca != en      # the rules' titles in Catalan
    assert Tr("ca")("house_rules") == "Regles de la casa" and Tr("en")("house_rules") == "House rules"
    plain = api.view(api.Game.new(api.Config(players=2), 5).state, None, include_state=False)
    assert panels.house_rules_line(plain, Tr("en")) == ""


def test_PRJ_82_a_stored_reference_7_game_continues_under_its_own_rules(database_url, monkeypatch):
    """The rows the reference-7 server stored (tests/web/data/reference_7_stored.json, made by
    scripts/make_reference2_fixture.py --commit 913fb8b --expect reference-7) load under
    reference-7 (PRJ-50), continue, and the page names reference-7's house rules (PRJ-81)."""
    from pathlib import Path

    from fastapi.testclient import TestClient

    from pax_hispanica.web.server import create_app

    from . import test_versions_web as old
    from .helpers import first_legal
    monkeypatch.setattr(old, "FIXTURE", Path(__file__).parent / "data" / "reference_7_stored.json")
    data = old.store_old_game(database_url)
    (row,) = data["games"]
    assert row["ruleset_version"] == "reference-7"
    tokens, spectator, n = data["tokens"], data["spectator_token"], len(data["actions"])
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        body = c.get(f"/api/view/{spectator}").json()
        assert body["version"] == n and body["view"]["ruleset_version"] == "reference-7"
        assert body["view"]["ruleset_params"] == {}
        views = [c.get(f"/api/view/{t}").json() for t in tokens]
        seat = next(i for i, v in enumerate(views) if v["legal"])
        r = c.post(f"/api/act/{tokens[seat]}", json={"version": views[seat]["version"],
                                                       "action": first_legal(views[seat]["legal"])})
        assert r.status_code == 200 and r.json()["version"] == n + 1, r.text
        page = c.get(f"/watch/{spectator}").text
        assert 'id="house-rules"' in page and "TRS-2" in page
    got = old.game_row(database_url, data["game"])
    assert (got["status"], got["damage"], got["ruleset_version"]) == ("active", None, "reference-7")
    assert got["actions"][:n] == [(a["n"], a["state_hash"]) for a in data["actions"]]
