"""Bots are named by strength in words (Easy, Normal, Strong, Expert; Fàcil, Normal, Fort,
Expert), the bot-ladder rating only as detail (issue 38): never "3 (ladder 29.8)"."""
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
    for lang, words in (("en", ("Easy", "Normal", "Normal", "Strong", "Expert")),
                        ("ca", ("Fàcil", "Normal", "Normal", "Fort", "Expert"))):
        page = html.unescape(client.get(f"/?lang={lang}").text)
        detail = "ladder" if lang == "en" else "escala"
        strengths = dict(_options(page, "strength1"))
        for n, word in zip(("1", "2", "3"), words[2:]):
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
