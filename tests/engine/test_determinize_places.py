"""HID-2 and PRJ-45: a sample fills a view's hidden places wherever they are (a run, or places
scattered between known cards, in a hand or the Market deck), refuses a view that hides more
cards than are unseen or names no state, in words, and keeps a view saved before seed_hash
(issue 36: the mutation score)."""

from __future__ import annotations

import pytest

from pax_hispanica import api
from pax_hispanica.engine.keys import seed_hash
from pax_hispanica.engine.sampling import SEARCH_SEED
from support import scenario

HIDDEN = "?"


def _start():
    g = api.Game.new(api.Config(players=3), seed=5)
    return g, api.information_state(g.state, 0)


def test_HID_2_hidden_places_scattered_between_known_cards_are_filled_and_the_known_cards_kept():
    g, d = _start()
    top = d["market"][0]
    assert d["market"][1:] == [HIDDEN] * (len(d["market"]) - 1)
    free = [c for c in sorted(set(g.state.rs.market)) if c != top and g.state.rs.market.count(c) == 1]
    m, x, y, z = free[:4]
    hidden = len(d["market"]) - 1 - 4 - 2          # 4 cards now known, 2 hidden places in the hand
    d["market"] = [top, HIDDEN, m] + [HIDDEN] * (hidden - 1)
    d["hands"][1] = [HIDDEN, x, HIDDEN, y, z]
    for seed in range(5):
        s = api.determinize(d, seed)
        assert s.market[0] == top and s.market[2] == m and len(s.market) == len(d["market"])
        assert s.hands[1][1::2] == [x, y] and s.hands[1][4] == z
        dealt = s.market + s.hands[1] + s.haven
        assert HIDDEN not in dealt
        assert sorted(s.market + s.hands[1]) == sorted(g.state.rs.market)


def test_HID_2_a_view_that_hides_more_cards_than_are_unseen_is_refused_in_words():
    _, d = _start()
    d["hands"][2] = [HIDDEN] * 3
    with pytest.raises(ValueError) as e:
        api.determinize(d, 1)
    assert str(e.value) == "the view hides more cards than are unseen"


def test_HID_2_a_view_without_its_state_is_refused_in_words():
    g, _ = _start()
    with pytest.raises(ValueError) as e:
        api.determinize(api.view(g.state, 0), 1)
    assert str(e.value) == ("determinize needs the masked state: a view made with include_state=True, "
                            "or api.information_state(state, seat)")


def test_HID_2_known_cards_for_another_table_are_refused_in_words():
    g, _ = _start()
    other = api.Game.new(api.Config(players=4), seed=5)
    known = api.known_cards(api.view(other.state, 0), api.redact(other.events, 0))
    with pytest.raises(ValueError) as e:
        api.determinizer(api.view(g.state, 0, include_state=True), known)
    assert str(e.value) == "known cards for another table: their seats are not the view's"


def test_PRJ_45_a_sample_of_a_view_saved_before_seed_hash_takes_the_search_seeds_hash():
    _, d = _start()
    del d["seed_hash"]
    assert api.determinize(d, 3).seed_hash == seed_hash(SEARCH_SEED)


def test_HID_1_score_facts_count_the_chests_aboard():
    g = scenario({"year": "sail", "step": "voyages", "order": [0, 1, 2],
                  "players": [{"fleet": {"zone": "tierra_firme", "ships": 2, "cargo": ["chest", "chest"]}}, {}, {}]})
    _, seats = api.score_facts(g.state)
    assert [s[7] for s in seats] == [2, 0, 0]


def test_PRJ_31_a_sample_of_a_variant_game_plays_by_the_variants_numbers():
    g = api.Game.new(api.Config(players=3, params={"hand_limit": 5}), 1)
    assert api.load_ruleset().hand_limit != 5
    assert api.determinize(api.information_state(g.state, 0), 1).rs.hand_limit == 5


@pytest.mark.parametrize("deck", ["market", "haven"])
def test_HID_2_a_deck_that_hides_more_cards_than_its_unseen_ones_is_refused_in_words(deck):
    # one more hidden place in `deck`, two fewer in the other: as many hidden places as unseen
    # cards in all, but more than `deck`'s own unseen cards
    _, d = _start()
    other = "haven" if deck == "market" else "market"
    d[deck] = d[deck] + [HIDDEN]
    d[other] = d[other][:-2]
    with pytest.raises(ValueError) as e:
        api.determinize(d, 1)
    assert str(e.value) == "the view hides more cards than are unseen"


