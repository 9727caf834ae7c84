"""The options that open an auction name the card on offer (AUC-2): "Auction Piloto Mayor from
the Market deck", and "a hidden card" for buried treasure, in English and Catalan, on the web
page and in the terminal game's words alike."""
from __future__ import annotations

import html as htmllib

import pytest

from pax_hispanica import api
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.present.info import ruleset_info

from .test_api import acting_token, new_game

pytestmark = pytest.mark.timeout(120)


def drive_to_initiate(client, game):
    """Pass labour until a seat may open an auction; returns (token, view)."""
    for _ in range(60):
        token, v = acting_token(client, game)
        options = [o for d in v["legal"] for o in d.get("options", [])]
        if any(o["type"] == "initiate" for o in options):
            return token, v
        r = client.post(f"/api/act/{token}", json={"version": v["version"], "action": options[0]})
        assert r.status_code == 200, r.text
    raise AssertionError("no auction choice reached")


@pytest.mark.parametrize("lang", ["en", "ca"])
def test_auction_options_name_the_face_up_card_or_a_hidden_card(client, lang):
    g = new_game(client, players=2)
    token, v = drive_to_initiate(client, g)
    page = htmllib.unescape(client.get(f"/play/{token}?lang={lang}").text)
    tr = Tr(lang, [], ruleset_info().names)
    for deck in ("market", "haven"):
        top = v["view"]["decks"][deck]["top"]
        if not top:
            continue
        name = tr.word(top)
        want = (f"Auction {name} from the {tr.word(deck)} deck" if lang == "en"
                else f"Subhasta {name} de la baralla {tr.word(deck)}")
        assert want in page, want
    hidden = "Auction a hidden card from the" if lang == "en" else "Subhasta una carta oculta de la baralla"
    assert hidden in page
    assert "Auction the Market deck" not in page


def test_an_auction_option_without_a_view_still_reads():
    tr = Tr("en", [], ruleset_info().names)
    assert tr.action({"type": "initiate", "deck": "market", "buried": True}) == \
        "Auction a hidden card from the Market deck (buried treasure)"
    assert tr.action({"type": "initiate", "deck": "market", "buried": False}) == \
        "Auction the face-up card from the Market deck"
    view = {"decks": {"market": {"top": next(iter(api.card_catalogue())), "count": 3}}}
    top_name = Tr("en", [], ruleset_info().names).word(view["decks"]["market"]["top"])
    assert tr.action({"type": "initiate", "deck": "market", "buried": False}, view) == \
        f"Auction {top_name} from the Market deck"
