"""Auction Year, D2: AUC-1 .. AUC-7 (seed p7), PRJ-8, PRJ-19, PRJ-20, and the secrecy of
bids and buried cards (HID-1, PRJ-1)."""

from __future__ import annotations

import itertools
import json
import re
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from pax_hispanica import api
from pax_hispanica.engine import audit
from pax_hispanica.rulesets import DATA, load_ruleset
from support import options, scenario

RS = load_ruleset()
GALEON = [c for c in RS.market if c.startswith("galeon-")]
TITULO = [c for c in RS.market if c.startswith("titulo_nobleza-")]
PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def auction(money, order=None, hands=None, market=None, haven=None, seed=1):
    """A scenario at the start of the Auction Year: seat order[0] is asked to initiate."""
    n = len(money)
    players = [{"money": m} for m in money]
    for s, h in (hands or {}).items():
        players[s]["hand"] = h
    pos = {"year": "auction", "step": "auctions", "order": list(order or range(n)), "players": players}
    decks = {}
    if market:
        decks["market"] = market
    if haven:
        decks["haven"] = haven
    if decks:
        pos["decks"] = decks
    return scenario(pos, players=n, seed=seed)


def pass_until(g, seat):
    """Everyone before `seat` in the Auction Year passes."""
    while api.acting(g.state) != (seat,):
        (s,) = api.acting(g.state)
        g.act({"seat": s, "type": "pass"})


def initiate(g, deck="market", buried=False, seat=None):
    (s,) = api.acting(g.state) if seat is None else (seat,)
    return g.act({"seat": s, "type": "initiate", "deck": deck, "buried": buried})


def bid_all(g, bids: dict, order=None):
    """Each bidder commits its bid (in `order`, default by seat); returns all events."""
    events = []
    for s in order or sorted(bids):
        events += g.act({"seat": s, "type": "bid", "amount": bids[s]})
    return events


def ev(events, type_):
    return [e for e in events if e["type"] == type_]


# ---- AUC-1: initiate or pass, in Player Order -----------------------------------------------

def test_AUC_1_each_player_in_player_order_initiates_or_passes():
    g = auction([5, 5, 5], order=[2, 0, 1])
    asked = []
    while g.state.year == 1:
        (s,) = api.acting(g.state)
        asked.append(s)
        assert {"seat": s, "type": "pass"} in options(g.state, s)
        g.act({"seat": s, "type": "pass"})
    assert asked == [2, 0, 1]
    assert g.state.year == 2          # the Play Year follows (CYC-1)


def test_AUC_1_initiator_chooses_market_or_haven():
    g = auction([5, 5, 5], market=[GALEON[0]], haven=["tortuga"])
    events = initiate(g, deck="haven")
    (start,) = ev(events, "AuctionStarted")
    assert start["deck"] == "haven" and start["card"] == "tortuga" and start["rule"] == "AUC-1"
    bid_all(g, {0: 1, 1: 0, 2: 0})
    assert g.state.hands[0] == ["tortuga"]
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 1, "type": "initiate", "deck": "attic", "buried": False})
    assert e.value.code == "unknown_deck" and e.value.rule == "AUC-1"


def test_PRJ_20_several_auctions_each_go_round_by_round(tmp_path):
    folder = tmp_path / "two_auctions"
    shutil.copytree(DATA / "reference", folder)
    toml = folder / "ruleset.toml"
    text = toml.read_text()
    assert "auctions_per_player = 1" in text
    toml.write_text(text.replace("auctions_per_player = 1", "auctions_per_player = 2"))
    g = api.Game.from_scenario({"config": {"players": 3, "ruleset": str(folder)}, "seed": 3,
                                "position": {"year": "auction", "order": [1, 2, 0]}})
    asked = []
    while g.state.year == 1:
        (s,) = api.acting(g.state)
        asked.append(s)
        g.act({"seat": s, "type": "pass"})
    assert asked == [1, 2, 0, 1, 2, 0]


