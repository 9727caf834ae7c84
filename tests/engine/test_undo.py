"""PRJ-2: a player may take back their own actions within their own turn while nothing
secret was revealed, nothing random drawn and no sealed choice committed; an undo is
itself an action in the record, and replays."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from support import options, scenario

from .helpers import without

UNDO = "undo"


def undo(seat):
    return {"seat": seat, "type": UNDO}


def play_turn(hand0=("galeon-1", "secretario-1", "tortuga"), money0=6):
    return scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                     "players": [{"hand": list(hand0), "money": money0}, {"hand": ["galeon-2"]}, {}]})


def nothing_to_undo(st, seat):
    before = st.to_dict()
    with pytest.raises(api.IllegalAction) as e:
        api.apply(st, undo(seat))
    assert e.value.code == "nothing_to_undo" and e.value.rule == "PRJ-2"
    assert st.to_dict() == before


def same_position(a, b):
    """Equal apart from the action counter and the event numbering, which only go forward."""
    return without(a.to_dict(), "version", "event_seq") == without(b.to_dict(), "version", "event_seq")


def test_PRJ_2_undo_takes_back_own_actions_one_by_one_within_the_turn():
    g = play_turn()
    s0 = g.state
    assert not api.can_undo(s0, 0)
    g.act({"seat": 0, "type": "play", "card": "galeon-1"})
    s1 = g.state
    g.act({"seat": 0, "type": "sell", "card": "secretario-1"})
    assert api.can_undo(g.state, 0) and not api.can_undo(g.state, 1)
    ev = g.act(undo(0))
    assert [e["type"] for e in ev] == ["ActionUndone"] and ev[0]["seat"] == 0 and ev[0]["rule"] == "PRJ-2"
    assert same_position(g.state, s1)
    g.act(undo(0))
    assert same_position(g.state, s0)
    assert g.state.version == s0.version + 4            # every action, undo included, counts
    assert g.state.event_seq > s1.event_seq             # the log only grows
    nothing_to_undo(g.state, 0)
    assert g.state.hands[0] == ["galeon-1", "secretario-1", "tortuga"] and g.state.money[0] == 6


def test_PRJ_2_undo_is_recorded_and_replays_to_the_same_state():
    g = play_turn()
    g.act({"seat": 0, "type": "play", "card": "galeon-1"})
    g.act(undo(0))
    g.act({"seat": 0, "type": "play", "card": "secretario-1"})
    assert [a["type"] for a in g.record["actions"]] == ["play", UNDO, "play"]
    r = api.replay(g.record)
    assert r.state.to_dict() == g.state.to_dict()
    assert [e for e in r.events] == g.events
    assert api.can_undo(r.state, 0)


def test_PRJ_2_no_undo_of_another_players_action_nor_after_the_turn_ended():
    g = play_turn()
    g.act({"seat": 0, "type": "sell", "card": "galeon-1"})
    nothing_to_undo(g.state, 1)
    nothing_to_undo(g.state, 2)
    g.act({"seat": 0, "type": "end_turn"})
    assert api.acting(g.state) == (1,)
    nothing_to_undo(g.state, 0)            # the turn is over
    nothing_to_undo(g.state, 1)            # seat 1 has done nothing yet


def test_PRJ_2_no_undo_after_a_random_draw():
    g = play_turn()
    g.act({"seat": 0, "type": "sell", "card": "galeon-1"})
    rng = g.state.rng
    g.act({"seat": 0, "type": "discard", "card": "tortuga"})      # PRJ-3: a random place in the Haven deck
    assert g.state.rng != rng
    assert not api.can_undo(g.state, 0)
    nothing_to_undo(g.state, 0)
    # actions after the draw can be undone again, but only back to the draw
    g.act({"seat": 0, "type": "sell", "card": "secretario-1"})
    g.act(undo(0))
    nothing_to_undo(g.state, 0)
    assert "tortuga" in g.state.haven


def test_PRJ_2_no_undo_after_a_sealed_commit_or_a_reveal():
    g = scenario({"year": "sail", "step": "voyages", "order": [0, 1, 2],
                  "players": [{"fleet": {"zone": "jamaica", "ships": 2}}],
                  "colonies": {"jamaica.st_jago": {"owner": 2, "labour": "citizen"}}})
    g.act({"seat": 0, "type": "move", "to": "paso_barlovento"})
    g.act({"seat": 0, "type": "move", "to": "jamaica"})
    assert api.can_undo(g.state, 0)                       # moves reveal nothing: undoable
    g.act({"seat": 0, "type": "attack", "target": "jamaica.port_royal"})
    assert api.acting(g.state) == (2,)                    # seat 2 must seal its Battle Card
    nothing_to_undo(g.state, 0)
    g.act({"seat": 2, "type": "support", "side": "target"})
    assert any(e["type"] == "ChoicesRevealed" for e in g.events)
    nothing_to_undo(g.state, 2)                           # a sealed commit is final
    assert api.acting(g.state) == (0,)                    # the attacker lost a Galleon and sails on
    nothing_to_undo(g.state, 0)                           # nothing before the reveal comes back


def test_PRJ_2_no_undo_of_a_sealed_bid():
    g = scenario({"year": "auction", "step": "auctions", "order": [0, 1, 2]})
    g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": False})
    g.act({"seat": 0, "type": "bid", "amount": 1})
    nothing_to_undo(g.state, 0)


def test_PRJ_2_undo_is_never_offered_among_legal_actions():
    g = play_turn()
    g.act({"seat": 0, "type": "sell", "card": "galeon-1"})
    assert api.can_undo(g.state, 0)
    assert all(a["type"] != UNDO for a in options(g.state, 0))


def test_PRJ_2_a_restored_snapshot_has_no_undo_history_but_replay_keeps_it():
    g = play_turn()
    g.act({"seat": 0, "type": "sell", "card": "galeon-1"})
    assert api.can_undo(g.state, 0)
    restored = api.restore(api.snapshot(g.state))
    assert restored.fingerprint() == g.state.fingerprint()
    assert not api.can_undo(restored, 0)                  # the history is not in the snapshot
    nothing_to_undo(restored, 0)
    # the record is the truth: replaying it rebuilds the history, so undo works again
    again = api.replay(g.record)
    assert api.can_undo(again.state, 0)
    assert api.apply(again.state, undo(0))[0].fingerprint()["money"] == api.restore(
        api.snapshot(g.state.undo_stack[-1])).fingerprint()["money"]
