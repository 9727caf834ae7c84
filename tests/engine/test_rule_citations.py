"""Every event and every refusal cites its rule ID and that rule's source and page from the
catalogue (engine/rules.py, docs/rules.md): `SEED pN` for the rules summaries, `REF` for the
reference design, `PRJ` for a project decision."""

from __future__ import annotations

import re

from pax_hispanica import api
from pax_hispanica.engine.rules import RULES, page
from support import random_game

PAGE = re.compile(r"SEED p\d+(-\d+)?(, p\d+(-\d+)?)*|REF|PRJ")


def test_the_catalogue_gives_each_rule_its_source_and_page():
    assert page("CYC-1") == "SEED p6"
    assert page("TRS-1") == "SEED p18-19"
    assert page("HID-2") == "REF"
    assert page("PRJ-7") == "PRJ"
    assert all(PAGE.fullmatch(page(rule)) for rule in RULES)


def test_CYC_1_every_event_of_a_game_cites_its_rule_and_that_rules_page():
    events = []
    random_game(3, 11, on_step=lambda before, action, after, evs: events.extend(evs))
    assert events
    for e in events:
        assert e["rule"] in RULES, e
        assert e["page"] == RULES[e["rule"]][0], e
        assert PAGE.fullmatch(e["page"]), e
    setup = api.Game.new(api.Config(players=3), 11).events
    assert any(e["rule"] == "CYC-4" and e["page"] == "REF" for e in setup)
