"""PRJ-78: the variant rule "the SMUGGLER's bribe by player count": with N players a SMUGGLER
pays `smuggler_bribe.<N>` per Chest it loads from another owner's colony (TRS-3) instead of
`smuggler_bribe` at every count. Off in reference-6 (the same bribe at every count)."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pax_hispanica import api
from pax_hispanica.cli import app as cli_app
from pax_hispanica.engine import treasure
from pax_hispanica.engine.state import CROWN
from pax_hispanica.sim import tune

from .test_card_costs_and_crown import heuristic_game, with_treasure_by_players

# the Dutch (SMUGGLER) first, then nations whose home colonies the Dutch can bribe
NATIONS = ["dutch", "english", "french", "courland", "spanish"]


def game(players: int, params: dict | None = None, version: str | None = None, nations=NATIONS):
    config = api.Config(players=players, nations=nations[:players], **({"params": params} if params else {}))
    return api.new_game(config, seed=3, ruleset_version=version)


def rival_colony(st) -> int:
    """A colony of seat 1 (its home), which seat 0's SMUGGLER fleet pays to load from."""
    return next(c for c, owner in enumerate(st.col_owner) if owner == 1)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_PRJ_78_the_bribe_is_the_one_of_the_games_player_count(players):
    params = {"smuggler_bribe.2": 2, "smuggler_bribe.4": 0, "smuggler_bribe.5": 3}
    st = game(players, params)
    bribe = {2: 2, 3: 1, 4: 0, 5: 3}[players]          # 3 players: smuggler_bribe itself (1)
    assert st.rs.smuggler_bribes[players] == bribe
    # TRS-3: paid to the colony's owner, per Chest
    assert treasure.chest_terms(st, 0, rival_colony(st), {}) == (bribe, 1)
    # own colonies stay free, and the Crown's bribe goes to the Pool at the same price
    own = next(c for c, owner in enumerate(st.col_owner) if owner == 0)
    assert treasure.chest_terms(st, 0, own, {}) == (0, None)
    crown = [c for c, owner in enumerate(st.col_owner) if owner == CROWN]    # nobody plays the Spanish
    assert bool(crown) == (players < 5)
    if crown:
        assert treasure.chest_terms(st, 0, crown[0], {}) == (bribe, "pool")


def test_PRJ_78_off_in_reference_6_and_an_override_of_smuggler_bribe_holds_at_every_count():
    assert api.load_ruleset("reference-6").smuggler_bribes[2:] == (1, 1, 1, 1)
    rs = api.load_ruleset("reference-6", {"smuggler_bribe": 3, "smuggler_bribe.4": 0})
    assert rs.smuggler_bribes[2:] == (3, 3, 0, 3) and rs.smuggler_bribe == 3
    # a flat override replaces a count the ruleset sets (as kings_crown_share's, PRJ-68)
    flat = api.load_ruleset("reference-6", {"smuggler_bribe.2": 2, "smuggler_bribe": 0})
    assert flat.smuggler_bribes[2:] == (2, 0, 0, 0)
    # the King's share by count is not touched by the bribe's, nor the bribe by the share's
    both = api.load_ruleset("reference-6", {"smuggler_bribe.3": 2, "kings_crown_share.3": 1})
    assert both.smuggler_bribes[2:] == (1, 2, 1, 1) and both.kings_share[2:] == (2, 1, 2, 0)


def test_PRJ_78_listed_by_api_parameters_and_paxh_rules_and_searched_by_the_tuner_when_named():
    table = api.parameters("reference-6", {"smuggler_bribe.2": 2}, extended=True)
    assert table["smuggler_bribe.2"] == {"value": 2, "type": "int", "range": [0, 20]}
    assert table["smuggler_bribe.3"]["value"] == 1
    assert not any(k.startswith("smuggler_bribe.") for k in api.parameters())      # PRJ-31's list as it was
    out = CliRunner().invoke(cli_app, ["rules", "--params"]).output
    assert any(line.split()[:2] == ["smuggler_bribe.5", "int"] for line in out.splitlines()), out
    assert not any(k.startswith("smuggler_bribe.") for k in tune.search_space())
    assert tune.search_space(names=["smuggler_bribe.2"], ranges={"smuggler_bribe.2": (1, 3)})["smuggler_bribe.2"][
        "low"] == 1


