"""The heuristic bot plays the situational Market cards when their effect is worth their cost
in the position, and not otherwise (issue 15: seven of 25 cards were played in fewer than 5% of
games because the bot valued each at a flat figure below its cost). Each test is named after
the rule the card's effect works through (docs/cards.md), with a position where playing the
card is right and one where it is not."""

from support import scenario

from pax_hispanica import api
from pax_hispanica.bots import make_agent

NATIONS = ["dutch", "english", "french"]          # seat 0 SMUGGLER, 1 PRIVATEER, 2 PLUNDER


def _play_position(hand, money=3, colonies=None, sites=None, rebels=None, fleet=None, others=None,
                   cycle=2, tableau=None, params=None):
    me = {"money": money, "hand": hand}
    if fleet:
        me["fleet"] = fleet
    if tableau is not None:
        me["tableau"] = tableau
    players = [me] + list(others or [])
    position = {"cycle": cycle, "year": "play", "step": "play_turns", "order": [0, 1, 2],
                "players": players, "colonies": colonies or {}}
    if sites:
        position["sites"] = sites
    if rebels:
        position["rebels"] = rebels
    return scenario(position, players=3, nations=NATIONS, params=params)


def _choice(g: api.Game) -> dict:
    bot = make_agent("heuristic", 1)
    return bot.decide(api.view(g.state, 0, include_state=True), api.legal_actions(g.state, 0))


def _plays(action: dict, card: str) -> bool:
    return action["type"] == "play" and action["card"] == card


# -- Fortificación (build_fort, BAT-1) --------------------------------------------------------

FORT_COLONY = "venezuela.curacao"


def test_BAT_1_fortificacion_is_played_where_a_raider_would_win_by_one():
    # a PRIVATEER rival with 2 Galleons against our Slave-worked colony (Strength 1) holding 2
    # Chests: the attacker wins by one (BAT-4), a fort makes it a tie, which the target wins
    colonies = {FORT_COLONY: {"owner": 0, "labour": "slave", "chests": 2}}
    raider = {"fleet": {"zone": "europe", "ships": 2, "legality": "PRIVATEER"}}
    action = _choice(_play_position(["fortificacion-1"], colonies=colonies, others=[raider]))
    assert _plays(action, "fortificacion-1") and action["target"] == FORT_COLONY


def test_BAT_1_fortificacion_is_kept_when_no_rival_can_sack():
    colonies = {FORT_COLONY: {"owner": 0, "labour": "slave", "chests": 2}}
    peaceful = [{"fleet": {"zone": "europe", "ships": 2, "legality": "SMUGGLER"}},
                {"fleet": {"zone": "europe", "ships": 1, "legality": "CONQUISTADOR"}}]
    action = _choice(_play_position(["fortificacion-1"], colonies=colonies, others=peaceful))
    assert not _plays(action, "fortificacion-1")


# -- Licencia Real, Red de Contrabando (set_legality, TRS-1..4, TRS-6) ------------------------

def test_TRS_4_licencia_real_is_played_when_crown_chests_wait():
    # no Spanish player: the Crown owns the Crown colonies (CYC-4), whose Chests a CONQUISTADOR
    # loads free (TRS-4) and a SMUGGLER only for a bribe; a PLUNDER fleet loads none of them
    crown = {"cuba.habana": {"owner": "crown", "labour": "citizen", "chests": 3},
             "nueva_espana.zacatecas": {"owner": "crown", "labour": "citizen", "chests": 3},
             "espanola.santo_domingo": {"owner": "crown", "labour": "citizen", "chests": 3}}
    fleet = {"zone": "europe", "ships": 2, "legality": "PLUNDER"}
    action = _choice(_play_position(["licencia_real-1"], colonies=crown, fleet=fleet))
    assert _plays(action, "licencia_real-1")


def test_TRS_4_licencia_real_is_kept_when_there_is_nothing_to_load():
    fleet = {"zone": "europe", "ships": 2, "legality": "PRIVATEER"}
    action = _choice(_play_position(["licencia_real-1"], fleet=fleet, cycle=5))
    assert not _plays(action, "licencia_real-1")


def test_TRS_3_red_de_contrabando_is_played_when_others_hold_chests_we_cannot_sack():
    # the rivals' colonies are worked by Citizens and guarded by their fleets: a PLUNDER fleet of
    # one ship cannot win there (BAT-2, BAT-4), a SMUGGLER bribes $1 a Chest (TRS-3)
    colonies = {"cuba.habana": {"owner": 1, "labour": "citizen", "chests": 3},
                "jamaica.port_royal": {"owner": 2, "labour": "citizen", "chests": 3}}
    others = [{"fleet": {"zone": "cuba", "ships": 2, "legality": "PRIVATEER"}},
              {"fleet": {"zone": "jamaica", "ships": 2, "legality": "CONQUISTADOR"}}]
    fleet = {"zone": "europe", "ships": 1, "legality": "PLUNDER"}
    action = _choice(_play_position(["red_contrabando-1"], money=5, colonies=colonies, fleet=fleet, others=others))
    assert _plays(action, "red_contrabando-1")


