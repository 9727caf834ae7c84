"""A view's edges (engine/fast_views.py): the refusal of a viewer that is no seat of the game,
word for word, and what a shared view (PRJ-65, copy=False) hands out as the state's own objects.
Written to kill survivors of scripts/mutation.py's full run (fast_views.view)."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from pax_hispanica.engine.state import CROWN
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


def _changes(a: list, b: list) -> tuple[int, int]:
    """(how many of b's dicts are a's own objects, how many differ from a's in value)."""
    assert len(a) == len(b)
    return sum(x is y for x, y in zip(a, b)), sum(x != y for x, y in zip(a, b))


def test_PRJ_65_consecutive_shared_views_keep_the_dicts_of_every_colony_and_site_that_did_not_change():
    """engine/fast_views.py's board cache: a shared view's colony and site dicts are the cache's,
    and the view of the next state gives new dicts only to the colonies and sites whose values
    differ; every other one is the previous view's very dict (a transition changes a few)."""
    seen_colonies = seen_sites = 0
    prev = None
    for seed in (3, 4):
        def on_step(before, action, after, events):
            nonlocal prev, seen_colonies, seen_sites
            v = api.view(after, None, include_state=False, copy=False)
            if prev is not None:
                same, differ = _changes(prev["colonies"], v["colonies"])
                assert same + differ == len(v["colonies"])
                seen_colonies += differ > 0
                if [s["id"] for s in prev["sites"]] == [s["id"] for s in v["sites"]]:
                    same, differ = _changes(prev["sites"], v["sites"])
                    assert same + differ == len(v["sites"])
                    seen_sites += differ > 0
            prev = v
        random_game(3, seed, on_step=on_step)
    assert seen_colonies > 5 and seen_sites > 5


def test_CYC_4_a_crown_colony_shows_the_crown_as_its_owner_in_a_freshly_built_cache(monkeypatch):
    """The first view of a ruleset fills every colony dict at once (no board seen before):
    a colony of the Crown shows "crown" there too, an unowned one None, a seat's its number."""
    from pax_hispanica.engine import fast_views
    g = api.Game.new(api.Config(players=3, nations=["english", "french", "dutch"]), 1)
    st = g.state
    expected = {c: "crown" if o == CROWN else o for c, o in zip(st.rs.col_ids, st.col_owner)}
    assert "crown" in expected.values() and None in expected.values() and 0 in expected.values()
    for copy in (True, False):
        monkeypatch.setattr(fast_views, "_STATIC", {})
        owners = {c["id"]: c["owner"] for c in api.view(st, None, include_state=False, copy=copy)["colonies"]}
        assert owners == expected
