"""paxh tune (sim/tune.py, issue 15): a tiny budget finds a planted imbalance; a stored
study resumes; failed and pruned trials stay in the study; the report's files."""
from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

optuna = pytest.importorskip("optuna")

from pax_hispanica import rulesets as rsmod  # noqa: E402 -- after the importorskip above
from pax_hispanica.sim import objectives as ob  # noqa: E402 -- after the importorskip above
from pax_hispanica.sim import tune, tune_report  # noqa: E402 -- after the importorskip above

PLANTED = """
[objectives.money_unspent]
kind = "max"
target = 5
scale = 20
weight = 1.0
[tables.selfplay]
bots = "random"
weight = 1.0
"""


def planted_ruleset(tmp_path: Path) -> str:
    """A copy of the reference ruleset where every player starts with $50 (reference: $5)."""
    dest = tmp_path / "rich"
    shutil.copytree(rsmod.DATA / "reference", dest)
    p = dest / "ruleset.toml"
    p.write_text(p.read_text().replace("start_money = 5 ", "start_money = 50 ").replace("start_money = 6", "start_money = 50"))
    return str(dest)


def config(tmp_path: Path, **kw) -> tune.TuneConfig:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "targets.toml").write_text(PLANTED)
    rs = planted_ruleset(tmp_path)
    space = tune.search_space(rs, ["start_money"], {"start_money": (0, 60)})
    base = {"space": space, "players": 3, "games": 4, "seed": 7, "ruleset": rs, "skill": "off",
            "targets": ob.load_targets(tmp_path / "targets.toml")}
    base.update(kw)
    return tune.TuneConfig(**base)


def test_tune_finds_planted_imbalance_and_writes_a_ruleset(tmp_path):
    cfg = config(tmp_path)
    assert cfg.space["start_money"] == {"low": 0, "high": 60, "value": 50}
    study = tune.run_study(cfg, 5)
    assert study.trials[0].params == {"start_money": 50}          # the baseline comes first
    best = tune_report.best_trials(study)[0]
    assert best.params["start_money"] < 50
    assert best.value < study.trials[0].value
    out = tmp_path / "out"
    summary = tune_report.write(study, out, cfg.ruleset, {"start_money": 50}, ob.describe(cfg.targets))
    assert summary["best"][0]["set"] == f"--set start_money={best.params['start_money']}"
    written = tomllib.loads((out / "ruleset" / "ruleset.toml").read_text())
    assert written["setup"]["start_money"] == best.params["start_money"]
    assert written["setup"]["by_players"]["2"]["start_money"] == best.params["start_money"]
    html = (out / "tune.html").read_text()
    assert "optimisation history" in html and "plotly" in html
    # the folder is a ruleset the simulator can use
    assert rsmod.load_ruleset(str(out / "ruleset")).params["start_money"] == best.params["start_money"]


def test_tune_is_reproducible_from_its_seed(tmp_path):
    a = tune.run_study(config(tmp_path / "a"), 3)
    b = tune.run_study(config(tmp_path / "b", workers=2), 3)       # whatever the number of workers
    assert [t.params for t in a.trials] == [t.params for t in b.trials]
    assert [t.value for t in a.trials] == [t.value for t in b.trials]


def test_resuming_a_stored_study_continues_it(tmp_path):
    cfg = config(tmp_path)
    url = f"sqlite:///{tmp_path / 'study.db'}"
    first = tune.run_study(cfg, 2, storage=url, name="s")
    before = [(t.number, t.params, t.value) for t in first.trials]
    again = tune.run_study(cfg, 2, storage=url, name="s")
    assert len(again.trials) == 4
    assert [(t.number, t.params, t.value) for t in again.trials[:2]] == before
    # the baseline is enqueued once, and a resumed sampler does not replay the first run
    assert [t.params for t in again.trials].count({"start_money": 50}) == 1
    # other settings under the same name are refused instead of mixing two studies
    with pytest.raises(ValueError, match="other settings"):
        tune.run_study(config(tmp_path / "x", games=6), 1, storage=url, name="s")


def test_failed_and_pruned_trials_are_recorded(tmp_path, monkeypatch):
    cfg = config(tmp_path)
    real = tune.execute
    calls = {"n": 0}

    def flaky(specs, **kw):
        calls["n"] += 1
        if calls["n"] == 3:               # trial 1's first batch
            raise RuntimeError("worker lost")
        return real(specs, **kw)

    monkeypatch.setattr(tune, "execute", flaky)
    scores = iter([0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 9.0])   # the last trial's first half: far worse

    def score(self):
        s = {"figures": {}, "skill_rates": {}, "skill_gaps": {}, "losses": {}, "groups": {"balance": 0.0},
             "errors": 0, "games": 1}
        s["score"] = next(scores)
        return s

    monkeypatch.setattr(tune.Evaluation, "score", score)
    study = tune.run_study(cfg, 7)
    states = [t.state.name for t in study.trials]
    assert states == ["COMPLETE", "FAIL"] + ["COMPLETE"] * 4 + ["PRUNED"]    # pruning after 5 full trials
    assert study.trials[1].user_attrs["error"] == "RuntimeError: worker lost"
    assert study.trials[6].intermediate_values == {1: 9.0}
    rows = tune_report.trial_rows(study)
    assert [r["state"] for r in rows] == ["complete", "fail"] + ["complete"] * 4 + ["pruned"]
    assert rows[1]["failure"] == "RuntimeError: worker lost"


