"""Every seed clause holds in the default ruleset (issue 36; docs/rules.md PRJ-81).

The seed clauses are the rule IDs that ../shared/RULES.md marks [SEED]: the sentences of the
printed game's rules summaries (../shared/seeds/001_*.txt). `SEED_CLAUSES` lists them, each with
the seed's words and a check run on the DEFAULT ruleset (what `api.Config` plays with no
variant): never a variant, so a default that drops a seed sentence fails here, whatever the
other tests of that rule do with their own parameters.

`test_the_list_is_every_SEED_rule_of_RULES_md` fails when RULES.md gains (or loses) a [SEED]
rule the list does not name. scripts/seed_mutants.py plants one mutation per clause in a
copy of the sources and counts the mutants these tests (and the rest of tests/rules and
tests/engine) kill.
"""

from __future__ import annotations

import itertools
import os
import random
import re
from pathlib import Path
from typing import NamedTuple

import pytest

from pax_hispanica import api
from pax_hispanica.engine.flow import YEAR_STEPS, YEARS
from support import options, scenario

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = Path(os.environ.get("PAXH_RULES_MD", ROOT.parent / "shared" / "RULES.md"))
DEFAULT = api.Config(players=3)
RS = api.load_ruleset(DEFAULT.ruleset)                     # the default ruleset, no variant
NO_SPAIN = ["english", "french", "courland"]               # the Crown owns the Crown colonies


def game(position, nations=NO_SPAIN, seed=1):
    """A scenario under the default ruleset (no params)."""
    assert "params" not in position
    return scenario(position, players=len(nations), nations=nations, seed=seed)


def refused(st, action, code=None):
    before = st.to_dict()
    with pytest.raises(api.IllegalAction) as e:
        api.apply(st, action)
    assert st.to_dict() == before
    if code is not None:
        assert e.value.code == code, e.value
    return e.value


def of(events, kind):
    return [e for e in events if e["type"] == kind]


def kinds(st, seat):
    return {o["type"] for o in options(st, seat)}


# ---- CYC-1, GDS-1: the cycle and the Goods Year ---------------------------------------------------

class _Played(NamedTuple):
    game: api.Game
    asked: list[tuple[str, str]]        # (year, action type) of every action


def _random_game(players=3, seed=5) -> _Played:
    """A game of random legal actions and the (year, action type) of every action (a list beside
    the game: the compiled engine's Game takes no new attributes)."""
    g = api.Game.new(api.Config(players=players), seed)
    r = random.Random(seed)
    asked: list[tuple[str, str]] = []
    while not api.is_over(g.state):
        seat = r.choice(api.acting(g.state))
        action = r.choice(api.expand(api.legal_actions(g.state, seat)))
        asked.append((YEARS[g.state.year], action["type"]))
        g.act(action)
    return _Played(g, asked)


_GAME: list[api.Game] = []


def random_game():
    if not _GAME:
        _GAME.append(_random_game())
    return _GAME[0]


# what each Year asks (the decisions of D1..D4): labour; auctions and bids; play turns; voyages
YEAR_ACTIONS = {"goods": {"labour"}, "auction": {"initiate", "pass", "bid"},
                "play": {"play", "sell", "discard", "end_turn"},
                "sail": {"move", "attack", "support", "enslave", "load_chests", "unload", "unload_haven",
                         "start_at_haven", "end_voyage"}}


def check_CYC_1():
    assert YEARS == ("goods", "auction", "play", "sail")
    asked: dict[str, set[str]] = {}
    for year, kind in random_game().asked:
        asked.setdefault(year, set()).add(kind)
    for year, kinds_asked in asked.items():                   # each Year runs its own steps
        assert kinds_asked <= YEAR_ACTIONS[year], (year, kinds_asked - YEAR_ACTIONS[year])
    assert {"auction", "play", "sail"} <= set(asked)
    years = [(e["cycle"], e["year"]) for e in random_game().game.events if e["type"] == "YearBegan"]
    assert len(years) >= 8
    for (c0, y0), (c1, y1) in itertools.pairwise(years):
        i = YEARS.index(y0)
        assert y1 == YEARS[(i + 1) % 4] and c1 == c0 + (i == 3), (c0, y0, c1, y1)


