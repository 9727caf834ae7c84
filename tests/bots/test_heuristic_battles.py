"""The heuristic bot's rule of thumb for battles: attack only when it expects to win, counting
the fleet as 1 per ship (BAT-2), a tie for the target (BAT-4), and the sealed Battle Cards of
the other players there (BAT-3), each expected to back the weaker side."""

from support import scenario

from pax_hispanica import api
from pax_hispanica.bots import make_agent

TARGET = "venezuela.curacao"         # seat 1's colony, worked by a Citizen: Strength 2 (BAT-2)


def _sack_position(ships: int, third_in_zone: bool = False, prestige=(0, 0, 0)) -> api.Game:
    colonies = {TARGET: {"owner": 1, "labour": "citizen", "chests": 2}}
    if third_in_zone:                # seat 2 has tokens there: it will play a Battle Card
        colonies["venezuela.caracas"] = {"owner": 2, "labour": "citizen", "chests": 0}
    players = [{"money": 5, "prestige": prestige[0],
                "fleet": {"zone": "venezuela", "ships": ships, "legality": "PLUNDER"}},
               {"money": 5, "prestige": prestige[1]}, {"money": 5, "prestige": prestige[2]}]
    return scenario({"year": "sail", "step": "voyages", "order": [0, 1, 2], "players": players,
                     "colonies": colonies, "sites": {"venezuela.caracas_cathedral": 0}},
                    players=3, nations=["english", "french", "dutch"])


def _decide(g: api.Game) -> tuple[dict, dict]:
    bot = make_agent("heuristic", 1)
    action = bot.decide(api.view(g.state, 0, include_state=True), api.legal_actions(g.state, 0))
    return action, bot.explain()


def attacks(action: dict) -> bool:
    return action["type"] == "attack" and action["target"] == TARGET


def test_BAT_4_a_fleet_that_only_ties_does_not_attack_one_that_is_stronger_does():
    tie, _ = _decide(_sack_position(ships=2))
    assert not attacks(tie)
    stronger, why = _decide(_sack_position(ships=3))
    assert attacks(stronger)
    assert "sack a colony" in why["rule_of_thumb"]


def test_BAT_3_a_supporter_is_expected_to_back_the_target_when_we_lead():
    # seat 2 (Strength 2 in Venezuela) backs the weaker side: us when we trail, the target when we lead
    trailing, _ = _decide(_sack_position(ships=3, third_in_zone=True, prestige=(0, 0, 5)))
    assert attacks(trailing)
    leading, _ = _decide(_sack_position(ships=3, third_in_zone=True, prestige=(9, 0, 0)))
    assert not attacks(leading)


def test_BAT_3_the_expected_supporter_really_decides_the_battle():
    g = _sack_position(ships=3, third_in_zone=True, prestige=(0, 0, 5))
    action, _ = _decide(g)
    assert attacks(action)
    g.act(action)
    supporter = make_agent("heuristic", 2)
    events = g.act(supporter.decide(api.view(g.state, 2, include_state=True), api.legal_actions(g.state, 2)))
    battle = next(e for e in events if e["type"] == "BattleResolved")
    assert battle["winner"] == "attacker"
    assert (battle["attacker_strength"], battle["target_strength"]) == (5, 2)


def test_the_heuristic_values_a_legality_by_the_ruleset_s_chest_values():
    # Licencia Real sets CONQUISTADOR: worth more to a SMUGGLER under TRS-5's 2 Prestige per
    # Chest (a variant, PRJ-31) than under the reference ruleset's 1 (PRJ-32)
    values = []
    for params in ({"conquistador_prestige": 2}, {}):
        st = api.new_game(api.Config(players=3, nations=["dutch", "english", "french"], params=params), seed=1)
        view = api.view(st, 0, include_state=True)
        bot = make_agent("heuristic", 1)
        values.append(bot.card_value(view, view["players"][0], "licencia_real-1"))
    assert values[0] > values[1]
