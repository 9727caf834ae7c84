"""CARD-1: the RebelsRemoved event of a Milicia (remove_rebels) names the seat that played it,
the zone and how many Rebels left. Written to kill a survivor of scripts/mutation.py's full run
(effects._remove_rebels)."""

from __future__ import annotations

from pax_hispanica import api


def test_CARD_1_rebels_removed_by_a_card_name_the_seat_that_played_it():
    position = {"year": "play", "step": "play_turns", "order": [1, 0, 2],
                "players": [{}, {"money": 5, "hand": ["milicia-1"]}, {}], "rebels": {"tierra_firme": 1}}
    g = api.from_scenario({"config": {"players": 3}, "seed": 1, "position": position})
    assert api.acting(g.state) == (1,)
    events = g.act({"seat": 1, "type": "play", "card": "milicia-1", "target": "tierra_firme"})
    removed = [(e["seat"], e["zone"], e["count"]) for e in events if e["type"] == "RebelsRemoved"]
    assert removed == [(1, "tierra_firme", 1)]
