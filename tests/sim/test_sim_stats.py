"""The simulator's statistics against a small run computed by hand."""
import pytest

from pax_hispanica.sim import report, wilson


def _game(index, bots, winner, scores, decisions, cards, first, nations, legs):
    return {"index": index, "seed": 100 + index, "players": 2, "bots": bots, "winner": winner,
            "scores": scores, "ranking": None, "decisions": decisions,
            "decisions_by_seat": [decisions // 2] * 2, "cards_played": cards, "first_seat": first,
            "nations": nations, "legalities": legs, "error": None, "seconds": 0.5, "cycles": 5}


RESULTS = [
    _game(0, ["heuristic", "random"], 0, [10, 7], 100, [["galeon-1"], ["galeon-2", "tortuga"]], 1,
          ["english", "french"], ["PLUNDER", "SMUGGLER"]),
    _game(1, ["random", "heuristic"], 1, [5, 9], 120, [[], ["galeon-3", "galeon-4"]], 1,
          ["french", "english"], ["SMUGGLER", "SMUGGLER"]),
    _game(2, ["heuristic", "random"], 1, [8, 8], 80, [["tortuga"], []], 0,
          ["english", "french"], ["PLUNDER", "PRIVATEER"]),
    {"index": 3, "seed": 103, "players": 2, "bots": ["heuristic", "random"], "winner": None,
     "scores": None, "ranking": None, "decisions": 7, "decisions_by_seat": [4, 3],
     "cards_played": [[], []], "error": "RuntimeError: boom", "seconds": 0.1},
]


def test_wilson_interval_known_values():
    # 2 of 3: the textbook Wilson 95% interval is [0.2077, 0.9385]
    lo, hi = wilson(2, 3)
    assert lo == pytest.approx(0.2077, abs=1e-4)
    assert hi == pytest.approx(0.9385, abs=1e-4)
    assert wilson(0, 0) == [0.0, 1.0]
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)


def test_summary_matches_hand_computation():
    s = report(RESULTS)
    assert s["games"] == 4 and s["completed"] == 3 and s["errors"] == 1
    assert s["error_examples"][0]["index"] == 3
    assert s["decisions_per_game"] == pytest.approx(100.0)     # (100 + 120 + 80) / 3
    assert s["wins_by_seat"] == {"0": 1, "1": 2}
    assert s["win_rate"]["seat"]["0"]["games"] == 3
    # heuristic won games 0 and 1, lost game 2
    assert s["win_rate_by_bot"] == {"heuristic": pytest.approx(2 / 3, abs=1e-6),
                                    "random": pytest.approx(1 / 3, abs=1e-6)}
    h = s["win_rate"]["bot"]["heuristic"]
    assert (h["wins"], h["games"]) == (2, 3)
    assert h["ci95"] == pytest.approx([0.2077, 0.9385], abs=1e-4)
    # nations: english won games 0 and 1; french won game 2
    assert s["win_rate"]["nation"]["english"]["wins"] == 2
    assert s["win_rate"]["nation"]["french"]["wins"] == 1
    # legalities at the end: PLUNDER 1/2, SMUGGLER 1/3, PRIVATEER 1/1
    leg = s["win_rate"]["legality"]
    assert (leg["PLUNDER"]["wins"], leg["PLUNDER"]["games"]) == (1, 2)
    assert (leg["SMUGGLER"]["wins"], leg["SMUGGLER"]["games"]) == (1, 3)
    assert (leg["PRIVATEER"]["wins"], leg["PRIVATEER"]["games"]) == (1, 1)
    # first player won only game 1; chance is 1/2
    fp = s["first_player"]
    assert (fp["wins"], fp["games"], fp["chance"]) == (1, 3, 0.5)
    # scores
    assert s["scores"]["all"]["n"] == 6
    assert s["scores"]["all"]["mean"] == pytest.approx(47 / 6, abs=1e-6)
    assert s["scores"]["all"]["median"] == pytest.approx(8.0)
    assert s["scores"]["winner"]["mean"] == pytest.approx(9.0)
    assert s["scores"]["margin"]["mean"] == pytest.approx(7 / 3, abs=1e-6)
    assert s["length"]["decisions"]["min"] == 80 and s["length"]["decisions"]["max"] == 120
    assert s["length"]["cycles"]["mean"] == 5
    # cards, by base id, one count per (game, seat) that played it
    assert (s["cards"]["galeon"]["wins"], s["cards"]["galeon"]["games"]) == (2, 3)
    assert (s["cards"]["tortuga"]["wins"], s["cards"]["tortuga"]["games"]) == (0, 2)
    assert list(s["cards"]) == ["galeon", "tortuga"]         # most played first
    assert s["seconds_per_game"] == pytest.approx(1.6 / 4)


def test_quantiles_interpolate_like_numpy():
    import numpy as np

    from pax_hispanica.sim.stats import distribution
    xs = [3, 1, 4, 1, 5, 9, 2, 6]
    d = distribution(xs)
    for key, q in (("p10", 10), ("p25", 25), ("median", 50), ("p75", 75), ("p90", 90)):
        assert d[key] == pytest.approx(float(np.percentile(xs, q)))
    assert d["sd"] == pytest.approx(float(np.std(xs, ddof=1)), abs=1e-6)


def test_bot_scores_ranks_and_bot_by_nation():
    results = [dict(r, ranking=[r["winner"], 1 - r["winner"]]) for r in RESULTS[:3]]
    s = report(results)
    # heuristic scores: 10 (g0), 9 (g1), 8 (g2); ranks 1, 1, 2
    assert s["bot_scores"]["heuristic"]["mean_score"] == pytest.approx(9.0)
    assert s["bot_scores"]["heuristic"]["mean_rank"] == pytest.approx(4 / 3, abs=1e-6)
    assert s["bot_scores"]["random"]["mean_score"] == pytest.approx((7 + 5 + 8) / 3, abs=1e-6)
    bn = s["win_rate"]["bot_nation"]
    assert (bn["heuristic / english"]["wins"], bn["heuristic / english"]["games"]) == (2, 3)
    assert (bn["random / french"]["wins"], bn["random / french"]["games"]) == (1, 3)


def test_explanations_are_summarised_per_bot_by_hand():
    from pax_hispanica.sim.why import summarise

    def ex(bot, type_, rule, **why):
        return {"bot": bot, "action": {"type": type_, "seat": 0}, "why": {"rule_of_thumb": rule, **why}}
    games = [
        {"explanations": [ex("heuristic", "bid", "bid a share"), ex("heuristic", "bid", "bid a share"),
                          ex("heuristic", "move", "sail home")]},
        {"explanations": [ex("ismcts", "bid", "search", iterations=10,
                             heuristic_choice={"type": "bid", "seat": 0}),
                          ex("ismcts", "move", "search", iterations=30,
                             heuristic_choice={"type": "end_voyage", "seat": 0})]},
        {},
    ]
    s = summarise(games)
    h = s["heuristic"]
    assert h["decisions"] == 3
    assert h["rules_of_thumb"] == {"bid a share": {"count": 2, "share": round(2 / 3, 6)},
                                   "sail home": {"count": 1, "share": round(1 / 3, 6)}}
    assert list(h["rules_of_thumb"]) == ["bid a share", "sail home"]     # most applied first
    assert "mean_iterations" not in h
    m = s["ismcts"]
    assert m["mean_iterations"] == 20 and m["agrees_with_heuristic"] == 0.5 and m["searched_decisions"] == 2
    assert m["action_types"]["move"] == {"count": 1, "share": 0.5}
    assert summarise([{"explanations": []}]) == {}
