"""The lobby's "random" nations (no nations chosen) are drawn from the game's secret:
a keyed hash of it seeds the draw, and the drawn nations are stored in the game's config,
so the record replays with them."""
from __future__ import annotations

import random

import pytest

from pax_hispanica import api
from pax_hispanica.web.games import random_nations

from .test_api import form_post, new_game, seeded_game

pytestmark = pytest.mark.timeout(120)


def nations_of(client, game: dict) -> list[str]:
    view = client.get(f"/api/view/{game['seats'][0]['token']}").json()["view"]
    return [p["nation"] for p in view["players"]]


def test_no_nations_chosen_draws_them_from_the_secret(client):
    order = list(api.load_ruleset("reference").nation_order)
    for seed, players in ((1, 2), (2, 3), (12345678901234567890, 5), (7, 4)):
        g = seeded_game(client, seed, players)
        live = client.app.state.svc.live[g["game"]]
        expected = random.Random(api.derived_seed(seed, "nations")).sample(order, players)
        assert random_nations(seed, players) == expected
        assert live.record["config"]["nations"] == expected          # stored, so it replays
        assert nations_of(client, g) == expected
        assert api.replay(live.record).state is not None


def test_random_nations_differ_across_games(client):
    """Over 12 games (each with its own 128-bit secret), seat 1 is not always the same nation:
    with a uniform draw from 5 nations all 12 agree with probability 5 * (1/5)**12 < 2e-8."""
    firsts = [nations_of(client, new_game(client, 3))[0] for _ in range(12)]
    assert len(set(firsts)) > 1, firsts
    # and the lobby's form, all seats on "random", goes the same way
    lobby = []
    for _ in range(6):
        r = form_post(client, {"players": "2", "kind0": "human", "kind1": "human", "nation0": "", "nation1": ""})
        assert r.status_code == 303, r.text
        host = r.headers["location"].rsplit("/", 1)[-1]
        lobby.append(client.get(f"/api/view/{host}").json()["view"]["players"][0]["nation"])
    assert len(set(firsts + lobby)) > 1


def test_chosen_nations_are_kept(client):
    g = new_game(client, 2, nations=["dutch", "spanish"])
    assert nations_of(client, g) == ["dutch", "spanish"]
