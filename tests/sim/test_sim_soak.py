"""Long runs, outside the default test run (pytest -m soak)."""
import pytest

from pax_hispanica import sim


@pytest.mark.soak
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_games_of_every_bot_finish_without_error(players):
    bots = ",".join(["heuristic", "random", "heuristic", "random", "random"][:players])
    results = sim.run(players, 200, bots, seed=players, workers=2, nations="shuffle")
    assert not [r["error"] for r in results if r["error"]]
    s = sim.report(results)
    assert s["win_rate"]["bot"]["heuristic"]["rate"] > s["win_rate"]["bot"]["random"]["rate"]


@pytest.mark.soak
def test_ismcts_games_finish_without_error():
    results = sim.run(4, 8, "ismcts:iterations=20,heuristic,random,random", seed=9, workers=2)
    assert not [r["error"] for r in results if r["error"]]
