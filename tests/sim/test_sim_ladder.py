"""paxh ladder (sim/ladder.py, issue 17): the round robin's tables, the openskill fit, and
a tiny ladder that gives the known order, random below heuristic."""
from __future__ import annotations

import json
from collections import Counter

import pytest

pytest.importorskip("openskill")
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from pax_hispanica.cli import app
from pax_hispanica.sim import ladder as lad
from pax_hispanica.sim import runner


def test_round_robin_meets_every_pair_and_rotates_every_seat():
    configs = ["random", "heuristic", "ismcts:iterations=5"]
    ts = lad.tables(configs, 4)
    assert all(len(set(t)) > 1 for t in ts)              # no table of one configuration
    assert {frozenset(p) for t in ts for p in __import__("itertools").combinations(set(t), 2)} == \
        {frozenset(p) for p in __import__("itertools").combinations(configs, 2)}
    games = lad.game_tables(configs, 4, len(ts) * 4)     # every table, once in each rotation
    seat_counts = [Counter(g[s] for g in games) for s in range(4)]
    assert all(c == seat_counts[0] for c in seat_counts)  # each config as often in every seat
    # more configurations than seats: plain combinations, no repeats at a table
    assert all(len(set(t)) == 3 for t in lad.tables(["a", "b", "c", "d"], 3))


def test_a_game_moves_the_ratings_as_openskill_does_and_repeated_seats_average():
    ladder = lad.Ladder(["heuristic", "random"])
    ladder.rate({"bots": ["random", "heuristic", "random"], "ranking": [1, 2, 0], "error": None})
    model = PlackettLuce()
    r = [[model.rating(name="random")], [model.rating(name="heuristic")], [model.rating(name="random")]]
    want = model.rate(r, ranks=[2, 0, 1])
    h = ladder.standings["heuristic"]
    assert (h.mu, h.sigma) == pytest.approx((want[1][0].mu, want[1][0].sigma))
    rnd = ladder.standings["random"]
    assert rnd.mu == pytest.approx((want[0][0].mu + want[2][0].mu) / 2)
    assert rnd.sigma == pytest.approx((want[0][0].sigma + want[2][0].sigma) / 2)
    assert (h.games, h.wins, rnd.games, rnd.seats, rnd.wins) == (1, 1, 1, 2, 0)
    ladder.rate({"bots": ["random", "heuristic"], "ranking": None, "error": "boom"})
    assert (ladder.rated, ladder.errors) == (1, 1)


def test_tiny_ladder_puts_random_below_heuristic():
    ladder, results = lad.run(["random", "heuristic"], players=3, games=12, seed=5)
    assert len(results) == 12 and not any(r["error"] for r in results)
    order = [s.config for s in ladder.table()]
    assert order == ["heuristic", "random"]
    heuristic, rnd = ladder.standings["heuristic"], ladder.standings["random"]
    assert heuristic.interval[0] > rnd.mu          # clearly apart, not by a hair


def test_the_same_seed_gives_the_same_ladder():
    a = lad.summary(lad.run(["random", "heuristic"], players=2, games=6, seed=9)[0], 2, 9)
    b = lad.summary(lad.run(["random", "heuristic"], players=2, games=6, seed=9)[0], 2, 9)
    assert a == b


@pytest.mark.parametrize("text, words", [("random", "at least two"), ("random,random", "twice"),
                                         ("random,wizard", "unknown bot"), ("random,heuristic:depth", "key=value")])
def test_bad_ladders_are_refused_clearly(text, words):
    with pytest.raises(ValueError, match=words):
        lad.parse_ladder(text)
    result = CliRunner().invoke(app, ["ladder", "--bots", text, "--games", "2"])
    assert result.exit_code == 2 and words in result.output


