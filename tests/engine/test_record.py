"""The record is the truth: (ruleset version, config, seed, actions) saved as one JSON file
replays to the identical state; replay up to action N; snapshots are a cache."""

from __future__ import annotations

import json

import pytest

from pax_hispanica import api
from support import scenario

from .helpers import play


def test_record_saves_loads_and_replays_to_the_identical_state(tmp_path):
    states = []
    g = play(4, 77, on_step=lambda b, a, after, e: states.append(after))
    rec = g.record
    assert set(rec) >= {"ruleset_version", "config", "seed", "actions"}
    assert rec["ruleset_version"] == g.state.rs.version and rec["seed"] == 77
    path = tmp_path / "game.json"
    api.save_record(rec, path)
    loaded = api.load_record(path)
    assert loaded == json.loads(json.dumps(rec))
    r = api.replay(loaded)
    assert r.state.to_dict() == g.state.to_dict() and r.events == g.events
    assert api.result(r.state) == api.result(g.state)
    # replay up to action N lands on the state after N actions
    for n in (0, 1, 17, len(states) // 2, len(states)):
        st = api.replay(loaded, upto=n).state
        want = states[n - 1] if n else api.new_game(rec["config"], rec["seed"])
        assert st.to_dict() == want.to_dict(), n


def test_record_of_another_ruleset_version_or_format_is_refused():
    g = play(2, 5, stop=lambda g: len(g.record["actions"]) >= 3)
    with pytest.raises(ValueError, match="ruleset"):
        api.replay({**g.record, "ruleset_version": "reference-0"})
    with pytest.raises(ValueError, match="format"):
        api.replay({**g.record, "format": "someone-else-1"})


def test_PRJ_37_a_record_of_reference_1_is_refused_with_the_reason_not_replayed(tmp_path):
    """reference-1 named RULES.md's numbers and then, for a while, PRJ-36's: a record of it
    is refused by api.replay and by `paxh replay`, naming both versions and PRJ-37."""
    from typer.testing import CliRunner

    from pax_hispanica.cli import app
    g = play(2, 5, stop=lambda g: len(g.record["actions"]) >= 3)
    assert g.record["ruleset_version"] == g.state.rs.version == "reference-8"
    old = {**g.record, "ruleset_version": "reference-1"}
    with pytest.raises(ValueError) as e:
        api.replay(old)
    assert "reference-1" in str(e.value) and "reference-8" in str(e.value) and "PRJ-37" in str(e.value)
    assert "PRJ-36" in str(e.value)
    path = tmp_path / "old.json"
    api.save_record(old, path)
    out = CliRunner().invoke(app, ["replay", str(path)])
    assert out.exit_code == 2 and "reference-1" in out.output and "PRJ-37" in out.output, out.output
    api.save_record(g.record, path)
    assert CliRunner().invoke(app, ["replay", str(path)]).exit_code == 0


def test_PRJ_1_a_record_made_with_the_old_generator_is_refused_not_replayed():
    g = play(2, 5, stop=lambda g: len(g.record["actions"]) >= 3)
    assert g.record["format"] == api.RECORD_FORMAT == "paxh-record-2"
    with pytest.raises(ValueError, match="SplitMix64"):
        api.replay({**g.record, "format": "paxh-record-1"})


def test_a_record_with_an_illegal_action_stops_with_IllegalAction():
    g = play(3, 6, stop=lambda g: len(g.record["actions"]) >= 5)
    bad = {**g.record, "actions": g.record["actions"] + [{"seat": 0, "type": "move", "to": "mars"}]}
    with pytest.raises(api.IllegalAction):
        api.replay(bad)


def test_a_scenario_game_records_its_scenario_and_replays():
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2],
                  "players": [{"hand": ["galeon-1"], "money": 4}]},
                 actions=[{"seat": 0, "type": "play", "card": "galeon-1"}])
    g.act({"seat": 0, "type": "end_turn"})
    assert "scenario" in g.record and len(g.record["actions"]) == 2
    r = api.replay(json.loads(json.dumps(g.record)))
    assert r.state.to_dict() == g.state.to_dict()
    assert api.replay(g.record, upto=1).state.to_dict() != g.state.to_dict()


def test_summary_decision_and_view_are_plain_json():
    g = play(5, 8, stop=lambda g: g.state.cycle == 2 and g.state.year == 3)
    st = g.state
    for seat in [None, *range(5)]:
        json.dumps(api.view(st, seat, include_state=True))
        json.dumps(api.decision(st, seat))
    json.dumps(api.summary(st))
    assert len(api.snapshot(st)) < 20_000


def test_the_same_seed_gives_the_same_game_in_other_processes_with_other_hash_seeds():
    """No dependence on set/dict ordering of strings, object ids or the process."""
    import hashlib
    import os
    import subprocess
    import sys
    code = ("import sys, json, hashlib; sys.path.insert(0, 'tests'); from engine.helpers import play; "
            "g = play(4, 4242); print(hashlib.sha256(json.dumps(g.state.to_dict(), sort_keys=True)"
            ".encode()).hexdigest())")
    here = hashlib.sha256(json.dumps(play(4, 4242).state.to_dict(), sort_keys=True).encode()).hexdigest()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for hs in ("0", "12345"):
        out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": hs})
        assert out.stdout.strip() == here


def test_PRJ_55_PRJ_50_a_record_of_reference_2_replays_under_its_goal_of_25():
    """reference-2 had the goal of 25 Prestige; reference-3's is 5 (PRJ-55). A record that
    names reference-2 replays under reference-2's numbers (the version table, PRJ-50), not
    reference-3's; a new game gets reference-3 (tests/engine/test_versions.py replays a record
    the old engine made)."""
    g = play(2, 5, stop=lambda g: len(g.record["actions"]) >= 3)
    old = {**g.record, "ruleset_version": "reference-2"}
    r = api.replay(old)
    assert (r.state.rs.version, r.state.rs.prestige_to_win) == ("reference-2", 25)
    assert r.record["ruleset_version"] == "reference-2"
    assert api.replay(g.record).state.rs.prestige_to_win == 5 == api.load_ruleset().prestige_to_win


def test_PRJ_58_a_record_of_reference_3_replays_under_its_own_numbers():
    """reference-3 loaded a PLUNDER fleet only from what it sacked (TRS-2 as written); reference-4
    (PRJ-58) made PRJ-38's sack_or_own the reference. reference-3 is exactly reference-4 with
    plunder_loading=sack (data/versions.toml, PRJ-50), so its record replays under that."""
    g = play(2, 5, stop=lambda g: len(g.record["actions"]) >= 3)
    assert g.state.rs.version == "reference-8" and g.state.rs.plunder_loading == "sack"   # PRJ-82: TRS-2 again
    old = {**g.record, "ruleset_version": "reference-3"}
    r = api.replay({**old, "actions": []})
    assert (r.state.rs.version, r.state.rs.plunder_loading, r.state.rs.prestige_to_win) == ("reference-3", "sack", 5)
    r2 = api.replay({**g.record, "ruleset_version": "reference-2", "actions": []})
    assert (r2.state.rs.version, r2.state.rs.plunder_loading, r2.state.rs.prestige_to_win) == ("reference-2", "sack", 25)
