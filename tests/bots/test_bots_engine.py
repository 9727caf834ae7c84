"""The bots on the real engine: only legal actions, in every year; ISMCTS
decides from its view alone; heuristic explanations name a rule of thumb."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.bots.base import action_key

YEARS = ("goods", "auction", "play", "sail")


def _walk(players, seed, steps):
    """A random game, ``steps`` decisions in (or fewer if it ends)."""
    s = api.new_game(api.Config(players=players), seed)
    rnd = make_agent("random", seed)
    for _ in range(steps):
        if api.is_over(s):
            break
        seat = api.acting(s)[0]
        s, _ = api.apply(s, rnd.decide(api.view(s, seat, include_state=True), api.legal_actions(s, seat)))
    return s


def _agent(kind, seed):
    if kind == "ismcts":
        return make_agent("ismcts", seed, iterations=6, cutoff=8)
    return make_agent(kind, seed)


def _check_legal(s, seat, action):
    legal = api.legal_actions(s, seat)
    assert action_key(action) in {action_key(a) for a in api.expand(legal)}
    api.apply(s, action)          # the engine accepts it


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**31), steps=st.integers(0, 400),
       kind=st.sampled_from(["random", "heuristic", "ismcts"]))
def test_agents_only_return_legal_actions(players, seed, steps, kind):
    s = _walk(players, seed, steps)
    if api.is_over(s):
        return
    for seat in api.acting(s):
        agent = _agent(kind, seed)
        action = agent.decide(api.view(s, seat, include_state=True), api.legal_actions(s, seat))
        _check_legal(s, seat, action)
        assert agent.explain()["bot"] == kind


def test_every_agent_is_legal_in_every_year():
    """Deterministic sweep: every bot decides at positions spread over all four
    years of whole games of 2 to 5 players."""
    seen = {k: set() for k in ("random", "heuristic", "ismcts")}
    for players in (2, 3, 4, 5):
        s = api.new_game(api.Config(players=players), 100 + players)
        driver = make_agent("heuristic", players)
        i = 0
        while not api.is_over(s):
            seat = api.acting(s)[0]
            view, legal = api.view(s, seat, include_state=True), api.legal_actions(s, seat)
            rare = view["year"] == "goods"        # labour decisions are few
            if rare or i % 7 == 0:
                for kind in list(seen):
                    if kind == "ismcts" and i % 21 and not rare:
                        continue
                    action = _agent(kind, i).decide(view, legal)
                    _check_legal(s, seat, action)
                    seen[kind].add(view["year"])
            s, _ = api.apply(s, driver.decide(view, legal))
            i += 1
    for kind, years in seen.items():
        assert years == set(YEARS), (kind, years)


def _same_view_other_state(s, seat):
    """A different state giving `seat` the same view: swap a card of another
    player's hand with a hidden Market card and scramble the hidden deck."""
    d = json.loads(api.snapshot(s))
    others = [p for p in range(d["n"]) if p != seat and d["hands"][p]]
    if not others or len(d["market"]) < 3:
        return None
    p = others[0]
    d["hands"][p][0], d["market"][1] = d["market"][1], d["hands"][p][0]
    d["market"][1:] = list(reversed(d["market"][1:]))
    d["rng"] = (d["rng"] or 0) ^ 0x5DEECE66D
    return api.restore(json.dumps(d).encode())


def test_ismcts_decisions_depend_only_on_the_view():
    checked = 0
    for seed in range(40):
        s = _walk(4, seed, 60 + seed * 3)
        if api.is_over(s):
            continue
        seat = api.acting(s)[0]
        legal = api.legal_actions(s, seat)
        if len(api.expand(legal)) < 2:
            continue
        t = _same_view_other_state(s, seat)
        if t is None:
            continue
        assert api.snapshot(t) != api.snapshot(s)
        assert api.view(t, seat, include_state=True) == api.view(s, seat, include_state=True)
        assert api.legal_actions(t, seat) == legal
        a = make_agent("ismcts", 9, iterations=40, cutoff=20).decide(api.view(s, seat, include_state=True), legal)
        b = make_agent("ismcts", 9, iterations=40, cutoff=20).decide(api.view(t, seat, include_state=True), legal)
        assert a == b
        checked += 1
        if checked == 4:
            break
    assert checked >= 2