@pytest.mark.parametrize("params, words", [
    ({"smuggler_bribe.6": 1}, "takes a player count N, 2 to 5 (PRJ-78)"),
    ({"smuggler_bribe.1": 1}, "takes a player count N, 2 to 5 (PRJ-78)"),
    ({"smuggler_bribe.two": 1}, "takes a player count N, 2 to 5 (PRJ-78)"),
    ({"smuggler_bribe.2": 21}, "smuggler_bribe.2 must be at least 0 and at most 20"),
    ({"smuggler_bribe.2": -1}, "smuggler_bribe.2 must be at least 0 and at most 20"),
    ({"smuggler_bribe.2": 1.5}, "smuggler_bribe.2 must be int"),
    ({"smuggler_bribe.2": "2"}, "smuggler_bribe.2 must be int"),
])
def test_PRJ_78_a_bad_per_count_bribe_is_refused_at_setup_naming_the_key(params, words):
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=2, params=params), seed=1)
    assert (e.value.code, e.value.rule) == ("bad_config", "PRJ-31") and words in e.value.message, e.value.message


def test_PRJ_78_a_game_under_the_variant_pays_it_replays_and_is_the_flat_bribes_game_at_that_count():
    """With 2 players `smuggler_bribe.2 = 2` is `smuggler_bribe = 2`: the engine and the
    heuristic bot (which prices a bribe when it weighs a legality) both read the game's count."""
    nations = ["dutch", "courland"]
    paid = []
    for seed in range(1, 6):
        per_count = heuristic_game(api.Config(players=2, nations=nations, params={"smuggler_bribe.2": 2}), seed)
        flat = heuristic_game(api.Config(players=2, nations=nations, params={"smuggler_bribe": 2}), seed)
        strip = [{k: v for k, v in e.items() if k not in ("ruleset_params", "seed_hash", "seed")}
                 for e in per_count.events]
        assert strip == [{k: v for k, v in e.items() if k not in ("ruleset_params", "seed_hash", "seed")}
                         for e in flat.events]
        paid += [e for e in per_count.events if e["type"] == "ChestsLoaded" and e["paid_to"] not in (None,)]
        again = api.replay(json.loads(json.dumps(per_count.record)))
        assert api.snapshot(again.state) == api.snapshot(per_count.state)
        assert api.view(per_count.state, None)["ruleset_params"] == {"smuggler_bribe.2": 2}
    assert paid, "no SMUGGLER bribed in 5 games"
    assert all(e["paid"] == 2 * e["count"] for e in paid)


def test_PRJ_78_with_another_count_the_variant_changes_nothing():
    config = api.Config(players=2, nations=["dutch", "courland"])
    for seed in (1, 2):
        plain = heuristic_game(config, seed)
        other = heuristic_game(api.Config(players=2, nations=["dutch", "courland"],
                                          params={"smuggler_bribe.3": 5}), seed)
        assert [e["type"] for e in plain.events] == [e["type"] for e in other.events]
        assert api.result(plain.state) == api.result(other.state)


def test_PRJ_78_ruleset_toml_gives_the_bribe_by_count_and_a_variant_goes_on_top(tmp_path):
    folder = with_treasure_by_players(tmp_path / "r", "[treasure.by_players.4]\nsmuggler_bribe = 3")
    rs = api.load_ruleset(folder)
    assert rs.smuggler_bribes[4] == 3 and rs.smuggler_bribe == 1
    assert api.parameters(folder, extended=True)["smuggler_bribe.4"]["value"] == 3
    assert api.load_ruleset(folder, {"smuggler_bribe.4": 0}).smuggler_bribes[4] == 0
    st = api.new_game(api.Config(players=4, ruleset=folder, nations=NATIONS[:4]), seed=2)
    assert treasure.chest_terms(st, 0, rival_colony(st), {}) == (3, 1)


@pytest.mark.parametrize("text, words", [
    ("[treasure.by_players.3]\nsmuggler_bribe = 21", "[treasure.by_players.3] smuggler_bribe must be at least 0"),
    ("[treasure.by_players.3]\nsmuggler_bribe = -1", "[treasure.by_players.3] smuggler_bribe must be at least 0"),
    ("[treasure.by_players.3]\nsmuggler_bribe = \"2\"", "[treasure.by_players.3]"),
    ("[treasure.by_players.7]\nsmuggler_bribe = 2", "[treasure.by_players.7]: a player count is 2 to 5"),
])
def test_PRJ_78_a_bad_treasure_by_players_bribe_is_refused_naming_it(tmp_path, text, words):
    folder = with_treasure_by_players(tmp_path / "r", text)
    with pytest.raises(api.RulesetError) as e:
        api.load_ruleset(folder)
    assert "ruleset.toml" in str(e.value) and words in str(e.value), str(e.value)


