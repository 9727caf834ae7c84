"""PRJ-81 (house rules: a variant that changes a [SEED] sentence, never the default), PRJ-82
(reference-8: TRS-2 as written, each legality scoring Treasure its own way) and PRJ-83 (named
sets of house rules, `house_rules = NAME`)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pax_hispanica import api
from pax_hispanica.cli import app as cli_app
from pax_hispanica.engine.house_rules import CHESTS, CONDITIONS, REF_ONLY, scoring_table
from pax_hispanica.engine.treasure import treasure_value
from pax_hispanica.sim import corpus

DATA = Path(__file__).parents[1] / "engine" / "data"
LEGALITIES = ("CONQUISTADOR", "PRIVATEER", "SMUGGLER", "PLUNDER")
# reference-7's Treasure rule and numbers, in the named set "reference-7" (PRJ-83), which may
# also restore other numbers reference-8 changed (the set is tested against the version table)
REF7 = {"plunder_loading": "sack_or_own", "conquistador_prestige": 1, "privateer_prestige": 1, "privateer_money": 0,
        "smuggler_money": 3, "plunder_money": 3, "plunder_chests_per_prestige": 2}


def sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


# ---- PRJ-81: the principle -----------------------------------------------------------------------

@pytest.mark.parametrize("version", ["reference", "reference-8"])
def test_PRJ_81_the_default_ruleset_changes_no_seed_sentence(version):
    assert api.house_rules(version) == []
    assert api.house_rules(api.Config(players=2)) == [] == api.house_rules(api.load_ruleset())
    for players in (2, 3, 4, 5):        # numbers set by player count, too (smuggler_bribe.<N>)
        g = api.Game.new(api.Config(players=players), 3)
        assert api.house_rules(api.view(g.state, None)) == [] and "house_rules" not in g.record


@pytest.mark.parametrize("params, rule, param, words", [
    ({"plunder_loading": "sack_or_own"}, "TRS-2", "plunder_loading", "without a sack"),
    ({"privateer_money": 0}, "TRS-1", "privateer_money", "CONQUISTADOR and PRIVATEER score 1 Chest alike"),
    ({"plunder_money": 3, "smuggler_money": 3}, "TRS-1", "smuggler_money", "SMUGGLER and PLUNDER score 1 Chest alike"),
    ({"plunder_money": 0, "plunder_chests_per_prestige": 2}, "TRS-1", "plunder_money", "PLUNDER scores nothing for 1 Chest"),
    ({"smuggler_money": 0}, "TRS-1", "smuggler_money", "SMUGGLER scores nothing"),
    ({"conquistador_prestige": 2, "privateer_prestige": 2, "privateer_money": 0}, "TRS-1", "conquistador_prestige",
     "alike"),
    ({"smuggler_bribe": 0}, "TRS-1", "smuggler_bribe", "for $0 with 2, 3, 4, 5 players"),
    ({"smuggler_bribe.3": 0}, "TRS-1", "smuggler_bribe", "for $0 with 3 players"),
    ({"employ_cost": 0}, "LAB-1", "employ_cost", "employing costs $0"),
    ({"employ_cost": 2}, "LAB-1", "employ_cost", "employing costs $2"),
    ({"sell_price": 2}, "HND-3", "sell_price", "sells for $2"),
    ({"goods_per_year": 0}, "GDS-1", "goods_per_year", "no Chest"),
    ({"chest_cap": 0}, "GDS-1", "chest_cap", "no Chest"),
    ({"supply_chests": 0}, "GDS-1", "supply_chests", "no Chest"),
    ({"slave_death": 0, "slave_revolt": 0}, "GDS-1", "slave_death", "no roll of the die kills or frees a Slave"),
    ({"die_sides": 2, "slave_death": 3, "slave_revolt": 6}, "GDS-1", "die_sides", "no roll of the die kills or frees a Slave"),
])
def test_PRJ_81_a_variant_that_changes_a_seed_sentence_is_named_a_house_rule(params, rule, param, words):
    named = api.house_rules("reference", params)
    assert named, params
    hit = [h for h in named if h.rule == rule and param in h.param.split(", ") and words in h.change]
    assert hit, named
    assert hit[0].sentence.endswith(")") and "SEED p" in hit[0].sentence       # the seed's words and page
    assert rule in api.RULES and CONDITIONS[param][0] == rule
    g = api.Game.new(api.Config(players=3, params=params), 1)
    assert g.record["house_rules"] == [h._asdict() for h in named]             # the record names them
    assert api.house_rules(api.view(g.state, 0)) == named                      # so does every view's ruleset


@pytest.mark.parametrize("death, revolt", [(1, 0), (0, 1), (6, 7)])
def test_PRJ_81_GDS_1_a_die_face_that_still_kills_or_frees_a_slave_is_no_house_rule(death, revolt):
    """Only when neither face can be rolled (each outside 1..die_sides) does the die never kill or
    free a Slave; a face of 1, or of the die's highest, still can."""
    named = api.house_rules("reference", {"slave_death": death, "slave_revolt": revolt})
    assert not [h for h in named if "kills or frees a Slave" in h.change], named


