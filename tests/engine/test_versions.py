"""PRJ-50: the ruleset version table. A record, saved game or snapshot of an earlier version
that is exactly a later one with some numbers changed (reference-2 = reference-3 with
prestige_to_win 25) replays under that version, byte for byte as the engine of that version
made it; reference-1 stays refused (PRJ-37). The fixture was made by the engine of the commit
before reference-3 (scripts/make_reference2_fixture.py, run in a subprocess with that tree's
own PYTHONPATH)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pax_hispanica import api, rulesets
from pax_hispanica.bots.heuristic import HeuristicAgent
from pax_hispanica.cli import app as cli_app

FIXTURE = Path(__file__).parent / "data" / "reference_2_game.json"
SCENARIO = "battle_with_support.json"
# reference-7's Treasure rule and numbers (PRJ-82 made reference-8 with TRS-2 as written and its own scoring)
REF7 = {"plunder_loading": "sack_or_own", "conquistador_prestige": 1, "privateer_prestige": 1, "privateer_money": 0,
        "smuggler_money": 3, "plunder_money": 3, "plunder_chests_per_prestige": 2,
        "plunder_start_galleons": 0,                        # PRJ-84: the French's Flagship alone
        "start_ships": 1, "crown_colonies.2": 4}            # PRJ-85: reference-7's with 2 players
# reference-7 (PRJ-82): what differs from reference-8 at some player count (start_ships with 2, PRJ-85)
R7 = {k: v for k, v in REF7.items()
      if api.load_ruleset().params.get(k) != v or k in api.load_ruleset().params["by_players"].get(2, {})}
R6 = {"crown_colonies.2": 6, "kings_crown_share.2": 2, "smuggler_bribe.2": 1}          # reference-6 (PRJ-79)
R5 = {"crown_colonies.2": 8, "crown_colonies.3": 8}                                  # reference-5 (PRJ-77)
R4 = {"card_cost.obispado": 2, "card_cost.secretario": 1, "kings_crown_share.5": 2}   # reference-4 (PRJ-69)


def sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def view_bytes(view: dict) -> str:     # as scripts/make_reference2_fixture.py wrote them
    return json.dumps(view, separators=(",", ":"), ensure_ascii=False)


def old_game() -> dict:
    return json.loads(FIXTURE.read_text())


def final_view_hashes(state) -> dict:
    return {f"{seat}/{'state' if full else 'plain'}": sha(view_bytes(api.view(state, seat, include_state=full)))
            for seat in (None, 0, 1, 2) for full in (False, True)}


def test_PRJ_50_a_reference_2_record_of_the_old_engine_replays_to_the_same_bytes():
    fx = old_game()
    record, expect = fx["record"], fx["expect"]
    assert record["ruleset_version"] == "reference-2" and record["config"] == {"players": 3, "ruleset": "reference"}
    g = api.replay(record)
    st = g.state
    assert (st.rs.version, st.rs.prestige_to_win) == ("reference-2", 25) == (expect["ruleset_version"],
                                                                              expect["prestige_to_win"])
    assert len(g.record["actions"]) == expect["actions"] == 144
    assert sha(api.snapshot(st)) == expect["final_snapshot"]
    assert sha(json.dumps(g.events, separators=(",", ":"), sort_keys=True)) == expect["events"]
    assert final_view_hashes(st) == expect["views"]
    assert api.result(st) == expect["result"]
    assert api.verify_record(record) == []
    assert g.record["ruleset_version"] == "reference-2"       # a record saved again keeps its version


def test_PRJ_50_every_state_of_the_old_game_is_the_one_the_old_engine_had():
    """The snapshot after every action (the web server's hash chain hashes these) is the old
    engine's: chained as the fixture's script chained them."""
    fx = old_game()
    record = fx["record"]
    g = api.Game.new(record["config"], record["seed"], ruleset_version=record["ruleset_version"])
    chain = sha("start|" + sha(api.snapshot(g.state)))
    for action in record["actions"]:
        g.act(action)
        chain = sha(chain + "|" + json.dumps(action, sort_keys=True) + "|" + sha(api.snapshot(g.state)))
    assert chain == fx["expect"]["snapshot_chain"]


def test_PRJ_50_a_variant_of_today_with_the_old_goal_is_not_the_same_game_in_bytes():
    """Why a version, not a variant: reference-3 with --set prestige_to_win=25 plays the same
    moves, but its views say reference-3 and the variant, so they differ from the old engine's
    (this test's assertion is what the table makes true)."""
    fx = old_game()
    record = fx["record"]
    g = api.Game.new({**record["config"], "params": {"prestige_to_win": 25}}, record["seed"],
                     ruleset_version="reference-3")        # not today's: reference-6 has 6 Crown colonies at 3 (PRJ-77)
    for action in record["actions"]:
        g.act(action)
    assert api.result(g.state) == fx["expect"]["result"]
    assert final_view_hashes(g.state) != fx["expect"]["views"]
    assert api.view(g.state, None)["ruleset_params"] == {"prestige_to_win": 25}
    assert api.view(api.replay(record).state, None)["ruleset_params"] == {}


def test_PRJ_50_reference_2s_numbers_cards_and_map_are_the_old_engines():
    """Today's reference-2 (reference-3 with the table's numbers) has every number, card and
    map entry the old engine's reference had: if a later version changes anything the table
    cannot express (a card, the map, a number per player count), this fails."""
    old = old_game()["ruleset"]
    rs = api.load_ruleset("reference-2")
    now = api.parameters("reference-2")
    assert {k: v for k, v in now.items() if k in old["parameters"]} == old["parameters"]
    # parameters added since, each at the value that is the rule as the old engine played it
    # (a variant option off): a new one fails here until its value for old games is checked
    assert {k: v["value"] for k, v in now.items() if k not in old["parameters"]} == {
        "prestige_goal": "held", "goal_from_cycle": 1,          # PRJ-56, PRJ-57: CYC-2 as written
        "setup_rebels": 0,                                      # PRJ-80: CYC-4 as written, no Rebels
        "plunder_start_galleons": 0}                            # PRJ-84: the Flagship alone, as then
    assert {str(n): v for n, v in rs.params["by_players"].items()} == old["by_players"]
    assert sha(json.dumps(api.card_catalogue("reference-2"), sort_keys=True)) == old["cards"]
    assert sha(json.dumps(api.board_layout("reference-2"), sort_keys=True)) == old["board"]
    assert sha(json.dumps([rs.zone_ids, rs.zone_names, [list(a) for a in rs.adjacent], rs.col_ids, rs.col_zone,
                           rs.col_goods, rs.col_crown, rs.col_fort, rs.site_ids, rs.site_zone, rs.site_kind,
                           rs.site_count, rs.site_cap, rs.nation_order, rs.nations, rs.market, rs.haven,
                           rs.battle_cards], sort_keys=True)) == old["map"]
    assert api.parameters()["prestige_to_win"]["value"] == 5 != old["parameters"]["prestige_to_win"]["value"]


def test_PRJ_50_reference_2_is_reference_3_with_the_goal_of_25():
    old, now = api.load_ruleset("reference-2"), api.load_ruleset("reference-3")
    assert (now.version, now.prestige_to_win, now.plunder_loading) == ("reference-3", 5, "sack")
    current = api.load_ruleset("reference-4")   # PRJ-58: reference-3 is it with plunder_loading sack
    assert (current.version, current.plunder_loading, current.overrides) == ("reference-4", "sack_or_own", {})
    assert now.params == {**current.params, "plunder_loading": "sack"}
    # reference-5 (PRJ-69): reference-4 is it with two card costs and the King's share with 5 players
    five = api.load_ruleset("reference-5")
    assert (five.version, five.kings_share[5], five.cards["obispado-1"].cost, five.overrides) == ("reference-5", 0, 1, {})
    assert current.params == {**five.params, **R4}
    assert (current.kings_share[2:], current.cards["obispado-2"].cost, current.cards["secretario-3"].cost) == \
        ((2, 2, 2, 2), 2, 1)
    # reference-6 (PRJ-77): reference-5 is it with all 8 Crown colonies with 2 and 3 players
    six = api.load_ruleset("reference-6")
    assert (six.version, six.crown_kept[2:], six.overrides) == ("reference-6", (6, 6, 8, 8), {})
    assert five.params == {**six.params, **R5} and five.crown_kept[2:] == (8, 8, 8, 8)
    assert five.params["by_players"] == six.params["by_players"] == {2: {"start_money": 6}}
    # reference-7 (PRJ-79): reference-6 is it with 6 Crown colonies, the King's 1 of 2 and a $1
    # bribe with 2 players
    seven = api.load_ruleset("reference-7")
    assert (seven.version, seven.crown_kept[2:], seven.kings_share[2:], seven.smuggler_bribes[2:]) == \
        ("reference-7", (4, 6, 8, 8), (3, 2, 2, 0), (2, 1, 1, 1))
    assert six.params == {**seven.params, **R6} and six.kings_share[2:] == (2, 2, 2, 0)
    assert six.smuggler_bribes[2:] == (1, 1, 1, 1) and seven.params["by_players"] == six.params["by_players"]
    # reference-8 (PRJ-82): reference-7 is it with PLUNDER's own colonies free and its scoring numbers
    newest = api.load_ruleset()
    assert (newest.version, newest.plunder_loading, seven.overrides) == ("reference-8", "sack", {})
    # an entry's number holds at every count: reference-8's Galleon with 2 players is gone too (PRJ-85)
    by_players = {n: {k: v for k, v in over.items() if k not in R7} for n, over in newest.params["by_players"].items()}
    assert R7["plunder_loading"] == "sack_or_own" and seven.params == {**newest.params, **R7, "by_players": by_players}
    assert {k: seven.params[k] for k in REF7} == REF7 and seven.params["by_players"] == six.params["by_players"]
    assert newest.params["by_players"][2]["start_ships"] == 2 and seven.setup_value("start_ships", 2) == 1
    assert (old.version, old.name, old.prestige_to_win, old.overrides) == ("reference-2", "reference", 25, {})
    assert old.params == {**now.params, "prestige_to_win": 25}
    assert list(old.params) == list(now.params)               # same order: the same bytes wherever listed
    assert api.load_ruleset("reference", version="reference-2") is old
    assert api.load_ruleset("reference", version="reference-3") is now is api.load_ruleset("reference-3")
    with_params = api.load_ruleset("reference", {"cycles": 3}, version="reference-2")
    assert (with_params.version, with_params.prestige_to_win, with_params.cycles, with_params.overrides) == \
        ("reference-2", 25, 3, {"cycles": 3})
    table = api.ruleset_versions()
    assert table["reference-8"]["current"] and table["reference-8"]["folder"] == "reference"
    assert table["reference-7"] == {"folder": "reference", "current": False, "base": "reference-8",
                                    "params": R7, "since": "PRJ-82", "refused": None}
    assert table["reference-6"] == {"folder": "reference", "current": False, "base": "reference-7",
                                    "params": {**R7, **R6}, "since": "PRJ-79", "refused": None}
    assert table["reference-5"] == {"folder": "reference", "current": False, "base": "reference-6",
                                    "params": {**R7, **R6, **R5}, "since": "PRJ-77", "refused": None}
    assert table["reference-4"] == {"folder": "reference", "current": False, "base": "reference-5",
                                    "params": {**R7, **R6, **R5, **R4}, "since": "PRJ-69", "refused": None}
    assert table["reference-3"] == {"folder": "reference", "current": False, "base": "reference-4",
                                    "params": {**R7, **R6, **R5, **R4, "plunder_loading": "sack"}, "since": "PRJ-58", "refused": None}
    assert table["reference-2"] == {"folder": "reference", "current": False, "base": "reference-3",
                                    "params": {**R7, **R6, **R5, **R4, "plunder_loading": "sack", "prestige_to_win": 25},  # through all
                                    "since": "PRJ-55", "refused": None}
    assert table["reference-1"]["refused"] and table["reference-1"]["folder"] is None
    assert set(api.OLD_RULESETS) == {"reference-1"}


def test_PRJ_50_a_new_game_gets_the_current_version_and_a_config_may_pin_an_earlier_one():
    assert api.Game.new(api.Config(players=3), 9).record["ruleset_version"] == "reference-8"
    g = api.Game.new(api.Config(players=3, ruleset="reference-2"), 9)
    assert (g.state.rs.version, g.state.rs.prestige_to_win, g.record["ruleset_version"]) == ("reference-2", 25,
                                                                                            "reference-2")
    assert api.view(g.state, None)["ruleset_version"] == "reference-2"
    pinned = api.Game.new(api.Config(players=3), 9, ruleset_version="reference-2")
    assert pinned.state.rs is api.load_ruleset("reference-2")
    assert api.new_game(api.Config(players=3), 9, ruleset_version="reference-2").rs.prestige_to_win == 25
    for _ in range(5):
        g.act(api.expand(api.legal_actions(g.state, api.acting(g.state)[0]))[0])
    again = api.replay(json.loads(json.dumps(g.record)))
    assert again.state.to_dict() == g.state.to_dict() and again.state.rs.version == "reference-2"
    restored = api.restore(api.snapshot(g.state))       # the config names the version: it pins it
    assert restored.rs.version == "reference-2" and restored.to_dict() == g.state.to_dict()


def test_PRJ_50_restore_of_an_old_games_snapshot_takes_the_games_version():
    """A snapshot names the config's ruleset ("reference"), not the version (the old engine's
    snapshots, which the web's hash chain covers, stay byte-identical); the record pins it."""
    record = old_game()["record"]
    g = api.replay(record, upto=60)
    data = api.snapshot(g.state)
    st = api.restore(data, ruleset_version="reference-2")
    assert st.rs.version == "reference-2" and st.to_dict() == g.state.to_dict()
    assert api.restore(data).rs.version == "reference-8"        # unpinned: the folder's current version
    for action in record["actions"][60:]:
        st, _ = api.apply(st, action)
    assert sha(api.snapshot(st)) == old_game()["expect"]["final_snapshot"]
    with pytest.raises(api.RulesetError) as e:
        api.restore(data, ruleset_version="reference-1")
    assert "refused" in str(e.value) and "reference-2" in str(e.value)


def test_PRJ_50_views_of_an_old_game_load_its_numbers_for_bots_and_searches():
    g = api.replay(old_game()["record"], upto=40)
    seat = api.acting(g.state)[0]
    view = api.view(g.state, seat, include_state=True)
    assert api.view_ruleset(view) is api.load_ruleset("reference-2")
    assert HeuristicAgent(seed=1).rs(view).prestige_to_win == 25
    sample = api.determinize(view, 7)
    assert sample.rs.version == "reference-2" and sample.rs.prestige_to_win == 25
    assert api.determinizer(view)(7).to_dict() == sample.to_dict()
    assert api.known_cards(view, api.redact(g.events, seat)) is not None
    api.unavailable(view, seat)            # why-not reads the view's own version
    current = api.view(api.Game.new(api.Config(players=3), 9).state, 0)
    assert api.view_ruleset(current) is api.load_ruleset()


@pytest.mark.parametrize("version", ["reference-1", "reference-9"])
def test_PRJ_37_PRJ_50_a_record_of_a_version_this_engine_does_not_play_is_refused_naming_those_it_does(
        version, tmp_path):
    record = {**old_game()["record"], "ruleset_version": version}
    with pytest.raises(api.RulesetRefused) as e:
        api.replay(record)
    msg = str(e.value)
    assert isinstance(e.value, ValueError)
    assert version in msg and "PRJ-37" in msg and "PRJ-50" in msg, msg
    assert "reference-8 (current" in msg and "reference-3 (reference-4 with plunder_loading=sack)" in msg and "reference-2 (reference-3 with prestige_to_win=25)" in msg, msg
    assert "reference-5 (reference-6 with crown_colonies.2=8, crown_colonies.3=8)" in msg
    assert "reference-6 (reference-7 with crown_colonies.2=6, kings_crown_share.2=2, smuggler_bribe.2=1)" in msg
    assert "reference-7 (reference-8 with crown_colonies.2=4, plunder_loading=sack_or_own" in msg
    assert "reference-4 (reference-5 with card_cost.obispado=2, card_cost.secretario=1, kings_crown_share.5=2)" in msg
    if version == "reference-1":
        assert "RULES.md's numbers" in msg and "refused: reference-1" in msg
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record))
    out = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert out.exit_code == 2 and version in out.output and "reference-2" in out.output, out.output
    with pytest.raises(rulesets.UnknownVersion) as e2:
        api.load_ruleset("reference", version=version)
    assert "reference-2" in str(e2.value) and "reference-3" in str(e2.value)


