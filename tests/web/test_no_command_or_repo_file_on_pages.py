"""No page tells a player to run a command or read a repository file (issue 38): the lobby's
Variant form has a field for every number a variant may change (not `paxh rules --params`), a
refused variant points to that form, and the rules page names no docs/ file; in
English and Catalan."""
from __future__ import annotations

import html
import re

import pytest

from pax_hispanica import api

from .test_api import form_post, new_game

COMMAND = re.compile(r"\bpaxh [a-z]|docs/[\w.-]+|\.md\b")


def text_of(page: str) -> str:
    page = re.sub(r"<script.*?</script>", "", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("lang", ["en", "ca"])
def test_the_player_pages_name_no_command_or_repository_file(client, lang):
    g = new_game(client, players=2)
    seat = next(s["token"] for s in g["seats"] if s["token"])
    for path in ("/", "/rules", f"/play/{seat}", f"/watch/{g['spectator']}", f"/host/{g['host']}",
                 "/learn", "/learn/goods", "/learn/sail"):
        found = COMMAND.search(text_of(client.get(f"{path}?lang={lang}").text))
        assert not found, (path, found.group(0) if found else None)


@pytest.mark.parametrize("lang", ["en", "ca"])
def test_the_lobby_names_every_number_a_variant_may_change(client, lang):
    """The Variant form itself has a field for every number, with its usual value: nobody needs
    a command to learn their names (tests/web/test_variant_form.py checks the words)."""
    page = client.get(f"/?lang={lang}").text
    box = re.search(r'<form method="post" action="/games" id="new-game">.*?</form>', page, re.S)
    assert box
    for name, p in api.parameters("reference", None, extended=True).items():
        field = re.search(rf'<(input|select)[^>]*name="p\.{re.escape(name)}"[^>]*>', box.group(0))
        assert field, name
        if p["type"] == "int":
            assert f'placeholder="{p["value"]}"' in field.group(0), name


def test_a_refused_variant_points_to_the_lobbys_list_not_a_command(client):
    r = form_post(client, {"players": "2", "kind0": "human", "kind1": "human", "variant": "royal_fifth=5"})
    assert r.status_code == 400
    alert = text_of(re.search(r'role="alert"[^>]*>(.*?)</', r.text, re.S).group(1))
    assert "paxh" not in alert and "The form under Variant names every number a variant may change" in alert, alert