def test_PRJ_81_every_parameter_is_decided_seed_or_ref():
    """Each parameter of `paxh rules --params` is either one that can change a seed sentence
    (CONDITIONS, with its rule and when) or [REF] at every value (REF_ONLY, with why)."""
    names = set(api.parameters())
    assert names <= set(CONDITIONS) | set(REF_ONLY), names - set(CONDITIONS) - set(REF_ONLY)
    assert not set(CONDITIONS) & set(REF_ONLY) and set(CONDITIONS) <= names
    assert all(why for why in REF_ONLY.values())
    assert set(api.house_rule_conditions()) == set(CONDITIONS)


def test_PRJ_81_a_ref_number_at_either_end_of_its_range_is_no_house_rule():
    table = api.parameters()
    for name, p in table.items():
        if name not in REF_ONLY:
            continue
        values = p["range"] if p["range"] else {
            "employ_range": ["same_zone", "anywhere"], "prestige_goal": ["held", "standing"]}.get(name, [p["value"]])
        for v in values:
            if name == "start_zone":
                continue
            assert api.house_rules("reference", {name: v}) == [], (name, v)
    for n in (2, 3, 4, 5):           # the per-count numbers of [REF] rules
        for extra in ({f"kings_crown_share.{n}": 0}, {f"kings_crown_share.{n}": 1}, {f"crown_colonies.{n}": 0},
                      {f"smuggler_bribe.{n}": 20}, {"card_cost.obispado": 6}):
            assert api.house_rules("reference", extra) == [], extra


def test_TRS_1_the_classifier_scores_as_the_engine_does():
    """PRJ-81's scoring table is the engine's TRS-5 (engine/treasure.py's treasure_value, which
    `score` uses): each legality's TreasureScored event of k Chests is its (Prestige, money)."""
    from tests.rules.test_treasure import treasure_game
    rs = api.load_ruleset()
    table = scoring_table(rs)
    for leg in LEGALITIES:
        for k in (1, 2, 3):          # 3 ships of 2: up to 6 Chests aboard
            g = treasure_game(leg, ships=3, cargo=["chest"] * k, zone="atlantico")
            ev = next(e for e in g.act({"seat": 0, "type": "move", "to": "europe"}) if e["type"] == "TreasureScored")
            assert (ev["prestige"], ev["money"]) == table[leg][k - 1] == treasure_value(rs, leg, k)


# ---- PRJ-82: reference-8 -------------------------------------------------------------------------

def test_PRJ_82_TRS_1_each_legality_scores_treasure_its_own_way_in_the_reference():
    table = scoring_table(api.load_ruleset())
    for k in CHESTS:
        pairs = [table[leg][k - 1] for leg in LEGALITIES]
        assert len(set(pairs)) == 4, (k, pairs)
        assert (0, 0) not in pairs


def test_PRJ_82_each_way_of_scoring_fits_its_name():
    """Legal export earns the Crown's favour (Prestige only), smuggling money only, plunder
    money and some Prestige for a big haul, a privateer a share of both."""
    table = scoring_table(api.load_ruleset())
    for k in CHESTS:
        (cp, cm), (pp, pm), (sp, sm), (_lp, lm) = (table[leg][k - 1] for leg in LEGALITIES)
        assert cp > 0 and cm == 0                  # CONQUISTADOR: legal export, the Crown's favour
        assert sp == 0 and sm > 0                  # SMUGGLER: money
        assert pp > 0 and pm > 0                   # PRIVATEER: a share of both
        assert lm > 0                              # PLUNDER: money ...
    assert table["PLUNDER"][0][0] == 0 and table["PLUNDER"][3][0] > 0      # ... and Prestige for a big haul only


def test_PRJ_82_TRS_2_the_reference_plunderer_must_sack():
    from tests.rules.test_treasure import OWN, load, loadable, refused, treasure_game
    rs = api.load_ruleset()
    assert (rs.version, rs.plunder_loading) == ("reference-8", "sack")
    g = treasure_game("PLUNDER")
    assert loadable(g.state) == {} and refused(g.state, OWN).code == "legality_forbids"
    g = treasure_game("PLUNDER", params={"house_rules": "reference-7"})      # the house rule still plays
    assert loadable(g.state) == {OWN: 2} and load(g, OWN, 2)["rule"] == "PRJ-38"