def _four_hands():
    # four players, each of seats 1..3 holding two Market cards that seat 0 has never seen
    market = sorted(set(api.load_ruleset().market))
    hands = [[], market[0:2], market[2:4], market[4:6]]
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2, 3],
                  "players": [{"hand": h} for h in hands]}, players=4)
    view = api.view(g.state, 0, include_state=True)
    known = api.known_cards(api.view(g.state, 0), api.redact(g.events, 0))
    return g, view, known


def test_HID_2_known_cards_deal_each_unknown_hand_its_own_cards():
    g, view, known = _four_hands()
    assert [k["unknown"] for k in known["hands"][1:]] == [2, 2, 2]
    every = sorted(g.state.market + [c for h in g.state.hands for c in h])
    for seed in range(6):
        s = api.determinize(view, seed, known)
        assert [len(h) for h in s.hands] == [0, 2, 2, 2]
        assert sorted(s.market + [c for h in s.hands for c in h]) == every      # no card dealt twice


def test_HID_2_known_cards_that_disagree_with_the_view_are_refused_in_words():
    _, view, known = _four_hands()

    def refusal(change) -> str:
        k = {"hands": [dict(h) for h in known["hands"]],
             "decks": {d: dict(known["decks"][d]) for d in known["decks"]}}
        change(k)
        with pytest.raises(ValueError) as e:
            api.determinizer(view, k)
        return str(e.value)

    assert refusal(lambda k: k["hands"][2].update(count=3)) == \
        "known cards disagree with the view: seat 2's hand size"
    everything = sorted(set(api.load_ruleset().market))
    assert refusal(lambda k: k["decks"]["market"].update(cards=everything)) == \
        "known cards disagree with the view: the market deck's size"
    assert refusal(lambda k: k["decks"]["haven"].update(unsure=[])) == \
        "known cards disagree with the view: the unsure cards do not fill the hidden places"


def test_HID_2_a_view_whose_market_deck_is_used_up_deals_the_haven_decks_hidden_cards():
    """The Market deck drawn out (its cards in the discard, not yet reshuffled: decks.py
    refills only on a draw) while the Haven deck still hides cards below its top: a sample
    deals every hidden Haven card, the top kept, and leaves the Market deck empty."""
    g, d = _start()
    d["market_discard"] = d["market_discard"] + g.state.market
    d["market"] = []
    assert d["haven"][1:] == [HIDDEN] * (len(d["haven"]) - 1) and len(d["haven"]) == 10
    for seed in range(3):
        s = api.determinize(d, seed)
        assert s.market == [] and s.market_discard == g.state.market
        assert s.haven[0] == d["haven"][0] and HIDDEN not in s.haven
        assert sorted(s.haven) == sorted(g.state.haven)


def test_HID_2_known_cards_with_the_decks_shown_deal_only_the_unknown_hands():
    """Both decks face up in the view (nothing hidden in them) and nine cards in three unknown
    hands: only the hands are dealt, each its own size, from the unsure cards, once each."""
    market = sorted(set(api.load_ruleset().market))
    hands = [[], market[0:3], market[3:6], market[6:9]]
    g = scenario({"year": "play", "step": "play_turns", "order": [0, 1, 2, 3],
                  "players": [{"hand": h} for h in hands]}, players=4)
    view = api.view(g.state, 0, include_state=True)
    view["state"]["market"], view["state"]["haven"] = g.state.market[:], g.state.haven[:]
    known = api.known_cards(api.view(g.state, 0), api.redact(g.events, 0))
    assert [k["unknown"] for k in known["hands"]] == [0, 3, 3, 3]
    known["decks"]["market"].update(cards=[], unsure=market[0:9])
    known["decks"]["haven"].update(cards=[], unsure=[])
    for seed in range(3):
        s = api.determinize(view, seed, known)
        assert s.market == g.state.market and s.haven == g.state.haven
        assert [len(h) for h in s.hands] == [0, 3, 3, 3]
        assert sorted(c for h in s.hands for c in h) == market[0:9]
