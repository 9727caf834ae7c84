"""PRJ-81: which of a ruleset's numbers and options change a [SEED] sentence (house rules).

The default ruleset never changes what a seed sentence says (../shared/RULES.md: [SEED]);
balance moves only the numbers and open points the seeds leave to the design ([REF]). A
variant (PRJ-31) that does change a seed sentence is a **house rule**: allowed, public and
recorded like any variant, but named as a house rule wherever the game is shown (`paxh rules
--params`, the record, the simulator's report, every page of a web game), and never the
default (tests/rules/test_house_rules.py checks the reference).

`house_rules(rs)` lists the house rules of a built ruleset (its parameters, a version's and a
variant's applied). `CONDITIONS` says, for every parameter that can change a seed sentence,
which sentence and when; every other parameter of `paxh rules --params` was checked against
the seed text and is [REF] at every value (docs/rules.md, PRJ-81, says why for each).
Pure: it reads nothing but the ruleset.
"""

from __future__ import annotations

from typing import NamedTuple

from .ruleset import PLAYER_COUNTS, Ruleset
from .treasure import treasure_value
from .vocab import CONQUISTADOR, PLUNDER, PRIVATEER, SMUGGLER

__all__ = ["CHESTS", "CONDITIONS", "REF_ONLY", "SCORING", "SENTENCES", "HouseRule", "house_rules", "scoring_table"]


class HouseRule(NamedTuple):
    """One seed sentence a ruleset changes: the parameter(s) that change it, the rule ID of the
    sentence, the sentence (the English seed's words, ../shared/seeds/001_*.txt), and what the
    ruleset does instead."""
    param: str
    rule: str
    sentence: str
    change: str


# The seed's sentences a parameter can change, by rule ID (the English seed, page as cited).
SENTENCES = {
    "TRS-2": "A Flagship's Legality governs whether you must sack, bribe, legally export, or receive crown "
             "claims: PLUNDER must sack (SEED p18-19)",
    "TRS-1": "The Flagship's Legality determines how Treasure is scored when unloaded in Europe: each legality "
             "its own way (SEED p18-19)",
    "TRS-1/bribe": "A Flagship's Legality governs whether you must sack, bribe, legally export, or receive crown "
                   "claims: SMUGGLER bribes (SEED p18-19)",
    "LAB-1": "A vacant Colony acquires Labor by kidnapping an Indigenous or by employing a Citizen from a "
             "Cathedral for $1 (SEED p6, p11-12)",
    "HND-3": "Market cards can be sold for $1 during your play turn (SEED p7, p9)",
    "GDS-1/chests": "In the Goods Year you ... place Chests for the year's goods (SEED p6)",
    "GDS-1/attrition": "In the Goods Year you ... apply slave attrition (SEED p6)",
}

SCORING = ("conquistador_prestige", "privateer_prestige", "privateer_money", "smuggler_money", "plunder_money",
           "plunder_chests_per_prestige")
CHESTS = (1, 2, 3, 4)        # TRS-1 is checked for each number of Chests unloaded at once (4: a full 2-ship hold)
_LEGALITIES = (CONQUISTADOR, PRIVATEER, SMUGGLER, PLUNDER)

# Every parameter that can change a seed sentence -> (rule ID, key of SENTENCES, when it does).
CONDITIONS: dict[str, tuple[str, str, str]] = {
    "plunder_loading": ("TRS-2", "TRS-2", "any value but sack (PRJ-38's sack_or_own loads own colonies free)"),
    **{p: ("TRS-1", "TRS-1", "when two legalities score the same (Prestige, money) for 1 to 4 Chests "
                             "unloaded at once, or one scores nothing") for p in SCORING},
    "smuggler_bribe": ("TRS-1", "TRS-1/bribe", "0, at any player count (smuggler_bribe.<N> too): no bribe"),
    "employ_cost": ("LAB-1", "LAB-1", "any value but 1"),
    "sell_price": ("HND-3", "HND-3", "any value but 1"),
    "goods_per_year": ("GDS-1", "GDS-1/chests", "0: no goods, no Chest is ever placed"),
    "chest_cap": ("GDS-1", "GDS-1/chests", "0: no colony may hold a Chest"),
    "supply_chests": ("GDS-1", "GDS-1/chests", "0: no Chest to place"),
    **{p: ("GDS-1", "GDS-1/attrition", "when neither slave_death nor slave_revolt is a face of the die "
                                       "(1..die_sides): no roll ever kills or frees a Slave")
       for p in ("die_sides", "slave_death", "slave_revolt")},
}