def test_PRJ_50_paxh_replay_plays_an_old_record_under_its_version(tmp_path):
    path = tmp_path / "ref2.json"
    path.write_text(json.dumps(old_game()["record"]))
    out = CliRunner().invoke(cli_app, ["replay", str(path), "--json"])
    assert out.exit_code == 0, out.output
    printed = json.loads(out.output)
    assert printed["actions"] == 144 and printed["summary"]["result"] == old_game()["expect"]["result"]
    started = [e for e in printed["events"] if e["type"] == "GameStarted"]
    assert [e["ruleset_version"] for e in started] == ["reference-2"]


def _table(table: dict) -> dict:
    current = {"reference-4": rulesets.Version("reference-4", "reference")}
    return rulesets._resolve_table(table, current)


def test_PRJ_50_bumping_the_reference_is_one_entry_and_older_entries_keep_working():
    """The balance branch may make reference-4: its previous version becomes one entry based on
    it, and reference-2's entry, based on reference-3, then resolves through it."""
    out = _table({"reference-3": {"base": "reference-4", "params": {"cycles": 5, "prestige_to_win": 5}},
                  "reference-2": {"base": "reference-3", "params": {"prestige_to_win": 25}},
                  "reference-1": {"refused": "why"}})
    assert out["reference-3"].params == (("cycles", 5), ("prestige_to_win", 5))
    assert out["reference-2"].params == (("cycles", 5), ("prestige_to_win", 25))      # its own number wins
    assert out["reference-2"].folder == "reference" and out["reference-2"].base == "reference-3"
    assert out["reference-1"].refused == "why" and out["reference-1"].folder is None


