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


@pytest.mark.parametrize("action", [None, [], "pass", 3, 2.5, b"pass", {"type": "pass"}, {"seat": "0", "type": "pass"},
                                    {"seat": True, "type": "pass"}, {"seat": 1.0, "type": "pass"},
                                    {"seat": None, "type": "pass"}, {"seat": [0], "type": "pass"}])
def test_PRJ_7_every_entry_point_that_takes_an_action_refuses_what_is_not_one(game, action):
    """The action is the caller's data (declared `object`, narrowed by the engine): apply,
    apply_trusted, apply_with_outcomes and Game.act refuse it with IllegalAction, never a
    TypeError (a compiled engine checks declared argument types before the body runs)."""
    assert refused(game.state, action).code == "malformed"
    st = game.state
    before = st.to_dict()
    g = api.replay(game.record)
    for call in (lambda: api.apply_trusted(st, action), lambda: api.apply_with_outcomes(st, action, []),
                 lambda: g.act(action)):
        with pytest.raises(api.IllegalAction) as e:
            call()
        assert (e.value.code, e.value.rule) == ("malformed", "PRJ-7")
    assert st.to_dict() == before and g.record["actions"] == game.record["actions"]


NOT_SEATS = ["0", 1.0, None, [0], (0,), True, False, -1, 3, 10 ** 30]


@pytest.mark.parametrize("seat", NOT_SEATS, ids=repr)
def test_PRJ_7_a_value_that_is_not_a_seat_is_never_to_act(game, seat):
    """legal_actions, decision and can_undo of a value that is not a seat number of the game (a
    bool is not one, even where it equals the acting seat) answer "nothing to do", never raise."""
    g = api.replay(game.record)
    checked = set()
    while len(checked) < 2:                      # seat 1 to act, then seat 1 able to undo
        st = g.state
        (acting,) = api.acting(st)
        if acting == 1:                          # True == 1, but is not a seat
            assert api.legal_actions(st, 1) and api.decision(st, 1) is not None
            assert api.legal_actions(st, True) == [] and api.decision(st, True) is None
            checked.add("acting")
        if api.can_undo(st, 1):
            assert not api.can_undo(st, True)
            checked.add("undo")
        g.act(api.nth_action(api.legal_actions(st, acting), 0))
    assert api.legal_actions(st, seat) == []
    assert not api.can_undo(st, seat)
    if seat is not None:                         # decision(state, None): the pending decision
        assert api.decision(st, seat) is None


@pytest.mark.parametrize("seat", [s for s in NOT_SEATS if s is not None], ids=repr)
def test_PRJ_7_a_view_is_of_a_seat_of_the_game_or_a_spectator(game, seat):
    """view (and what is built from a seat's view: unavailable, battle previews) refuses a
    viewer that is not None or a seat number 0..n-1 with ValueError, as documented."""
    st = game.state
    assert api.view(st, None)["viewer"] is None and api.view(st, 2)["viewer"] == 2
    for call in (lambda: api.view(st, seat), lambda: api.view(st, seat, include_state=True),
                 lambda: api.unavailable(st, seat), lambda: api.battle_previews(st, seat)):
        with pytest.raises(ValueError):
            call()


@pytest.mark.parametrize("config", [None, 3, "players=3", [("players", 3)], b"{}"], ids=repr)
def test_PRJ_31_a_config_that_is_not_a_table_is_refused_with_bad_config(config):
    for call in (lambda: api.new_game(config, 1), lambda: api.Game.new(config, 1)):
        with pytest.raises(api.IllegalAction) as e:
            call()
        assert (e.value.code, e.value.rule) == ("bad_config", "PRJ-31")
        assert e.value.message == "A config is a table of players, nations, ruleset, params."


@pytest.mark.parametrize("config, rule, words", [
    ({"players": 3, "colour": "red"}, "PRJ-31", "Unknown config key 'colour'; the keys are "),
    ({"players": 6}, "CYC-4", "A game has 2 to 5 players."),
    ({"players": True}, "CYC-4", "A game has 2 to 5 players."),
    ({"players": 3, "options": {"x" * 65: 1}}, "PRJ-31", "Config options are at most"),
    ({"players": 3, "options": {"bot": [1]}}, "PRJ-31", "short names with short plain values."),
    ({"players": 3, "nations": ["spanish", "spanish", "english"]}, "CYC-4", "Give 3 different nations from: "),
], ids=["an unknown key", "six players", "a flag for players", "a long option name", "a list option", "a nation twice"])
def test_CYC_4_PRJ_31_a_bad_config_is_refused_in_words_that_say_what_is_allowed(config, rule, words):
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(config, 1)
    assert (e.value.code, e.value.rule) == ("bad_config", rule) and words in e.value.message, e.value.message


@pytest.mark.parametrize("scn", [None, [], "scenario", 3, [("config", {"players": 3})]], ids=repr)
def test_PRJ_7_a_scenario_that_is_not_a_table_is_refused_with_bad_scenario(scn):
    with pytest.raises(api.IllegalAction) as e:
        api.from_scenario(scn)
    assert (e.value.code, e.value.rule) == ("bad_scenario", "PRJ-7")


def test_PRJ_7_replay_and_restore_refuse_what_is_not_a_record_or_a_snapshot_with_ValueError(game):
    """replay, verify_record and restore take stored or sent data: ValueError (docs/api.md,
    "Errors") for what is not a record or a snapshot, never a TypeError or AttributeError."""
    rec = game.record
    for bad in (None, [], "record", 3, {**rec, "actions": None}, {**rec, "actions": "abc"},
                {k: v for k, v in rec.items() if k != "actions"}):
        for call in (lambda bad=bad: api.replay(bad), lambda bad=bad: api.verify_record(bad)):
            with pytest.raises(ValueError):
                call()
    for upto in ("3", 1.0, [1]):
        with pytest.raises(ValueError):
            api.replay(rec, upto=upto)
    assert api.replay(rec, upto=0).state.to_dict() == api.Game.new(rec["config"], rec["seed"]).state.to_dict()
    # a record without its config or seed: setup's own refusal
    for key in ("config", "seed"):
        with pytest.raises(api.IllegalAction) as e:
            api.replay({k: v for k, v in rec.items() if k != key})
        assert e.value.code == "bad_config"
    snap = api.snapshot(game.state)
    assert api.snapshot(api.restore(snap)) == snap == api.snapshot(api.restore(snap.decode()))
    for bad in (None, 3, [snap], b"not json", b"[]", b"{}", b'{"ruleset": 3}', b'{"ruleset": "reference"}'):
        with pytest.raises(ValueError):
            api.restore(bad)


# plain ids: repr's brackets and escapes ("[[[0]]]", "b'\\x00'") are node ids that pytest, run a
# second time in one process (mutmut's clean run after its stats run), no longer finds
@pytest.mark.parametrize("outcomes", [None, 3, "01", [0.0], [True], [[0]], b"\x00"],
                         ids=["none", "int", "str", "float_list", "bool_list", "nested_list", "bytes"])
def test_PRJ_70_outcomes_that_are_not_whole_numbers_are_refused_with_ValueError(game, outcomes):
    with pytest.raises(ValueError):
        api.new_game_with_outcomes({"players": 3}, 1, outcomes)
    (seat,) = api.acting(game.state)
    with pytest.raises(ValueError):
        api.apply_with_outcomes(game.state, api.nth_action(api.legal_actions(game.state, seat), 0), outcomes)


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