# ---- AUC-2: buried treasure -------------------------------------------------------------------

def test_AUC_2_open_auction_sells_the_face_up_top_card():
    g = auction([5, 5, 5], market=[GALEON[0], GALEON[1]])
    events = initiate(g)
    assert ev(events, "AuctionStarted")[0]["card"] == GALEON[0]
    events = bid_all(g, {0: 2, 1: 0, 2: 0})
    assert g.state.hands[0] == [GALEON[0]]
    (won,) = ev(events, "AuctionWon")
    assert won["card"] == GALEON[0]
    (top,) = ev(events, "DeckTopShown")            # AUC-6: the next card becomes the face-up top
    assert top["card"] == GALEON[1] and g.state.market[0] == GALEON[1]


def test_AUC_2_buried_treasure_sells_the_card_below_the_top():
    g = auction([5, 5, 5], market=[GALEON[0], TITULO[0], GALEON[1]])
    events = initiate(g, buried=True)
    (start,) = ev(events, "AuctionStarted")
    assert start["buried"] is True and start["card"] is None and start["rule"] == "AUC-2"
    events = bid_all(g, {0: 0, 1: 3, 2: 1})
    assert g.state.hands[1] == [TITULO[0]]
    assert g.state.market[:2] == [GALEON[0], GALEON[1]]    # the face-up top stays
    (shown,) = ev(events, "BuriedCardRevealed")
    assert shown["card"] == TITULO[0]
    assert not ev(events, "DeckTopShown")


def test_PRJ_8_buried_treasure_needs_two_cards():
    hands = {0: RS.haven[1:4], 1: RS.haven[4:7], 2: RS.haven[7:]}     # one Haven card left in the deck
    g = auction([5, 5, 5], hands=hands)
    assert len(g.state.haven) == 1
    opts = options(g.state, 0)
    assert {"seat": 0, "type": "initiate", "deck": "haven", "buried": False} in opts
    assert {"seat": 0, "type": "initiate", "deck": "haven", "buried": True} not in opts
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "initiate", "deck": "haven", "buried": True})
    assert e.value.code == "deck_too_small" and e.value.rule == "PRJ-8"


def dumps(x) -> str:
    return json.dumps(x, sort_keys=True, ensure_ascii=False)


def contains_card(obj, card: str) -> bool:
    return f'"{card}"' in dumps(obj)


def test_AUC_2_buried_card_is_seen_by_nobody_until_resolved_then_by_everyone():
    buried = TITULO[0]
    g = auction([5, 5, 5], market=[GALEON[0], buried, GALEON[1]])
    start = len(g.events)
    viewers = [0, 1, 2, None]
    initiate(g, buried=True)
    for s in (0, 1):        # the initiator included (AUC-2 [REF])
        for v in viewers:
            assert not contains_card(api.view(g.state, v, include_state=True), buried), (s, v)
            assert not contains_card(api.view(g.state, v, include_state=True)["state"], buried)
            assert not contains_card(api.redact(g.events[start:], v), buried)
            assert not contains_card(api.decision(g.state, v), buried)
            assert all(not contains_card(d, buried) for d in api.legal_actions(g.state, v if v is not None else 0))
        g.act({"seat": s, "type": "bid", "amount": 1 + s})
    before_reveal = len(g.events)
    g.act({"seat": 2, "type": "bid", "amount": 0})
    for v in viewers:
        seen = api.redact(g.events[before_reveal:], v)
        assert [e["card"] for e in seen if e["type"] == "BuriedCardRevealed"] == [buried]
        assert [e["card"] for e in seen if e["type"] == "AuctionWon"] == [buried]
    assert buried in api.view(g.state, 1, include_state=True)["players"][1]["hand"]     # the winner holds it