@pytest.mark.parametrize("table, words", [
    ({"a": {"base": "b", "params": {}}, "b": {"base": "a", "params": {}}}, "its own base"),
    ({"a": {"base": "nowhere", "params": {}}}, "is no version"),
    ({"a": {"base": "reference-4", "params": {"no_such_number": 1}}}, "no_such_number"),
    ({"a": {"base": "reference-4", "params": {"cycles": "five"}}}, "cycles"),
    ({"a": {"base": "r1", "params": {}}, "r1": {"refused": "why"}}, "is refused"),
    ({"a": {"refused": "why", "base": "reference-4"}}, "refused is the reason alone"),
    ({"a": {"base": "reference-4", "colour": 1}}, "takes base, params and since"),
    ({"reference-4": {"base": "reference-4", "params": {}}}, "current version"),
])
def test_PRJ_50_a_bad_version_table_is_refused_naming_the_entry(table, words):
    with pytest.raises(api.RulesetError) as e:
        _table(table)
    assert "versions.toml" in str(e.value) and words in str(e.value), str(e.value)


def test_PRJ_50_every_version_of_the_shipped_table_builds():
    for name, v in api.ruleset_versions().items():
        if v["refused"]:
            with pytest.raises(rulesets.UnknownVersion):
                api.load_ruleset(name)
            continue
        rs = api.load_ruleset(name)
        assert rs.version == name and rs.overrides == {}
        for key, value in v["params"].items():
            assert rs.params[key] == value


