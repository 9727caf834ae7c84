"""benchmarks/departure_truth.py: the paired rollouts that price the moves a search changes (issue 40)."""
from __future__ import annotations

import json
import sys

import pytest

from pax_hispanica import api
from support import load_benchmark

dt = load_benchmark("departure_truth")


def test_a_rollout_ends_the_game_and_gives_a_win_and_a_margin_of_the_seats_result():
    st = api.new_game(api.Config(players=3), 4)
    won, margin = dt.play_out(api.copy(st), 1, 3, 7)
    assert won in (0, 1)
    assert dt.play_out(api.copy(st), 1, 3, 7) == (won, margin)          # seeded: the same game again
    assert isinstance(margin, float) and -100 < margin < 100


def test_rollouts_differ_by_their_samples_of_what_the_seat_cannot_see():
    st = api.new_game(api.Config(players=3), 4)
    seat = api.acting(st)[0]
    view = api.view(st, seat, include_state=True)
    sample = api.determinizer(view, api.known_cards(view, []))
    assert len({dt.play_out(sample(r), seat, 3, 0) for r in range(8)}) > 1


def test_the_moves_are_played_out_on_the_same_samples():
    st = api.new_game(api.Config(players=3), 5)
    seat = api.acting(st)[0]
    legal = api.legal_actions(st, seat)
    move = api.nth_action(legal, 0)
    view = api.view(st, seat, include_state=True)
    known = api.known_cards(view, [])
    won, margin = dt.worths(view, known, seat, [move, move], 3, 4, key=11)
    assert won[0] == won[1] and margin[0] == margin[1]      # one move twice: the same four games
    assert len(won[0]) == 4


def _row(prior: dict, choices: dict, moves: list, outcomes: list, margins: list) -> dict:
    return {"game": 0, "step": 1, "seat": 0, "prior": prior, "choices": choices, "moves": moves,
            "outcomes": outcomes, "margins": margins}


def test_the_summary_is_the_mean_paired_gain_of_each_bots_departures():
    a, b, c = {"type": "end_turn"}, {"type": "sell", "card": "x"}, {"type": "play", "card": "x"}
    rows = [
        _row(c, {"A": a, "B": c}, [c, a], [[1, 1, 0, 0], [0, 0, 0, 0]], [[1, 1, -1, -1], [-2, -2, -2, -2]]),
        _row(a, {"A": b, "B": b}, [a, b], [[0, 0, 0, 0], [1, 0, 0, 0]], [[0, 0, 0, 0], [1, 0, 0, 0]]),
        {"game": 0, "done": True},
    ]
    got = dt.summary(rows, ["A", "B"])
    assert got["A"]["departures"] == 2
    assert got["A"]["mean_gain"] == pytest.approx((-0.5 + 0.25) / 2)
    assert got["A"]["mean_margin_gain"] == pytest.approx((-2.0 + 0.25) / 2, abs=1e-3)
    assert got["A"]["by_kind"] == {"play->end_turn": {"n": 1, "mean_gain": -0.5},
                                   "end_turn->sell": {"n": 1, "mean_gain": 0.25}}
    assert got["B"]["departures"] == 1 and got["B"]["mean_gain"] == pytest.approx(0.25)


def test_a_run_writes_a_line_per_departure_and_resumes_past_the_games_done(tmp_path, monkeypatch):
    out = tmp_path / "d.jsonl"
    argv = ["departure_truth.py", "--bot", "ismcts:iterations=8:root=halving:eval=worth", "--games", "1",
            "--players", "3", "--seed", "903", "--rollouts", "2", "--every", "7", "--out", str(out)]
    monkeypatch.setattr(sys, "argv", argv)
    dt.main()
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert rows[-1] == {"game": 0, "done": True}
    for r in rows[:-1]:
        assert r["choices"]["ismcts:iterations=8:root=halving:eval=worth"] != r["prior"]
        assert r["moves"][0] == r["prior"] and len(r["outcomes"]) == len(r["moves"]) == len(r["margins"])
        assert all(len(o) == 2 for o in r["outcomes"])
    before = out.read_text()
    monkeypatch.setattr(sys, "argv", argv + ["--resume"])
    dt.main()
    assert out.read_text() == before          # the game was done: nothing played again
