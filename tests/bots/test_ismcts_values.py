"""ISMCTS's cut-off scoring read from api.score_facts (tuples of the public facts, nothing
built) gives the very floats the summary path gives (scores_from_public + future times
future_prestige), over positions of random games of every player count and a variant."""
from __future__ import annotations

import random

from pax_hispanica import api
from pax_hispanica.bots.features import chest_prestige, future_prestige, legality_worth, scores_from_public
from pax_hispanica.bots.ismcts import ISMCTSAgent


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