def test_PRJ_50_a_scenario_record_replays_under_the_version_it_names():
    scenario = json.loads((Path(__file__).parents[2] / "docs" / "scenarios" / SCENARIO).read_text())
    g = api.from_scenario(scenario)
    assert g.record["ruleset_version"] == "reference-8"
    old = api.replay({**g.record, "ruleset_version": "reference-2"})
    assert (old.state.rs.version, old.state.rs.prestige_to_win) == ("reference-2", 25)
    assert old.record["ruleset_version"] == "reference-2"
    with pytest.raises(api.RulesetRefused):
        api.replay({**g.record, "ruleset_version": "reference-1"})


def test_PRJ_37_PRJ_50_a_config_naming_a_refused_version_is_refused_with_the_reason():
    with pytest.raises(api.RulesetRefused) as e:
        api.Game.new(api.Config(players=3, ruleset="reference-1"), 1, ruleset_version="reference-1")
    assert "RULES.md's numbers" in str(e.value) and "reference-2" in str(e.value)
    with pytest.raises(api.RulesetError) as e2:       # unpinned: the loader's own refusal
        api.Game.new(api.Config(players=3, ruleset="reference-1"), 1)
    assert "refused" in str(e2.value) and "reference-3" in str(e2.value)


@pytest.mark.parametrize("bad", [3, 2.5, True, ["reference-2"], {"v": 1}, b"reference-2"])
def test_PRJ_50_a_ruleset_version_that_is_not_a_name_is_refused(bad):
    """A caller's ruleset_version is None or a string (api._version_arg): anything else is a
    ValueError naming what it was, at every entry point that takes one, and changes nothing."""
    cfg = api.Config(players=3)
    data = api.snapshot(api.Game.new(cfg, 9).state)
    for call in (lambda: api.new_game(cfg, 9, ruleset_version=bad),
                 lambda: api.Game.new(cfg, 9, ruleset_version=bad),
                 lambda: api.restore(data, ruleset_version=bad)):
        with pytest.raises(ValueError) as e:
            call()
        assert "a ruleset version is a name" in str(e.value) and type(bad).__name__ in str(e.value)
