"""What a won battle against a colony leaves in the voyage (BAT-5, TRS-2, TRS-4): the public
voyage decision names the sacked colony and counts the Chests taken from it, with no other field."""

from __future__ import annotations

from pax_hispanica import api
from support import options

from test_battle import SANTA_MARTA, attack, battle_game, col


def test_BAT_5_the_voyage_shows_the_sacked_colony_and_counts_the_chests_taken_from_it():
    g = battle_game(fleets={0: (3, [])}, colonies={SANTA_MARTA: col(1, "citizen", chests=2)},
                    legality="PRIVATEER")
    before = api.decision(g.state)
    assert before["decision"] == "voyage" and before["sacked"] is None and before["taken"] == 0
    attack(g, SANTA_MARTA)
    after = api.decision(g.state)
    assert set(after) == set(before)                # the battle adds no field to the voyage
    assert after["sacked"] == SANTA_MARTA and after["taken"] == 0
    assert after["battled"] == ["tierra_firme"]
    load = {"seat": 0, "type": "load_chests", "colony": SANTA_MARTA, "count": 1}
    assert load in options(g.state, 0)
    g.act(load)
    assert api.decision(g.state)["taken"] == 1
