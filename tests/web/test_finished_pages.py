"""What a finished game's pages say (PRJ-74): places the game made (a Visita, a Cathedral a card
placed) by their names in both languages, never their ids; an empty hand and the Details panel
in words of the page's language; no "tell me when it is my move" once the game is over."""
from __future__ import annotations

import html
import json
import re
from functools import cache

import pytest
from fastapi.testclient import TestClient

from pax_hispanica import api
from pax_hispanica.sim import corpus
from pax_hispanica.web.play.model import LiveGame, Seat
from pax_hispanica.web.present import jinja_env, page_context, replay, updates
from pax_hispanica.web.present.i18n import LANGS
from pax_hispanica.web.server import create_app

from .helpers import first_legal, wait_for

MADE_ID = re.compile(r"\b[a-z_]+\.(?:visita|cathedral)-\d+\b")


def visible(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


@cache
def games_that_made_places() -> list[dict]:
    out = []
    for _file, e in corpus.load():
        game = api.replay(e["record"])
        if any(ev["type"] in ("VisitaPlaced", "CathedralPlaced") for ev in game.events):
            out.append(e["record"])
        if len(out) == 6:
            break
    return out


def live_of(record: dict) -> LiveGame:
    game = api.replay(record)
    seats = [Seat(k, "human", None, None, "", f"t{k}", None) for k in range(record["config"]["players"])]
    return LiveGame("g", record, 1, "online", "h", "s", None, seats, game.state, game.events)


def texts(x) -> list[str]:
    if isinstance(x, dict):
        return [t for k, v in x.items() if k not in ("tr", "id", "top_id", "cards", "json", "action") for t in texts(v)]
    if isinstance(x, (list, tuple)):
        return [t for v in x for t in texts(v)]
    return [visible(str(x))] if isinstance(x, str) else []


@pytest.mark.parametrize("lang", LANGS)
def test_PRJ_74_a_finished_game_names_the_places_it_made_on_its_page_and_replay(lang):
    records = games_that_made_places()
    assert len(records) >= 3
    named = 0
    for rec in records:
        live = live_of(rec)
        assert live.over
        made = {ev["site"] for ev in live.events if ev["type"] in ("VisitaPlaced", "CathedralPlaced")}
        shown = texts(updates.html_update(live, None, None, "spectator", lang)) + \
            texts(updates.html_update(live, 0, None, "seat", lang)) + \
            texts(replay.replay_context(live, len(rec["actions"]), lang))
        for t in shown:
            assert not MADE_ID.search(t), f"{lang}: an id on a finished game's page: {MADE_ID.search(t).group(0)}"
        tr = page_context.name_new_places(page_context.translator(live, lang), api.view(live.state, None))
        names = {tr.word(site) for site in made}
        assert all(not MADE_ID.search(n) for n in names), names
        named += sum(any(n in t for t in shown) for n in names)
    assert named > 0      # the names are on the page (the map, the log), not just absent ids


@pytest.mark.parametrize("lang, empty, supply", [("en", "No cards in hand.", "Supply"),
                                                 ("ca", "Cap carta a la mà.", "Reserva")])
def test_an_empty_hand_and_the_details_are_words_of_the_pages_language(lang, empty, supply):
    rec = games_that_made_places()[0]
    live = live_of(dict(rec, actions=rec["actions"][:0]))
    page = json.dumps(updates.html_update(live, 0, None, "seat", lang), ensure_ascii=False)
    assert empty in page and "<li class=\\\"empty\\\">—" not in page
    assert f"<dt>{supply}</dt>" in page
    if lang == "ca":
        assert "<dt>Supply</dt>" not in page and "<dt>Gone</dt>" not in page and "Seed hash" not in page
    ctx = replay.replay_context(live_of(rec), 0, lang)
    assert f"<dt>{supply}</dt>" in str(ctx["details"])


def test_a_finished_games_page_has_no_tell_me_when_it_is_my_move(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'x.sqlite3'}", bot_delay=0)) as c:
        g = c.post("/api/games", json={"players": 2, "seats": [{"kind": "human", "name": "Ana"},
                                                               {"kind": "bot", "bot_kind": "random"}]}).json()
        token = g["seats"][0]["token"]
        assert 'id="notify"' in c.get(f"/play/{token}").text       # while the game is on
        for _ in range(2000):
            v = c.get(f"/api/view/{token}").json()
            if v["over"]:
                break
            if v["legal"]:
                c.post(f"/api/act/{token}", json={"version": v["version"], "action": first_legal(v["legal"])})
            else:
                wait_for(lambda v=v: c.get(f"/api/view/{token}").json()["version"] != v["version"], what="the bot")
        assert v["over"]
        assert 'id="notify"' not in c.get(f"/play/{token}").text


@pytest.mark.parametrize("lang, begun, random_nation", [("en", "it has begun", "Random"),
                                                        ("ca", "ha començat", "A l’atzar")])
def test_a_year_that_has_only_begun_says_so_and_the_lobby_capitalises_random(lang, begun, random_nation, tmp_path):
    """"What happened: • Sail Year" alone read as a heading with its text lost."""
    from pax_hispanica.web.present.i18n import Tr

    out = jinja_env.env.get_template("_happened.html").render(
        t=Tr(lang), lang=lang,
        summary=[{"title": "X", "items": [], "year": "sail"}, {"title": "Y", "items": ["a", "b"]}],
        recent={"fleets": [], "zones": [], "colonies": [], "players": [], "cards": []})
    assert f"<strong>X</strong>: {begun}</li>" in out and "<strong>Y</strong>: a; b</li>" in out
    with TestClient(create_app(f"sqlite:///{tmp_path / 'x.sqlite3'}", bot_delay=0)) as c:
        assert f'<option value="">{random_nation}</option>' in c.get(f"/?lang={lang}", follow_redirects=True).text
