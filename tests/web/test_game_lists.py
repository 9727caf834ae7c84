"""Game lists (issue 38): the lobby's "your games" and the account page say of each game the
date, your nation against whom (names and nations), its status, and once over the winner and
your place, never its hex id; in English and in Catalan."""
from __future__ import annotations

import html
import random
import re
import time

from pax_hispanica import api
from pax_hispanica.web.present.i18n import Tr

from .test_accounts import csrf_of, new_client, register


def _finish(c, token: str) -> None:
    rng = random.Random(7)
    deadline = time.time() + 240
    while time.time() < deadline:
        v = c.get(f"/api/view/{token}").json()
        if v["over"]:
            return
        if v["legal"]:
            acts = [a for a in api.expand(v["legal"]) if a["type"] != "undo"]
            c.post(f"/api/act/{token}", json={"version": v["version"], "action": rng.choice(acts)})
        else:
            time.sleep(0.02)      # the bot's move
    raise AssertionError("the game did not end")


def _row(html: str, section: str | None = None) -> str:
    if section:
        html = re.search(rf'id="{section}">(.*?)</section>', html, re.S).group(1)
    return re.sub(r"\s+", " ", re.search(r'<li data-game="[0-9a-f]+" class="game-row">(.*?)</li>', html, re.S).group(1))


def test_game_lists_show_opponents_nations_date_status_result_and_place(tmp_path):
    with new_client(f"sqlite:///{tmp_path / 'g.sqlite3'}") as c:
        register(c, "ana")
        page = c.get("/").text
        r = c.post("/games", data={"csrf": csrf_of(page), "players": "2", "mode": "online", "kind0": "human",
                                   "nation0": "spanish", "kind1": "bot", "bot1": "random", "nation1": "english",
                                   "name1": "Drake"}, follow_redirects=False)
        token = r.headers["location"].rsplit("/", 1)[1]
        gid = re.search(r'<li data-game="([0-9a-f]+)"', c.get("/").text).group(1)
        today = time.strftime("%Y-%m-%d", time.gmtime())
        row = _row(c.get("/").text)
        assert f'<time datetime="{today}">{today}</time>' in row
        assert "Spanish against" in row and "Drake (English)" in row and "in progress" in row
        assert gid not in re.sub(r'data-game="[0-9a-f]+"', "", row) and "<code>" not in row
        _finish(c, token)
        result = c.get(f"/api/view/{token}").json()["result"]
        place = result["ranking"].index(0) + 1
        for html, section in ((c.get("/").text, None), (c.get("/account").text, "finished")):
            row = _row(html, section)
            assert "Spanish against" in row and "Drake (English)" in row and "finished" in row
            assert f"your place: {place} of 2" in row
            assert ("Winner: you" in row) == (result["winner"] == 0)
            assert ("Winner: Drake (English)" in row) == (result["winner"] == 1)
            assert gid not in re.sub(r'(data-game|action)="[^"]+"', "", row)
        c.get("/?lang=ca")
        row = _row(c.get("/account").text, "finished")
        ca = Tr("ca")
        assert f'{ca.nation("spanish")} contra <span class="opponent">Drake ({ca.nation("english")})</span>' in row
        assert f"la teva posició: {place} de 2" in row and "acabada" in row


def test_a_refused_variant_is_said_in_the_players_language(tmp_path):
    """The lobby's variant refusals (a number out of its range, not a number, no such name, no
    such set of house rules) in Catalan for a Catalan player, in English for an English one."""
    with new_client(f"sqlite:///{tmp_path / 'v.sqlite3'}") as c:
        def refused(variant: str, house: str = "") -> str:
            page = c.get("/").text
            r = c.post("/games", data={"csrf": csrf_of(page), "players": "2", "kind0": "human", "kind1": "human",
                                       "variant": variant, "house_rules": house}, follow_redirects=False)
            assert r.status_code == 400
            return html.unescape(re.sub(r"\s+", " ", re.search(r'role="alert"[^>]*>(.*?)</', r.text, re.S).group(1)))
        assert "“Cycles in a game” must be between 1 and 20 (you gave 99)" in refused("cycles=99")
        c.get("/?lang=ca")
        assert "«Cicles de la partida» ha d'estar entre 1 i 20 (has posat 99)" in refused("cycles=99")
        assert "«Cicles de la partida» ha de ser un nombre enter, no «tres»" in refused("cycles=tres")
        assert "Cap nombre que una variant pot canviar no es diu «cicles». El formulari de Variant" in refused("cicles=3")
        assert "No hi ha cap joc de regles de la casa anomenat «nope»" in refused("", house="nope")
        for text in (refused("cycles=99"), refused("cicles=3")):
            assert not re.search(r"\b(must|between|number|called|cycles)\b", text, re.I)


def test_a_profile_lists_its_players_games_seen_from_their_seats_by_user_not_name(tmp_path):
    """/u/<name> lists the player's recent games as the other lists do (opponents, nations, date,
    status, result, place), seen from the seats their account sat in: a bot given the same name
    is an opponent, not theirs. Another visitor reads "ana", not "you"; ana reads "you"."""
    url = f"sqlite:///{tmp_path / 'p.sqlite3'}"
    with new_client(url) as c, new_client(url) as other:
        register(c, "ana")
        r = c.post("/games", data={"csrf": csrf_of(c.get("/").text), "players": "2", "mode": "online", "kind0": "human",
                                   "nation0": "spanish", "kind1": "bot", "bot1": "random", "nation1": "english",
                                   "name1": "ana"}, follow_redirects=False)
        token = r.headers["location"].rsplit("/", 1)[1]
        _finish(c, token)
        result = c.get(f"/api/view/{token}").json()["result"]
        place = result["ranking"].index(0) + 1
        row = _row(re.search(r'<ul class="games" id="recent">.*?</ul>', other.get("/u/ana").text, re.S).group(0))
        assert 'Spanish against <span class="opponent">ana (English)</span>' in row and "finished" in row
        assert f"place: {place} of 2" in row and "your place" not in row and "you" not in row.split("Winner", 1)[-1]
        assert ("Winner: ana (English)" in row) == (result["winner"] == 1)
        assert ("Winner: ana</span>" in row) == (result["winner"] == 0)
        assert "Rating change: unrated" in row and 'href="/replay/' in row
        own = _row(re.search(r'<ul class="games" id="recent">.*?</ul>', c.get("/u/ana").text, re.S).group(0))
        assert f"your place: {place} of 2" in own
        other.get("/?lang=ca")
        ca = _row(re.search(r'<ul class="games" id="recent">.*?</ul>', other.get("/u/ana").text, re.S).group(0))
        assert f"posició: {place} de 2" in ca and "acabada" in ca and "teva" not in ca
