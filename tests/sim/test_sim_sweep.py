"""`paxh simulate --sweep NAME=V1,V2`: the same games under each value of one ruleset number
(PRJ-31), compared side by side."""
import json

import pytest
import typer
from typer.testing import CliRunner

from pax_hispanica import sim
from pax_hispanica.sim.sweep import parse_sweep, row
from pax_hispanica.sim.stats import without_timings


def _app():
    from pax_hispanica.sim.command import simulate_command
    app = typer.Typer()
    app.command("simulate")(simulate_command)
    app.command("other")(lambda: None)
    return app


def test_PRJ_31_sweep_parses_one_parameter_and_several_values():
    assert parse_sweep("conquistador_prestige=1, 2,3") == ("conquistador_prestige", [1, 2, 3])
    assert parse_sweep("employ_range=same_zone,anywhere") == ("employ_range", ["same_zone", "anywhere"])
    for bad in ("cycles", "cycles=2", "=1,2", "cycles=2,2"):
        with pytest.raises(ValueError):
            parse_sweep(bad)


def test_PRJ_31_each_row_is_the_simulation_of_that_variant_on_the_same_games(tmp_path):
    out = tmp_path / "sweep"
    # the goal out of reach (PRJ-55's 5 Prestige ends some games early), so that every game
    # lasts its variant's cycles; a --set number stays in every row's variant
    r = CliRunner().invoke(_app(), ["simulate", "--players", "2", "--games", "4", "--seed", "3",
                                    "--bots", "heuristic,random", "--sweep", "cycles=1,2", "--json",
                                    "--set", "prestige_to_win=25", "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["parameter"] == "cycles" and data["values"] == [1, 2]
    assert [x["cycles_mean"] for x in data["rows"]] == [1, 2]
    for value, got in zip((1, 2), data["rows"]):
        alone = sim.report(sim.run(2, 4, "heuristic,random", seed=3, params={"cycles": value, "prestige_to_win": 25}))
        assert got == row(value, alone)                  # the same games as a plain --set run
        summary = json.loads((out / f"cycles={value}" / "summary.json").read_text())
        assert summary["meta"]["params"] == {"cycles": value, "prestige_to_win": 25}
        assert without_timings({k: v for k, v in summary.items() if k != "meta"}) == \
            without_timings({k: v for k, v in alone.items()})
    assert json.loads((out / "sweep.json").read_text())["rows"] == data["rows"]
    assert (out / "sweep_nation.png").read_bytes()[:4] == b"\x89PNG"


def test_PRJ_31_a_bad_sweep_stops_before_any_game():
    runner = CliRunner()
    for bad in ("cycles=1,0", "royal_fifth=1,2", "cycles"):
        r = runner.invoke(_app(), ["simulate", "--players", "2", "--games", "1", "--sweep", bad])
        assert r.exit_code == 2, (bad, r.output)