def test_paxh_ladder_writes_its_table_plot_and_games(tmp_path):
    result = CliRunner().invoke(app, ["ladder", "--bots", "random,heuristic", "--players", "2", "--games", "4",
                                      "--seed", "2", "--out", str(tmp_path), "--data", str(tmp_path / "lobby.json")])
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.output and "95% interval" in result.output
    data = json.loads((tmp_path / "ladder.json").read_text())
    assert data["games"] == 4 and next(r["bot"] for r in data["ratings"]) in ("heuristic", "random")
    assert "plotly" in (tmp_path / "ladder.html").read_text()
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 4
    svg = (tmp_path / "ladder.svg").read_text()
    assert svg.startswith("<svg") and svg.count("<circle") == 2 and "heuristic" in svg
    # --data: the small file the web lobby reads (data/ladder.json), with its command and date
    lobby = json.loads((tmp_path / "lobby.json").read_text())
    assert lobby["command"].startswith("paxh ladder") and "--games 4" in lobby["command"] and lobby["date"]
    assert lobby["games"] == 4 and set(lobby["ratings"]) == {"random", "heuristic"}
    top = data["ratings"][0]
    assert lobby["ratings"][top["bot"]]["ordinal"] == top["ordinal"]


def test_a_resumed_ladder_plays_only_the_missing_games_and_rates_as_one_run():
    full_ladder, full = lad.run(["random", "heuristic"], players=2, games=6, seed=4)
    played: list[dict] = []
    ladder, results = lad.run(["random", "heuristic"], players=2, games=6, seed=4, kept=full[:4],
                              on_results=played.extend)
    assert sorted(r["index"] for r in played) == [4, 5]
    assert [r["index"] for r in results] == list(range(6))
    assert lad.summary(ladder, 2, 4) == lad.summary(full_ladder, 2, 4)


def test_a_saved_ladder_hands_back_each_game_as_it_ends_from_its_workers():
    """With two workers and results written down (--resume's games.jsonl), every game comes back
    on its own: a ladder of slow bots stopped mid-run loses only the games being played."""
    batches: list[list[dict]] = []
    assert runner._chunk_size(40, 2) == 2       # what the workers would take at a time otherwise
    _, results = lad.run(["random", "heuristic"], players=2, games=40, seed=5, workers=2,
                         on_results=batches.append)
    assert [len(b) for b in batches] == [1] * 40
    assert sorted(r["index"] for b in batches for r in b) == list(range(40))
    assert [r["index"] for r in results] == list(range(40))        # and the run's results in game order


def test_kept_games_must_be_the_same_games():
    specs = lad.make_specs(["random", "heuristic"], 2, 4, 4)
    _, games = lad.run(["random", "heuristic"], players=2, games=4, seed=4)
    other_seed = {**games[0], "seed": games[0]["seed"] + 1}
    other_seats = {**games[1], "bots": list(reversed(games[1]["bots"]))}
    failed = {**games[2], "error": "boom"}
    assert set(lad.kept_games(specs, [other_seed, other_seats, failed, games[3]])) == {3}


def test_paxh_ladder_resumes_from_its_games_file(tmp_path):
    args = ["ladder", "--bots", "random,heuristic", "--players", "2", "--games", "5", "--seed", "3"]
    whole = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "whole")])
    assert whole.exit_code == 0, whole.output
    lines = (tmp_path / "whole" / "games.jsonl").read_text().splitlines()
    # a run stopped after three games, its last line cut short
    (tmp_path / "cut").mkdir()
    (tmp_path / "cut" / "games.jsonl").write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])
    resumed = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "cut"), "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert "3 games kept" in resumed.output
    assert (tmp_path / "cut" / "games.jsonl").read_text().splitlines() == lines
    a = json.loads((tmp_path / "whole" / "ladder.json").read_text())
    b = json.loads((tmp_path / "cut" / "ladder.json").read_text())
    assert a["ratings"] == b["ratings"] and b["games"] == 5
    # another ladder's games (another seed) are played again, not kept
    other = CliRunner().invoke(app, [*args[:-1], "4", "--out", str(tmp_path / "cut"), "--resume"])
    assert other.exit_code == 0 and "0 games kept" in other.output, other.output


def test_paxh_ladder_resume_needs_its_folder():
    result = CliRunner().invoke(app, ["ladder", "--bots", "random,heuristic", "--games", "2", "--resume"])
    assert result.exit_code == 2 and "--out" in result.output
