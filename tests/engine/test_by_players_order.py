"""PRJ-75: [setup.by_players.N] tables are read whatever their order in ruleset.toml: one
without crown_colonies, written first, hides no later table's crown_colonies. Written to kill a
survivor of scripts/mutation.py's full run (ruleset._params)."""

from __future__ import annotations

from pax_hispanica.rulesets import load_ruleset

from .test_ruleset import broken


def test_PRJ_75_a_by_players_table_without_crown_colonies_first_hides_none_of_the_later_ones(tmp_path):
    folder = broken(tmp_path, "ruleset.toml", "[setup.by_players.2]",
                    "[setup.by_players.4]\nstart_money = 7\n[setup.by_players.2]")
    rs = load_ruleset(str(folder))
    assert {k: v for k, v in rs.params.items() if k.startswith("crown_colonies.")} == \
        {"crown_colonies.2": 6, "crown_colonies.3": 6}
    assert rs.by_players == {4: {"start_money": 7}, 2: {"start_money": 6, "start_ships": 2}}
