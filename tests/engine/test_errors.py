"""PRJ-7: malformed, out-of-turn, wrong-seat and after-the-end actions raise IllegalAction
with a stable code, a rule ID and a message, and leave the state unchanged."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from pax_hispanica.engine.core import ACTION_TYPES
from pax_hispanica.engine.rules import RULES
from support import scenario

from .helpers import play


def refused(st, action) -> api.IllegalAction:
    before = st.to_dict()
    with pytest.raises(api.IllegalAction) as e:
        api.apply(st, action)
    assert st.to_dict() == before, "a refused action changed the state"
    err = e.value
    assert err.rule in RULES and err.message and err.page == RULES[err.rule][0]
    assert err.to_dict() == {"code": err.code, "rule": err.rule, "page": err.page, "message": err.message}
    assert err.rule in str(err) and err.code in str(err)
    return err


@pytest.fixture(scope="module")
def game():
    return api.Game.new(api.Config(players=3), 5)


@pytest.mark.parametrize("action", [None, [], "pass", 3, {"type": "pass"}, {"seat": "0", "type": "pass"},
                                    {"seat": True, "type": "pass"}, {"seat": 1.0, "type": "pass"},
                                    {"seat": -1, "type": "pass"}, {"seat": 3, "type": "pass"},
                                    {"seat": None, "type": "pass"}])
def test_PRJ_7_malformed_seat_or_not_an_object(game, action):
    assert refused(game.state, action).code == "malformed"


@pytest.mark.parametrize("type_", [None, "", "fly", 3, "PASS", ["pass"]])
def test_PRJ_7_unknown_action_type_is_malformed(game, type_):
    seat = api.acting(game.state)[0]
    assert refused(game.state, {"seat": seat, "type": type_}).code == "malformed"


def test_PRJ_7_a_seat_not_to_act_is_refused_with_not_your_turn(game):
    st = game.state
    (seat,) = api.acting(st)
    for other in range(st.n):
        if other != seat:
            err = refused(st, {"seat": other, "type": "pass"})
            assert err.code == "not_your_turn" and err.rule == "PRJ-7" and str(seat) in err.message
            assert api.legal_actions(st, other) == []


def test_PRJ_7_the_acting_seat_sending_another_decisions_action_is_refused(game):
    st = game.state
    (seat,) = api.acting(st)
    for action in ({"seat": seat, "type": "move", "to": "cuba"}, {"seat": seat, "type": "bid", "amount": 0},
                   {"seat": seat, "type": "end_turn"}):
        assert refused(st, action).code == "wrong_action"


def test_PRJ_7_a_sealed_choice_cannot_be_sent_twice():
    g = scenario({"year": "auction", "step": "auctions", "order": [0, 1, 2]})
    g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": False})
    g.act({"seat": 1, "type": "bid", "amount": 1})
    err = refused(g.state, {"seat": 1, "type": "bid", "amount": 2})
    assert err.code in ("not_your_turn", "already_committed")
    assert g.state.secrets[1] == 1


@pytest.mark.parametrize("amount", [-1, 10 ** 6, "3", 2.0, None, True])
def test_PRJ_7_bid_values_are_checked(amount):
    g = scenario({"year": "auction", "step": "auctions", "order": [0, 1, 2], "players": [{"money": 5}]})
    g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": False})
    err = refused(g.state, {"seat": 0, "type": "bid", "amount": amount})
    assert err.code in ("malformed", "bid_out_of_range") and err.rule in ("AUC-3", "PRJ-7")


def test_PRJ_7_nothing_is_accepted_once_the_game_is_over():
    g = play(2, 3)
    st = g.state
    assert api.is_over(st)
    for seat in range(st.n):
        for action in ({"seat": seat, "type": "pass"}, {"seat": seat, "type": "end_voyage"},
                       {"seat": seat, "type": "undo"}):
            err = refused(st, action)
            assert err.code == "game_over" and err.rule == "CYC-2"


JUNK_VALUES = [None, True, -1, 0, 99, 1.5, "", "x", "cuba", "europe", [], ["cuba"], {}, {"a": 1}]
FIELDS = ["deck", "buried", "amount", "card", "target", "to", "zone", "colony", "count", "source", "site", "side"]


@pytest.mark.parametrize("n,seed", [(3, 61), (4, 62)])
def test_PRJ_7_junk_actions_raise_IllegalAction_and_change_nothing(n, seed):
    """At many positions of a game, every action type with junk in every field is either legal
    (and applies) or refused with IllegalAction; never another exception, never a changed state."""
    import random
    r = random.Random(seed)
    tried = [0]

    def on_step(before, action, after, events):
        if after.over or after.version % 4:
            return
        for seat in api.acting(after):
            for type_ in sorted(ACTION_TYPES - {"undo"}):
                for _ in range(2):
                    junk = {"seat": seat, "type": type_}
                    for f in r.sample(FIELDS, 3):
                        junk[f] = r.choice(JUNK_VALUES)
                    before_d = after.to_dict()
                    try:
                        api.apply(after, junk)
                    except api.IllegalAction as e:
                        assert e.rule in RULES
                    assert after.to_dict() == before_d
                    tried[0] += 1

    play(n, seed, on_step=on_step)
    assert tried[0] > 500