def test_AUC_2_buried_card_views_do_not_depend_on_which_card_is_buried():
    """Two decks that differ only in which hidden card is second: identical views until the reveal."""
    a, b = TITULO[0], TITULO[1]
    rest = [c for c in RS.market if c not in (GALEON[0], a, b)]
    g1 = auction([4, 4, 4], market=[GALEON[0], a] + rest[:5] + [b])
    g2 = auction([4, 4, 4], market=[GALEON[0], b] + rest[:5] + [a])
    n1, n2 = len(g1.events), len(g2.events)
    for g in (g1, g2):
        initiate(g, buried=True)
        g.act({"seat": 0, "type": "bid", "amount": 2})
        g.act({"seat": 1, "type": "bid", "amount": 1})
    for v in (0, 1, 2, None):
        v1, v2 = api.view(g1.state, v, include_state=True), api.view(g2.state, v, include_state=True)
        assert dumps(v1) == dumps(v2)
        assert dumps(api.redact(g1.events[n1:], v)) == dumps(api.redact(g2.events[n2:], v))


# ---- AUC-3: bidders, sealed bids, range ---------------------------------------------------------

def test_AUC_3_bidders_are_initiator_and_players_with_money():
    g = auction([5, 0, 3, 0], order=[0, 1, 2, 3])
    events = initiate(g)
    assert ev(events, "AuctionStarted")[0]["bidders"] == [0, 2]
    assert set(api.acting(g.state)) == {0, 2}
    assert api.legal_actions(g.state, 1) == [] and api.legal_actions(g.state, 3) == []
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 1, "type": "bid", "amount": 0})
    assert e.value.code == "not_your_turn"


def test_AUC_3_initiator_with_no_money_still_bids_zero():
    g = auction([0, 4, 2], order=[0, 1, 2])
    initiate(g)
    assert set(api.acting(g.state)) == {0, 1, 2}
    (d,) = api.legal_actions(g.state, 0)
    assert d["kind"] == "range" and (d["min"], d["max"]) == (0, 0)
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "bid", "amount": 1})
    assert e.value.code == "bid_out_of_range"
    events = bid_all(g, {0: 0, 1: 0, 2: 0})
    assert ev(events, "AuctionWon")[0]["winner"] == 0       # everyone bid 0: the initiator wins the tie


@pytest.mark.parametrize("amount", [6, -1, 100])
def test_AUC_3_bid_above_money_refused_state_unchanged(amount):
    g = auction([5, 5, 5])
    initiate(g)
    g.act({"seat": 1, "type": "bid", "amount": 2})
    before = dumps(g.state.to_dict())
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "bid", "amount": amount})
    assert e.value.code == "bid_out_of_range" and e.value.rule == "AUC-3"
    assert dumps(g.state.to_dict()) == before
    assert set(api.acting(g.state)) == {0, 2}


@pytest.mark.parametrize("amount", ["3", 2.0, None, True])
def test_AUC_3_bid_must_be_a_whole_number(amount):
    g = auction([5, 5, 5])
    initiate(g)
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 0, "type": "bid", "amount": amount})
    assert e.value.code == "malformed" and e.value.rule in ("AUC-3", "PRJ-7")    # PRJ-7: not a JSON scalar


def test_AUC_3_a_sealed_bid_cannot_be_changed_or_undone():
    g = auction([5, 5, 5])
    initiate(g)
    g.act({"seat": 1, "type": "bid", "amount": 2})
    for action in ({"seat": 1, "type": "bid", "amount": 3}, {"seat": 1, "type": "undo"}):
        with pytest.raises(api.IllegalAction):
            api.apply(g.state, action)
    assert not api.can_undo(g.state, 1)