GOODS_STEP_OF = {"PlayerOrderUpdated": 0, "CathedralsRefreshed": 1, "CitizenEmployed": 2, "IndigenousKidnapped": 2,
                 "ColonyStaysVacant": 2, "ColonyDiedOff": 3, "GoodsDrawn": 4, "ChestsPlaced": 4,
                 "SlaveAttrition": 5, "EarningsPaid": 6}


def check_GDS_1():
    assert [f.__name__ for f in YEAR_STEPS[0]] == ["update_player_order", "refresh_cathedrals",
                                                   "labour_acquisition", "die_off", "place_chests",
                                                   "slave_attrition", "pay_earnings"]
    years, cur = [], None
    for e in random_game().game.events:
        if e["type"] == "YearBegan":
            cur = [] if e["year"] == "goods" else None
            if cur is not None:
                years.append(cur)
        elif cur is not None and e["type"] in GOODS_STEP_OF:
            cur.append(GOODS_STEP_OF[e["type"]])
    assert len(years) >= 2
    for steps in years:
        assert steps == sorted(steps), steps                      # the seed's order
        assert steps[0] == 0 and steps[-1] == 6 and 4 in steps    # order first, earnings last, goods drawn


# ---- LAB: labour in the Goods Year ----------------------------------------------------------------

ORIZABA, VERACRUZ, MEXICA = "nueva_espana.orizaba", "nueva_espana.veracruz", "nueva_espana.mexica"
MERIDA, LACANDON, MANI = "yucatan.merida", "yucatan.lacandon", "yucatan.mani"


def at_labour(colonies, sites=None, rebels=None, money=(5, 5, 5)):
    return game({"year": "goods", "step": "labour_acquisition", "order": [0, 1, 2],
                 "players": [{"money": m} for m in money], "colonies": colonies,
                 "sites": sites or {}, "rebels": rebels or {}})


def labour(colony, source, site, seat=0):
    return {"seat": seat, "type": "labour", "colony": colony, "source": source, "site": site}


def labour_options(g):
    """Seat 0's labour options now, [] when no labour decision is pending for it."""
    if g.state.over or api.acting(g.state) != (0,) or api.decision(g.state)["decision"] != "labour":
        return []
    return [o for o in options(g.state, 0) if o["type"] == "labour"]


def vacant(owner=0):
    return {"owner": owner, "labour": None}


def check_LAB_1():
    # employing: a Citizen of a Cathedral for $1, paid to the Pool
    assert RS.employ_cost == 1
    g = at_labour({ORIZABA: vacant()}, sites={VERACRUZ: 2, MEXICA: 1}, money=(3, 3, 3))
    before = g.state
    ev = g.act(labour(ORIZABA, "employ", VERACRUZ))
    (e,) = of(ev, "CitizenEmployed")
    assert e["paid"] == 1
    assert before.money[0] - 1 + sum(x["amount"] for x in of(ev, "EarningsPaid") if x["seat"] == 0) \
        == g.state.money[0]
    assert g.state.burned == before.burned + 1                           # the Pool, not a player
    assert g.state.money[1] - before.money[1] == sum(x["amount"] for x in of(ev, "EarningsPaid") if x["seat"] == 1)
    assert g.state.col_labour[g.state.rs.col_index[ORIZABA]] == "citizen"
    # kidnapping: an Indigenous of a Tribal Site of the same land zone, who becomes a Slave
    g = at_labour({ORIZABA: vacant()}, sites={VERACRUZ: 2, MEXICA: 1}, money=(3, 3, 3))
    ev = g.act(labour(ORIZABA, "kidnap", MEXICA))
    assert of(ev, "IndigenousKidnapped")
    c = g.state.rs.col_index[ORIZABA]
    assert g.state.col_labour[c] in ("slave", None)                      # GDS-6 may kill or free it at once
    assert g.state.site_count[g.state.site_ids.index(MEXICA)] == 0


