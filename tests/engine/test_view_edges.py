"""A view's edges (engine/fast_views.py): the refusal of a viewer that is no seat of the game,
word for word, and what a shared view (PRJ-65, copy=False) hands out as the state's own objects.
Written to kill survivors of scripts/mutation.py's full run (fast_views.view)."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from support import random_game


@pytest.mark.parametrize(("viewer", "shown"), [(3, "3"), (-1, "-1"), (7, "7"), ("0", "'0'"), (True, "True")])
def test_HID_1_a_view_of_no_seat_of_the_game_is_refused_word_for_word(viewer, shown):
    """A view is of a seat 0..n-1 or of a spectator (None); anything else is a ValueError that
    names the game's last seat and the value asked for."""
    st = api.new_game(api.Config(players=3), 1)
    with pytest.raises(ValueError) as e:
        api.view(st, viewer)
    assert str(e.value) == f"a view is of a seat 0..2 or None (a spectator), not {shown}"


def test_HID_1_a_five_seat_game_names_seat_4_as_its_last():
    st = api.new_game(api.Config(players=5), 1)
    with pytest.raises(ValueError) as e:
        api.view(st, 5, include_state=False)
    assert str(e.value) == "a view is of a seat 0..4 or None (a spectator), not 5"


@pytest.mark.parametrize("board", [True, False])
def test_PRJ_65_a_shared_view_hands_out_the_fleets_cargo_and_order_and_the_default_view_copies_them(board):
    """copy=False gives each fleet's cargo and the seat order as the state's own lists (its
    documented saving); the default view gives equal lists of its own."""
    st = random_game(3, 3, stop=lambda g: any(g.state.cargo)).state
    assert any(st.cargo)
    shared = api.view(st, 0, include_state=False, board=board, copy=False)
    own = api.view(st, 0, include_state=False, board=board)
    for s in range(3):
        assert shared["players"][s]["fleet"]["cargo"] is st.cargo[s]
        assert own["players"][s]["fleet"]["cargo"] == st.cargo[s]
        assert own["players"][s]["fleet"]["cargo"] is not st.cargo[s]
    assert shared["order"] is st.order
    assert own["order"] == st.order and own["order"] is not st.order


def test_PRJ_65_a_finished_games_shared_view_hands_out_its_result_and_the_default_view_copies_it():
    st = random_game(3, 1).state
    assert st.over and st.result["ranking"] == [2, 0, 1]
    shared = api.view(st, None, include_state=False, copy=False)
    own = api.view(st, None, include_state=False)
    assert shared["result"] is st.result
    assert own["result"] == st.result and own["result"] is not st.result
    assert own["result"]["ranking"] is not st.result["ranking"]
