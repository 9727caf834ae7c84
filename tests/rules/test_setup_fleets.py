"""PRJ-84 and PRJ-85: the fleets and Crown colonies reference-8 sets up (CYC-4), and what the
numbers do when a variant moves them."""

import pytest

from pax_hispanica import api

ALL = ["spanish", "english", "french", "dutch", "courland"]


def _setup(players: int, nations: list[str], params: dict | None = None):
    return api.new_game(api.Config(players=players, nations=nations, params=params or {}), seed=7)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_PRJ_84_a_fleet_that_starts_PLUNDER_has_two_galleons_more(players):
    st = _setup(players, ALL[:players])
    for seat, nation in enumerate(st.nation):
        plunder = api.load_ruleset().nations[nation]["legality"] == "PLUNDER"
        assert st.fships[seat] == (3 if plunder else 1), (nation, st.fships)


def test_PRJ_84_the_number_is_a_parameter_and_never_passes_max_ships():
    assert _setup(3, ALL[:3], {"plunder_start_galleons": 0}).fships == [1, 1, 1]
    assert _setup(3, ALL[:3], {"plunder_start_galleons": 1}).fships == [1, 1, 2]
    assert _setup(3, ALL[:3], {"plunder_start_galleons": 9}).fships == [1, 1, 3]      # max_ships 3
    assert _setup(3, ALL[:3], {"plunder_start_galleons": 9, "max_ships": 5}).fships == [1, 1, 5]
    assert api.house_rules("reference", {"plunder_start_galleons": 0}) == []          # [REF], not a house rule


def test_PRJ_85_with_two_players_every_fleet_starts_with_a_galleon_and_spain_keeps_six_crown_colonies():
    st = _setup(2, ["spanish", "english"])
    assert st.fships == [2, 2]
    crown = [c for c, is_crown in enumerate(st.rs.col_crown) if is_crown]
    assert sum(st.col_owner[c] == 0 for c in crown) == 6
    assert _setup(2, ["french", "dutch"]).fships == [3, 2]     # the French: 2 + PRJ-84's 2, capped at max_ships 3
    assert _setup(3, ALL[:3]).fships[:2] == [1, 1]                 # only with 2 players
    seven = api.Game.new(api.Config(players=2, nations=["spanish", "english"]), 7, ruleset_version="reference-7")
    assert seven.state.fships == [1, 1]
    assert sum(seven.state.col_owner[c] == 0 for c in crown) == 4