def check_LAB_3():
    both = {(o["source"], o["site"]) for o in options(
        at_labour({ORIZABA: vacant()}, sites={VERACRUZ: 2, MEXICA: 1}).state, 0)}
    assert both == {("employ", VERACRUZ), ("kidnap", MEXICA)}             # the owner chooses
    for sites, money in (({VERACRUZ: 0, MEXICA: 1}, (5, 5, 5)), ({VERACRUZ: 2, MEXICA: 1}, (0, 5, 5))):
        g = at_labour({ORIZABA: vacant()}, sites=sites, money=money)      # no Citizen, or no $1
        assert [(o["source"], o["site"]) for o in options(g.state, 0)] == [("kidnap", MEXICA)]
        refused(g.state, labour(ORIZABA, "employ", VERACRUZ))
    g = at_labour({ORIZABA: vacant()}, sites={VERACRUZ: 2, MEXICA: 1})
    assert {o["source"] for o in options(g.state, 0)} <= {"employ", "kidnap"}   # never "stay vacant"


def check_LAB_4():
    g = at_labour({ORIZABA: vacant()}, sites={VERACRUZ: 2, MEXICA: 1}, rebels={"nueva_espana": 1})
    assert {o["source"] for o in options(g.state, 0)} == {"employ"}
    refused(g.state, labour(ORIZABA, "kidnap", MEXICA))
    g = at_labour({ORIZABA: vacant()}, sites={VERACRUZ: 0, MEXICA: 1}, rebels={"nueva_espana": 1})
    assert not any(o.get("source") == "kidnap" for o in labour_options(g))  # the colony stays vacant
    assert g.state.site_count[g.state.site_ids.index(MEXICA)] == 1


def check_LAB_5():
    # Yucatán: the wilderness Tribal Site of the Lacandón and the Visita of Maní
    g = at_labour({MERIDA: vacant()}, sites={LACANDON: 2, MANI: 1})
    assert {(o["source"], o["site"]) for o in options(g.state, 0)} == {("kidnap", MANI)}
    refused(g.state, labour(MERIDA, "kidnap", LACANDON))
    g = at_labour({MERIDA: vacant()}, sites={LACANDON: 2, MANI: 0})
    assert labour_options(g) == []                                       # the colony stays vacant
    assert g.state.site_count[g.state.site_ids.index(LACANDON)] == 2


# ---- AUC: the Auction Year ------------------------------------------------------------------------

MARKET = [c for c in RS.market if c.startswith("galeon-")][:1] + [c for c in RS.market if c.startswith("titulo")][:1]


def auction(money=(5, 5, 5), hands=None):
    players = [{"money": m} for m in money]
    for s, h in (hands or {}).items():
        players[s]["hand"] = h
    return game({"year": "auction", "step": "auctions", "order": [0, 1, 2], "players": players,
                 "decks": {"market": list(MARKET)}})


def run_auction(g, bids, buried=False):
    ev = g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": buried})
    for s in sorted(bids):
        ev += g.act({"seat": s, "type": "bid", "amount": bids[s]})
    (won,) = of(ev, "AuctionWon")
    return won, ev


def check_AUC_2():
    g = auction()
    won, _ = run_auction(g, {0: 1, 1: 0, 2: 0})
    assert won["card"] == MARKET[0]                                      # the face-up top
    g = auction()
    won, _ = run_auction(g, {0: 1, 1: 0, 2: 0}, buried=True)
    assert won["card"] == MARKET[1]                                      # the unseen card one below
    assert g.state.market[0] == MARKET[0]


def check_AUC_3():
    g = auction(money=(0, 4, 0))
    g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": False})
    assert sorted(api.acting(g.state)) == [0, 1]                         # the initiator ($0) and seat 1
    assert [o["amount"] for o in options(g.state, 0) if o["type"] == "bid"] == [0]
    assert sorted(o["amount"] for o in options(g.state, 1) if o["type"] == "bid") == [0, 1, 2, 3, 4]
    g.act({"seat": 1, "type": "bid", "amount": 2})
    assert not of(g.events, "AuctionWon")                                # secret until every bid is in
    ev = g.act({"seat": 0, "type": "bid", "amount": 0})
    assert of(ev, "AuctionWon")


def check_AUC_4():
    won, _ = run_auction(auction(), {0: 2, 1: 2, 2: 1})
    assert won["winner"] == 0                                            # the initiator wins ties
    won, _ = run_auction(auction(), {0: 2, 1: 3, 2: 1})
    assert won["winner"] == 1                                            # the highest bid wins
    won, _ = run_auction(auction(), {0: 0, 1: 0, 2: 0})
    assert won["winner"] == 0


