"""PRJ-75: the variant rule "the Crown colonies by player count": with N players, a player who
plays the Spanish owns only the first `crown_colonies.<N>` of the map's Crown colonies (map
order); the others are empty colony spaces (no colony, no fort) for that game. Off in
reference-5 (all of them at every count); reference-6 (PRJ-77) sets 6 with 2 and 3 players
(tests/engine/test_versions.py and test_PRJ_77_... below); nothing changes when nobody plays
the Spanish."""
from __future__ import annotations

import json
import re
import shutil
import uuid

import pytest
from typer.testing import CliRunner

from pax_hispanica import api
from pax_hispanica.bots.random_agent import RandomAgent
from pax_hispanica.cli import app as cli_app
from pax_hispanica.engine import end, treasure
from pax_hispanica.engine.state import CROWN
from pax_hispanica.rulesets import DATA, load_ruleset
from pax_hispanica.sim import tune

WITH_SPAIN = ["spanish", "english", "french", "dutch", "courland"]
NO_SPAIN = ["english", "french", "dutch", "courland"]
# the reference's own Crown colonies by player count: reference-8 (PRJ-85: 6 with 2 players, as
# reference-6 had; PRJ-77: 6 with 3; all 8 with 4 and 5)
REFERENCE_KEPT = {2: 6, 3: 6, 4: 8, 5: 8}


def crown_spaces(rs) -> list[int]:
    """The map's Crown colony spaces, in map order."""
    return [c for c, crown in enumerate(rs.col_crown) if crown]


def random_game(config: api.Config, seed: int) -> api.Game:
    g = api.Game.new(config, seed)
    bots = [RandomAgent(seed=seed * 10 + s) for s in range(config.players)]
    for _ in range(20000):
        if api.is_over(g.state):
            return g
        seat = api.acting(g.state)[0]
        g.act(bots[seat].decide(api.view(g.state, seat), api.legal_actions(g.state, seat)))
    raise AssertionError("game did not end")


def test_PRJ_75_off_in_reference_5_every_crown_colony_at_every_count_and_the_same_game():
    rs = api.load_ruleset("reference-5")            # reference-6 (PRJ-77): 6 with 2 and 3 players
    crowns = crown_spaces(rs)
    assert len(crowns) == 8 and rs.crown_kept[2:] == (8, 8, 8, 8)
    assert all(rs.spanish_crown[n] == tuple(rs.col_crown) for n in (2, 3, 4, 5))
    # naming every count's own value (all 8) changes no game: the same events, state and view
    same = {f"crown_colonies.{n}": 8 for n in (2, 3, 4, 5)}
    for players in (2, 5):
        nations = WITH_SPAIN[:players]
        a = api.new_game(api.Config(players=players, nations=nations), seed=11, ruleset_version="reference-5")
        b = api.new_game(api.Config(players=players, nations=nations, params=same), seed=11,
                         ruleset_version="reference-5")
        assert (a.col_owner, a.col_fort, a.col_labour, a.supply) == (b.col_owner, b.col_fort, b.col_labour, b.supply)
        ga = api.Game.new(api.Config(players=players, nations=nations), 11, ruleset_version="reference-5")
        gb = api.Game.new(api.Config(players=players, nations=nations, params=same), 11, ruleset_version="reference-5")
        assert [e["type"] for e in ga.events] == [e["type"] for e in gb.events]
        assert "CrownColoniesByCount" not in {e["type"] for e in ga.events}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("kept", [0, 1, 6, 8])
