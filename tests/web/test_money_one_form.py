"""Money is written one way per language (issue 38): as the catalogue's `money_amount` has it
("$2" in English, "2 $" in Catalan), on card chips, in card texts, on the game page and the rules
page alike, never "$0" in one place and "0 $" in another."""
from __future__ import annotations

import html
import re

import pytest

from pax_hispanica.web.present import cards as cardtext
from pax_hispanica.web.present.i18n import Tr, catalogue
from pax_hispanica.web.present.info import ruleset_info

from .test_api import new_game

DOLLAR_FIRST = re.compile(r"\$[\d{]")         # "$2", "${n}"
DOLLAR_AFTER = re.compile(r"[\d}]\u00a0?\s?\$")  # "2 $", "{n} $"


def test_the_catalogues_write_money_one_way_each():
    for lang, wrong in (("en", DOLLAR_AFTER), ("ca", DOLLAR_FIRST)):
        for section, entries in catalogue(lang).items():
            for key, text in (entries.items() if isinstance(entries, dict) else [("", entries)]):
                assert not wrong.search(str(text)), (lang, section, key, text)


@pytest.mark.parametrize("lang,want,wrong", [("en", "$1", DOLLAR_AFTER), ("ca", "1 $", DOLLAR_FIRST)])
def test_a_card_chip_writes_its_cost_as_the_language_does(lang, want, wrong):
    tr = Tr(lang, [], ruleset_info().names)
    chip = html.unescape(str(cardtext.card_html("obispado-1", tr, "reference")))
    cost = re.search(r"<small>(.*?)</small>", chip).group(1)
    assert cost == tr("money_amount", n=cardtext.describe("obispado-1", tr, "reference")["cost"])
    assert not wrong.search(chip), chip


@pytest.mark.parametrize("lang,wrong", [("en", DOLLAR_AFTER), ("ca", DOLLAR_FIRST)])
def test_the_game_page_writes_money_one_way(client, lang, wrong):
    g = new_game(client, players=2)
    seat = next(s["token"] for s in g["seats"] if s["token"])
    page = html.unescape(client.get(f"/play/{seat}?lang={lang}").text)
    text = re.sub(r"<script.*?</script>", "", page, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    assert not wrong.search(text), wrong.search(text)
