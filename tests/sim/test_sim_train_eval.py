"""paxh train-eval (sim/train_eval.py, bots/learned.py; issue 17): positions labelled with
the winner, a conditional logit fitted to them, and ISMCTS using it at its cut-offs."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from pax_hispanica import api
from pax_hispanica.bots import learned, make_agent
from pax_hispanica.bots.learned import FEATURES, LearnedEvaluation, seat_features
from pax_hispanica.cli import app
from pax_hispanica.sim import train_eval as te


def test_features_read_the_public_summary_one_row_per_seat():
    state = api.new_game(api.Config(players=3), seed=4)
    rs = api.load_ruleset("reference")
    rows = seat_features(api.summary(state), rs)
    assert len(rows) == 3 and all(len(r) == len(FEATURES) for r in rows)
    money = FEATURES.index("money")
    assert [r[money] for r in rows] == [p["money"] / rs.money_per_prestige for p in api.summary(state)["players"]]
    # the game starts in cycle 1's Auction Year (CYC-1): a twentieth of five cycles done
    summ = api.summary(state)
    assert (summ["cycle"], summ["year"]) == (1, "auction")
    t = learned.progress(summ, rs.cycles)
    assert t == pytest.approx(1 / 4 / rs.cycles)
    assert all(r[FEATURES.index("money_x_progress")] == pytest.approx(r[money] * t) for r in rows)


def test_the_fit_recovers_a_planted_rule():
    """Seat features where feature 0 decides the winner: the fit gives it the largest weight
    and predicts held-out winners far better than chance."""
    rng = np.random.default_rng(3)
    rows, winners, games = [], [], []
    for g in range(400):
        x = rng.normal(size=(4, len(FEATURES)))
        rows.append(x.tolist())
        winners.append(int(np.argmax(x[:, 0] * 3 + rng.normal(size=4) * 0.5)))
        games.append(g)
    model, report = te.train(te.Data(rows, winners, games), holdout=0.25, steps=400)
    assert model.importances()[0][0] == FEATURES[0]
    assert report["learned"]["accuracy"] > 0.7 and report["learned"]["log_loss"] < report["chance_log_loss"] - 0.5
    assert 0 < report["test_games"] < 400 and report["train_games"] + report["test_games"] == 400
    # values: probabilities summing to 1, the planted leader most likely
    x = np.zeros((3, len(FEATURES)))
    x[1, 0] = 2.0
    z = model.logits(x.tolist())
    assert max(range(3), key=lambda i: z[i]) == 1


def test_a_tiny_training_run_writes_a_model_that_loads_and_ismcts_uses(tmp_path):
    out = tmp_path / "eval.json"
    result = CliRunner().invoke(app, ["train-eval", "--games", "24", "--players", "3,4", "--every", "8",
                                      "--steps", "200", "--seed", "5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "held-out log-loss" in result.output
    data = json.loads(out.read_text())
    assert data["meta"]["positions"] >= 200 and data["meta"]["seed"] == 5
    model = learned.load(out)
    assert model.features == FEATURES
    state = api.new_game(api.Config(players=3), seed=2)
    vals = model.values(api.summary(state), api.load_ruleset("reference"))
    assert len(vals) == 3 and math.isclose(sum(vals), 1.0)
    # ISMCTS at its cut-offs: the learned values are what a cut-off returns
    bot = make_agent("ismcts", 1, iterations=10, eval=str(out))
    seat = api.acting(state)[0]
    view = api.view(state, seat, include_state=True)
    action = bot.decide(view, api.legal_actions(state, seat))
    assert action["seat"] == seat
    assert bot._rs is not None          # decide() read the view's ruleset
    assert bot._values(state, 3) == model.values(api.summary(state), bot._rs)
    hand = make_agent("ismcts", 1, iterations=10)
    hand.decide(view, api.legal_actions(state, seat))
    assert hand._values(state, 3) != bot._values(state, 3)     # the option changes the evaluation


def test_the_recorded_command_is_the_canonical_one_whatever_the_caller(tmp_path, monkeypatch):
    """meta.command is rebuilt from the parsed options (every option that changes the weights,
    at its default too), not copied from sys.argv: a test's CliRunner, `python -m` or a
    wrapper script would record their own argv, which does not reproduce the run."""
    out = tmp_path / "eval x.json"
    monkeypatch.setattr("sys.argv", ["/usr/bin/something-else", "--unrelated", "words"])
    result = CliRunner().invoke(app, ["train-eval", "-g", "6", "--players", "4,3", "--every", "8", "--steps", "20",
                                      "-s", "3", "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    command = json.loads(out.read_text())["meta"]["command"]
    assert command == ("paxh train-eval --games 6 --players 4,3 --tables 'heuristic;heuristic,heuristic,random' "
                       f"--every 8 --holdout 0.2 --l2 0.001 --steps 20 --label ranking --seed 3 --out '{out}'")
    assert "unrelated" not in command and "--workers" not in command
    # the command, run again, parses to the same options and writes the same weights
    import shlex
    again = tmp_path / "again.json"
    argv = shlex.split(command.replace(shlex.quote(str(out)), shlex.quote(str(again))))
    assert argv[:2] == ["paxh", "train-eval"]
    result = CliRunner().invoke(app, argv[1:])
    assert result.exit_code == 0, result.output
    first, second = json.loads(out.read_text()), json.loads(again.read_text())
    assert first["weights"] == second["weights"]
    assert second["meta"]["command"] == command.replace(shlex.quote(str(out)), shlex.quote(str(again)))


def test_the_shipped_weights_load_and_name_their_command():
    model = learned.load()
    assert model.features == FEATURES
    assert model.meta["command"].startswith("paxh train-eval")
    report = model.meta["report"]
    assert report["learned"]["log_loss"] < report["chance_log_loss"]


def test_a_weights_file_for_other_features_is_refused_clearly():
    data = learned.load().to_json()
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError, match="retrain"):
        LearnedEvaluation.from_json(data)
    with pytest.raises(ValueError, match="unknown model"):
        LearnedEvaluation.from_json({**data, "model": "forest"})


@pytest.mark.parametrize("args, words", [(["--players", "7"], "--players"), (["--tables", "wizard"], "unknown bot")])
def test_bad_options_are_refused(args, words, tmp_path):
    result = CliRunner().invoke(app, ["train-eval", "--games", "4", "--out", str(tmp_path / "x.json"), *args])
    assert result.exit_code == 2 and words in result.output


def test_the_ranking_label_is_a_plackett_luce_likelihood_with_its_exact_gradient():
    """--label ranking: -log P(ranking) = sum over places of -log softmax over the seats not yet
    placed; checked against a hand computation and the gradient against finite differences."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=(5, 4, 3))
    r = np.asarray([rng.permutation(4)[:3] for _ in range(5)])
    w = rng.normal(size=3)
    want = 0.0
    for p in range(5):
        z = x[p] @ w
        left = list(range(4))
        for j in range(3):
            want -= z[r[p, j]] - math.log(sum(math.exp(z[s]) for s in left))
            left.remove(r[p, j])
    assert te.loss([(x, r)], w) == pytest.approx(want / 5)
    g = te.gradient([(x, r)], w, l2=0.01)
    for k in range(3):
        e = np.zeros(3)
        e[k] = 1e-6
        fd = (te.loss([(x, r)], w + e, 0.01) - te.loss([(x, r)], w - e, 0.01)) / 2e-6
        assert g[k] == pytest.approx(fd, rel=1e-5, abs=1e-8)
    # the winner label is the first stage alone
    assert te.loss([(x, r[:, :1])], w) < te.loss([(x, r)], w)