def test_PRJ_75_the_spanish_own_the_first_k_crown_colonies_the_rest_are_empty_spaces(players, kept):
    params = {f"crown_colonies.{players}": kept}
    st = api.new_game(api.Config(players=players, nations=WITH_SPAIN[:players], params=params), seed=3)
    base = api.new_game(api.Config(players=players, nations=WITH_SPAIN[:players]), seed=3)
    crowns = crown_spaces(st.rs)
    spanish = st.spanish_seat()
    assert spanish is not None
    for i, c in enumerate(crowns):
        if i < kept:          # kept: a worked Spanish colony, its printed fort, a King's colony (PRJ-30)
            assert (st.col_owner[c], st.col_labour[c], st.col_fort[c]) == (spanish, "citizen", st.rs.col_fort[c])
            assert treasure.is_kings_colony(st, c)
        else:                 # the others: empty colony spaces, no fort, not a King's colony if founded
            assert (st.col_owner[c], st.col_labour[c], st.col_fort[c], st.col_chests[c]) == (None, None, False, 0)
            assert not treasure.is_kings_colony(st, c)
            assert not st.rs.spanish_crown[players][c]
    # every other colony as in the reference; the Citizens not placed stay in the supply (the
    # reference's own count, REFERENCE_KEPT)
    others = [c for c in range(len(st.rs.col_ids)) if c not in crowns]
    assert [st.col_owner[c] for c in others] == [base.col_owner[c] for c in others]
    assert base.rs.crown_kept[players] == REFERENCE_KEPT[players]
    assert st.supply["citizens"] == base.supply["citizens"] + (base.rs.crown_kept[players] - kept)


def test_PRJ_75_only_the_named_count_changes():
    params = {"crown_colonies.3": 5}
    rs = api.load_ruleset("reference", params)
    assert rs.crown_kept[2:] == (6, 5, 8, 8)          # 2: reference-8's own 6 (PRJ-85)
    for players, own in ((2, 6), (4, 8), (5, 8)):
        st = api.new_game(api.Config(players=players, nations=WITH_SPAIN[:players], params=params), seed=4)
        assert sum(st.col_owner[c] == st.spanish_seat() for c in crown_spaces(st.rs)) == own
    st = api.new_game(api.Config(players=3, nations=WITH_SPAIN[:3], params=params), seed=4)
    assert sum(st.col_owner[c] == 0 for c in crown_spaces(st.rs)) == 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_PRJ_75_nobody_plays_the_spanish_the_variant_changes_nothing(players):
    params = {f"crown_colonies.{n}": 2 for n in (2, 3, 4, 5)}
    config = api.Config(players=players, nations=NO_SPAIN[:players])
    a = api.Game.new(config, 21)
    b = api.Game.new(api.Config(players=players, nations=NO_SPAIN[:players], params=params), 21)
    crowns = crown_spaces(b.state.rs)
    assert all(b.state.col_owner[c] == CROWN for c in crowns)          # the Crown owns all 8 (CYC-4)
    assert (a.state.col_owner, a.state.col_fort, a.state.supply) == (b.state.col_owner, b.state.col_fort,
                                                                     b.state.supply)
    assert b.events == a.events            # no CrownColoniesByCount: nothing to say
    # and the same actions play the same game to the end
    g = random_game(config, 21)
    again = api.Game.new(api.Config(players=players, nations=NO_SPAIN[:players], params=params), 21)
    for action in g.record["actions"]:
        again.act(action)
    assert api.is_over(again.state) and again.state.result == g.state.result
    assert again.events == g.events


def test_PRJ_75_the_game_shows_it_publicly_event_and_view():
    params = {"crown_colonies.2": 6}
    g = api.Game.new(api.Config(players=2, nations=["french", "spanish"], params=params), 5)
    st = g.state
    started = [e for e in g.events if e["type"] in ("GameStarted", "CrownColoniesByCount")]
    assert [e["type"] for e in started] == ["GameStarted", "CrownColoniesByCount"]
    ev = started[1]
    ids = [st.rs.col_ids[c] for c in crown_spaces(st.rs)]
    assert (ev["seat"], ev["colonies"], ev["vacated"], ev["rule"]) == (1, ids[:6], ids[6:], "PRJ-75")
    assert "to" not in ev
    for viewer in (None, 0, 1):
        v = api.view(st, viewer)
        assert v["ruleset_params"] == params
        owners = {c["id"]: (c["owner"], c["fort"]) for c in v["colonies"]}
        assert all(owners[i][0] == 1 for i in ids[:6])
        assert all(owners[i] == (None, False) for i in ids[6:])
    assert ev in api.redact(g.events, 0)