def test_ismcts_is_reproducible_from_its_seed():
    s = _walk(3, 5, 40)
    seat = api.acting(s)[0]
    view, legal = api.view(s, seat, include_state=True), api.legal_actions(s, seat)
    one = make_agent("ismcts", 3, iterations=50)
    two = make_agent("ismcts", 3, iterations=50)
    assert one.decide(view, legal) == two.decide(view, legal)
    assert one.explain()["alternatives"] == two.explain()["alternatives"]


def test_explanations():
    s = _walk(4, 2, 0)
    seat = api.acting(s)[0]
    h = make_agent("heuristic", 1)
    h.decide(api.view(s, seat, include_state=True), api.legal_actions(s, seat))
    assert h.explain()["rule_of_thumb"]
    m = make_agent("ismcts", 1, iterations=30)
    a = m.decide(api.view(s, seat, include_state=True), api.legal_actions(s, seat))
    ex = m.explain()
    assert ex["iterations"] == 30 and ex["alternatives"][0]["action"] == a
    assert sum(x["visits"] for x in ex["alternatives"]) <= 30


def test_the_random_bot_reads_no_view_and_chooses_the_same_without_one():
    """issue 13: paxh simulate builds no view for a bot with reads_view False (the random bot)."""
    assert make_agent("random", 1).reads_view is False
    assert make_agent("heuristic", 1).reads_view is True and make_agent("ismcts", 1).reads_view is True
    s = api.new_game(api.Config(players=4), 11)
    a, b = make_agent("random", 3), make_agent("random", 3)
    n = 0
    while not api.is_over(s) and n < 400:
        seat = api.acting(s)[0]
        legal = api.legal_actions(s, seat)
        x, y = a.decide(api.view(s, seat), legal), b.decide(None, legal)
        assert x == y and a.explain() == b.explain()
        s, _ = api.apply(s, x)
        n += 1
    assert n > 100


def test_ismcts_node_actions_are_the_bounded_playable_actions():
    """ISMCTS builds a node's actions in one pass (issue 13): the same list as
    bounded_actions(playable(legal), RANGE_CAP), undo-only and bid ranges included."""
    from pax_hispanica.bots import ismcts
    from pax_hispanica.bots.base import bounded_actions, playable
    bot = make_agent("ismcts", 1)
    s = api.new_game(api.Config(players=3), 12)
    rnd = make_agent("random", 12)
    kinds = set()
    while not api.is_over(s):
        seat = api.acting(s)[0]
        legal = api.legal_actions(s, seat)
        want = bounded_actions(playable(legal), ismcts.RANGE_CAP)
        assert bot._actions(s, seat) == (want, legal) and bot._bounded(legal) == want
        assert ismcts._first_type(legal) == want[0]["type"]      # what the search reads unlisted
        kinds.update(d["kind"] for d in legal)
        s, _ = api.apply(s, rnd.decide(None, legal))
    assert kinds == {"choice", "range"}


class _UndoAPI:
    """The engine's API with an undo option added to every choice (as a seam may add one)."""

    def __getattr__(self, name):
        return getattr(api, name)

    @staticmethod
    def legal_actions(s, seat):
        legal = api.legal_actions(s, seat)
        return [dict(d, options=d["options"] + [{"seat": seat, "type": "undo"}]) if d["kind"] == "choice" else d
                for d in legal]


def test_ismcts_node_actions_leave_out_an_undo_a_seam_adds():
    from pax_hispanica.bots import ismcts
    from pax_hispanica.bots.base import bounded_actions, playable
    bot = make_agent("ismcts", 1, api=_UndoAPI())
    s = api.new_game(api.Config(players=3), 13)
    seat = api.acting(s)[0]
    legal = _UndoAPI.legal_actions(s, seat)
    got, _ = bot._actions(s, seat)
    assert got == bounded_actions(playable(legal), ismcts.RANGE_CAP) and all(a["type"] != "undo" for a in got)