def test_the_ranking_fit_uses_every_place_and_recovers_a_planted_rule():
    """Positions where feature 0 orders all the seats: trained on the whole ranking, the model
    finds feature 0, and the data's rankings reach the fit (not only the winners)."""
    rng = np.random.default_rng(4)
    rows, winners, games, rankings = [], [], [], []
    for g in range(300):
        x = rng.normal(size=(4, len(FEATURES)))
        order = [int(s) for s in np.argsort(-(x[:, 0] * 3 + rng.normal(size=4) * 0.5))]
        rows.append(x.tolist())
        winners.append(order[0])
        rankings.append(order)
        games.append(g)
    data = te.Data(rows, winners, games, rankings=rankings)
    groups = te._groups(data, list(range(300)), "ranking")
    assert groups[0][1].shape == (300, 3) and groups[0][1][:, 0].tolist() == winners
    assert te._groups(data, list(range(300)), "winner")[0][1].shape == (300, 1)
    model, report = te.train(data, holdout=0.25, steps=300, label="ranking")
    assert model.importances()[0][0] == FEATURES[0] and report["label"] == "ranking"
    assert report["learned"]["accuracy"] > 0.7
    with pytest.raises(ValueError, match="label"):
        te._groups(data, [0], "score")


def test_the_learned_values_temperature_sharpens_and_ismcts_passes_its_own():
    """learned.values(..., temperature) is softmax(logits / temperature): 1 is the fitted model
    (unchanged), a smaller one sharpens it (the leader's value rises), and ISMCTS's
    `temperature` option reaches the learned evaluation as it reaches the hand-written one."""
    model = learned.load()
    rs = api.load_ruleset("reference")
    state = api.new_game(api.Config(players=4), seed=3)
    bot = make_agent("heuristic", 1)
    from pax_hispanica.bots.ismcts import RANGE_CAP, bounded_actions, playable

    def at_choice(st) -> bool:           # ISMCTS searches only where it has more than one action
        return any(len(bounded_actions(playable(api.legal_actions(st, s)), RANGE_CAP)) > 1
                   for s in api.acting(st)[:1])

    moves = 0
    while moves < 60 or not at_choice(state):
        seat = api.acting(state)[0]      # 60 moves on, at a choice: a position where the seats differ
        state, _ = api.apply(state, bot.decide(api.view(state, seat), api.legal_actions(state, seat)))
        moves += 1
    summ = api.summary(state)
    z = model.logits(seat_features(summ, rs))
    assert max(z) - min(z) > 0.1
    base = model.values(summ, rs)
    assert model.values(summ, rs, temperature=1.0) == base
    sharp = model.values(summ, rs, temperature=0.5)
    expect = [math.exp(2 * v) for v in z]
    assert sharp == pytest.approx([e / sum(expect) for e in expect], rel=1e-12)
    assert max(sharp) > max(base) and math.isclose(sum(sharp), 1.0)
    search = make_agent("ismcts", 1, iterations=4, eval="learned", temperature=0.5)
    seat = api.acting(state)[0]
    assert at_choice(state)              # the search sets its evaluation up only when it searches
    search.decide(api.view(state, seat, include_state=True), api.legal_actions(state, seat))
    assert search._values(state, 4) == sharp
