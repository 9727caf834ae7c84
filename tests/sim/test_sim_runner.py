"""The simulator framework on the toy game (fast, engine-independent):
reproducibility across worker counts, bot rotation, the command's outputs."""
import json

import pytest
import typer
from typer.testing import CliRunner

from pax_hispanica import sim
from pax_hispanica.sim.runner import game_seed, parse_bots, seat_bots
from pax_hispanica.sim.stats import without_timings

TOY = "pax_hispanica.bots.toygame"


def _strip(results):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in results]


def test_game_seeds_are_stable_and_distinct():
    assert game_seed(7, 0) == game_seed(7, 0)
    assert len({game_seed(7, i) for i in range(1000)}) == 1000
    assert game_seed(7, 1) != game_seed(8, 1)


def test_bot_parsing_and_rotation():
    specs = parse_bots("ismcts:iterations=50:cutoff=10,heuristic", 4)
    assert [s["kind"] for s in specs] == ["ismcts", "heuristic", "random", "random"]
    assert specs[0]["options"] == {"iterations": 50, "cutoff": 10}
    with pytest.raises(ValueError):
        parse_bots("random,random,random", 2)
    with pytest.raises(ValueError):
        parse_bots("alphazero", 2)
    seats = [[b["kind"] for b in seat_bots(specs, i, True)] for i in range(4)]
    # every bot sits in every seat once over four games
    for seat in range(4):
        assert sorted(g[seat] for g in seats) == sorted(s["kind"] for s in specs)
    assert [b["kind"] for b in seat_bots(specs, 3, False)] == [s["kind"] for s in specs]


def test_same_results_whatever_the_number_of_workers():
    one = sim.run(3, 24, "ismcts:iterations=10,random", seed=5, api=TOY)
    two = sim.run(3, 24, "ismcts:iterations=10,random", seed=5, workers=2, api=TOY)
    assert _strip(one) == _strip(two)
    assert without_timings(sim.report(one)) == without_timings(sim.report(two))
    assert [r["index"] for r in one] == list(range(24))
    other = sim.run(3, 24, "ismcts:iterations=10,random", seed=6, api=TOY)
    assert _strip(other) != _strip(one)


def test_progress_is_reported():
    seen = []
    sim.run(2, 5, None, seed=1, api=TOY, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (5, 5) and len(seen) == 5


def _app():
    from pax_hispanica.sim.command import simulate_command
    app = typer.Typer()
    app.command("simulate")(simulate_command)
    app.command("other")(lambda: None)     # two commands: keep "simulate" as a sub-command
    return app


def test_command_json_and_outputs(tmp_path):
    runner = CliRunner()
    args = ["simulate", "--players", "3", "--games", "12", "--seed", "3", "--api", TOY, "--json"]
    r1 = runner.invoke(_app(), args)
    assert r1.exit_code == 0, r1.output
    s1 = json.loads(r1.stdout)
    for key in ("games", "decisions_per_game", "wins_by_seat", "win_rate_by_bot", "seconds_per_game"):
        assert key in s1
    assert s1["games"] == 12 and sum(s1["wins_by_seat"].values()) == 12
    r2 = runner.invoke(_app(), args + ["--workers", "2"])
    s2 = json.loads(r2.stdout)
    timing = ("seconds_per_game", "total_seconds", "games_per_second", "wall_seconds")
    assert {k: v for k, v in s1.items() if k not in timing} == {k: v for k, v in s2.items() if k not in timing}

    out = tmp_path / "run"
    r3 = runner.invoke(_app(), ["simulate", "--players", "2", "--games", "6", "--api", TOY,
                                "--bots", "ismcts:iterations=5,random", "--out", str(out),
                                "--log-explanations"])
    assert r3.exit_code == 0, r3.output
    games = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert len(games) == 6 and all(g["winner"] is not None for g in games)
    explanations = [json.loads(x) for x in (out / "explanations.jsonl").read_text().splitlines()]
    assert explanations and {"game", "seat", "bot", "action", "why"} <= set(explanations[0])
    assert any(e["why"].get("alternatives") for e in explanations if e["bot"].startswith("ismcts"))
    html = (out / "report.html").read_text()
    assert "Win rates" in html and "win_rate_by_seat.png" in html
    assert html.count("src='data:image/png;base64,") >= 4          # one file to share
    assert "Why the bots play what they play" in html
    why = json.loads((out / "summary.json").read_text())["why"]
    assert sum(w["decisions"] for w in why.values()) == len(explanations)
    for png in ("win_rate_by_seat.png", "win_rate_by_bot.png", "scores.png", "length.png"):
        assert (out / png).read_bytes()[:4] == b"\x89PNG"
    assert json.loads((out / "summary.json").read_text())["games"] == 6


def test_command_rejects_bad_bots():
    r = CliRunner().invoke(_app(), ["simulate", "--players", "2", "--games", "1", "--api", TOY,
                                    "--bots", "nonsense"])
    assert r.exit_code == 2