def test_CYC_3_score_estimates_value_money_at_the_rulesets_rate():
    """Bots read money at the game's `money_per_prestige` (CYC-3; $6 in the reference since
    PRJ-36), not a fixed $5: the estimate of a seat's final score, and so the heuristic's
    and ISMCTS's choices, follow a variant's rate (PRJ-31)."""
    from pax_hispanica.bots.features import (
        chest_prestige,
        reference_chest_prestige,
        scores_from_public,
    )
    ref = api.load_ruleset("reference")
    assert ref.money_per_prestige == 6
    data = {"players": [{"seat": 0, "prestige": 2, "money": 12, "colony_prestige": 0},
                        {"seat": 1, "prestige": 3, "money": 0, "colony_prestige": 0}]}
    assert scores_from_public(data) == [2 + 12 / 6, 3.0]            # the reference's rate
    assert scores_from_public(data, None, 6) == [4.0, 3.0]
    assert scores_from_public(data, None, 3) == [6.0, 3.0]
    assert scores_from_public(data, None, 12) == [3.0, 3.0]
    assert reference_chest_prestige() == chest_prestige(ref)
    # the heuristic bot reads the rate of the game it plays (its view names the variant)
    bot = make_agent("heuristic", 1)
    for mpp in (3, 6, 12):
        state = api.new_game(api.Config(players=2, params={"money_per_prestige": mpp}), 4)
        view = api.view(state, 0)
        money = [p["money"] for p in view["players"]]
        assert bot._scores(view)[:2] == pytest.approx(
            scores_from_public(view, chest_prestige(bot.rs(view)), mpp))
        base = scores_from_public({**view, "players": [{**p, "money": 0} for p in view["players"]]},
                                  chest_prestige(bot.rs(view)), mpp)
        assert [s - b for s, b in zip(bot._scores(view), base)] == pytest.approx([m / mpp for m in money])


def test_AUC_3_a_playout_bid_read_from_the_range_is_the_listed_greedy_bid():
    """ISMCTS's playouts choose their own bid from the range's amounts (ismcts._greedy_bid,
    issue 13's seventh round): the same action, with the same draws of the search's PRNG, as
    the playout's listed way (bounded_actions' list; its only action, else
    greedy_playout_action), for narrow and wide ranges (up to RANGE_CAP amounts, and spread
    beyond it)."""
    import random
    from pax_hispanica.bots import ismcts
    from pax_hispanica.bots.base import bounded_actions
    seen = set()
    for top in (1, 2, 3, 7, 20, 63, 64, 65, 150, 1000):
        for lo in (0, 1):
            d = {"kind": "range", "decision": "bid", "rule": "AUC-3", "action": {"seat": 2, "type": "bid"},
                 "field": "amount", "min": lo, "max": top}
            for seed in range(40):
                a, b = random.Random(seed), random.Random(seed)
                listed = bounded_actions([d], ismcts.RANGE_CAP)      # what the playout did: one action
                want = listed[0] if len(listed) == 1 else ismcts.greedy_playout_action(listed, a)   # taken as is
                got = ismcts._greedy_bid(d, b)
                assert got == want and a.getstate() == b.getstate()
                seen.add(got["amount"])
    assert len(seen) > 50
    one = {"kind": "range", "decision": "bid", "rule": "AUC-3", "action": {"seat": 0, "type": "bid"},
           "field": "amount", "min": 0, "max": 0}
    r = random.Random(1)
    before = r.getstate()
    assert ismcts._greedy_bid(one, r) == {"seat": 0, "type": "bid", "amount": 0} and r.getstate() == before


def test_playable_drops_undo_and_empty_choices_and_keeps_the_rest_as_given():
    """Bots never take back their moves (PRJ-2): `playable` drops a seam's undo options and
    any choice left empty; with nothing to drop it returns the descriptors themselves (no
    copies on every decision, issue 13); undo alone is kept."""
    from pax_hispanica.bots.base import count_actions, playable
    undo = {"seat": 0, "type": "undo"}
    play = {"seat": 0, "type": "end_turn"}
    bid = {"kind": "range", "action": {"seat": 0, "type": "bid"}, "field": "amount", "min": 0, "max": 3}
    plain = [{"kind": "choice", "options": [play]}, bid]
    got = playable(plain)
    assert got == plain and all(a is b for a, b in zip(got, plain))
    mixed = [{"kind": "choice", "options": [play, undo]}, bid]
    got = playable(mixed)
    assert got == [{"kind": "choice", "options": [play]}, bid] and mixed[0]["options"] == [play, undo]
    assert playable([{"kind": "choice", "options": []}, bid]) == [bid]
    assert playable([{"kind": "choice", "options": [undo]}]) == [{"kind": "choice", "options": [undo]}]
    assert count_actions(playable([{"kind": "choice", "options": [undo]}, bid])) == 4
