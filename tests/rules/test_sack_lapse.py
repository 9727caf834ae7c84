"""The sack's lapse (BAT-5, TRS-2, TRS-4; issue 36): winning a battle against a colony lets a
PLUNDER or PRIVATEER fleet load that colony's Chests free while it stays; once it sails away
the right is spent. A fleet that sacked, left Chests behind and comes back (on the same voyage
or on the next one) is offered no free load.

Every position here leaves Chests on the sacked colony, so a lost lapse shows as a load
offered. The PLUNDER positions name `plunder_loading = "sack"` (TRS-2 as written) and give
seat 0 no colony in the land zone, so they hold whichever value the default ruleset has."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from support import options, scenario

NATIONS = ["english", "french", "courland"]          # no Spanish player: the Crown owns its colonies
ZONE, SEA = "venezuela", "caribe_central"
TARGET = "venezuela.curacao"                          # seat 1's colony, worked by a Citizen
SACK = {"plunder_loading": "sack"}                    # TRS-2 as written


def sacking_game(legality, chests=3):
    """Seat 0's voyage (3 ships, first in Player Order) begins in Venezuela, where seat 1's
    Curaçao (colony + Citizen: Strength 2) holds `chests` Chests; seat 0 owns nothing there
    and Margarita (the Crown's) holds none, so Curaçao's are the only Chests in reach."""
    pos = {"cycle": 1, "year": "sail", "step": "voyages", "order": [0, 1, 2],
           "players": [{"money": 5, "fleet": {"zone": ZONE, "ships": 3, "legality": legality, "cargo": []}},
                       {"money": 5}, {"money": 5}],
           "colonies": {"venezuela.caracas": {"owner": None},
                        TARGET: {"owner": 1, "labour": "citizen", "chests": chests},
                        "venezuela.margarita": {"owner": "crown", "labour": "citizen", "chests": 0}},
           "sites": {"venezuela.caracas_cathedral": 0}}
    return scenario(pos, players=3, nations=NATIONS, params=SACK if legality == "PLUNDER" else None)


def loadable(st, seat=0):
    """colony -> the most Chests `seat` is offered there now."""
    out: dict[str, int] = {}
    for o in options(st, seat):
        if o["type"] == "load_chests":
            out[o["colony"]] = max(out.get(o["colony"], 0), o["count"])
    return out


def refused(st, colony=TARGET, seat=0):
    before = st.fingerprint()
    with pytest.raises(api.IllegalAction) as e:
        api.apply(st, {"seat": seat, "type": "load_chests", "colony": colony, "count": 1})
    assert st.fingerprint() == before
    return e.value


def sack(g):
    ev = g.act({"seat": 0, "type": "attack", "target": TARGET})       # 3 ships against 2, no supporter
    assert [e["colony"] for e in ev if e["type"] == "ColonySacked"] == [TARGET]
    assert loadable(g.state) == {TARGET: 3}                           # the sack's free load
    return ev


def load(g, count):
    return next(e for e in g.act({"seat": 0, "type": "load_chests", "colony": TARGET, "count": count})
                if e["type"] == "ChestsLoaded")


def chests_on_target(g):
    return g.state.col_chests[g.state.rs.col_index[TARGET]]


LEGALITIES = ["PLUNDER", "PRIVATEER"]


@pytest.mark.parametrize("legality", LEGALITIES)
def test_TRS_2_TRS_4_BAT_5_a_fleet_that_sails_away_and_comes_back_on_the_same_voyage_loads_nothing_free(legality):
    g = sacking_game(legality)
    sack(g)
    ev = load(g, 1)                                                   # one Chest taken, two left behind
    assert (ev["paid"], ev["rule"]) == (0, "TRS-2" if legality == "PLUNDER" else "TRS-4")
    assert loadable(g.state) == {TARGET: 2}                           # still there: the right holds
    g.act({"seat": 0, "type": "move", "to": SEA})
    g.act({"seat": 0, "type": "move", "to": ZONE})                    # back in the sacked land zone
    assert g.state.fzone[0] == g.state.rs.zone_index[ZONE] and chests_on_target(g) == 2
    assert loadable(g.state) == {}                                    # the right lapsed on leaving
    err = refused(g.state)
    assert (err.code, err.rule) == ("legality_forbids", "TRS-1")
    assert api.decision(g.state)["sacked"] is None


@pytest.mark.parametrize("legality", LEGALITIES)
def test_TRS_2_TRS_4_BAT_5_a_sack_left_unloaded_lapses_too(legality):
    # nothing loaded before leaving: all three Chests stay, and none is free on return
    g = sacking_game(legality)
    sack(g)
    g.act({"seat": 0, "type": "move", "to": SEA})
    g.act({"seat": 0, "type": "move", "to": ZONE})
    assert chests_on_target(g) == 3
    assert loadable(g.state) == {}
    assert refused(g.state).code == "legality_forbids"


@pytest.mark.parametrize("legality", LEGALITIES)
def test_TRS_2_PRJ_16_coming_back_gives_no_second_battle_there_either(legality):
    # the way back to the Chests is not another battle on the same voyage (PRJ-16)
    g = sacking_game(legality)
    sack(g)
    g.act({"seat": 0, "type": "move", "to": SEA})
    g.act({"seat": 0, "type": "move", "to": ZONE})
    assert not [o for o in options(g.state, 0) if o["type"] == "attack"]


PASSIVE = ("pass", "end_turn", "end_voyage")


def passive(opts):
    """An action that changes little: pass, end the turn or the voyage, bid $0, employ."""
    for kind in PASSIVE:
        for o in opts:
            if o["type"] == kind:
                return o
    for o in opts:
        if o["type"] == "bid" and o.get("amount") == 0:
            return o
    for o in opts:
        if o["type"] == "labour" and o.get("source") == "employ":
            return o
    return opts[0]


@pytest.mark.parametrize("legality", LEGALITIES)
def test_TRS_2_TRS_4_BAT_5_the_next_voyage_from_the_sacked_zone_loads_nothing_free(legality):
    g = sacking_game(legality)
    sack(g)
    load(g, 1)
    g.act({"seat": 0, "type": "end_voyage"})                          # the fleet stays in Venezuela
    for _ in range(200):                                              # the rest of the cycle, passively
        if g.state.cycle == 2 and g.state.year == 3 and api.acting(g.state) == (0,) \
                and api.decision(g.state)["decision"] == "voyage":
            break
        seat = api.acting(g.state)[0]
        g.act(passive(options(g.state, seat)))
    else:
        raise AssertionError("seat 0's next voyage never began")
    st = g.state
    assert st.fzone[0] == st.rs.zone_index[ZONE]                      # the next voyage begins there
    assert st.col_owner[st.rs.col_index[TARGET]] == 1 and chests_on_target(g) >= 2   # Chests left behind
    assert loadable(st) == {}
    assert refused(st).code == "legality_forbids"