def test_AUC_3_all_bids_revealed_at_once_and_verifiable():
    g = auction([5, 5, 5])
    initiate(g)
    dec_id = api.decision(g.state, None)["id"]
    e1 = g.act({"seat": 2, "type": "bid", "amount": 1})
    e2 = g.act({"seat": 0, "type": "bid", "amount": 4})
    assert not ev(e1 + e2, "ChoicesRevealed") and not ev(e1 + e2, "AuctionWon")
    e3 = g.act({"seat": 1, "type": "bid", "amount": 3})
    (rev,) = ev(e3, "ChoicesRevealed")
    assert {c["seat"]: c["value"] for c in rev["choices"]} == {0: 4, 1: 3, 2: 1}
    commits = {e["seat"]: e["hash"] for e in ev(e1 + e2 + e3, "ChoiceCommitted")}
    for c in rev["choices"]:            # anyone can check each bid against the hash published earlier
        assert c["hash"] == commits[c["seat"]] and api.verify(dec_id, c)
    assert not api.verify(dec_id, {**rev["choices"][0], "value": 0})


# ---- AUC-4 and AUC-5: who wins, who pays whom -------------------------------------------------

def run_auction(money, bids, order=None, initiator=None):
    """Initiate (after the players before the initiator pass) and bid; returns game, events."""
    order = order or list(range(len(money)))
    initiator = order[0] if initiator is None else initiator
    g = auction(money, order=order, market=[GALEON[0], GALEON[1]])
    pass_until(g, initiator)
    before = g.state
    initiate(g)
    events = bid_all(g, bids)
    return g, before, events


def test_AUC_4_initiator_wins_alone_and_AUC_5_pays_the_pool():
    g, before, events = run_auction([5, 5, 5], {0: 4, 1: 3, 2: 0})
    (won,) = ev(events, "AuctionWon")
    assert (won["winner"], won["price"], won["paid_to"]) == (0, 4, "pool")
    assert g.state.money == [1, 5, 5]
    assert g.state.burned == before.burned + 4
    assert g.state.hands[0] == [GALEON[0]]
    assert audit.money_balance(g.state) == audit.money_balance(before)


def test_AUC_4_initiator_wins_ties():
    g, _, events = run_auction([5, 5, 5], {0: 3, 1: 3, 2: 3})
    (won,) = ev(events, "AuctionWon")
    assert won["winner"] == 0 and won["tie_broken"] is True and won["paid_to"] == "pool"
    assert g.state.money == [2, 5, 5]


def test_AUC_5_another_winner_pays_the_initiator():
    g, before, events = run_auction([5, 5, 5], {0: 2, 1: 1, 2: 4})
    (won,) = ev(events, "AuctionWon")
    assert (won["winner"], won["price"], won["paid_to"]) == (2, 4, 0)
    assert g.state.money == [9, 5, 1]
    assert g.state.burned == before.burned and g.state.minted == before.minted
    assert g.state.hands[2] == [GALEON[0]] and g.state.hands[0] == []


@pytest.mark.parametrize("order, initiator, bids, winner", [
    # the tie among others goes to the one earliest in Player Order AFTER the initiator (wrapping round)
    ([0, 1, 2, 3], 2, {2: 0, 3: 3, 0: 3, 1: 1}, 3),
    ([0, 1, 2, 3], 2, {2: 0, 3: 1, 0: 3, 1: 3}, 0),
    ([3, 1, 0, 2], 0, {0: 1, 2: 2, 3: 2, 1: 2}, 2),
    ([3, 1, 0, 2], 1, {1: 0, 0: 2, 2: 1, 3: 2}, 0),
    ([3, 1, 0, 2], 1, {1: 0, 0: 1, 2: 2, 3: 2}, 2),
])
def test_AUC_4_tie_among_others_goes_to_earliest_after_initiator(order, initiator, bids, winner):
    g, _, events = run_auction([5, 5, 5, 5], bids, order=order, initiator=initiator)
    (won,) = ev(events, "AuctionWon")
    assert won["winner"] == winner and won["initiator"] == initiator and won["tie_broken"]
    assert g.state.money[winner] == 5 - bids[winner]
    assert g.state.money[initiator] == 5 + bids[winner]