def test_search_space_stays_within_documented_ranges():
    space = tune.search_space(names=None)
    params = rsmod.load_ruleset("reference").params["ranges"]
    assert space and all([v["low"], v["high"]] == list(params[k]) for k, v in space.items())
    with pytest.raises(ValueError, match="outside its documented range"):
        tune.search_space(names=["cycles"], ranges={"cycles": (0, 30)})
    with pytest.raises(ValueError, match="not an int parameter"):
        tune.search_space(names=["employ_range"])
    assert tune.parse_ranges(["cycles=3..8"]) == {"cycles": (3, 8)}


def test_objective_losses():
    assert ob.loss(0.5, {"kind": "max", "target": 0.4, "scale": 0.5}) == pytest.approx(0.2)
    assert ob.loss(0.3, {"kind": "max", "target": 0.4, "scale": 0.5}) == 0.0
    assert ob.loss(1.0, {"kind": "min", "target": 1.5, "scale": 1.5}) == pytest.approx(1 / 3)
    assert ob.loss(20, {"kind": "near", "target": 15, "scale": 15}) == pytest.approx(1 / 3)
    assert ob.loss(None, {"kind": "near", "target": 15, "scale": 15}) == 1.0
    targets = ob.load_targets()
    assert set(targets["objectives"]) >= {"nation_spread", "seat_spread", "first_player", "legality_spread",
                                         "early_end", "winner_score", "lead_changes", "forced_or_pass",
                                         "cards_per_player", "skill"}
    assert len(tune.skill_tables(4, "matrix", targets)) == 6
    assert tune.skill_tables(4, "ismcts", targets)["ismcts>ismcts_half"] == [
        "ismcts:iterations=200", "ismcts:iterations=100", "ismcts:iterations=200", "ismcts:iterations=100"]


def test_paxh_tune_command_writes_its_report_and_resumes(tmp_path):
    import json
    import subprocess
    import sys
    (tmp_path / "t.toml").write_text(PLANTED.replace('weight = 1.0\n[tables', 'weight = 1.0\n[objectives.cards_per_player]\n'
                                                      'kind = "min"\ntarget = 4\n[tables'))
    cmd = [sys.executable, "-m", "pax_hispanica.cli", "tune", "--params", "start_money", "--range", "start_money=0..10",
           "--targets", str(tmp_path / "t.toml"), "--trials", "2", "--games-per-trial", "2", "--players", "2", "--skill", "off", "--seed", "3",
           "--out", str(tmp_path), "--json"]
    a = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=120)
    assert a.returncode == 0, a.stderr
    assert "trial 0 (1 in study): complete" in a.stderr        # one progress line per trial
    first = json.loads(a.stdout)
    assert first["best"] and first["best"][0]["set"].startswith(("--set start_money=", "(the ruleset"))
    assert (tmp_path / "tune.html").exists() and (tmp_path / "ruleset" / "ruleset.toml").exists()
    best = json.loads((tmp_path / "best" / "summary.json").read_text())     # the best trial's games, replayed
    assert best["meta"]["tune_trial"] == first["best"][0]["number"] and "engagement" in best
    row = json.loads((tmp_path / "tune.json").read_text())["trials"][best["meta"]["tune_trial"]]
    # the same games as in the trial
    assert row["figures"]["selfplay"]["cards_per_player"] == pytest.approx(best["engagement"]["cards_per_player"]["mean"])
    # resumed from the study OUT/study.db (without --out: no report, which is the slow part)
    url = f"sqlite:///{(tmp_path / 'study.db').resolve()}"
    b = subprocess.run(cmd[:-3] + ["--study", url, "--json"], check=False, capture_output=True, text=True, timeout=120)
    assert b.returncode == 0, b.stderr
    assert "trial 3 (4 in study)" in b.stderr
    assert len(optuna.load_study(study_name="paxh-tune", storage=url).trials) == 4
    bad = subprocess.run(cmd[:6] + ["--range", "start_money=0..5000"], check=False, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "documented range" in bad.stderr


def test_a_trial_plays_every_player_count_asked_with_the_weight_shared(tmp_path):
    cfg = config(tmp_path, players=(2, 3), games=2, skill="heuristic")
    ev = tune.Evaluation(cfg, {"start_money": 50}, 0)
    assert set(ev.weights) == {"selfplay@2p", "selfplay@3p"}
    assert ev.weights["selfplay@2p"] == ev.weights["selfplay@3p"] == 0.5
    assert set(ev.skill) == {"heuristic>random@2p", "heuristic>random@3p"}
    for name, specs in ev.specs.items():
        want = 2 if name.endswith("@2p") else 3
        assert specs and all(s["players"] == want for s in specs), name
    # different counts play different seeds: the 3-player games are not the 2-player ones again
    assert ev.specs["selfplay@2p"][0]["seed"] != ev.specs["selfplay@3p"][0]["seed"]
    ev.play(0)
    ev.play(1)
    result = ev.score()
    assert set(result["figures"]) == {"selfplay@2p", "selfplay@3p"}
    assert set(result["skill_gaps"]) == {"heuristic>random@2p", "heuristic>random@3p"}
    assert result["games"] == 2 * 2 + 2 * 1


def test_one_player_count_keeps_the_table_names_and_seeds_of_before(tmp_path):
    one = tune.Evaluation(config(tmp_path / "a", players=3), {"start_money": 50}, 4)
    also = tune.Evaluation(config(tmp_path / "b", players=(3,)), {"start_money": 50}, 4)
    assert list(one.specs) == list(also.specs) == ["selfplay"]
    assert one.specs["selfplay"][0]["seed"] == also.specs["selfplay"][0]["seed"]


@pytest.mark.parametrize("text", ["", "1", "6", "3,3", "four", "3,,x"])
def test_player_counts_are_refused_clearly(text):
    with pytest.raises(ValueError, match="--players"):
        tune.parse_player_counts(text)
    assert tune.parse_player_counts("5,3") == (5, 3)
