"""What the ISMCTS bot assumes about the rest of the game: the worth of lasting
assets when a playout is cut short, and how the other seats choose in secret."""

import random

import pytest

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.bots.features import future_prestige


def test_future_prestige_counts_earnings_and_legality_for_the_cycles_left():
    # 5 cycles, $1 per colony (GDS-7), and $5 per Prestige as in RULES.md (the reference has $6,
    # PRJ-36): the figures below are worked out by hand for these numbers
    rs = api.load_ruleset("reference", {"money_per_prestige": 5})
    assert (rs.cycles, rs.colony_income, rs.smuggler_money, rs.conquistador_prestige) == (5, 1, 3, 1)
    data = {"cycle": 4, "players": [
        {"income": 2, "colony_prestige": 1, "fleet": {"legality": "SMUGGLER"}},
        {"income": 0, "colony_prestige": 0, "fleet": {"legality": "CONQUISTADOR"}}]}
    # cycle 4 of 5: one cycle after this one, this one counted half -> 1.5 cycles
    # SMUGGLER: $2/cycle at TRS-5's $3 a Chest; CONQUISTADOR: $3 at 2 Prestige a Chest, halved by PRJ-32
    smuggler, conquistador = future_prestige(data, rs)
    assert smuggler == pytest.approx((2 + 1 + 2.0) * 1.5 / 5)
    assert conquistador == pytest.approx(1.5 * 1.5 / 5)
    last = future_prestige({**data, "cycle": 5}, rs)
    assert last[0] == pytest.approx((2 + 1 + 2.0) * 0.5 / 5)


def _bid_position(seed: int = 77) -> api.State:
    state = api.new_game(api.Config(players=4), seed)
    bots = [make_agent("heuristic", seed=i) for i in range(4)]
    while True:
        seat = api.acting(state)[0]
        legal = api.legal_actions(state, seat)
        if legal[0]["decision"] == "bid":
            return state
        state, _ = api.apply(state, bots[seat].decide(api.view(state, seat, include_state=True), legal))


def test_ismcts_models_other_seats_bids_with_the_heuristic_rule_of_thumb():
    state = _bid_position()
    seat = api.acting(state)[0]
    legal = api.legal_actions(state, seat)
    actions = api.expand(legal)
    assert len(actions) > 2
    expected = make_agent("heuristic", seed=5).decide(api.view(state, seat, include_state=True), legal)
    always = make_agent("ismcts", seed=1, model=1.0)
    rng = random.Random(0)
    assert all(always._sealed_choice(state, seat, actions, rng) == expected for _ in range(20))
    never = make_agent("ismcts", seed=1, model=0.0)
    drawn = {never._sealed_choice(state, seat, actions, rng)["amount"] for _ in range(200)}
    assert drawn == {a["amount"] for a in actions}       # uniform: every bid stays possible


def test_ismcts_refuses_a_model_share_outside_0_1():
    with pytest.raises(ValueError, match="model"):
        make_agent("ismcts", seed=1, model=1.5)


def test_the_bid_model_needs_no_map():
    """ISMCTS's bid model reads the public facts of api.model_view, not a view (issue 13):
    the heuristic bids from the players and the decision alone, so it bids the same on them,
    or on a view without the map (board=False), as on the whole view."""
    seen = 0
    for seed in range(20, 32):
        state = api.new_game(api.Config(players=4), seed)
        r = random.Random(seed)
        while not api.is_over(state) and seen < 300:
            seat = api.acting(state)[0]
            legal = api.legal_actions(state, seat)
            if any(d.get("kind") == "range" and d["action"].get("type") == "bid" for d in legal):
                whole = make_agent("heuristic", seed).decide(api.view(state, seat, include_state=False), legal)
                light = make_agent("heuristic", seed).decide(
                    api.view(state, seat, include_state=False, board=False), legal)
                facts = make_agent("heuristic", seed).decide(api.model_view(state, seat), legal)
                assert light == whole == facts
                seen += 1
            state, _ = api.apply(state, api.nth_action(legal, r.randrange(api.count_actions(legal))))
    assert seen >= 100


def test_AUC_3_the_heuristic_bids_the_same_on_the_bid_facts_as_on_the_model_view():
    """ISMCTS's bid model, on a memo miss, has the heuristic bid from api.bid_facts alone
    (HeuristicAgent.bid_on_facts: no model view built, issue 13's seventh round): the same
    action as decide(api.model_view(state, seat), legal), on every bid of random games under
    the reference and a variant, for every bidder (initiator or not, rich or poor)."""
    from pax_hispanica.bots.heuristic import HeuristicAgent
    checked, amounts = 0, set()
    for players, seed, params in ((4, 3, None), (3, 8, None), (5, 21, None), (4, 5, {"money_per_prestige": 4, "cycles": 6})):
        state = api.new_game(api.Config(players=players, params=params or {}), seed)
        rnd = random.Random(seed)
        rs = api.view_ruleset(api.view(state, 0))
        while not api.is_over(state):
            seat = rnd.choice(api.acting(state))
            legal = api.legal_actions(state, seat)
            if legal[0]["decision"] == "bid":
                want = HeuristicAgent(seed).decide(api.model_view(state, seat), legal)
                got = HeuristicAgent(seed + 1).bid_on_facts(rs, api.bid_facts(state, seat), legal[0])
                assert got == want
                checked += 1
                amounts.add(got["amount"])
            state = api.apply_trusted(state, api.nth_action(legal, rnd.randrange(api.count_actions(legal))))
    assert checked > 100 and len(amounts) > 3        # real bids, not only $0


def test_the_bid_and_card_memos_are_shared_per_process_and_change_no_decision(monkeypatch):
    """The heuristic's card values and the bid model's bids are memoised per process, API and
    ruleset (ismcts._SHARED_MEMOS, issue 13's seventh round): a bot whose memos were filled by
    other bots' searches decides exactly as one that starts from empty memos, and a memo that
    reaches MEMO_CAP entries is emptied at the next decision."""
    from pax_hispanica.bots import ismcts
    state = _bid_position(78)
    positions = []
    while len(positions) < 3 and not api.is_over(state):
        seat = api.acting(state)[0]
        legal = api.legal_actions(state, seat)
        if api.count_actions(legal) > 1:
            positions.append((api.view(state, seat, include_state=True), legal))
        state = api.apply_trusted(state, api.nth_action(legal, 0))
    assert len(positions) == 3

    def decide(k):
        bot = make_agent("ismcts", 40 + k, iterations=25)
        return bot.decide(*positions[k]), bot.explain()["alternatives"]

    ismcts._SHARED_MEMOS.clear()
    cold = [decide(k) for k in range(3)]
    for k in range(3):
        ismcts._SHARED_MEMOS.clear()
        assert decide(k) == cold[k]                   # each from empty memos
    assert decide(2) == cold[2] and decide(0) == cold[0]       # and warm, in another order
    # one entry for the ruleset (the playouts' and the opponent model's), one for the tuned
    # prior's card values (a preset values cards its own way: "<ruleset> tuned")
    plain, prior = sorted(ismcts._SHARED_MEMOS, key=lambda key: len(key[1]))
    assert prior[1] == f"{plain[1]} tuned"
    _, cards, bids = ismcts._SHARED_MEMOS[plain]
    assert cards and bids and ismcts._SHARED_MEMOS[prior][1]
    monkeypatch.setattr(ismcts, "MEMO_CAP", len(bids))
    again = ismcts._shared_memos(api, plain[1])
    assert again[1] is bids and not bids             # emptied in place at the cap
