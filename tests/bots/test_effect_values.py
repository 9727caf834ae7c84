"""The heuristic bot values every card effect kind of engine/effects.py (issue 39): a new kind
without a value fails here, naming the table to complete, instead of being valued $0 unseen."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pax_hispanica import api
from pax_hispanica.bots import heuristic, make_agent
from pax_hispanica.engine.effects import EFFECTS, EffectKind, register


def unvalued() -> list[str]:
    return [k for k in EFFECTS if k not in heuristic.FLAT_VALUE]


def test_CARD_1_every_effect_kind_has_a_heuristic_value():
    assert not unvalued(), (f"effect kinds without a value for the heuristic bot: {', '.join(unvalued())}; "
                            "add each to bots/heuristic.py FLAT_VALUE")
    assert set(heuristic.FLAT_VALUE) == set(EFFECTS), "FLAT_VALUE values a kind engine/effects.py does not declare"


def test_CARD_1_a_new_kind_without_a_value_is_named_and_refused_when_valued(monkeypatch):
    register(EffectKind("toy_effect", "CARD-1", frozenset({"n"}), None, lambda *a: None, ("player_slots.numbers",)))
    try:
        assert unvalued() == ["toy_effect"]
        g = api.new_game({"players": 3}, seed=2)
        rs = g.rs
        card_id = next(iter(rs.cards))
        monkeypatch.setitem(rs.cards, card_id, replace(rs.cards[card_id], effects=({"kind": "toy_effect", "n": 1},)))
        bot = make_agent("heuristic", 0)
        view = api.view(g, 0)
        with pytest.raises(KeyError, match=r"bots/heuristic\.py FLAT_VALUE"):
            bot._card_value(view, view["players"][0], card_id)
    finally:
        del EFFECTS["toy_effect"]