def check_AUC_5():
    g = auction()
    burned = g.state.burned
    won, _ = run_auction(g, {0: 3, 1: 1, 2: 0})
    assert won["winner"] == 0 and g.state.money[:3] == [2, 5, 5] and g.state.burned == burned + 3  # to the Pool
    g = auction()
    burned = g.state.burned
    won, _ = run_auction(g, {0: 1, 1: 4, 2: 0})
    assert won["winner"] == 1 and g.state.money[:3] == [9, 1, 5] and g.state.burned == burned   # to the initiator


def check_AUC_7():
    full = [c for c in RS.market if c not in MARKET][:RS.hand_limit]
    g = auction(hands={1: full})
    won, _ = run_auction(g, {0: 0, 1: 3, 2: 0})
    assert won["winner"] == 1 and len(g.state.hands[1]) == RS.hand_limit + 1
    while g.state.year == 1:                                             # the rest of the Auction Year
        (s,) = api.acting(g.state)
        assert "discard" not in kinds(g.state, s) and "sell" not in kinds(g.state, s)
        g.act({"seat": s, "type": "pass"})
    assert len(g.state.hands[1]) == RS.hand_limit + 1                    # kept over the limit until later


# ---- HND: the hand in the Play Year --------------------------------------------------------------

GALEONS = [c for c in RS.market if c.startswith("galeon-")]
HAVEN = RS.haven[0]


def play_year(players, step="play_turns"):
    return game({"year": "play", "step": step, "order": [0, 1, 2], "players": players})


def check_HND_2():
    over = GALEONS[:RS.hand_limit + 1]
    g = play_year([{"hand": over, "money": 0}, {}, {}])
    assert "end_turn" not in kinds(g.state, 0)
    refused(g.state, {"seat": 0, "type": "end_turn"})
    g.act({"seat": 0, "type": "discard", "card": over[0]})
    g.act({"seat": 0, "type": "end_turn"})                               # within the limit: the turn ends
    assert api.acting(g.state) == (1,)
    # the end of the Play Year: a player over the limit must sell or discard
    g = play_year([{"hand": over, "money": 0}, {}, {}], step="hand_limit_at_year_end")
    assert api.acting(g.state) == (0,) and kinds(g.state, 0) == {"sell", "discard"}
    g.act({"seat": 0, "type": "sell", "card": over[0]})
    assert g.state.year != 2 and len(g.state.hands[0]) == RS.hand_limit


def check_HND_3():
    assert RS.sell_price == 1
    g = play_year([{"hand": [GALEONS[0], HAVEN], "money": 2}, {"hand": [GALEONS[1]], "money": 2}, {}])
    minted = g.state.minted
    ev = g.act({"seat": 0, "type": "sell", "card": GALEONS[0]})
    assert of(ev, "CardSold")[0]["price"] == 1
    assert g.state.money[0] == 3 and g.state.minted == minted + 1      # $1 from the Pool
    refused(g.state, {"seat": 0, "type": "sell", "card": HAVEN})       # a Market card only
    refused(g.state, {"seat": 1, "type": "sell", "card": GALEONS[1]})  # in one's own play turn only


def check_HND_4():
    g = play_year([{"hand": [HAVEN], "money": 2}, {}, {}])
    haven = list(g.state.haven)
    g.act({"seat": 0, "type": "discard", "card": HAVEN})
    assert HAVEN in g.state.haven and HAVEN not in g.state.market_discard
    assert sorted(g.state.haven) == sorted(haven + [HAVEN])


# ---- BAT: land battles ----------------------------------------------------------------------------

TF = "tierra_firme"
SANTA_MARTA, ZENU = "tierra_firme.santa_marta", "tierra_firme.zenu"
CATHEDRAL = "tierra_firme.cartagena_cathedral"


def battle(ships=2, cargo=(), colony=None, fleets=None, sites=None, legality="SMUGGLER"):
    players = [{"money": 5, "fleet": {"zone": TF, "ships": ships, "cargo": list(cargo), "legality": legality}},
               {"money": 5}, {"money": 5}]
    for s, n in (fleets or {}).items():
        players[s]["fleet"] = {"zone": TF, "ships": n, "cargo": []}
    return game({"year": "sail", "step": "voyages", "order": [0, 1, 2], "players": players,
                 "colonies": {SANTA_MARTA: colony} if colony else {}, "sites": {CATHEDRAL: 0, **(sites or {})}})


