"""determinize given what the viewer knows (HID-2, PRJ-45) when the other hands hold more
unknown cards than the decks have hidden places: a scenario deals 9 Market cards to each of 5
hands, and the viewer's log (empty) names none of the others'. Every sample deals each hidden
hand its count from the cards the viewer cannot place. Written to kill a survivor of
scripts/mutation.py's full run (fast_determinizer._KnownDeal's stream length)."""

from __future__ import annotations

from pax_hispanica import api
from pax_hispanica.rulesets import load_ruleset


def test_HID_2_samples_deal_every_unknown_hand_card_when_they_outnumber_the_decks_hidden_places():
    market = sorted(load_ruleset().market)
    hands = [market[i * 9:(i + 1) * 9] for i in range(5)]
    st = api.from_scenario({"config": {"players": 5}, "seed": 1,
                            "position": {"players": [{"hand": h} for h in hands]}}).state
    known = api.known_cards(api.view(st, 0, include_state=False), [])
    assert [(len(k["known"]), k["unknown"]) for k in known["hands"]] == [(9, 0)] + [(0, 9)] * 4
    unsure = set(known["decks"]["market"]["unsure"]) | set(known["decks"]["haven"]["unsure"])
    det = api.determinizer(api.view(st, 0, include_state=True), known)
    for seed in (7, 2 ** 40 + 3):
        sample = det(seed)
        assert sorted(sample.hands[0]) == sorted(hands[0])
        dealt = [c for s in range(1, 5) for c in sample.hands[s]]
        assert [len(sample.hands[s]) for s in range(1, 5)] == [9] * 4
        assert len(set(dealt)) == 36 and set(dealt) <= unsure
        assert sorted(dealt + sample.market + sample.haven) == sorted(unsure | set(st.market) | set(st.haven))