def test_PRJ_75_the_kings_colonies_score_and_pay_as_the_kings_only_the_kept_ones():
    params = {"crown_colonies.2": 6}
    st = api.new_game(api.Config(players=2, nations=["spanish", "french"], params=params), seed=8)
    crowns = crown_spaces(st.rs)
    rs = st.rs
    kings = rs.crown_colony_prestige
    before = end.colony_prestige_all(st)
    assert before[0] == 6 * kings
    # a colony founded by the Spanish on a vacated Crown space is an ordinary colony
    st2 = st.copy()
    st2.col_owner = st2.col_owner[:]
    st2.col_owner[crowns[7]] = 0
    assert not treasure.is_kings_colony(st2, crowns[7])
    assert end.colony_prestige_all(st2)[0] == 6 * kings + rs.prestige_per_colony


@pytest.mark.parametrize("params, words", [
    ({"crown_colonies.6": 1}, "crown_colonies.<N> takes a player count N, 2 to 5 (PRJ-75)"),
    ({"crown_colonies.1": 1}, "crown_colonies.<N> takes a player count N, 2 to 5 (PRJ-75)"),
    ({"crown_colonies.x": 1}, "crown_colonies.<N> takes a player count N, 2 to 5 (PRJ-75)"),
    ({"crown_colonies.": 1}, "crown_colonies.<N> takes a player count N, 2 to 5 (PRJ-75)"),
    ({"crown_colonies.2": 9}, "crown_colonies.2 must be at least 0 and at most 8 (the map's 8 Crown colonies, PRJ-75)"),
    ({"crown_colonies.2": -1}, "crown_colonies.2 must be at least 0 and at most 8"),
    ({"crown_colonies.2": True}, "crown_colonies.2 must be int"),
    ({"crown_colonies.2": 6.0}, "crown_colonies.2 must be int"),
    ({"crown_colonies.2": "6"}, "crown_colonies.2 must be int"),
    ({"crown_colonies": 6}, "unknown parameter"),
])
def test_PRJ_75_a_bad_count_or_value_is_refused_at_setup_naming_the_key(params, words):
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=2, params=params), seed=1)
    assert e.value.code == "bad_config" and words in e.value.message, e.value.message
    assert len(e.value.message) < 400


@pytest.mark.parametrize("players, seed", [(2, 1), (2, 2), (3, 3), (3, 4), (4, 5), (5, 6)])
def test_PRJ_75_whole_games_play_to_the_end_and_replay(players, seed):
    params = {"crown_colonies.2": 6, "crown_colonies.3": 6, "crown_colonies.4": 3, "crown_colonies.5": 0}
    nations = WITH_SPAIN[:players][::-1]            # the Spanish in the last seat
    g = random_game(api.Config(players=players, nations=nations, params=params), seed)
    st = g.state
    assert st.over and st.result is not None
    # invariants: the Chests, Citizens and owners stay consistent
    assert all(o is None or o == CROWN or 0 <= o < players for o in st.col_owner)
    assert all(ch >= 0 for ch in st.col_chests) and min(st.supply.values()) >= 0
    assert all(st.col_labour[c] is None for c, o in enumerate(st.col_owner) if o is None)
    assert all(not st.col_fort[c] for c, o in enumerate(st.col_owner) if o is None)
    assert sum(e["type"] == "CrownColoniesByCount" for e in g.events) == (params[f"crown_colonies.{players}"] < 8)
    again = api.replay(json.loads(json.dumps(g.record)))
    assert api.snapshot(again.state) == api.snapshot(st)
    assert g.record["config"]["params"] == params


