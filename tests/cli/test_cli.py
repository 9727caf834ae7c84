"""The `paxh` command line: simulate, replay, play and rules, run as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from support import random_game

from pax_hispanica import api

PAXH = [sys.executable, "-m", "pax_hispanica.cli"]


def run(*args, input_=None, timeout=120):
    return subprocess.run(PAXH + list(args), capture_output=True, text=True, input=input_, timeout=timeout)


def test_simulate_json_summary_has_the_promised_keys_and_repeats_with_the_seed():
    a = run("simulate", "--players", "3", "--games", "4", "--seed", "11", "--json")
    b = run("simulate", "--players", "3", "--games", "4", "--seed", "11", "--json")
    assert a.returncode == 0, a.stderr
    sa, sb = json.loads(a.stdout), json.loads(b.stdout)
    for key in ("games", "decisions_per_game", "wins_by_seat", "win_rate_by_bot", "seconds_per_game"):
        assert key in sa
    assert sa["games"] == 4
    assert sum(sa["wins_by_seat"].values()) == 4
    timing = {"seconds_per_game", "games_per_second", "total_seconds", "wall_seconds"}
    assert {k: v for k, v in sa.items() if k not in timing} == {k: v for k, v in sb.items() if k not in timing}


def test_replay_prints_the_state_of_a_record_and_stops_at_to(tmp_path: Path):
    g = random_game(3, seed=5)
    path = tmp_path / "game.json"
    api.save_record(g.record, path)
    full = json.loads(run("replay", str(path), "--json").stdout)
    assert full["summary"]["over"] is True
    assert full["summary"]["result"]["winner"] == g.state.result["winner"]
    part = json.loads(run("replay", str(path), "--to", "10", "--json").stdout)
    assert part["actions"] == 10
    assert part["summary"]["version"] == 10
    text = run("replay", str(path))
    assert text.returncode == 0 and "Winner" in text.stdout


def test_replay_accepts_a_scenario_file(tmp_path: Path):
    scn = {"config": {"players": 2}, "seed": 3,
           "position": {"year": "play", "step": "play_turns", "order": [1, 0],
                        "players": [{"money": 9, "hand": ["galeon-1"]}, {"money": 1}]},
           "actions": [{"seat": 1, "type": "end_turn"},
                       {"seat": 0, "type": "play", "card": "galeon-1"}]}
    path = tmp_path / "scn.json"
    path.write_text(json.dumps(scn))
    out = run("replay", str(path), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    p0 = data["summary"]["players"][0]
    ships = api.load_ruleset().setup_value("start_ships", 2) + 1         # the Galeón's (PRJ-85: 2 to start with 2 players)
    assert p0["tableau"] == ["galeon-1"] and p0["money"] == 7 and p0["fleet"]["ships"] == ships == 3
    assert any(e["type"] == "CardPlayed" and e["rule"] == "PLY-1" for e in data["events"])


def test_replay_reports_an_illegal_action_in_a_record(tmp_path: Path):
    rec = api.Game.new(api.Config(players=2), 1).record
    rec["actions"] = [{"seat": 9, "type": "pass"}]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    out = run("replay", str(path))
    assert out.returncode == 1
    assert "malformed" in out.stderr


def test_replay_of_a_broken_scenario_names_the_file_not_an_action(tmp_path: Path):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"position": {}}))          # no config
    out = run("replay", str(path))
    assert out.returncode == 2
    assert "not a valid record or scenario" in out.stderr and "config" in out.stderr


def test_play_in_the_terminal_to_the_end_and_save_the_record(tmp_path: Path):
    save = tmp_path / "mine.json"
    out = run("play", "--players", "2", "--seed", "8", "--save", str(save), input_="1\n" * 2000)
    assert out.returncode == 0, out.stderr
    assert "Your decision" in out.stdout and "Winner" in out.stdout
    rec = json.loads(save.read_text())
    assert api.replay(rec).state.over


def test_play_refuses_a_bad_choice_and_asks_again(tmp_path: Path):
    out = run("play", "--players", "2", "--seed", "8", input_="abc\n999\nq\n")
    assert "Type a number" in out.stdout                  # abc
    assert "Choose 1 to 5." in out.stdout                 # 999: the seeded game's first decision has 5 options


@pytest.mark.parametrize("rule, rid, page", [("AUC-4", "AUC-4", "SEED p7"), ("bat-3", "BAT-3", "SEED p13-14")])
def test_rules_lists_a_rule_with_its_page(rule, rid, page):
    out = run("rules", rule)
    assert out.returncode == 0
    assert out.stdout.startswith(f"{rid:8} {page:16} ") and out.stdout.count("\n") == 1, out.stdout


def test_replay_of_an_unfinished_game_hides_sealed_choices_unless_asked(tmp_path: Path):
    g = api.Game.new(api.Config(players=3), 4)
    seat = api.acting(g.state)[0]
    while api.decision(g.state)["decision"] != "bid":
        seat = api.acting(g.state)[0]
        opts = api.expand(api.legal_actions(g.state, seat))
        g.act(next((a for a in opts if a["type"] == "initiate"), opts[0]))
    bidder = api.acting(g.state)[0]
    g.act({"seat": bidder, "type": "bid", "amount": 1})
    path = tmp_path / "open.json"
    api.save_record(g.record, path)
    public = json.loads(run("replay", str(path), "--json").stdout)["events"]
    assert not any(e["type"] == "ChoiceSealed" for e in public)
    mine = json.loads(run("replay", str(path), "--json", "--viewer", str(bidder)).stdout)["events"]
    assert any(e["type"] == "ChoiceSealed" and e["value"] == 1 for e in mine)
    everything = json.loads(run("replay", str(path), "--json", "--all").stdout)["events"]
    assert any(e["type"] == "ChoiceSealed" for e in everything)


def test_PRJ_31_simulate_with_a_variant_records_it_and_refuses_a_bad_one(tmp_path: Path):
    out = tmp_path / "sim"
    ok = run("simulate", "--players", "2", "--games", "2", "--set", "cycles=1", "--out", str(out), "--json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["length"]["cycles"]["max"] == 1
    assert json.loads((out / "summary.json").read_text())["meta"]["params"] == {"cycles": 1}
    bad = run("simulate", "--games", "1", "--set", "cycles=0")
    assert bad.returncode == 2 and "cycles must be at least 1 and at most 20" in bad.stderr
    unknown = run("simulate", "--games", "1", "--set", "royal_fifth=2")
    assert unknown.returncode == 2 and "unknown parameter 'royal_fifth'" in unknown.stderr
    listed = run("rules", "--params")
    assert listed.returncode == 0 and "kings_crown_share" in listed.stdout


def test_PRJ_31_play_a_variant_in_the_terminal_and_its_record_keeps_it(tmp_path: Path):
    save = tmp_path / "variant.json"
    out = run("play", "--players", "2", "--seed", "8", "--set", "conquistador_prestige=2", "--set", "cycles=1",
              "--save", str(save), input_="1\n" * 2000)
    assert out.returncode == 0, out.stderr
    assert "Variant (PRJ-31): conquistador_prestige = 2, cycles = 1" in out.stdout
    rec = json.loads(save.read_text())
    assert rec["config"]["params"] == {"conquistador_prestige": 2, "cycles": 1}
    assert api.replay(rec).state.over
    bad = run("play", "--set", "cycles=zero")
    assert bad.returncode == 2 and "cycles must be int" in bad.stderr


def test_PRJ_31_simulate_a_folder_copied_from_an_earlier_version_names_the_missing_number(tmp_path: Path):
    """A designer's copy of the ruleset from before a number was added is refused with the
    file, the table and the key (rich must not eat "[game]" as markup), and where to copy it from."""
    import shutil

    from pax_hispanica.rulesets import DATA
    folder = tmp_path / "older-copy"
    shutil.copytree(DATA / "reference", folder)
    toml = folder / "ruleset.toml"
    lines = toml.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.startswith("goal_from_cycle ="))
    toml.write_text("".join(lines[:first] + lines[first + 1:]), encoding="utf-8")
    bad = run("simulate", "--games", "1", "--ruleset", str(folder))
    text = " ".join(bad.stderr.split())        # rich wraps long lines
    assert bad.returncode == 2
    assert "ruleset.toml: [game]: missing key(s) ['goal_from_cycle']" in text, text
    assert "copy them from" in text and "paxh rules --params" in text


def test_help_lists_each_command_in_whole_sentences():
    """`paxh --help` lists every command with its summary run on as prose: a docstring's own
    line breaks (Typer's rich list keeps them) do not cut a description mid-sentence."""
    import os

    out = subprocess.run(PAXH + ["--help"], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "COLUMNS": "250", "TERM": "dumb"}).stdout
    rows = {line.split("│")[1].split()[0]: " ".join(line.split("│")[1].split()[1:])
            for line in out.splitlines() if line.startswith("│ ") and line.split("│")[1].split()}
    for name in ("simulate", "tune", "train-eval", "ladder", "replay", "play", "serve", "rules"):
        assert name in rows, (name, out)
        assert rows[name].endswith("."), (name, rows[name])       # one line each: the sentence ends there
    assert "win rates with 95% confidence intervals by seat" in rows["simulate"]
