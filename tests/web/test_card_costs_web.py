"""PRJ-67: the pages show a card's cost as the game's ruleset has it: its variant's
`card_cost.<id>` (PRJ-31) and its version's (PRJ-50), not only the data folder's."""
from __future__ import annotations

from pax_hispanica import api
from pax_hispanica.web.present import cards as cardtext
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.present.info import ruleset_info
from pax_hispanica.web.present.page_context import _game_ruleset, translator

DEAR = {"card_cost.obispado": 3, "card_cost.secretario": 2}
FOLDER = api.load_ruleset("reference").cards["obispado-1"].cost       # 1 since reference-5 (PRJ-69; reference-6 kept it)


class _Live:            # what translator/_game_ruleset read of a live game: its record
    def __init__(self, record: dict) -> None:
        self.record = record
        self.seats = []

    def nation(self, seat: int) -> str | None:
        return None


def test_PRJ_67_a_games_hand_and_card_texts_show_the_variants_cost():
    live = _Live({"config": {"players": 3, "params": DEAR}, "ruleset_version": api.load_ruleset("reference").version})
    name, version, params = _game_ruleset(live)
    assert name == "reference" and params == tuple(sorted(DEAR.items()))
    info = ruleset_info(name, version, params)
    assert info.card_cost["obispado-1"] == 3 and info.card_cost["secretario-2"] == 2
    assert ruleset_info().card_cost["obispado-1"] == FOLDER != 3
    assert info.card_cost["galeon-1"] == ruleset_info().card_cost["galeon-1"]
    tr = translator(live, "en")
    assert cardtext.describe("obispado-1", tr, "reference")["cost"] == 3
    assert "$3" in str(cardtext.card_html("obispado-1", tr, "reference"))
    assert cardtext.describe("obispado-1", Tr("en"), "reference")["cost"] == FOLDER    # the folder's, by default


def test_PRJ_67_PRJ_69_a_reference_4_games_pages_show_reference_4s_costs():
    live = _Live({"config": {"players": 3}, "ruleset_version": "reference-4"})
    assert ruleset_info(*_game_ruleset(live)).card_cost["obispado-1"] == 2
    assert cardtext.describe("secretario-1", translator(live, "en"), "reference")["cost"] == 1


def test_PRJ_67_a_game_without_a_variant_or_of_an_unknown_version_shows_the_folders_costs():
    plain = _Live({"config": {"players": 3}})
    assert ruleset_info(*_game_ruleset(plain)).card_cost["obispado-1"] == FOLDER
    odd = _Live({"config": {"players": 3}, "ruleset_version": "no-such-version"})
    assert ruleset_info(*_game_ruleset(odd)).card_cost["obispado-1"] == FOLDER
    assert cardtext.describe("obispado-1", translator(odd, "en"), "reference")["cost"] == FOLDER


def _row(page: str, card: str) -> str:
    return page[page.index(f'id="card-{card}"'):].split("</tr>", 1)[0]


def _cost(page: str, card: str) -> str:
    """The text of the card's Cost cell on the rules page."""
    return _row(page, card).split('data-label="Cost">', 1)[1].split("</td>", 1)[0]


def test_PRJ_67_PRJ_69_the_rules_page_lists_the_card_costs_of_the_version_asked(client):
    now = client.get("/rules?lang=en").text
    assert _cost(now, "obispado") == "$1" and _cost(now, "secretario") == "$0"
    old = client.get("/rules?version=reference-4&lang=en").text      # PRJ-50: reference-4's costs
    assert _cost(old, "obispado") == "$2" and _cost(old, "secretario") == "$1"
    assert _row(old, "galeon") == _row(now, "galeon")