def with_setup_by_players(folder, n: str, lines: str) -> str:
    """A copy of the reference whose ruleset.toml has `lines` in its [setup.by_players.<n>]
    instead of that table's own crown_colonies (the reference has tables for 2 and 3 players,
    PRJ-77; another count's table is appended)."""
    shutil.copytree(DATA / "reference", folder)
    toml = folder / "ruleset.toml"
    body, header = toml.read_text(), f"[setup.by_players.{n}]"
    at = body.find(header)
    if at >= 0:
        end = body.index("\n", at) + 1
        stop = body.find("\n[", end)
        table = "".join(line for line in body[end:stop + 1].splitlines(keepends=True)
                        if not line.startswith("crown_colonies"))
        body = body[:end] + lines + "\n" + table + body[stop + 1:]
    else:
        body += f"\n{header}\n{lines}\n"
    toml.write_text(body)
    return str(folder)


def test_PRJ_75_ruleset_toml_gives_the_crown_colonies_by_count_and_a_variant_goes_on_top(tmp_path):
    folder = with_setup_by_players(tmp_path / "r", "2", "crown_colonies = 5")    # the reference: 6 (PRJ-85)
    rs = api.load_ruleset(folder)
    assert rs.crown_kept[2:] == (5, 6, 8, 8) and rs.setup_value("start_money", 2) == 6
    assert "crown_colonies" not in rs.params["by_players"][2]
    assert api.parameters(folder, extended=True)["crown_colonies.2"] == {"value": 5, "type": "int", "range": [0, 8]}
    assert api.load_ruleset(folder, {"crown_colonies.2": 3}).crown_kept[2:] == (3, 6, 8, 8)
    assert api.load_ruleset(folder, {"crown_colonies.3": 4}).crown_kept[2:] == (5, 4, 8, 8)
    st = api.new_game(api.Config(players=2, ruleset=folder, nations=["spanish", "dutch"]), seed=2)
    assert sum(st.col_owner[c] == 0 for c in crown_spaces(st.rs)) == 5
    four = api.load_ruleset(with_setup_by_players(tmp_path / "r4", "4", "crown_colonies = 7"))   # a table appended
    assert four.crown_kept[2:] == (6, 6, 7, 8)


@pytest.mark.parametrize("n, text, words", [
    ("6", "crown_colonies = 1", "[setup.by_players.6] crown_colonies: a player count is 2 to 5 (PRJ-75)"),
    ("1", "crown_colonies = 1", "[setup.by_players.1] crown_colonies: a player count is 2 to 5 (PRJ-75)"),
    ("2", "crown_colonies = 9",
     "[setup.by_players.2] crown_colonies must be at least 0 and at most 8 (the map's 8 Crown colonies, PRJ-75)"),
    ("3", "crown_colonies = -1", "[setup.by_players.3] crown_colonies must be at least 0"),
    ("2", "crown_colonies = 6.0", "[setup.by_players.2]"),
    ("2", "crown_colonies = true", "[setup.by_players.2]"),
    ("x", "crown_colonies = 1", "the player count must be a whole number"),
])
def test_PRJ_75_a_bad_setup_by_players_table_is_refused_naming_it(tmp_path, n, text, words):
    folder = with_setup_by_players(tmp_path / "r", n, text)
    with pytest.raises(api.RulesetError) as e:
        api.load_ruleset(folder)
    assert "ruleset.toml" in str(e.value) and words in str(e.value), str(e.value)


