"""CYC-3 on the game page: each player's "score if it ended now" (issue 15, a race players can see).

The engine's own count of that score is PRJ-56's standing (`engine.end.goal_standing` with
`prestige_goal = "standing"`), so a game under that variant is the oracle: at every step of a
played game the page's figure, worked out from the public view alone, is the engine's. The
variant also sets `money_per_prestige`, so a page that read the reference's $6 would be wrong.
"""

from __future__ import annotations

import random

from pax_hispanica import api
from pax_hispanica.engine.end import goal_standing
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.present.panels import money_per_prestige, score_now

PARAMS = {"prestige_goal": "standing", "money_per_prestige": 4, "prestige_to_win": 200}


def _played_views(seed: int, players: int):
    g = api.Game.new(api.Config(players=players, params=PARAMS), seed)
    rng = random.Random(seed)
    while not api.is_over(g.state):
        yield g.state, api.view(g.state, None, include_state=False)
        seat = rng.choice(api.acting(g.state))
        g.act(rng.choice(api.expand(api.legal_actions(g.state, seat))))


def test_CYC_3_score_now_is_the_engines_count_at_every_step():
    tr = Tr("en")
    checked = 0
    for seed, players in ((5, 3), (8, 4)):
        for state, view in _played_views(seed, players):
            per = money_per_prestige(view)
            assert per == 4                                   # the game's variant, not the reference's 6
            expected = goal_standing(state)
            for s, p in enumerate(view["players"]):
                text = score_now(p, per, tr)
                assert text is not None and text.split(" ", 1)[0] == str(expected[s]), (seed, s, text)
                checked += 1
    assert checked > 500


def test_CYC_3_score_now_names_its_parts_in_both_languages():
    p = {"prestige": 3, "money": 9, "colony_prestige": 2}
    assert score_now(p, 4, Tr("en")) == "7 (Prestige 3 + money 2 + colonies 2)"
    assert score_now(p, 4, Tr("ca")) == "7 (Prestigi 3 + diners 2 + colònies 2)"


def test_CYC_3_no_score_now_without_the_games_numbers():
    assert money_per_prestige({"players": []}) is None                  # no ruleset named
    assert money_per_prestige({"ruleset_version": "reference-7", "ruleset": "no-such-ruleset"}) is None
    assert score_now({"prestige": 3, "money": 9}, None, Tr("en")) is None
    assert score_now({"prestige": "3", "money": 9}, 6, Tr("en")) is None