# ---- PRJ-79 -------------------------------------------------------------------------------------

REFERENCE_6_GAMES = __import__("pathlib").Path(__file__).parent / "data" / "reference_6_games.jsonl"
WITH_SPAIN = ["spanish", "english", "french", "dutch", "courland"]


def test_PRJ_79_reference_7_changes_three_numbers_and_only_with_2_players():
    now, old = api.load_ruleset("reference-7"), api.load_ruleset("reference-6")   # reference-8 since PRJ-82
    assert (now.version, old.version, now.overrides, old.overrides) == ("reference-7", "reference-6", {}, {})
    assert {k: v for k, v in now.params.items() if old.params.get(k) != v} == {
        "crown_colonies.2": 4, "kings_crown_share.2": 3, "smuggler_bribe.2": 2}
    assert (now.crown_kept[2:], now.kings_share[2:], now.smuggler_bribes[2:]) == ((4, 6, 8, 8), (3, 2, 2, 0), (2, 1, 1, 1))
    assert (old.crown_kept[2:], old.kings_share[2:], old.smuggler_bribes[2:]) == ((6, 6, 8, 8), (2, 2, 2, 0), (1, 1, 1, 1))
    assert now.cards == old.cards and (now.smuggler_bribe, now.kings_crown_share) == (1, 2)
    ids = [now.col_ids[c] for c, crown in enumerate(now.col_crown) if crown]
    g = api.Game.new(api.Config(players=2, nations=["spanish", "dutch"]), 7, ruleset_version="reference-7")
    (by_count,) = [e for e in g.events if e["type"] == "CrownColoniesByCount"]
    assert (by_count["colonies"], by_count["vacated"]) == (ids[:4], ids[4:])
    assert [now.col_names[now.col_index[c]] for c in ids[:4]] == ["Zacatecas", "Campeche", "La Habana", "Santo Domingo"]
    assert api.view(g.state, None)["ruleset_params"] == {}              # the reference's numbers, not a variant
    habana = next(c for c in ids if c.endswith("habana"))
    assert treasure.chest_terms(g.state, 1, now.col_index[habana], {}) == (2, 0)   # TRS-3 at PRJ-78's 2-player bribe
    for players in (3, 4, 5):     # the same games as reference-6's, but for the version's name
        a = api.Game.new(api.Config(players=players, nations=WITH_SPAIN[:players]), 7, ruleset_version="reference-7")
        b = api.Game.new(api.Config(players=players, nations=WITH_SPAIN[:players]), 7, ruleset_version="reference-6")
        assert [{k: v for k, v in e.items() if k != "ruleset_version"} for e in a.events] == \
            [{k: v for k, v in e.items() if k != "ruleset_version"} for e in b.events]
        if players >= 4:          # the Dutch (seat 3) bribe the Spanish $1 a Chest, as before
            assert treasure.chest_terms(a.state, 3, now.col_index[habana], {}) == (1, 0)


def test_PRJ_79_a_reference_6_record_replays_unchanged():
    """reference-6 records made by the engine before reference-7 (2-player corpus lines of the
    commit before PRJ-79: a Spanish game whose Crown claimed Chests, and two English-Dutch games,
    one with a bribe) replay under reference-6 (data/versions.toml) to the result and final-state
    hash that engine stored; the same config and seed under reference-7 is another game."""
    from pax_hispanica.sim import corpus
    entries = corpus.load_file(REFERENCE_6_GAMES)
    assert [e["record"]["config"]["players"] for e in entries] == [2, 2, 2]
    bribes = claims = 0
    for e in entries:
        record = e["record"]
        assert record["ruleset_version"] == "reference-6"
        g = api.replay(json.loads(json.dumps(record)))
        assert (g.state.rs.version, g.state.rs.smuggler_bribes[2], g.state.rs.kings_share[2]) == ("reference-6", 1, 2)
        assert api.is_over(g.state) and len(g.record["actions"]) == e["actions"]
        assert api.result(g.state) == e["result"], e["id"]
        assert corpus.state_hash(g.state) == e["state_sha256"], e["id"]
        assert api.verify_record(record) == []
        loads = [ev for ev in g.events if ev["type"] == "ChestsLoaded"]
        bribes += sum(ev["paid"] == ev["count"] for ev in loads if ev["paid"])          # $1 a Chest
        claims += sum(bool(ev.get("crown_claim")) for ev in loads)
        now = api.Game.new(record["config"], record["seed"])
        assert now.record["ruleset_version"] == api.load_ruleset().version != "reference-6"
    assert bribes and claims