def test_AUC_4_everyone_bids_zero_initiator_takes_the_card_free():
    g, before, events = run_auction([5, 5, 5], {0: 0, 1: 0, 2: 0}, order=[1, 2, 0])
    (won,) = ev(events, "AuctionWon")
    assert (won["winner"], won["price"], won["paid_to"]) == (1, 0, "pool")
    assert g.state.money == [5, 5, 5] and g.state.burned == before.burned
    assert g.state.hands[1] == [GALEON[0]]


def test_AUC_3_player_with_no_money_is_excluded_and_cannot_win():
    g, _, events = run_auction([5, 0, 2], {0: 0, 2: 0}, order=[2, 1, 0])
    (start,) = ev(g.events, "AuctionStarted")
    assert start["bidders"] == [2, 0]        # initiator first, then the others in Player Order; seat 1 has $0
    (won,) = ev(events, "AuctionWon")
    assert won["winner"] == 2


# ---- AUC-6: the card, the deck, the refill ------------------------------------------------------

def test_AUC_6_won_card_to_hand_and_next_card_face_up():
    g, _, _events = run_auction([5, 5, 5], {0: 0, 1: 1, 2: 0})
    assert g.state.hands[1] == [GALEON[0]]
    assert GALEON[0] not in g.state.market
    assert api.view(g.state, None, include_state=True)["decks"]["market"]["top"] == GALEON[1]


def test_AUC_6_last_card_leaves_the_deck_empty_when_discard_is_empty():
    held = [c for c in RS.market if c != GALEON[0]]
    g = auction([5, 5, 5], hands={0: held[:15], 1: held[15:30], 2: held[30:]})
    assert g.state.market == [GALEON[0]]
    initiate(g)
    events = bid_all(g, {0: 0, 1: 0, 2: 0})
    assert g.state.market == [] and not ev(events, "DeckRefilled")
    (top,) = ev(events, "DeckTopShown")
    assert top["card"] is None and top["size"] == 0
    assert {"seat": 1, "type": "initiate", "deck": "market", "buried": False} not in options(g.state, 1)
    with pytest.raises(api.IllegalAction) as e:
        api.apply(g.state, {"seat": 1, "type": "initiate", "deck": "market", "buried": False})
    assert e.value.code == "deck_too_small" and e.value.rule == "AUC-1"


def boring(opts):
    """A dull legal action: end things, pass, sell, else the first option."""
    for t in ("end_turn", "end_voyage", "pass", "sell", "discard"):
        for o in opts:
            if o["type"] == t:
                return o
    return opts[0]


def test_AUC_6_empty_deck_refilled_from_its_discard_pile():
    """Cards sold in the Play Year wait in the discard; the auction that takes the last card refills."""
    sold = [GALEON[1], GALEON[2]]
    rest = [c for c in RS.market if c not in sold + [GALEON[0]]]
    pos = {"year": "play", "order": [0, 1, 2],
           "players": [{"money": 5, "hand": sold, "tableau": rest[:15]}, {"money": 5, "tableau": rest[15:30]},
                       {"money": 5, "tableau": rest[30:]}]}
    g = scenario(pos)
    assert g.state.market == [GALEON[0]]
    for c in sold:
        g.act({"seat": 0, "type": "sell", "card": c})
    assert g.state.market == [GALEON[0]] and sorted(g.state.market_discard) == sorted(sold)
    while g.state.year != 1:            # to the next Auction Year
        (s,) = api.acting(g.state)[:1]
        g.act(boring(options(g.state, s)))
    (s,) = api.acting(g.state)
    g.act({"seat": s, "type": "initiate", "deck": "market", "buried": False})
    events = []
    for b in list(api.acting(g.state)):
        events += g.act({"seat": b, "type": "bid", "amount": 0})
    assert GALEON[0] in g.state.hands[s]
    (refill,) = ev(events, "DeckRefilled")
    assert refill["size"] == 2 and sorted(g.state.market) == sorted(sold) and g.state.market_discard == []
    (top,) = ev(events, "DeckTopShown")
    assert top["card"] == g.state.market[0]
    assert ev(events, "DeckRefilled")[0]["seq"] < top["seq"]


