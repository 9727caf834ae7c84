"""PRJ-7: one table of bad inputs to api.apply. Each is refused with a stable code and rule,
a short message (whatever was sent: huge strings, huge ints, deep nesting), and the state it
was applied to is unchanged."""

from __future__ import annotations

import copy

import pytest

from pax_hispanica import api
from support import scenario

BIG = "x" * 10_000_000           # 10 MB


def _deep(n: int):
    v: list = []
    for _ in range(n):
        v = [v]
    return v


DEEP = _deep(10_000)
MALFORMED = ("malformed", "PRJ-7")
BID = {"seat": 0, "type": "bid"}

ROWS = [
    # (name, action, (code, rule))
    ("not a dict: list", [0, "bid"], MALFORMED),
    ("not a dict: None", None, MALFORMED),
    ("not a dict: string", "bid", MALFORMED),
    ("not a dict: int", 7, MALFORMED),
    ("not a dict: 10 MB string", BIG, MALFORMED),
    ("missing seat", {"type": "bid", "amount": 1}, MALFORMED),
    ("missing type", {"seat": 0, "amount": 1}, MALFORMED),
    ("seat as a string", {"seat": "0", "type": "bid", "amount": 1}, MALFORMED),
    ("bool seat", {"seat": True, "type": "bid", "amount": 1}, MALFORMED),
    ("seat out of range", {"seat": 3, "type": "bid", "amount": 1}, MALFORMED),
    ("negative seat", {"seat": -1, "type": "bid", "amount": 1}, MALFORMED),
    ("seat 10**5000", {"seat": 10 ** 5000, "type": "bid", "amount": 1}, MALFORMED),
    ("type not a string", {"seat": 0, "type": 5}, MALFORMED),
    ("unknown type", {"seat": 0, "type": "fly"}, MALFORMED),
    ("10 MB type", {"seat": 0, "type": BIG}, MALFORMED),
    ("extra key", {**BID, "amount": 1, "note": "hi"}, MALFORMED),
    ("extra key of another type", {**BID, "amount": 1, "card": "galeon-1"}, MALFORMED),
    ("10 MB key", {**BID, "amount": 1, BIG: 1}, MALFORMED),
    ("non-string key", {**BID, "amount": 1, 3: "x"}, MALFORMED),
    ("a million keys", {**BID, **{f"k{i}": i for i in range(1_000_000)}}, MALFORMED),
    ("bid as a string", {**BID, "amount": "1"}, MALFORMED),
    ("bid as a bool", {**BID, "amount": True}, MALFORMED),
    ("bid as a float", {**BID, "amount": 1.0}, MALFORMED),
    ("bid null", {**BID, "amount": None}, MALFORMED),
    ("bid missing (the decision asks for it)", dict(BID), ("malformed", "AUC-3")),
    ("bid 10 MB string", {**BID, "amount": BIG}, MALFORMED),
    ("bid 10**5000", {**BID, "amount": 10 ** 5000}, MALFORMED),
    ("bid -10**5000", {**BID, "amount": -10 ** 5000}, MALFORMED),
    ("bid 2**53", {**BID, "amount": 2 ** 53}, MALFORMED),
    ("bid nested 10,000 deep", {**BID, "amount": DEEP}, MALFORMED),
    ("bid as a dict", {**BID, "amount": {"n": 1}}, MALFORMED),
    ("negative bid", {**BID, "amount": -1}, ("bid_out_of_range", "AUC-3")),
    ("bid above one's money", {**BID, "amount": 6}, ("bid_out_of_range", "AUC-3")),
    ("large bid", {**BID, "amount": 2 ** 53 - 1}, ("bid_out_of_range", "AUC-3")),
    ("field of the wrong type for its type", {"seat": 0, "type": "move", "to": 3}, MALFORMED),
    ("10 MB field", {"seat": 0, "type": "move", "to": BIG}, MALFORMED),
    ("nested field", {"seat": 0, "type": "play", "card": DEEP}, MALFORMED),
    ("another decision's action", {"seat": 0, "type": "pass"}, ("wrong_action", "AUC-3")),
    ("a well-formed move now", {"seat": 0, "type": "move", "to": "cuba"}, ("wrong_action", "AUC-3")),
    ("undo with nothing to undo", {"seat": 0, "type": "undo"}, ("nothing_to_undo", "PRJ-2")),
    ("undo with a field", {"seat": 0, "type": "undo", "to": "x"}, MALFORMED),
]


@pytest.fixture(scope="module")
def bidding():
    """An auction whose three bidders (each with $5) are all to bid."""
    g = scenario({"year": "auction", "step": "auctions", "order": [0, 1, 2],
                  "players": [{"money": 5}, {"money": 5}, {"money": 5}]})
    g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": False})
    assert api.acting(g.state) == (0, 1, 2)
    return g.state


@pytest.mark.parametrize("name,action,expected", ROWS, ids=[r[0] for r in ROWS])
def test_PRJ_7_a_bad_action_is_refused_with_a_short_message_and_changes_nothing(bidding, name, action, expected):
    before = bidding.fingerprint()
    snapshot = copy.deepcopy(before)
    sent = action if not isinstance(action, dict) or len(action) > 100 else dict(action)
    with pytest.raises(api.IllegalAction) as e:
        api.apply(bidding, action)
    assert (e.value.code, e.value.rule) == expected, e.value
    assert len(e.value.message) < 300 and len(str(e.value)) < 300
    assert bidding.fingerprint() == before == snapshot
    if isinstance(sent, dict) and sent is not action:
        assert action == sent                       # the input itself is not changed either
    assert e.value.to_dict()["code"] == expected[0]


def test_PRJ_7_the_same_state_accepts_a_well_formed_bid(bidding):
    # the same state accepts a well-formed bid: the rows above are refused for their flaw alone
    after, events = api.apply(bidding, {**BID, "amount": 2})
    assert events[0]["type"] == "ChoiceCommitted" and after is not bidding


@pytest.mark.parametrize("kind, shown", [([1], "<list>"), ({"a": 1}, "<dict>"), (2.5, "2.5"), (None, "None")])
def test_PRJ_7_a_refusal_shows_a_plain_value_as_written_and_any_other_by_its_type(kind, shown):
    st = api.new_game(api.Config(players=3), 1)
    with pytest.raises(api.IllegalAction) as e:
        api.apply(st, {"seat": 0, "type": kind})
    assert e.value.message == f"Unknown action type {shown}."