def test_PRJ_75_listed_by_api_parameters_and_paxh_rules_and_searched_by_the_tuner_when_named():
    table = api.parameters(extended=True)
    assert {k: v for k, v in table.items() if k.startswith("crown_colonies.")} == {   # reference-7 (PRJ-79)
        f"crown_colonies.{n}": {"value": REFERENCE_KEPT[n], "type": "int", "range": [0, 8]} for n in (2, 3, 4, 5)}
    assert api.parameters("reference-7", extended=True)["crown_colonies.2"]["value"] == 4
    assert api.parameters("reference-5", extended=True)["crown_colonies.2"]["value"] == 8
    assert api.parameters("reference-6", extended=True)["crown_colonies.2"]["value"] == 6
    assert api.parameters("reference", {"crown_colonies.2": 5}, extended=True)["crown_colonies.2"]["value"] == 5
    assert not any(k.startswith("crown_colonies") for k in api.parameters())      # PRJ-31's list as it was
    out = CliRunner().invoke(cli_app, ["rules", "--params"]).output
    assert any(line.split() == ["crown_colonies.2", "int", "6", "0..8"] for line in out.splitlines()), out
    assert any(line.split() == ["crown_colonies.3", "int", "6", "0..8"] for line in out.splitlines()), out
    assert any(line.split() == ["crown_colonies.4", "int", "8", "0..8"] for line in out.splitlines()), out
    assert not any(k.startswith("crown_colonies") for k in tune.search_space())
    assert tune.search_space(names=["crown_colonies.2"], ranges={"crown_colonies.2": (4, 8)}) == {
        "crown_colonies.2": {"low": 4, "high": 8, "value": 6}}
    with pytest.raises(ValueError):
        tune.search_space(names=["crown_colonies.2"], ranges={"crown_colonies.2": (0, 9)})


def test_PRJ_75_the_simulator_sets_it_with_set():
    from pax_hispanica.sim.runner import parse_params      # the --set parser of paxh simulate
    assert parse_params(["crown_colonies.2=6"]) == {"crown_colonies.2": 6}


# ---- PRJ-77 -------------------------------------------------------------------------------------

REFERENCE_5_GAMES = __import__("pathlib").Path(__file__).parent / "data" / "reference_5_games.jsonl"


def test_PRJ_77_reference_6_gives_the_spanish_6_crown_colonies_with_2_and_3_players():
    now, old = api.load_ruleset("reference-6"), api.load_ruleset("reference-5")     # reference-7 since (PRJ-79)
    assert (now.version, old.version, old.overrides, now.overrides) == ("reference-6", "reference-5", {}, {})
    assert now.crown_kept[2:] == (6, 6, 8, 8) and old.crown_kept[2:] == (8, 8, 8, 8)
    assert {k: v for k, v in now.params.items() if old.params.get(k) != v} == {"crown_colonies.2": 6,
                                                                               "crown_colonies.3": 6}
    assert now.cards == old.cards and now.kings_share == old.kings_share
    ids = [now.col_ids[c] for c in crown_spaces(now)]
    for players in (2, 3, 4, 5):
        g = api.Game.new(api.Config(players=players, nations=WITH_SPAIN[:players]), 7, ruleset_version="reference-6")
        o = api.Game.new(api.Config(players=players, nations=WITH_SPAIN[:players]), 7, ruleset_version="reference-5")
        by_count = [e for e in g.events if e["type"] == "CrownColoniesByCount"]
        owned = [now.col_ids[c] for c in crown_spaces(now) if g.state.col_owner[c] == 0]
        if players in (2, 3):      # the first 6 in map order; Cartagena and Portobelo start empty, no fort
            assert [(e["colonies"], e["vacated"]) for e in by_count] == [(ids[:6], ids[6:])]
            assert owned == ids[:6] and ids[6:] == ["tierra_firme.cartagena", "panama.portobelo"]
            assert api.view(g.state, None)["ruleset_params"] == {}            # the reference's, not a variant
        else:                      # 4 and 5 players: all 8, the same game as reference-5's but its name
            assert by_count == [] and owned == ids
            assert [{k: v for k, v in e.items() if k != "ruleset_version"} for e in g.events] == \
                [{k: v for k, v in e.items() if k != "ruleset_version"} for e in o.events]
        assert [now.col_ids[c] for c in crown_spaces(now) if o.state.col_owner[c] == 0] == ids
    # nobody plays the Spanish: the Crown owns all 8 at every count, as before (CYC-4)
    g = api.Game.new(api.Config(players=2, nations=NO_SPAIN[:2]), 7, ruleset_version="reference-6")
    assert all(g.state.col_owner[c] == CROWN for c in crown_spaces(now))


