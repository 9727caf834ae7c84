"""CARD-1: the card effect kinds are one registry (engine/effects.py): each declares its
parameters, its target, its function, its rule, where the RL observation shows it and its
words; the card files' schema, the functions by kind and the per-seat numbers are derived
from it, and a kind declared wrong is refused when it is declared, saying what to fix."""

from __future__ import annotations

import pytest

from pax_hispanica.engine import cards, effects, ruleset_schema
from pax_hispanica.engine.effects import EFFECTS, EffectKind, register


def _noop(st, seat, eff, target, out):
    return None


def test_CARD_1_the_schema_the_functions_and_the_passive_numbers_are_the_registrys():
    assert list(ruleset_schema.EFFECTS) == list(EFFECTS) == list(cards.EFFECT)
    for kind, e in EFFECTS.items():
        assert ruleset_schema.EFFECTS[kind] == (e.params, e.target)
        assert cards.EFFECT[kind] is e.apply
        assert e.words == ("effects", kind)
    assert cards.PASSIVE == {"income": "income", "hand_limit": "hand_bonus", "extra_moves": "moves_bonus"}


def test_CARD_1_every_target_kind_has_ids_in_cards_targets():
    from pax_hispanica import api
    st = api.new_game({"players": 3}, seed=1)
    for kind in effects.TARGET_KINDS:
        cards.targets(st, 0, kind)                       # raises AssertionError for a kind it does not know
    assert {e.target for e in EFFECTS.values()} - {None} <= set(effects.TARGET_KINDS)


def test_CARD_1_a_toy_kind_registers_and_is_then_part_of_the_schema_vocabulary():
    toy = EffectKind("toy_effect", "CARD-1", frozenset({"n"}), None, _noop, ("player_slots.numbers",))
    try:
        assert register(toy) is toy and EFFECTS["toy_effect"] is toy
        assert toy.words == ("effects", "toy_effect")
    finally:
        del EFFECTS["toy_effect"]


@pytest.mark.parametrize("kwargs, message", [
    ({"kind": "money"}, "declared twice"),
    ({"rule": "XYZ-9"}, "not a rule ID"),
    ({"target": "the_moon"}, "not one of empty_colony_space"),
    ({"shows_in": ()}, "declare `shows_in`"),
    ({"params": frozenset({"kind"})}, "'kind' names the effect"),
])
def test_CARD_1_a_kind_declared_wrong_is_refused_at_registration_with_what_to_fix(kwargs, message):
    fields = {"kind": "toy_effect", "rule": "CARD-1", "params": frozenset(), "target": None, "apply": _noop,
              "shows_in": ("sites",), **kwargs}
    with pytest.raises(ValueError, match=message):
        register(EffectKind(**fields))
    assert "toy_effect" not in EFFECTS