# ---- AUC-7: no hand limit during the Auction Year -----------------------------------------------

def test_AUC_7_hand_limit_may_be_exceeded_during_auction_year():
    hand = [TITULO[0], TITULO[1], TITULO[2]]
    g = auction([5, 5, 5], hands={0: hand}, market=[GALEON[0], GALEON[1], GALEON[2]], order=[0, 1, 2])
    assert len(g.state.hands[0]) == g.state.hand_limit(0)
    for initiator in (0, 1):
        initiate(g, seat=initiator)
        bid_all(g, {0: 1, 1: 0, 2: 0})
    assert len(g.state.hands[0]) == 5 > g.state.hand_limit(0)
    assert api.acting(g.state) == (2,)            # nobody asks seat 0 to reduce
    assert api.decision(g.state, 2)["decision"] == "initiate"
    g.act({"seat": 2, "type": "pass"})
    assert g.state.year == 2 and api.decision(g.state, 0)["decision"] == "play_turn"


# ---- Properties: secrecy, order independence ------------------------------------------------------

HEX64 = re.compile(r"^[0-9a-f]{64}$")


def unhash(x):
    """Replace every commitment hash by a placeholder: hashes differ by design, nothing else may."""
    if isinstance(x, dict):
        return {k: unhash(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [unhash(v) for v in x]
    if isinstance(x, str) and HEX64.match(x):
        return "#"
    return x


@hs.composite
def auctions(draw):
    n = draw(hs.integers(2, 5))
    money = draw(hs.lists(hs.integers(0, 6), min_size=n, max_size=n))
    order = draw(hs.permutations(list(range(n))))
    buried = draw(hs.booleans())
    deck = draw(hs.sampled_from(["market", "haven"]))
    initiator = order[0]
    bidders = [initiator] + [s for s in order[1:] if money[s] >= 1]
    bids = {s: draw(hs.integers(0, money[s])) for s in bidders}
    arrival = draw(hs.permutations(bidders))
    return n, money, list(order), buried, deck, bids, list(arrival)


def start(n, money, order, buried, deck, seed=5):
    g = auction(money, order=order, seed=seed)
    g.act({"seat": order[0], "type": "initiate", "deck": deck, "buried": buried})
    return g


@PROPERTY
@given(auctions(), hs.data())
def test_AUC_3_no_view_or_redacted_event_shows_a_bid_before_the_reveal(case, data):
    """Changing one committed bid changes nothing that anyone else (or a spectator) can see,
    except the commitment hash, until all bids are revealed."""
    n, money, order, buried, deck, bids, arrival = case
    viewers = list(range(n)) + [None]
    for k in range(1, len(arrival)):            # after k commits, before the reveal
        s = data.draw(hs.sampled_from(arrival[:k]), label="changed bidder")
        if money[s] == 0:
            continue
        other = data.draw(hs.integers(0, money[s]).filter(lambda x, s=s: x != bids[s]), label="other bid")
        worlds = []
        for b in (bids, {**bids, s: other}):
            g = start(n, money, order, buried, deck)
            mark = len(g.events)
            for x in arrival[:k]:
                g.act({"seat": x, "type": "bid", "amount": b[x]})
            worlds.append((g, mark))
        (g1, m1), (g2, m2) = worlds
        assert g1.state.stack and g1.state.stack[-1]["d"] == "bid"     # not revealed yet
        hidden = (g1.state.market if deck == "market" else g1.state.haven)[1] if buried else None
        for v in viewers:
            if hidden:                                  # AUC-2: nor is the buried card seen by anyone
                assert not contains_card(api.view(g1.state, v, include_state=True), hidden)
                assert not contains_card(api.redact(g1.events[m1:], v), hidden)
            if v == s:
                continue
            assert dumps(unhash(api.view(g1.state, v, include_state=True))) == dumps(unhash(api.view(g2.state, v, include_state=True))), v
            assert dumps(unhash(api.redact(g1.events[m1:], v))) == dumps(unhash(api.redact(g2.events[m2:], v)))
            assert api.legal_actions(g1.state, v if v is not None else s) == \
                api.legal_actions(g2.state, v if v is not None else s)
        # and the bidder itself sees its own bid
        assert api.view(g1.state, s, include_state=True)["my_sealed_choice"] == bids[s]
        assert api.view(g2.state, s, include_state=True)["my_sealed_choice"] == other


@PROPERTY
@given(auctions())
def test_AUC_3_result_is_the_same_for_every_order_of_arrival(case):
    n, money, order, buried, deck, bids, arrival = case
    results = []
    for arr in (sorted(bids), arrival, list(reversed(arrival))):
        g = start(n, money, order, buried, deck)
        events = []
        for x in arr:
            events += g.act({"seat": x, "type": "bid", "amount": bids[x]})
        after = [{k: v for k, v in e.items() if k != "seq"} for e in events
                 if e["type"] not in ("ChoiceCommitted", "ChoiceSealed")]
        results.append((dumps(g.state.to_dict()), dumps(after)))
    assert results[0] == results[1] == results[2]


def test_AUC_3_result_is_the_same_for_every_permutation_of_five_bids():
    money = [3, 5, 1, 4, 2]
    bids = {0: 2, 1: 4, 2: 1, 3: 4, 4: 2}
    seen = set()
    for arr in itertools.permutations(range(5)):
        g = start(5, money, [3, 0, 4, 1, 2], False, "market")
        for x in arr:
            g.act({"seat": x, "type": "bid", "amount": bids[x]})
        seen.add(dumps(g.state.to_dict()))
    assert len(seen) == 1


@PROPERTY
@given(auctions())
def test_AUC_4_AUC_5_winner_and_payment_follow_the_rules(case):
    """An independent statement of AUC-4/AUC-5 checked on random auctions."""
    n, money, order, buried, deck, bids, arrival = case
    g = start(n, money, order, buried, deck)
    card = (g.state.market if deck == "market" else g.state.haven)[1 if buried else 0]
    before = g.state
    for x in arrival:
        g.act({"seat": x, "type": "bid", "amount": bids[x]})
    initiator = order[0]
    high = max(bids.values())
    k = order.index(initiator)
    ranking = [initiator] + [s for s in order[k + 1:] + order[:k] if s in bids]
    winner = next(s for s in ranking if bids[s] == high)
    expect = list(before.money)
    expect[winner] -= high
    if winner != initiator:
        expect[initiator] += high
    assert g.state.money == expect
    assert g.state.hands[winner] == before.hands[winner] + [card]
    assert audit.money_balance(g.state) == audit.money_balance(before)
    assert sorted(audit.cards(g.state)) == sorted(audit.cards(before))


def test_AUC_3_bid_secrecy_in_random_games():
    """In random full games, nobody but the bidder sees a sealed bid before the reveal."""
    from support import random_game
    leaks, bids = [], []

    def check(before, action, after, events):
        if action["type"] != "bid":
            return
        bids.append(action)
        for v in list(range(after.n)) + [None]:
            for e in api.redact(events, v):
                if e["type"] == "ChoiceSealed" and e["seat"] != v:
                    leaks.append((v, e))
            if set(api.view(after, v, include_state=True)["state"]["secrets"]) - {str(v)}:
                leaks.append((v, "secrets"))
            if v != action["seat"] and api.view(after, v, include_state=True)["my_sealed_choice"] is not None \
                    and v not in after.secrets:
                leaks.append((v, "my_sealed_choice"))

    for seed in (1, 2):
        random_game(3, seed, on_step=check)
    assert leaks == [] and len(bids) >= 10