def test_PRJ_77_a_reference_5_record_replays_unchanged():
    """reference-5 records made by the engine before reference-6 (the corpus lines of commit
    d56f98b, 2- and 3-player games with a Spanish player, heuristic and ISMCTS) replay under
    reference-5 (data/versions.toml: reference-6 with crown_colonies.2 = crown_colonies.3 = 8)
    to the result and final-state hash that engine stored; the same config and seed under
    reference-6 is another game."""
    from pax_hispanica.sim import corpus
    entries = corpus.load_file(REFERENCE_5_GAMES)
    assert [e["record"]["config"]["players"] for e in entries] == [2, 2, 3, 3]
    for e in entries:
        record = e["record"]
        assert record["ruleset_version"] == "reference-5" and "spanish" in e["result"]["nations"]
        g = api.replay(json.loads(json.dumps(record)))
        assert (g.state.rs.version, g.state.rs.crown_kept[2:]) == ("reference-5", (8, 8, 8, 8))
        assert api.is_over(g.state) and len(g.record["actions"]) == e["actions"]
        assert api.result(g.state) == e["result"], e["id"]
        assert corpus.state_hash(g.state) == e["state_sha256"], e["id"]
        assert g.record["ruleset_version"] == "reference-5"
        assert api.verify_record(record) == []
        assert "CrownColoniesByCount" not in {ev["type"] for ev in g.events}
        now = api.Game.new(record["config"], record["seed"])
        assert now.record["ruleset_version"] == api.load_ruleset().version != "reference-5"
        assert "CrownColoniesByCount" in {ev["type"] for ev in now.events}


def without_setup_by_players(folder) -> str:
    """A copy of the reference whose ruleset.toml has no [setup.by_players.N] table at all."""
    shutil.copytree(DATA / "reference", folder)
    toml = folder / "ruleset.toml"
    body = toml.read_text()
    cut, n = re.subn(r"(?ms)^\[setup\.by_players\.\d+\][^\n]*\n(?:(?!\[).*?\n)*", "", body)
    assert n == 2 and "by_players" not in cut.split("[supply]")[0], "update this test's fixture"
    toml.write_text(cut)
    return str(folder)


def test_PRJ_75_a_ruleset_with_no_by_players_table_loads_with_every_crown_colony_at_every_count(tmp_path):
    """PRJ-75: "a count not named keeps them all": without [setup.by_players.N] tables the
    Spanish own all 8 Crown colonies with every player count, and [setup]'s numbers hold
    for every count (a fresh folder name: the loaders cache by path)."""
    folder = without_setup_by_players(tmp_path / uuid.uuid4().hex)
    rs = load_ruleset(folder)
    reference = load_ruleset("reference")
    assert reference.crown_kept[2:] == (6, 6, 8, 8)          # what the removed tables said (PRJ-85)
    assert rs.crown_kept[2:] == (8, 8, 8, 8)
    assert rs.params["by_players"] == {}
    for n in (2, 3, 4, 5):
        for key in ("start_money", "start_ships", "start_zone", "setup_rebels"):
            assert rs.setup_value(key, n) == rs.params[key], (key, n)
    assert rs.params["start_money"] == 6 and rs.params["start_ships"] == 1
    table = api.parameters(folder, extended=True)
    assert [table[f"crown_colonies.{n}"]["value"] for n in (2, 3, 4, 5)] == [8, 8, 8, 8]
    g = api.Game.new(api.Config(players=2, ruleset=folder, nations=["spanish", "dutch"]), seed=2)
    crown = [c for c, is_crown in enumerate(g.state.rs.col_crown) if is_crown]
    assert len(crown) == 8 and all(g.state.col_owner[c] == 0 for c in crown)
    assert not any(e["type"] == "CrownColoniesByCount" for e in g.events)
