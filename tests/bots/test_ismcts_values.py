"""ISMCTS's cut-off scoring read from api.score_facts (tuples of the public facts, nothing
built) gives the very floats the summary path gives (scores_from_public + future times
future_prestige), over positions of random games of every player count and a variant."""
from __future__ import annotations

import random

from pax_hispanica import api
from pax_hispanica.bots.features import chest_prestige, future_prestige, legality_worth, scores_from_public
from pax_hispanica.bots.ismcts import ISMCTSAgent
from support import random_game


def _states(n: int, seed: int, params: dict | None = None) -> list:
    st = api.new_game(api.Config(players=n, params=params or {}), seed)
    r = random.Random(seed)
    out = []
    while not api.is_over(st):
        seat = api.acting(st)[0]
        legal = api.legal_actions(st, seat)
        st = api.apply_trusted(st, api.nth_action(legal, r.randrange(api.count_actions(legal))))
        if r.random() < 0.1:
            out.append(st)
    return out


def test_score_facts_are_the_summarys_values():
    for st in _states(4, 2):
        cycle, seats = api.score_facts(st)
        summ = api.summary(st)
        assert cycle == summ["cycle"]
        assert seats == [(p["prestige"], p["money"], p["colony_prestige"], p["hand"], p["income"],
                          p["fleet"]["ships"], p["fleet"]["legality"], p["fleet"]["cargo"].count("chest"))
                         for p in summ["players"]]


def test_ismcts_fact_scores_equal_the_summary_path_exactly():
    checked = 0
    for n, seed, params in ((2, 1, None), (3, 5, None), (4, 7, None), (5, 9, None),
                            (4, 11, {"money_per_prestige": 4, "cycles": 6})):
        states = _states(n, seed, params)
        rs = states[0].rs
        for future in (1.0, 0.0, 0.37):
            bot = ISMCTSAgent(seed=1, iterations=1, future=future)
            bot._rs, bot._chest, bot._worth = rs, chest_prestige(rs), legality_worth(rs)
            for st in states:
                summ = api.summary(st)
                want = scores_from_public(summ, bot._chest, rs.money_per_prestige)
                if future:
                    want = [s + future * f for s, f in zip(want, future_prestige(summ, rs, bot._worth))]
                assert bot._fact_scores(*api.score_facts(st)) == want
                checked += 1
    assert checked > 100


# -- eval=worth: the cards in hand priced by what they bring, not counted ------------------------

def test_hand_facts_are_each_seats_hand():
    for st in _states(4, 3)[:20]:
        hands = api.hand_facts(st)
        assert isinstance(hands, tuple) and all(isinstance(h, tuple) for h in hands)
        assert [list(h) for h in hands] == [list(h) for h in st.hands]


def _worth(card: str, legality: str = "CONQUISTADOR", ships: int = 1, cycle: int = 1,
           params: dict | None = None) -> float:
    from pax_hispanica.bots.features import hand_card_worth
    from pax_hispanica.bots.heuristic import HeuristicAgent
    rs = api.load_ruleset("reference", params)
    view = {"ruleset": "reference", "ruleset_params": params}
    return hand_card_worth(HeuristicAgent(1), rs, view, card, legality, ships, cycle)


def test_a_cards_worth_in_hand_is_its_value_less_its_cost_in_prestige():
    rs = api.load_ruleset("reference")
    grandeza = rs.cards["grandeza-1"]
    prestige = sum(e.get("n", 1) for e in grandeza.effects if e["kind"] == "prestige")
    # a Prestige card brings its Prestige, less its cost to play in Prestige (CARD-1)
    assert _worth("grandeza-1") == max(0.0, prestige - grandeza.cost / rs.money_per_prestige)
    assert _worth("grandeza-1") > _worth("titulo_nobleza-1") > _worth("galeon-1") >= 0.0
    # never below nothing: a card worth less than its cost is simply not played
    assert all(_worth(c) >= 0.0 for c in rs.cards)
    # an income card brings less as the cycles run out
    assert _worth("encomienda-1", cycle=1) > _worth("encomienda-1", cycle=rs.cycles) >= 0.0
    # read at the game's own rate: money is worth more Prestige where a Prestige costs less
    assert _worth("grandeza-1", params={"money_per_prestige": 4}) < _worth("grandeza-1")


def test_worth_scores_replace_the_flat_hand_term_and_nothing_else():
    states = _states(4, 13)
    rs = states[0].rs
    bot = ISMCTSAgent(seed=1, iterations=1, eval="worth", hand=0.5)
    bot._rs, bot._chest, bot._worth = rs, chest_prestige(rs), legality_worth(rs)
    bot._ruleset_of_view = {"ruleset": "reference"}
    from pax_hispanica.bots.features import HAND_PRESTIGE
    differ = 0
    for st in states:
        cycle, seats = api.score_facts(st)
        flat = bot._fact_scores(cycle, seats)
        priced = bot._fact_scores(cycle, seats, hands=api.hand_facts(st))
        for seat, hand in enumerate(api.hand_facts(st)):
            legality, ships = seats[seat][6], seats[seat][5]
            want = sum(0.5 * _worth(c, legality, ships, cycle) for c in hand)
            assert abs(priced[seat] - (flat[seat] - HAND_PRESTIGE * len(hand) + want)) < 1e-9
            differ += priced[seat] != flat[seat]
    assert differ > 10


def test_eval_worth_plays_a_whole_game_and_refuses_a_bad_share():
    import pytest

    from pax_hispanica.sim.runner import make_specs, play_game
    spec = make_specs(3, 1, "ismcts:iterations=8:root=halving:eval=worth,heuristic,heuristic", 5, rotate=False)[0]
    got = play_game(spec)
    assert got["error"] is None and got["winner"] is not None
    assert play_game(spec)["ranking"] == got["ranking"]       # the same game again (PRJ-7)
    with pytest.raises(ValueError, match="hand is a share"):
        ISMCTSAgent(seed=1, eval="worth", hand=-1)


def test_final_soft_scores_a_finished_game_by_its_final_prestige_and_money():
    from pax_hispanica.bots.features import final_totals, softmax_values
    for n, seed in ((2, 3), (3, 4), (4, 5)):
        st = random_game(n, seed).state
        res = api.result(st)
        rs = st.rs
        win = ISMCTSAgent(seed=1, iterations=1)
        soft = ISMCTSAgent(seed=1, iterations=1, final="soft", temperature=0.5)
        for bot in (win, soft):
            bot._rs = rs
        assert win._values(st, n) == [1.0 if p == res["winner"] else 0.0 for p in range(n)]
        totals = [p + m / rs.money_per_prestige for p, m in zip(res["scores"], res["money"])]
        assert final_totals(res, rs.money_per_prestige) == totals
        got = soft._values(st, n)
        assert got == softmax_values(totals, 0.5) and abs(sum(got) - 1) < 1e-12
        # the more a seat's total, the more its value
        assert sorted(range(n), key=lambda p: got[p]) == sorted(range(n), key=lambda p: totals[p])


def test_final_is_win_or_soft():
    import pytest
    with pytest.raises(ValueError, match="final is"):
        ISMCTSAgent(seed=1, iterations=1, final="margin")
