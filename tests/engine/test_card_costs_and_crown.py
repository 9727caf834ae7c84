"""PRJ-67: a Market card's cost is a ruleset number (`card_cost.<card id>`, 0..6), for `--set`,
the tuner and the version table. PRJ-68: the variant rule "the Crown by player count": the
King's share (PRJ-30's `kings_crown_share`) with N players, `kings_crown_share.<N>`, off in
the reference (the same share at every count)."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pax_hispanica import api, rulesets
from pax_hispanica.bots.heuristic import HeuristicAgent
from pax_hispanica.cli import app as cli_app
from pax_hispanica.engine import treasure
from pax_hispanica.sim import tune, tune_report

CHEAP = {"card_cost.obispado": 1, "card_cost.secretario": 0}    # reference-5's costs (PRJ-69)
DEAR = {"card_cost.obispado": 3, "card_cost.secretario": 2}
WITH_SPAIN = ["spanish", "english", "french", "dutch", "courland"]


def heuristic_game(config: api.Config, seed: int) -> api.Game:
    g = api.Game.new(config, seed)
    bots = [HeuristicAgent(seed=seed * 10 + s, api=api) for s in range(config.players)]
    for _ in range(5000):
        if api.is_over(g.state):
            return g
        seat = api.acting(g.state)[0]
        g.act(bots[seat].decide(api.view(g.state, seat, include_state=True), api.legal_actions(g.state, seat)))
    raise AssertionError("game did not end")


def copies(rs, entry: str) -> list[str]:
    return [c for c in rs.cards if c == entry or c.rsplit("-", 1)[0] == entry]


# ---- PRJ-67 -------------------------------------------------------------------------------------

def test_PRJ_67_a_card_cost_sets_every_copy_of_that_card_and_nothing_else():
    base, dear = api.load_ruleset("reference"), api.load_ruleset("reference", DEAR)
    assert [base.cards[c].cost for c in copies(base, "obispado")] == [1, 1]      # market.toml (PRJ-69)
    assert [dear.cards[c].cost for c in copies(dear, "obispado")] == [3, 3]
    assert [dear.cards[c].cost for c in copies(dear, "secretario")] == [2, 2, 2]
    others = [c for c in base.cards if c not in copies(base, "obispado") + copies(base, "secretario")]
    assert others and all(dear.cards[c] == base.cards[c] for c in others)
    assert base.cards["obispado-1"].cost == 1          # the ruleset itself is untouched
    assert dear.overrides == DEAR and dear.params["card_cost.obispado"] == 3


def test_PRJ_67_the_game_charges_the_overridden_cost_and_the_record_replays():
    cheaper = {"card_cost.obispado": 0, "card_cost.galeon": 1}     # market.toml: $1 and $2
    base = api.load_ruleset("reference")
    assert base.cards["obispado-1"].cost == 1 and base.cards["galeon-1"].cost == 2
    played = []
    for seed in range(1, 40):
        g = heuristic_game(api.Config(players=4, params=cheaper), seed)
        played = [e for e in g.events if e["type"] == "CardPlayed"
                  and e["card"].rsplit("-", 1)[0] in ("obispado", "galeon")]
        if {e["card"].rsplit("-", 1)[0] for e in played} == {"obispado", "galeon"}:
            break
    assert {e["card"].rsplit("-", 1)[0] for e in played} == {"obispado", "galeon"}
    for e in played:
        assert e["cost"] == cheaper[f"card_cost.{e['card'].rsplit('-', 1)[0]}"], e
    again = api.replay(json.loads(json.dumps(g.record)))
    assert api.snapshot(again.state) == api.snapshot(g.state)
    assert api.view(g.state, 0)["ruleset_params"] == cheaper        # public, as every variant (PRJ-31)


@pytest.mark.parametrize("params, words", [
    ({"card_cost.nope": 1}, "card_cost.nope: 'nope' is not a card of market.toml"),
    ({"card_cost.roatan": 0}, "'roatan' is not a card of market.toml"),              # a Haven card
    ({"card_cost.obispado-1": 1}, "card_cost.<id> takes the id of a market.toml card"),  # a copy's id
    ({"card_cost.obispado": 7}, "card_cost.obispado must be at least 0 and at most 6"),
    ({"card_cost.obispado": -1}, "card_cost.obispado must be at least 0 and at most 6"),
    ({"card_cost.obispado": "1"}, "card_cost.obispado must be int"),
    ({"card_cost.obispado": True}, "card_cost.obispado must be int"),
    ({"card_cost.": 1}, "card_cost.<id> takes the id"),
])
def test_PRJ_67_a_bad_card_cost_is_refused_at_setup_naming_the_key(params, words):
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=3, params=params), seed=1)
    assert (e.value.code, e.value.rule) == ("bad_config", "PRJ-31") and words in e.value.message, e.value.message
    assert len(e.value.message) < 400


def test_PRJ_67_the_costs_are_listed_with_their_range_by_the_api_and_paxh_rules():
    table = api.parameters(extended=True)
    rs = api.load_ruleset("reference")
    assert {k for k in table if k.startswith("card_cost.")} == {f"card_cost.{e}" for e in rs.market_entries}
    assert table["card_cost.obispado"] == {"value": 1, "type": "int", "range": [0, 6]}
    assert api.parameters("reference", DEAR, extended=True)["card_cost.secretario"]["value"] == 2
    assert not any(k.startswith("card_cost.") for k in api.parameters())      # PRJ-31's list as it was
    out = CliRunner().invoke(cli_app, ["rules", "--params"]).output
    assert any(line.split()[:3] == ["card_cost.obispado", "int", "1"] and line.split()[-1] == "0..6"
               for line in out.splitlines()), out
    assert api.card_catalogue("reference", DEAR)["obispado-1"]["cost"] == 3
    assert api.card_catalogue("reference")["obispado-1"]["cost"] == 1
    assert api.card_catalogue("reference", version="reference-4")["obispado-1"]["cost"] == 2


def test_PRJ_67_a_version_table_entry_may_change_a_cards_cost():
    current = {"reference-4": rulesets.Version("reference-4", "reference")}
    out = rulesets._resolve_table({"old": {"base": "reference-4", "params": {"card_cost.obispado": 2}}}, current)
    assert out["old"].params == (("card_cost.obispado", 2),)
    with pytest.raises(api.RulesetError) as e:
        rulesets._resolve_table({"old": {"base": "reference-4", "params": {"card_cost.obispado": 9}}}, current)
    assert "versions.toml" in str(e.value) and "card_cost.obispado" in str(e.value)


def test_PRJ_67_the_tuner_searches_a_cost_only_when_named_and_writes_it_to_market_toml(tmp_path):
    assert not any("." in k for k in tune.search_space())
    space = tune.search_space(names=["card_cost.obispado"], ranges={"card_cost.obispado": (0, 3)})
    assert space == {"card_cost.obispado": {"low": 0, "high": 3, "value": 1}}
    with pytest.raises(ValueError):
        tune.search_space(names=["card_cost.obispado"], ranges={"card_cost.obispado": (0, 7)})
    dest = tune_report.write_ruleset("reference", {**DEAR, "start_money": 7}, tmp_path / "tuned")
    rs = api.load_ruleset(str(dest))
    assert rs.cards["obispado-2"].cost == 3 and rs.cards["secretario-3"].cost == 2 and rs.start_money == 7
    assert rs.cards["galeon-1"].cost == api.load_ruleset("reference").cards["galeon-1"].cost


# ---- PRJ-68 -------------------------------------------------------------------------------------

def kings_colony(st) -> int:
    return next(c for c in range(len(st.rs.col_ids)) if treasure.is_kings_colony(st, c))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_PRJ_68_the_kings_share_is_the_one_of_the_games_player_count(players):
    params = {"kings_crown_share.2": 1, "kings_crown_share.5": 0, "kings_crown_share.4": 4}
    st = api.new_game(api.Config(players=players, nations=WITH_SPAIN[:players], params=params), seed=5)
    c = kings_colony(st)
    share = {2: 1, 3: 2, 4: 4, 5: 0}[players]          # 3 players: kings_crown_share itself (2)
    assert st.rs.kings_share[players] == share
    # the Crown claims one Chest of every `share` the Spanish load from the King's colonies (PRJ-30)
    assert treasure.crown_claim(st, 0, c, {}, 4) == (4 // share if share else 0)
    old = api.new_game(api.Config(players=players, nations=WITH_SPAIN[:players]), seed=5, ruleset_version="reference-4")
    assert treasure.crown_claim(old, 0, c, {}, 4) == 2                     # reference-4: 1 of every 2 at every count


def test_PRJ_68_off_in_reference_4_and_an_override_of_kings_crown_share_holds_at_every_count():
    assert api.load_ruleset("reference-4").kings_share[2:] == (2, 2, 2, 2)
    assert api.load_ruleset("reference-5").kings_share[2:] == (2, 2, 2, 0)     # PRJ-69
    assert api.load_ruleset("reference").kings_share[2:] == (3, 2, 2, 0)       # reference-7 (PRJ-79)
    rs = api.load_ruleset("reference", {"kings_crown_share": 3, "kings_crown_share.4": 0})
    assert rs.kings_share[2:] == (3, 3, 0, 3) and rs.kings_crown_share == 3
    table = api.parameters("reference", {"kings_crown_share.2": 1}, extended=True)
    assert api.parameters("reference", extended=True)["kings_crown_share.2"]["value"] == 3
    assert table["kings_crown_share.2"] == {"value": 1, "type": "int", "range": [0, 20]}
    assert table["kings_crown_share.3"]["value"] == 2


def test_PRJ_68_a_record_under_the_variant_replays_and_differs_from_the_reference():
    params = {"kings_crown_share.2": 1}
    config = api.Config(players=2, nations=["spanish", "french"], params=params)
    for seed in range(1, 30):
        g = heuristic_game(config, seed)
        royal = [e for e in g.events if e["type"] == "ChestsLoaded" and e.get("crown_claim")]
        if royal:
            break
    assert royal, "no game of 30 had the Crown claim a Chest"
    # with a share of 1 the Crown claims every Chest the Spanish load from the King's colonies
    assert all(e["crown_claim"] == e["count"] and e["kept"] == 0 for e in royal if e["seat"] == 0)
    again = api.replay(json.loads(json.dumps(g.record)))
    assert api.snapshot(again.state) == api.snapshot(g.state)
    assert api.view(g.state, None)["ruleset_params"] == params


@pytest.mark.parametrize("params, words", [
    ({"kings_crown_share.6": 1}, "takes a player count N, 2 to 5"),
    ({"kings_crown_share.1": 1}, "takes a player count N, 2 to 5"),
    ({"kings_crown_share.x": 1}, "takes a player count N, 2 to 5"),
    ({"kings_crown_share.2": 21}, "kings_crown_share.2 must be at least 0 and at most 20"),
    ({"kings_crown_share.2": -1}, "kings_crown_share.2 must be at least 0 and at most 20"),
    ({"kings_crown_share.2": True}, "kings_crown_share.2 must be int"),
])
def test_PRJ_68_a_bad_per_count_share_is_refused_at_setup_naming_the_key(params, words):
    with pytest.raises(api.IllegalAction) as e:
        api.new_game(api.Config(players=2, params=params), seed=1)
    assert (e.value.code, e.value.rule) == ("bad_config", "PRJ-31") and words in e.value.message, e.value.message


def with_treasure_by_players(folder, text: str) -> str:
    import shutil

    from pax_hispanica.rulesets import DATA
    shutil.copytree(DATA / "reference", folder)
    toml = folder / "ruleset.toml"
    toml.write_text(toml.read_text() + "\n" + text + "\n")
    return str(folder)


def test_PRJ_68_ruleset_toml_gives_the_kings_share_by_count_and_a_variant_goes_on_top(tmp_path):
    folder = with_treasure_by_players(tmp_path / "r", "[treasure.by_players.3]\nkings_crown_share = 1")
    rs = api.load_ruleset(folder)
    # 2 and 5: the reference's own (PRJ-79, PRJ-69)
    assert rs.kings_share[2:] == (3, 1, 2, 0) and rs.kings_crown_share == 2
    assert api.parameters(folder, extended=True)["kings_crown_share.3"]["value"] == 1
    assert api.load_ruleset(folder, {"kings_crown_share.3": 4}).kings_share[2:] == (3, 4, 2, 0)
    flat = api.load_ruleset(folder, {"kings_crown_share": 3})          # holds at every count (PRJ-31)
    assert flat.kings_share[2:] == (3, 3, 3, 3) and not any(k.startswith("kings_crown_share.") for k in flat.params)
    st = api.new_game(api.Config(players=3, ruleset=folder, nations=WITH_SPAIN[:3]), seed=2)
    assert treasure.crown_claim(st, 0, kings_colony(st), {}, 2) == 2


@pytest.mark.parametrize("text, words", [
    ("[treasure.by_players.6]\nkings_crown_share = 0", "[treasure.by_players.6]: a player count is 2 to 5"),
    ("[treasure.by_players.3]\nkings_crown_share = 21",
     "[treasure.by_players.3] kings_crown_share must be at least 0 and at most 20"),
    # smuggler_bribe may be set by count since PRJ-78; no other [treasure] number may
    ("[treasure.by_players.3]\nsmuggler_money = 0", "[treasure.by_players.3]"),
    ("[treasure.by_players.x]\nkings_crown_share = 0", "the player count must be a whole number"),
])
def test_PRJ_68_a_bad_treasure_by_players_table_is_refused_naming_it(tmp_path, text, words):
    folder = with_treasure_by_players(tmp_path / "r", text)
    with pytest.raises(api.RulesetError) as e:
        api.load_ruleset(folder)
    assert "ruleset.toml" in str(e.value) and words in str(e.value), str(e.value)


# ---- PRJ-69 -------------------------------------------------------------------------------------

def test_PRJ_69_reference_5_has_the_cheaper_cards_and_no_kings_share_with_5_players():
    now, old = api.load_ruleset("reference-5"), api.load_ruleset("reference-4")     # reference-6 since (PRJ-77)
    assert now.version == "reference-5" and old.version == "reference-4" and old.overrides == {}
    assert (now.cards["obispado-1"].cost, now.cards["secretario-1"].cost) == (1, 0)
    assert (old.cards["obispado-1"].cost, old.cards["secretario-1"].cost) == (2, 1)
    assert now.kings_share[2:] == (2, 2, 2, 0) and old.kings_share[2:] == (2, 2, 2, 2)
    differ = {c for c in now.cards if now.cards[c] != old.cards[c]}
    assert differ == set(copies(now, "obispado") + copies(now, "secretario"))
    assert {k: v for k, v in now.params.items() if old.params.get(k) != v} == {"kings_crown_share.5": 0}
    for players in (2, 5):      # a reference-4 game still claims 1 of every 2 with 5 players
        st = api.new_game(api.Config(players=players, nations=WITH_SPAIN[:players]), 3, ruleset_version="reference-4")
        assert treasure.crown_claim(st, 0, kings_colony(st), {}, 2) == 1
        st = api.new_game(api.Config(players=players, nations=WITH_SPAIN[:players]), 3, ruleset_version="reference-5")
        assert treasure.crown_claim(st, 0, kings_colony(st), {}, 2) == (1 if players == 2 else 0)
        st = api.new_game(api.Config(players=players, nations=WITH_SPAIN[:players]), 3, ruleset_version="reference-6")
        assert treasure.crown_claim(st, 0, kings_colony(st), {}, 2) == (1 if players == 2 else 0)
        st = api.new_game(api.Config(players=players, nations=WITH_SPAIN[:players]), 3)   # reference-7: 1 of 3 with 2
        assert treasure.crown_claim(st, 0, kings_colony(st), {}, 2) == 0