def attack(g, target):
    return g.act({"seat": 0, "type": "attack", "target": target})


def resolved(ev):
    (r,) = of(ev, "BattleResolved")
    return r


def check_BAT_1():
    r = resolved(attack(battle(ships=3, colony={"owner": 1, "labour": "citizen", "fort": True}), SANTA_MARTA))
    assert (r["attacker_strength"], r["target_strength"]) == (3, 3)     # Galleons 1 each; colony + Citizen + fort
    r = resolved(attack(battle(ships=2, cargo=["citizen"] * 4, colony={"owner": 1, "labour": "citizen"}),
                        SANTA_MARTA))
    assert r["attacker_strength"] == 2                                   # transported Citizens: 0
    r = resolved(attack(battle(ships=1, colony={"owner": 1, "labour": None}), SANTA_MARTA))
    assert r["target_strength"] == 1                                     # a vacant colony: itself


def check_BAT_3():
    g = battle(ships=2, colony={"owner": 1, "labour": "citizen"}, fleets={2: 1})
    ev = attack(g, SANTA_MARTA)
    assert of(ev, "BattleDeclared")[0]["supporters"] == [2]              # the other player there
    assert api.acting(g.state) == (2,)
    sides = sorted(o["side"] for o in options(g.state, 2) if o["type"] == "support")
    assert sides == ["attacker", "target"]                               # never neutral
    refused(g.state, {"seat": 2, "type": "support", "side": "neutral"})
    ev = g.act({"seat": 2, "type": "support", "side": "attacker"})
    r = resolved(ev)
    assert (r["attacker_strength"], r["target_strength"]) == (3, 2)      # the supporter's Galleon added
    assert {x["seat"]: x["side"] for x in r["support"]} == {2: "attacker"}


def check_BAT_4():
    g = battle(ships=2, colony={"owner": 1, "labour": "citizen", "chests": 1})
    r = resolved(attack(g, SANTA_MARTA))
    assert (r["attacker_strength"], r["target_strength"], r["winner"]) == (2, 2, "target")
    assert g.state.col_labour[g.state.rs.col_index[SANTA_MARTA]] == "citizen"          # not sacked
    r = resolved(attack(battle(ships=3, colony={"owner": 1, "labour": "citizen"}), SANTA_MARTA))
    assert r["winner"] == "attacker"


# ---- LOAD: loading meeples ------------------------------------------------------------------------

def sail_in(colonies, sites, ships=2):
    return game({"year": "sail", "step": "voyages", "order": [0, 1, 2],
                 "players": [{"money": 5, "fleet": {"zone": "caribe_central", "ships": ships, "cargo": [],
                                                    "legality": "SMUGGLER"}}, {}, {}],
                 "colonies": colonies, "sites": sites})


def check_LOAD_1():
    g = sail_in({SANTA_MARTA: vacant(), "venezuela.caracas": vacant()}, {CATHEDRAL: 1, ZENU: 1}, ships=3)
    ev = g.act({"seat": 0, "type": "move", "to": TF})
    assert of(ev, "CitizensEmigrated")[0]["boarded"] == {CATHEDRAL: 1}   # automatic, no decision
    assert g.state.cargo[0] == ["citizen"] and api.acting(g.state) == (0,)
    assert "enslave" not in kinds(g.state, 0)                            # not before a won battle
    refused(g.state, {"seat": 0, "type": "enslave", "count": 1})
    assert resolved(attack(g, ZENU))["winner"] == "attacker"
    assert [o["count"] for o in options(g.state, 0) if o["type"] == "enslave"] == [1]
    g.act({"seat": 0, "type": "enslave", "count": 1})
    assert sorted(g.state.cargo[0]) == ["citizen", "indigenous"]


def check_LOAD_2():
    worked = {SANTA_MARTA: {"owner": 0, "labour": "citizen"}, "venezuela.caracas": vacant(1)}
    g = sail_in(worked, {CATHEDRAL: 2, ZENU: 1}, ships=3)
    ev = g.act({"seat": 0, "type": "move", "to": TF})
    assert not of(ev, "CitizensEmigrated") and g.state.cargo[0] == []    # no vacant colony of one's own
    assert resolved(attack(g, ZENU))["winner"] == "attacker"
    assert "enslave" not in kinds(g.state, 0)
    refused(g.state, {"seat": 0, "type": "enslave", "count": 1})