# -- Secretario de Indias (hand_limit, HND-1, HND-2) ------------------------------------------

def test_HND_2_secretario_is_played_when_it_keeps_a_valuable_card_from_being_sold():
    # $1: only the Secretario is affordable; without it one of the three dear cards is sold at
    # the end of the turn (HND-2, HND-3)
    hand = ["secretario-1", "grandeza-1", "grandeza-2", "titulo_nobleza-1", "titulo_nobleza-2"]
    action = _choice(_play_position(hand, money=1))
    assert _plays(action, "secretario-1")


def test_HND_2_secretario_is_kept_when_the_hand_is_within_the_limit():
    # at $1, its cost before reference-5 (PRJ-67: card_cost.secretario), a limit not needed is not worth it
    action = _choice(_play_position(["secretario-1", "grandeza-1"], money=1, params={"card_cost.secretario": 1}))
    assert not _plays(action, "secretario-1")


def test_HND_2_PRJ_69_secretario_at_no_cost_is_played_even_within_the_limit():
    # reference-5's $0 (PRJ-69): a higher limit for nothing is worth playing (docs/bots.md, "reference-5 candidate")
    action = _choice(_play_position(["secretario-1", "grandeza-1"], money=1))
    assert _plays(action, "secretario-1")


# -- Obispado (place_cathedral, GDS-3, LAB-1, GDS-4) ------------------------------------------

def test_GDS_4_obispado_is_played_where_our_vacant_colony_has_no_labour_source():
    # our vacant colony in Florida: no Cathedral, the Tribal Site empty, so it would die off
    # in the next Goods Year (GDS-4); a Cathedral there is filled first (GDS-3) and employs (LAB-1)
    colonies = {"florida.san_agustin": {"owner": 0, "labour": None, "chests": 0}}
    sites = {"florida.timucua": 0}
    action = _choice(_play_position(["obispado-1"], colonies=colonies, sites=sites))
    assert _plays(action, "obispado-1") and action["target"] == "florida"


def test_GDS_4_obispado_is_kept_when_our_colonies_are_worked_by_citizens():
    # at $2, its cost before reference-5 (PRJ-67: card_cost.obispado)
    colonies = {"florida.san_agustin": {"owner": 0, "labour": "citizen", "chests": 0}}
    action = _choice(_play_position(["obispado-1"], colonies=colonies, params={"card_cost.obispado": 2}))
    assert not _plays(action, "obispado-1")


def test_GDS_4_PRJ_69_obispado_at_1_is_played_even_where_our_colonies_are_worked_by_citizens():
    # reference-5's $1 (PRJ-69): the Cathedral's Citizens are worth more to the bot than $1
    colonies = {"florida.san_agustin": {"owner": 0, "labour": "citizen", "chests": 0}}
    action = _choice(_play_position(["obispado-1"], colonies=colonies))
    assert _plays(action, "obispado-1")


# -- Milicia (remove_rebels, LAB-4) -----------------------------------------------------------

def test_LAB_4_milicia_is_played_where_a_rebel_blocks_our_vacant_colony_s_kidnap():
    colonies = {"florida.san_agustin": {"owner": 0, "labour": None, "chests": 0}}
    sites = {"florida.timucua": 2}
    action = _choice(_play_position(["milicia-1"], colonies=colonies, sites=sites, rebels={"florida": 1}))
    assert _plays(action, "milicia-1") and action["target"] == "florida"


def test_LAB_4_milicia_is_kept_when_the_rebels_block_nothing_of_ours():
    colonies = {"cuba.habana": {"owner": 0, "labour": "citizen", "chests": 0}}
    action = _choice(_play_position(["milicia-1"], colonies=colonies, rebels={"florida": 1}))
    assert not _plays(action, "milicia-1")


# -- Piloto Mayor (extra_moves, SAIL-1) -------------------------------------------------------

def test_SAIL_1_piloto_mayor_is_played_when_one_more_move_makes_a_round_trip():
    # our Chests in Venezuela, 3 zones from Europe: a round trip needs 6 moves; with a Piloto
    # already in the tableau (5 moves) one more makes it fit in one voyage
    colonies = {"venezuela.curacao": {"owner": 0, "labour": "citizen", "chests": 3}}
    action = _choice(_play_position(["piloto_mayor-1"], colonies=colonies, tableau=["piloto_mayor-2"]))
    assert _plays(action, "piloto_mayor-1")


def test_SAIL_1_piloto_mayor_is_kept_late_when_the_round_trip_does_not_fit_either_way():
    colonies = {"venezuela.curacao": {"owner": 0, "labour": "citizen", "chests": 3}}
    action = _choice(_play_position(["piloto_mayor-1"], colonies=colonies, cycle=4))
    assert not _plays(action, "piloto_mayor-1")
