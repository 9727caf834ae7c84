"""The lobby's "random" nations (no nations chosen) are drawn from the game's secret:
a keyed hash of it seeds the draw, and the drawn nations are stored in the game's config,
so the record replays with them."""
from __future__ import annotations

import random
import re

import pytest

from pax_hispanica import api
from pax_hispanica.web.play.service import random_nations

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


def test_some_seats_chosen_keep_theirs_and_the_rest_are_drawn_from_the_others(client):
    """A player who wants the Spanish against bots of any nation: the chosen seats keep their
    nation, the seats left on "random" get different nations of the rest, drawn from the secret."""
    order = list(api.load_ruleset("reference").nation_order)
    for seed, chosen in ((3, ["spanish", None, None]), (4, [None, "dutch", None, "french"]), (5, [None, "english"])):
        g = seeded_game(client, seed, len(chosen), nations=chosen)
        got = nations_of(client, g)
        rest = [n for n in order if n not in chosen]
        drawn = iter(random.Random(api.derived_seed(seed, "nations")).sample(rest, chosen.count(None)))
        assert got == [n if n is not None else next(drawn) for n in chosen]
        assert len(set(got)) == len(got) and all(n == c for n, c in zip(got, chosen) if c)
        live = client.app.state.svc.live[g["game"]]
        assert live.record["config"]["nations"] == got                # stored, so it replays
    # over several secrets the random seats are not always the same nations
    seen = {tuple(nations_of(client, new_game(client, 3, nations=["spanish", None, None]))[1:]) for _ in range(8)}
    assert len(seen) > 1, seen


def test_a_nation_chosen_twice_is_refused_with_a_clear_error(client):
    r = client.post("/api/games", json={"players": 3, "seats": [{"kind": "human"}] * 3,
                                        "nations": ["dutch", None, "dutch"]})
    assert r.status_code == 400 and r.json()["error"]["code"] == "malformed", r.text
    assert "different" in r.json()["error"]["message"]
    r = form_post(client, {"players": "3", "kind0": "human", "kind1": "bot", "kind2": "bot",
                           "nation0": "french", "nation1": "", "nation2": "french"})
    assert r.status_code == 400 and "Each nation plays one seat only" in r.text
    client.get("/?lang=ca")                                            # the same refusal in Catalan
    r = form_post(client, {"players": "2", "kind0": "human", "kind1": "bot", "nation0": "french", "nation1": "french"})
    client.get("/?lang=en")
    assert r.status_code == 400 and "Cada nació juga un sol seient" in r.text


def test_the_lobby_form_plays_the_chosen_nation_against_random_ones(client):
    r = form_post(client, {"players": "3", "kind0": "human", "kind1": "bot", "kind2": "bot",
                           "nation0": "spanish", "nation1": "", "nation2": ""})
    assert r.status_code == 303, r.text
    token = r.headers["location"].rsplit("/", 1)[-1]
    nations = [p["nation"] for p in client.get(f"/api/view/{token}").json()["view"]["players"]]
    assert nations[0] == "spanish" and len(set(nations)) == 3, nations


def test_a_refused_lobby_form_comes_back_as_it_was_sent(client):
    """Nothing typed is lost to a refusal: names, nations, seats' kinds and bots, the pace and
    the variant are filled in again (escaped), and the reason is shown."""
    sent = {"players": "4", "mode": "hotseat", "pace": "turn", "turn_hours": "48", "chat": "off",
            "name0": 'Eva "<b>"', "nation0": "spanish", "kind0": "human", "kind1": "bot", "bot1": "random",
            "kind2": "human", "name2": "Jordi", "nation2": "spanish", "kind3": "bot", "bot3": "ismcts",
            "strength3": "3", "p.cycles": "3"}
    r = form_post(client, sent)
    assert r.status_code == 400 and 'role="alert"' in r.text and "different" in r.text
    page = r.text
    assert '<option value="4" selected>' in page and '<option value="hotseat" selected>' in page
    assert '<option value="turn" selected>' in page and 'value="48"' in page and '<option value="off" selected>' in page
    assert 'value="Eva &#34;&lt;b&gt;&#34;"' in page and "<b>" not in page.split("new-game", 1)[1].split("</form>", 1)[0]
    assert 'name="name2" value="Jordi"' in page and re.search(r'name="p.cycles"[^>]*value="3"', page) and '<details class="variant" open>' in page
    rows = page.split('class="seat-row"')[1:]
    assert '<option value="spanish" selected>' in rows[0] and '<option value="spanish" selected>' in rows[2]
    assert '<option value="human" selected>' in rows[2] and '<option value="bot" selected>' in rows[1]
    assert '<option value="random" selected>' in rows[1] and '<option value="ismcts" data-search selected>' in rows[3]
    assert '<option value="3" selected>' in rows[3]
    # a fresh lobby keeps its defaults: three players, seat 1 a person, the others bots
    fresh = client.get("/").text
    assert '<option value="3" selected>' in fresh and " selected" not in fresh.split('name="nation0"', 1)[1].split("</select>", 1)[0]