# ---- TRS: Treasure by the Flagship's legality -----------------------------------------------------

OWN, OTHER, CROWN_COL = "venezuela.caracas", "venezuela.curacao", "venezuela.margarita"


def treasure(legality, ships=3):
    return game({"year": "sail", "step": "voyages", "order": [0, 1, 2],
                 "players": [{"money": 10, "fleet": {"zone": "venezuela", "ships": ships, "legality": legality,
                                                     "cargo": []}}, {"money": 10}, {"money": 10}],
                 "colonies": {OWN: {"owner": 0, "labour": "citizen", "chests": 2},
                              OTHER: {"owner": 1, "labour": "citizen", "chests": 2},
                              CROWN_COL: {"owner": "crown", "labour": "citizen", "chests": 2}},
                 "sites": {"venezuela.caracas_cathedral": 0}})


def loadable(st):
    out: dict[str, int] = {}
    for o in options(st, 0):
        if o["type"] == "load_chests":
            out[o["colony"]] = max(out.get(o["colony"], 0), o["count"])
    return out


def load(g, colony, count):
    (e,) = of(g.act({"seat": 0, "type": "load_chests", "colony": colony, "count": count}), "ChestsLoaded")
    return e


def scored(legality, chests):
    """(Prestige, money) of `chests` Chests unloaded at once in Europe, under the default ruleset."""
    g = game({"year": "sail", "step": "voyages", "order": [0, 1, 2],
              "players": [{"money": 0, "prestige": 0,
                           "fleet": {"zone": "atlantico", "ships": 2, "legality": legality,
                                     "cargo": ["chest"] * chests}}, {}, {}]})
    (e,) = of(g.act({"seat": 0, "type": "move", "to": "europe"}), "TreasureScored")
    assert e["chests"] == chests
    return e["prestige"], e["money"]


LEGALITIES = ("PLUNDER", "SMUGGLER", "CONQUISTADOR", "PRIVATEER")


def check_TRS_1():
    # loading: each legality its own way (the seed's pairs: sack, bribe, legal export, crown claims)
    before = {leg: loadable(treasure(leg).state) for leg in LEGALITIES}
    assert OTHER in before["SMUGGLER"] and OTHER not in before["CONQUISTADOR"]
    assert OTHER not in before["PRIVATEER"] and OTHER not in before["PLUNDER"]
    assert CROWN_COL in before["CONQUISTADOR"]
    g = treasure("SMUGGLER")
    e = load(g, OTHER, 1)
    assert e["paid"] > 0 and e["paid_to"] == 1                            # a bribe, to the owner
    g = treasure("CONQUISTADOR")
    assert load(g, CROWN_COL, 2)["paid"] == 0                              # legal export
    assert resolved(g.act({"seat": 0, "type": "attack", "target": OTHER}))["winner"] == "attacker"
    assert OTHER not in loadable(g.state)                                  # never another player's
    g = treasure("PRIVATEER")
    assert resolved(g.act({"seat": 0, "type": "attack", "target": OTHER}))["winner"] == "attacker"
    assert OTHER in loadable(g.state)                                      # claims after a won battle
    # scoring: for 1..4 Chests unloaded at once, no two legalities give the same (Prestige, money)
    for k in (1, 2, 3, 4):
        table = {leg: scored(leg, k) for leg in LEGALITIES}
        assert (0, 0) not in table.values(), (k, table)
        assert len(set(table.values())) == 4, (k, table)


def check_TRS_2():
    g = treasure("PLUNDER")
    assert loadable(g.state) == {}                                         # not even its own colony's
    refused(g.state, {"seat": 0, "type": "load_chests", "colony": OWN, "count": 1}, "legality_forbids")
    assert resolved(g.act({"seat": 0, "type": "attack", "target": OTHER}))["winner"] == "attacker"
    assert loadable(g.state) == {OTHER: 2}                                 # only the sacked colony
    assert load(g, OTHER, 2)["paid"] == 0


# ---- the list ---------------------------------------------------------------------------------------