# Every other parameter -> why no value of it changes a seed sentence: the seeds leave it to the
# design ([REF] in ../shared/RULES.md), so it is a number balance may move (docs/rules.md, PRJ-81).
REF_ONLY: dict[str, str] = {
    "cycles": "CYC-1 says the cycle repeats, not how often (CYC-2)",
    "prestige_to_win": "the seeds name no goal (CYC-2)",
    "money_per_prestige": "the seeds do not score money at the end (CYC-3)",
    "prestige_per_colony": "the seeds do not score colonies (CYC-3)",
    "crown_colony_prestige": "the King's colonies are PRJ-30's, not the seeds'",
    "prestige_goal": "the seeds name no goal (CYC-2, PRJ-56)",
    "goal_from_cycle": "the seeds name no goal (CYC-2, PRJ-57)",
    "start_money": "the seeds say nothing of setup (CYC-4)",
    "start_ships": "the seeds say nothing of setup (CYC-4)",
    "plunder_start_galleons": "the seeds say nothing of setup (CYC-4, PRJ-84); a PLUNDER fleet still loads only by sacking",
    "start_zone": "the seeds say nothing of setup (CYC-4)",
    "setup_rebels": "the seeds say nothing of setup (CYC-4, PRJ-80); LAB-4 still holds",
    "supply_citizens": "the seeds give no supply sizes",
    "supply_indigenous": "the seeds give no supply sizes",
    "colony_income": "GDS-1 pays earnings; their amount is GDS-7's, and cards pay too",
    "crown_colony_income": "the King's colonies are PRJ-30's, not the seeds'",
    "employ_range": "LAB-1 names no range; LAB-2 resolves the ambiguity either way",
    "auctions_per_player": "AUC-1's auction count is not the seeds' (each value keeps AUC-2..AUC-7)",
    "hand_limit": "HND-2 enforces a Hand Limit; its size is HND-1's",
    "fleet_moves": "the seeds give no voyage length (SAIL-1)",
    "max_ships": "the seeds give no fleet size",
    "ship_capacity": "the seeds give no hold size",
    "conquistador_spanish_fee": "legal export at any fee: TRS-4's price, not the seeds'",
    "privateer_crown_share": "a PRIVATEER receives crown claims (its commission to take from a beaten rival) "
                             "whatever share the Crown keeps: TRS-4's number",
    "kings_crown_share": "the royal fifth, the Crown's tax on legal export (PRJ-30), at any share",
}


def scoring_table(rs: Ruleset) -> dict[str, tuple[tuple[int, int], ...]]:
    """TRS-5: legality -> the (Prestige, money) of 1, 2, 3, 4 Chests unloaded at once in `rs`."""
    return {str(leg): tuple(treasure_value(rs, leg, k) for k in CHESTS) for leg in _LEGALITIES}


def _scoring(rs: Ruleset) -> list[HouseRule]:
    table = scoring_table(rs)
    params = ", ".join(SCORING)
    out = []
    for i, a in enumerate(_LEGALITIES):
        for b in _LEGALITIES[i + 1:]:
            same = [k for k, x, y in zip(CHESTS, table[a], table[b]) if x == y]
            if same:
                p, m = table[a][same[0] - 1]
                out.append(HouseRule(params, "TRS-1", SENTENCES["TRS-1"],
                                     f"{a} and {b} score {same[0]} Chest{'s' if same[0] > 1 else ''} alike "
                                     f"({p} Prestige, ${m})"))
    for leg in _LEGALITIES:
        nothing = [k for k, pm in zip(CHESTS, table[leg]) if pm == (0, 0)]
        if nothing and not any(leg in h.change.split() for h in out):
            out.append(HouseRule(params, "TRS-1", SENTENCES["TRS-1"],
                                 f"{leg} scores nothing for {nothing[0]} Chest{'s' if nothing[0] > 1 else ''}"))
    return out


def house_rules(rs: Ruleset) -> list[HouseRule]:
    """PRJ-81: the seed sentences `rs` changes (its version's numbers and its variant's), each
    once, in the order of CONDITIONS; [] for a ruleset that plays the seeds as written."""
    out: list[HouseRule] = []
    if rs.plunder_loading != "sack":
        out.append(HouseRule("plunder_loading", "TRS-2", SENTENCES["TRS-2"],
                             f"plunder_loading = {rs.plunder_loading}: a PLUNDER fleet also loads its own "
                             f"colonies' Chests without a sack (PRJ-38)"))
    out.extend(_scoring(rs))
    zero = [n for n in PLAYER_COUNTS if rs.smuggler_bribes[n] == 0]
    if zero:
        out.append(HouseRule("smuggler_bribe", "TRS-1", SENTENCES["TRS-1/bribe"],
                             f"a SMUGGLER loads another owner's Chests for $0 with "
                             f"{', '.join(map(str, zero))} players: no bribe"))
    if rs.employ_cost != 1:
        out.append(HouseRule("employ_cost", "LAB-1", SENTENCES["LAB-1"], f"employing costs ${rs.employ_cost}"))
    if rs.sell_price != 1:
        out.append(HouseRule("sell_price", "HND-3", SENTENCES["HND-3"], f"a Market card sells for ${rs.sell_price}"))
    for param, value in (("goods_per_year", rs.goods_per_year), ("chest_cap", rs.chest_cap),
                         ("supply_chests", rs.supply_chests)):
        if value == 0:
            out.append(HouseRule(param, "GDS-1", SENTENCES["GDS-1/chests"], f"{param} = 0: no Chest is ever placed"))
    if not any(1 <= face <= rs.die_sides for face in (rs.slave_death, rs.slave_revolt)):
        out.append(HouseRule("die_sides, slave_death, slave_revolt", "GDS-1", SENTENCES["GDS-1/attrition"],
                             "no roll of the die kills or frees a Slave"))
    return out