def test_PRJ_82_reference_7_is_one_entry_of_the_version_table():
    seven, now = api.load_ruleset("reference-7"), api.load_ruleset()
    assert (seven.version, seven.overrides) == ("reference-7", {})
    assert {k: seven.params[k] for k in REF7} == REF7
    the_set = api.house_rule_sets()["reference-7"]["params"]
    assert {k: v for k, v in seven.params.items() if now.params.get(k) != v and k != "by_players"} == \
        {k: v for k, v in the_set.items() if now.params[k] != v}          # the set restores all of them
    # ... per player count too (PRJ-85's start_ships with 2 players): the set's game is reference-7's
    played = api.load_ruleset("reference", {"house_rules": "reference-7"})
    assert {k: v for k, v in played.params.items() if k != "house_rules"} == seven.params
    entry = api.ruleset_versions()["reference-7"]
    assert (entry["base"], entry["since"], entry["refused"]) == ("reference-8", "PRJ-82", None)
    assert api.house_rules("reference-7")                  # reference-7 changed seed sentences (PRJ-81)


def test_PRJ_82_reference_7_records_of_the_engine_before_replay_unchanged():
    """Corpus lines of the engine before reference-8 (2-4 players, PLUNDER loading its own
    colonies, PRIVATEER and PLUNDER scoring, an ISMCTS game) replay under reference-7 to the
    result and final-state hash that engine stored; under reference-8 the same seed and moves
    are another game."""
    entries = corpus.load_file(DATA / "reference_7_games.jsonl")
    assert [e["record"]["config"]["players"] for e in entries] == [2, 3, 4, 4]
    own_loads = 0
    for e in entries:
        record = e["record"]
        assert record["ruleset_version"] == "reference-7"
        g = api.replay(json.loads(json.dumps(record)))
        assert (g.state.rs.version, g.state.rs.plunder_loading) == ("reference-7", "sack_or_own")
        assert api.is_over(g.state) and len(g.record["actions"]) == e["actions"]
        assert api.result(g.state) == e["result"], e["id"]
        assert corpus.state_hash(g.state) == e["state_sha256"], e["id"]
        assert api.verify_record(record) == []
        own_loads += sum(ev["type"] == "ChestsLoaded" and ev["rule"] == "PRJ-38" for ev in g.events)
        assert api.Game.new(record["config"], record["seed"]).record["ruleset_version"] == "reference-8"
    assert own_loads >= 5


def test_PRJ_82_a_reference_7_game_of_the_engine_before_replays_to_the_same_bytes():
    fx = json.loads((DATA / "reference_7_game.json").read_text())
    record, expect = fx["record"], fx["expect"]
    assert record["ruleset_version"] == expect["ruleset_version"] == "reference-7"
    g = api.Game.new(record["config"], record["seed"], ruleset_version=record["ruleset_version"])
    chain = sha("start|" + sha(api.snapshot(g.state)))
    for action in record["actions"]:
        g.act(action)
        chain = sha(chain + "|" + json.dumps(action, sort_keys=True) + "|" + sha(api.snapshot(g.state)))
    assert chain == expect["snapshot_chain"]
    assert sha(json.dumps(g.events, separators=(",", ":"), sort_keys=True)) == expect["events"]
    views = {f"{seat}/{'state' if full else 'plain'}":
             sha(json.dumps(api.view(g.state, seat, include_state=full), separators=(",", ":"), ensure_ascii=False))
             for seat in (None, 0, 1, 2) for full in (False, True)}
    assert views == expect["views"] and api.result(g.state) == expect["result"]


# ---- PRJ-83: named sets of house rules ------------------------------------------------------------

def test_PRJ_83_the_reference_7_set_restores_reference_7s_rules_and_numbers():
    sets = api.house_rule_sets()
    assert {k: sets["reference-7"]["params"][k] for k in REF7} == REF7 and sets["reference-7"]["since"] == "PRJ-82"
    rs = api.load_ruleset("reference", {"house_rules": "reference-7"})
    seven = api.load_ruleset("reference-7")
    assert {k: v for k, v in rs.params.items() if k != "house_rules"} == seven.params
    assert rs.overrides == {"house_rules": "reference-7", **sets["reference-7"]["params"]}   # public: views name it
    assert [h.rule for h in api.house_rules(rs)] == [h.rule for h in api.house_rules(seven)]


def test_PRJ_83_a_game_with_the_set_plays_as_reference_7_did():
    """The moves of a reference-7 game, played under reference-8 with the set, make the same game."""
    entry = corpus.load_file(DATA / "reference_7_games.jsonl")[1]
    record = entry["record"]
    g = api.Game.new({**record["config"], "params": {"house_rules": "reference-7"}}, record["seed"])
    for action in record["actions"]:
        g.act(action)
    assert g.state.rs.version == "reference-8" and api.result(g.state) == entry["result"]
    assert api.replay(json.loads(json.dumps(g.record))).state.to_dict() == g.state.to_dict()    # it replays