SEED_CLAUSES = {
    "CYC-1": ("The game cycles Goods (D1), Auction (D2), Play (D3), and Sail (D4).", check_CYC_1),
    "GDS-1": ("In the Goods Year you update Player Order, refresh Cathedrals, perform labor acquisition, "
              "resolve colony dieoff, place Chests, apply slave attrition, and pay earnings.", check_GDS_1),
    "LAB-1": ("A vacant Colony acquires Labor by kidnapping an Indigenous from a Tribal Site or Visita in the "
              "same land zone or by employing a Citizen from a Cathedral for $1.", check_LAB_1),
    "LAB-3": ("Kidnapping is mandatory only if no other source exists.", check_LAB_3),
    "LAB-4": ("Kidnapping is not allowed in rebellious land zones.", check_LAB_4),
    "LAB-5": ("Kidnapping cannot take place from certain wilderness Tribal Sites.", check_LAB_5),
    "AUC-2": ("If you announce buried treasure the auctioned card is the unseen card one below the top; "
              "otherwise you auction the top faceup card.", check_AUC_2),
    "AUC-3": ("The initiator plus every player with at least $1 must secretly place a bid (including zero) "
              "and reveal simultaneously.", check_AUC_3),
    "AUC-4": ("The high bidder wins (initiator wins ties).", check_AUC_4),
    "AUC-5": ("Initiator pays Pool if they win their own auction; if someone else wins an auction you "
              "initiated they pay you.", check_AUC_5),
    "AUC-7": ("You may exceed your Hand Limit during the Auction Year (it's enforced later).", check_AUC_7),
    "HND-2": ("The Hand Limit is enforced at the end of your play turn and again at the end of the Play "
              "Year: sell or discard down to your limit.", check_HND_2),
    "HND-3": ("Market cards can be sold for $1 during your play turn.", check_HND_3),
    "HND-4": ("Haven cards are shuffled into the Haven deck if discarded.", check_HND_4),
    "BAT-1": ("Rebels, Colonies, Citizens, and Galleons = 1 each; a fort gives +1 to a targeted Colony; "
              "transported Citizens are Strength 0.", check_BAT_1),
    "BAT-3": ("Other players with tokens in the land zone play Battle Cards simultaneously to choose "
              "support (neutral is not allowed).", check_BAT_3),
    "BAT-4": ("The higher Strength wins (ties favor the target).", check_BAT_4),
    "LOAD-1": ("A Galleon can load a Meeple by enslaving natives via a land battle or by peacefully "
               "emigrating Citizens from Cathedrals (emigration is automatic).", check_LOAD_1),
    "LOAD-2": ("You cannot load Meeples unless a vacant Colony exists.", check_LOAD_2),
    "TRS-1": ("Treasure loading methods depend on your Flagship's Legality ... and determines how Treasure "
              "is scored when unloaded in Europe.", check_TRS_1),
    "TRS-2": ("PLUNDER must sack.", check_TRS_2),
}


def seed_ids_of_rules_md(text: str) -> list[str]:
    """The rule IDs whose entry in RULES.md is marked [SEED] (on its first line)."""
    return [m.group(1) for m in re.finditer(r"(?m)^- ([A-Z]+-\d+)\b[^\n]*\[SEED", text)]


def test_the_list_is_every_SEED_rule_of_RULES_md():
    if not RULES_MD.exists():
        pytest.skip(f"{RULES_MD} not found (set PAXH_RULES_MD)")
    ids = seed_ids_of_rules_md(RULES_MD.read_text(encoding="utf-8"))
    assert len(ids) >= 20
    assert sorted(ids) == sorted(SEED_CLAUSES), (set(ids) ^ set(SEED_CLAUSES))
    assert all(rule in api.RULES for rule in SEED_CLAUSES)


def test_the_parser_finds_a_new_SEED_rule():
    text = "- AUC-4 [SEED p7] The highest bid wins.\n- AUC-6 [REF] The won card.\n- TRS-2 PLUNDER [SEED]: sack\n"
    assert seed_ids_of_rules_md(text) == ["AUC-4", "TRS-2"]


def test_the_default_ruleset_is_the_reference():
    assert DEFAULT.ruleset == "reference" and not DEFAULT.params


@pytest.mark.parametrize("rule", sorted(SEED_CLAUSES))
def test_SEED_clause_holds_in_the_default_ruleset(rule):
    words, check = SEED_CLAUSES[rule]
    assert words
    check()
