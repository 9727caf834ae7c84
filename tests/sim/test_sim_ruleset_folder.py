"""PRJ-31 / PRJ-50: `paxh simulate --ruleset /a/folder` plays a copied ruleset folder with every
kind of bot. A view carries only the ruleset's name (the folder's name), so a bot that reloads
the ruleset of the view it reads must find the folder this process loaded by path."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pax_hispanica import api
from pax_hispanica.bots.heuristic import HeuristicAgent
from pax_hispanica.rulesets import DATA, RulesetError, load_ruleset
from pax_hispanica.sim import runner


def _copy(dest: Path, start_money: int) -> Path:
    shutil.copytree(DATA / "reference", dest)
    toml = dest / "ruleset.toml"
    text = toml.read_text(encoding="utf-8")
    assert "\nstart_money = 6 " in text
    toml.write_text(text.replace("\nstart_money = 6 ", f"\nstart_money = {start_money} ", 1), encoding="utf-8")
    return dest


def test_PRJ_31_simulate_a_ruleset_folder_with_heuristic_and_ismcts_bots(tmp_path: Path) -> None:
    folder = _copy(tmp_path / f"copied-{tmp_path.name}", 9)
    results = runner.run(3, 2, "heuristic,ismcts:iterations=4,random", seed=3, ruleset=str(folder))
    assert [r["error"] for r in results] == [None, None]
    assert all(r["decisions"] > 0 for r in results)


def test_PRJ_31_a_bot_reading_the_view_gets_the_folders_numbers(tmp_path: Path) -> None:
    folder = _copy(tmp_path / f"money-{tmp_path.name}", 11)
    state = api.new_game({"players": 3, "ruleset": str(folder)}, 5)
    view = api.view(state, 0)
    assert view["ruleset"] == folder.name
    rs = HeuristicAgent(seed=1, api=api).rs(view)
    assert rs.name == folder.name
    assert rs.start_money == 11 != load_ruleset("reference").start_money


def test_PRJ_31_two_loaded_folders_of_one_name_are_refused_by_name(tmp_path: Path) -> None:
    name = f"twin-{tmp_path.name}"
    a = _copy(tmp_path / "a" / name, 7)
    b = _copy(tmp_path / "b" / name, 8)
    assert load_ruleset(str(a)).start_money == 7
    assert load_ruleset(name).start_money == 7        # one folder of that name: found by it
    assert load_ruleset(str(b)).start_money == 8
    with pytest.raises(RulesetError, match="more than one folder") as err:
        load_ruleset(name)
    assert str(a) in str(err.value) and str(b) in str(err.value)


def test_PRJ_31_a_name_of_no_folder_is_still_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesetError):
        load_ruleset(f"never-loaded-{tmp_path.name}")
