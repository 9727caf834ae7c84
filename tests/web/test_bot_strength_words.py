"""Bots are named by strength in words (Easy, Normal, Strong, Expert, Master; Fàcil, Normal, Fort,
Expert, Mestre), the bot-ladder rating only as detail (issue 38): never "3 (ladder 29.8)"."""
from __future__ import annotations

import html
import re

from pax_hispanica import bots


def _rating(kind, strength=None):
    r = bots.ladder_rating(kind, strength)
    return None if r is None else f"{r['ordinal']:.1f}"


def _options(page, name):
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S).group(1)
    return re.findall(r'<option value="([^"]+)"[^>]*>([^<]*)</option>', select)


def test_the_lobby_names_bot_strengths_in_words_with_the_rating_as_detail(client):
    for lang, words in (("en", ("Easy", "Normal", "Normal", "Strong", "Expert", "Master")),
                        ("ca", ("Fàcil", "Normal", "Normal", "Fort", "Expert", "Mestre"))):
        page = html.unescape(client.get(f"/?lang={lang}").text)
        detail = "ladder" if lang == "en" else "escala"
        strengths = dict(_options(page, "strength1"))
        assert list(strengths) == ["1", "2", "3", "4"]
        for n, word in zip(("1", "2", "3", "4"), words[2:], strict=True):
            label = strengths[n]
            assert label.startswith(word), (lang, label)
            assert not re.match(r"\d", label), label                 # never a bare number
            if _rating("ismcts", int(n)):
                assert f"({detail} {_rating('ismcts', int(n))})" in label
        kinds = dict(_options(page, "bot1"))
        assert f", {words[0]}" in kinds["random"] and f", {words[1]}" in kinds["heuristic"], kinds


def test_a_table_page_names_its_bot_seats_in_words(database_url):
    from .test_accounts import _open_table, csrf_of, new_client, register
    with new_client(database_url) as host:
        register(host, "lea")
        tid = _open_table(host, 2)
        page = host.get(f"/tables/{tid}").text
        kinds = dict(_options(html.unescape(page), "bot_kind"))
        assert ", Normal" in kinds["heuristic"] and ", Easy" in kinds["random"]
        r = host.post(f"/tables/{tid}/start", data={"csrf": csrf_of(page), "bot_kind": "heuristic", "strength": "2"},
                      follow_redirects=False)
        assert r.status_code == 303
        page = html.unescape(host.get(f"/tables/{tid}").text)
        want = "Bot: heuristic, Normal" + (f" (ladder {_rating('heuristic')})" if _rating("heuristic") else "")
        assert want in page, page


def test_the_master_strength_is_the_rollout_search_and_private():
    """Strength 4 (Master) is ISMCTS's rollout preset at 200 iterations (docs/bots.md "Playouts to
    the end of the game": far stronger against the heuristic bots than 800 iterations of the tree),
    private as every bot seat of the web game is."""
    from pax_hispanica.web import engine_port as seam
    assert seam.STRENGTHS == (1, 2, 3, 4)
    assert bots.strength_config("ismcts", 4) == "ismcts:preset=rollout:iterations=200"
    bot = seam.make_bot("ismcts", 7, 4)
    assert (bot.root, bot.playout, bot.final, bot.iterations, bot.private) == ("halving", "heuristic", "soft", 200, True)
