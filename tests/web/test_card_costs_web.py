"""PRJ-67: the pages show a card's cost as the game's ruleset has it: its variant's
`card_cost.<id>` (PRJ-31) and its version's (PRJ-50), not only the data folder's."""
from __future__ import annotations

from pax_hispanica import api
from pax_hispanica.web import cards as cardtext
from pax_hispanica.web.i18n import Tr
from pax_hispanica.web.info import ruleset_info
from pax_hispanica.web.render import _game_ruleset, translator

CHEAP = {"card_cost.obispado": 1, "card_cost.secretario": 0}


class _Live:            # what translator/_game_ruleset read of a live game: its record
    def __init__(self, record: dict) -> None:
        self.record = record
        self.seats = []

    def nation(self, seat: int) -> str | None:
        return None


def test_PRJ_67_a_games_hand_and_card_texts_show_the_variants_cost():
    live = _Live({"config": {"players": 3, "params": CHEAP}, "ruleset_version": api.load_ruleset("reference").version})
    name, version, params = _game_ruleset(live)
    assert name == "reference" and params == tuple(sorted(CHEAP.items()))
    info = ruleset_info(name, version, params)
    assert info.card_cost["obispado-1"] == 1 and info.card_cost["secretario-2"] == 0
    assert ruleset_info().card_cost["obispado-1"] == 2 and info.card_cost["galeon-1"] == ruleset_info().card_cost["galeon-1"]
    tr = translator(live, "en")
    assert cardtext.describe("obispado-1", tr, "reference")["cost"] == 1
    assert "$1" in str(cardtext.card_html("obispado-1", tr, "reference"))
    assert cardtext.describe("obispado-1", Tr("en"), "reference")["cost"] == 2     # the folder's, by default


def test_PRJ_67_a_game_without_a_variant_or_of_an_unknown_version_shows_the_folders_costs():
    plain = _Live({"config": {"players": 3}})
    assert ruleset_info(*_game_ruleset(plain)).card_cost["obispado-1"] == 2
    odd = _Live({"config": {"players": 3}, "ruleset_version": "no-such-version"})
    assert ruleset_info(*_game_ruleset(odd)).card_cost["obispado-1"] == 2
    assert cardtext.describe("obispado-1", translator(odd, "en"), "reference")["cost"] == 2