def test_PRJ_83_a_set_given_number_goes_on_top():
    rs = api.load_ruleset("reference", {"house_rules": "reference-7", "plunder_money": 5})
    assert (rs.plunder_money, rs.plunder_loading, rs.privateer_money) == (5, "sack_or_own", 0)
    g = api.Game.new(api.Config(players=2, params={"house_rules": "reference-7", "plunder_money": 5}), 4)
    assert api.view(g.state, None)["ruleset_params"]["plunder_money"] == 5


@pytest.mark.parametrize("name", ["reference-99", "", 7, "x" * 300])
def test_PRJ_83_a_bad_set_is_refused_at_setup_naming_the_sets(name):
    with pytest.raises(api.IllegalAction) as e:
        api.Game.new(api.Config(players=3, params={"house_rules": name}), 1)
    assert (e.value.code, e.value.rule) == ("bad_config", "PRJ-83")
    assert "reference-7 (plunder_loading=sack_or_own" in e.value.message and len(e.value.message) < 600


def test_PRJ_83_paxh_rules_params_lists_the_sets_and_the_house_rules():
    out = CliRunner().invoke(cli_app, ["rules", "--params"])
    assert out.exit_code == 0, out.output
    assert "house rule (TRS-2) when any value but sack" in out.output
    assert "reference-7: plunder_loading=sack_or_own" in out.output
    assert "House rules of this ruleset: none" in out.output
    out = CliRunner().invoke(cli_app, ["rules", "--params", "--set", "house_rules=reference-7"])
    assert out.exit_code == 0, out.output
    assert "HOUSE RULE TRS-2 (plunder_loading)" in out.output and "HOUSE RULE TRS-1" in out.output
    out = CliRunner().invoke(cli_app, ["rules", "--params", "--set", "house_rules=nope"])
    assert out.exit_code == 2 and "PRJ-83" in out.output


def test_PRJ_81_the_simulators_report_names_the_house_rules(tmp_path):
    out = CliRunner().invoke(cli_app, ["simulate", "--players", "2", "--games", "2", "--seed", "1",
                                       "--set", "house_rules=reference-7", "--out", str(tmp_path), "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.output.strip().splitlines()[-1])
    assert [h["rule"] for h in summary["house_rules"]][:1] == ["TRS-2"]
    saved = json.loads((tmp_path / "summary.json").read_text())
    assert saved["meta"]["house_rules"] and saved["house_rules"] == summary["house_rules"]
    page = (tmp_path / "report.html").read_text()
    assert "id='house-rules'" in page and "TRS-2" in page
    text = CliRunner().invoke(cli_app, ["simulate", "--players", "2", "--games", "1", "--seed", "1",
                                        "--set", "sell_price=2"])
    assert text.exit_code == 0 and "HOUSE RULE HND-3 (sell_price)" in text.output, text.output
    plain = CliRunner().invoke(cli_app, ["simulate", "--players", "2", "--games", "1", "--seed", "1", "--json"])
    assert json.loads(plain.output.strip().splitlines()[-1])["house_rules"] == []


def test_PRJ_83_the_tuner_writes_a_set_as_its_numbers(tmp_path):
    """`paxh tune --set house_rules=reference-7` plays every trial with the set (the loader
    expands it); the best trial's ruleset folder holds the set's numbers, a trial's on top."""
    from pax_hispanica.sim.tune_report import write_ruleset
    dest = write_ruleset("reference", {"house_rules": "reference-7", "plunder_money": 4}, tmp_path / "tuned")
    rs = api.load_ruleset(str(dest))
    assert (rs.plunder_loading, rs.privateer_money, rs.plunder_money) == ("sack_or_own", 0, 4)
    assert [h.rule for h in api.house_rules(rs)] == ["TRS-2", "TRS-1"]


def test_PRJ_83_paxh_play_takes_a_set_and_names_its_house_rules(tmp_path):
    """`paxh play --set house_rules=reference-7`: the terminal game says its house rules
    (PRJ-81), and the saved record names them and replays."""
    import subprocess
    import sys
    save = tmp_path / "house.json"
    out = subprocess.run([sys.executable, "-m", "pax_hispanica.cli", "play", "--players", "2", "--seed", "8",
                          "--set", "house_rules=reference-7", "--set", "cycles=1", "--save", str(save)],
                         capture_output=True, text=True, input="1\n" * 2000, timeout=180)
    assert out.returncode == 0, out.stderr
    assert "House rules (PRJ-81): reference-7: TRS-2" in out.stdout, out.stdout[:2000]
    rec = json.loads(save.read_text())
    assert rec["config"]["params"] == {"house_rules": "reference-7", "cycles": 1}
    assert [h["rule"] for h in rec["house_rules"]][:1] == ["TRS-2"] and api.replay(rec).state.over
