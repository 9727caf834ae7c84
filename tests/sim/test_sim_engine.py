"""The simulator on the real engine: every game finishes, results repeat with
the seed, nations can be shuffled reproducibly, the facts a designer groups by
are recorded."""
import pytest

from pax_hispanica import sim
from pax_hispanica.sim.stats import without_timings


def _strip(results):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in results]


def test_real_games_finish_and_repeat_with_the_seed():
    a = sim.run(3, 6, "heuristic,random", seed=21)
    b = sim.run(3, 6, "heuristic,random", seed=21, workers=2)
    assert not [r["error"] for r in a if r["error"]]
    assert _strip(a) == _strip(b)
    s = sim.report(a)
    assert without_timings(s) == without_timings(sim.report(b))
    for r in a:
        assert r["winner"] in range(3)
        assert len(r["nations"]) == 3 and len(r["legalities"]) == 3
        assert r["first_seat"] == r["start_order"][0]
        assert r["decisions"] == sum(r["decisions_by_seat"]) > 50
    assert s["first_player"]["games"] == 6


def test_nations_shuffle_is_reproducible_and_varies():
    a = sim.run(2, 8, None, seed=3, nations="shuffle")
    b = sim.run(2, 8, None, seed=3, nations="shuffle")
    assert [r["nations"] for r in a] == [r["nations"] for r in b]
    assert len({tuple(r["nations"]) for r in a}) > 1
    fixed = sim.run(2, 2, None, seed=3, nations="dutch,courland")
    assert all(r["nations"] == ["dutch", "courland"] for r in fixed)
    with pytest.raises(ValueError):
        sim.run(2, 1, None, seed=3, nations="dutch")


def test_PRJ_31_a_variant_applies_to_every_game_and_is_checked_first():
    short = sim.run(3, 4, "heuristic", seed=5, params=["cycles=1", "start_money=9"])
    assert not [r["error"] for r in short if r["error"]]
    assert all(r["cycles"] == 1 for r in short)
    plain = sim.run(3, 4, "heuristic", seed=5)
    assert all(r["cycles"] > 1 for r in plain)
    with pytest.raises(ValueError, match="NAME=VALUE"):
        sim.run(3, 1, None, seed=5, params=["cycles"])


def test_views_without_the_masked_state_change_no_game(monkeypatch):
    """Issue 13: the runner leaves the masked state out of the views of bots that never
    determinize (random, heuristic); the games they play are the same as with full views."""
    from pax_hispanica.sim import runner
    lean = runner.run(4, 3, "heuristic,random,heuristic,random", seed=13)
    monkeypatch.setattr(runner, "_has_lean_views", lambda api: False)
    full = runner.run(4, 3, "heuristic,random,heuristic,random", seed=13)
    def strip(rs):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rs]
    assert strip(lean) == strip(full) and all(r["error"] is None for r in lean)
