"""HID-1, HID-2: views and redacted logs never carry another player's hand, sealed
choices before their reveal, deck order below the top, a buried card, or the seed."""

from __future__ import annotations

import json

import pytest

from pax_hispanica import api
from pax_hispanica.engine.flow import YEARS
from pax_hispanica.engine.keys import derive
from pax_hispanica.engine.state import State
from support import scenario

from .helpers import ints, play, secret_violations, strings, view_json

BIG_SEED = 2 ** 61 + 12345       # so that an int equal to the seed cannot be a coincidence


def keys_of(seed) -> set:
    return {derive(seed, label).hex() for label in ("paxh-rng", "paxh-salt")}


def known_cards(st, viewer) -> set:
    """Cards `viewer` may know from the state: deck tops, discards, tableaus, own hand."""
    out = set(st.market[:1]) | set(st.haven[:1]) | set(st.market_discard)
    out |= {c for t in st.tableaus for c, _ in t}
    if viewer is not None:
        out |= set(st.hands[viewer])
    return out


def check_events(before, after, action, events, viewer, public_so_far: set) -> None:
    """HID-2: the redacted events of one action carry nothing secret from `viewer`."""
    red = api.redact(events, viewer)
    revealed = any(e["type"] == "ChoicesRevealed" for e in events)
    allowed = public_so_far | known_cards(before, viewer) | known_cards(after, viewer)
    actor = action["seat"]
    allowed |= set(before.hands[actor]) - set(after.hands[actor])       # a card played, sold or discarded
    for e in red:
        assert "to" not in e or viewer in e["to"], e
        if e["type"] == "ChoiceSealed":
            assert e["seat"] == viewer
        if e["type"] == "BuriedCardRevealed":
            assert revealed, "a buried card shown before the bids were revealed"
            allowed.add(e["card"])
        if e["type"] == "AuctionStarted" and e["buried"]:
            assert e["card"] is None
        if e["type"] != "GameEnded":
            # (the PRNG counter is a small public-looking int: without the key it tells nothing, PRJ-1)
            assert before.seed not in ints(e) and not strings(e) & keys_of(before.seed), e
    cards = set(after.rs.cards)
    for e in red:
        mentioned = strings(e) & cards
        assert mentioned <= allowed | ({e["card"]} if e["type"] == "AuctionWon" and revealed else set()), e
    public_so_far |= known_cards(after, None)


@pytest.mark.parametrize("n,seed", [(2, BIG_SEED), (4, BIG_SEED + 1), (5, BIG_SEED + 2)])
def test_HID_1_views_never_carry_another_players_secret(n, seed):
    checked = {"sealed": 0, "hands": 0}

    def on_step(before, action, after, events):
        for st in (after,):
            if st.stack and st.stack[-1].get("sealed") and st.secrets:
                checked["sealed"] += 1
            if any(st.hands):
                checked["hands"] += 1
            for viewer in [None, *range(st.n)]:
                assert secret_violations(st, viewer) == [], (viewer, action)

    play(n, seed, bot_seed=seed % 1000, on_step=on_step)
    assert checked["sealed"] > 0 and checked["hands"] > 0       # the test met the secrets it guards


@pytest.mark.parametrize("n,seed", [(3, BIG_SEED + 3), (4, BIG_SEED + 4)])
def test_HID_2_redacted_logs_carry_no_secret(n, seed):
    publics = {v: set() for v in [None, *range(n)]}

    def on_step(before, action, after, events):
        for viewer, pub in publics.items():
            check_events(before, after, action, events, viewer, pub)

    g = play(n, seed, bot_seed=seed % 1000, on_step=on_step)
    # and the whole log: sealed values only to their owner; the seed only at the end
    for viewer in publics:
        red = api.redact(g.events, viewer)
        assert all(e["type"] != "ChoiceSealed" or e["seat"] == viewer for e in red)
        assert [e["type"] for e in red if seed in ints(e)] == ["GameEnded"]
    assert len(api.redact(g.events, None, reveal_all=True)) == len(g.events)


def perturbed(st: State, viewer) -> State:
    """The same position with every secret of others changed: hands swapped with the hidden deck,
    deck order below the top reversed, others' sealed choices changed, another seed and PRNG."""
    d = st.to_dict()
    for deck in ("market", "haven"):
        d[deck] = d[deck][:1] + d[deck][1:][::-1]
    taken = {"market": 0, "haven": 0}
    for s in range(st.n):
        if s == viewer:
            continue
        for i, c in enumerate(d["hands"][s]):
            deck = st.rs.cards[c].deck
            k = len(d[deck]) - 1 - taken[deck]
            if k >= 1:                      # swap with a hidden card not used yet
                d["hands"][s][i], d[deck][k] = d[deck][k], c
                taken[deck] += 1
    d["secrets"] = {k: (v + 1 if isinstance(v, int) else {"attacker": "target", "target": "attacker"}[v])
                    if k != str(viewer) else v for k, v in d["secrets"].items()}
    d["seed"] = st.seed + 1
    d["rng"] = st.rng ^ 0xDEADBEEF
    return State.from_dict(d, st.rs)


@pytest.mark.parametrize("n,seed", [(3, 31), (5, 32)])
def test_HID_1_a_view_is_unchanged_when_only_others_secrets_change(n, seed):
    def on_step(before, action, after, events):
        if after.over or after.version % 3:
            return
        for viewer in [None, *range(after.n)]:
            other = perturbed(after, viewer)
            assert other.to_dict() != after.to_dict() or not any(after.hands)
            assert api.view(other, viewer, include_state=True) == api.view(after, viewer, include_state=True)

    play(n, seed, on_step=on_step)


def test_HID_1_own_hand_and_own_sealed_bid_are_shown_to_their_owner_only():
    g = scenario({"year": "auction", "step": "auctions", "order": [0, 1, 2],
                  "players": [{"hand": ["galeon-1"], "money": 4}, {"hand": ["galeon-2", "galeon-3"], "money": 4},
                              {"money": 4}]}, seed=BIG_SEED)
    g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": False})
    g.act({"seat": 1, "type": "bid", "amount": 3})
    st = g.state
    v0, v1, spec = api.view(st, 0, include_state=True), api.view(st, 1, include_state=True), api.view(st, None, include_state=True)
    assert v0["players"][0]["hand"] == ["galeon-1"] and v0["players"][1]["hand"] is None
    assert v0["players"][1]["hand_count"] == 2 and spec["players"][1]["hand_count"] == 2
    assert v1["my_sealed_choice"] == 3 and v0["my_sealed_choice"] is None and spec["my_sealed_choice"] is None
    assert v1["state"]["secrets"] == {"1": 3} and v0["state"]["secrets"] == {} == spec["state"]["secrets"]
    assert v0["decision"]["committed"] == [1] and set(v0["decision"]["hashes"]) == {"1"}
    assert v0["state"]["hands"][1] == ["?", "?"]
    for viewer in (None, 0, 1, 2):
        assert secret_violations(st, viewer) == []


def test_HID_1_a_buried_card_stays_unseen_by_everyone_until_the_reveal():
    g = scenario({"year": "auction", "step": "auctions", "order": [0, 1, 2],
                  "decks": {"market": ["galeon-1", "carta_poblacion-1", "galeon-2"]}}, seed=BIG_SEED)
    buried = g.state.market[1]
    assert buried == "carta_poblacion-1"
    events = g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": True})
    started = next(e for e in events if e["type"] == "AuctionStarted")
    assert started["buried"] and started["card"] is None
    for seat in api.acting(g.state)[:-1]:
        g.act({"seat": seat, "type": "bid", "amount": 0})
        for viewer in (None, 0, 1, 2):          # the initiator included
            assert buried not in strings(view_json(g.state, viewer))
            assert buried not in strings(api.redact(g.events, viewer))
    last = api.acting(g.state)[0]
    events = g.act({"seat": last, "type": "bid", "amount": 0})
    shown = [e for e in events if e["type"] == "BuriedCardRevealed"]
    assert shown and shown[0]["card"] == buried
    assert all(shown[0] in api.redact(events, v) for v in (None, 0, 1, 2))


def test_HID_1_the_seed_and_every_hand_are_shown_when_the_game_ends():
    g = play(3, BIG_SEED + 7, bot_seed=7)
    v = api.view(g.state, None, include_state=True)
    assert v["seed"] == BIG_SEED + 7 and v["state"]["seed"] == BIG_SEED + 7
    assert [p["hand"] for p in v["players"]] == [list(h) for h in g.state.hands]
    assert v["seed_hash"] == g.events[0]["seed_hash"]


def test_HID_2_everything_else_is_public_and_the_same_for_every_viewer():
    g = play(4, 41, stop=lambda g: YEARS[g.state.year] == "sail" and g.state.cycle == 2)
    views = [api.view(g.state, v, include_state=True) for v in (None, 0, 1, 2, 3)]
    for key in ("cycle", "year", "step", "order", "acting", "colonies", "sites", "rebels", "decks", "supply",
                "gone", "seed_hash", "version"):
        assert all(v[key] == views[0][key] for v in views), key
    for v in views:
        for p, q in zip(v["players"], views[0]["players"]):
            assert {k: x for k, x in p.items() if k != "hand"} == {k: x for k, x in q.items() if k != "hand"}
    json.dumps(views)


@pytest.mark.parametrize("n,seed", [(3, 71), (5, 72)])
def test_HID_2_only_sealed_choices_are_addressed_every_other_event_reaches_everyone(n, seed):
    g = play(n, seed)
    for e in g.events:
        if e["type"] == "ChoiceSealed":
            assert e["to"] == [e["seat"]]
        else:
            assert "to" not in e, e
    for viewer in [None, *range(n)]:
        red = api.redact(g.events, viewer)
        assert [e for e in g.events if e["type"] != "ChoiceSealed"] == [e for e in red if e["type"] != "ChoiceSealed"]


def test_HID_1_the_light_view_is_the_full_view_without_its_state():
    g = play(3, 17, stop=lambda g: g.state.version >= 40)
    for viewer in (0, 1, 2, None):
        full = api.view(g.state, viewer, include_state=True)
        light = api.view(g.state, viewer, include_state=False)
        assert "state" in full and "state" not in light
        assert light == {k: v for k, v in full.items() if k != "state"}


def test_HID_1_the_default_view_leaves_the_masked_state_out_and_information_state_gives_it():
    # issue 13 (docs/api.md): the masked state is built only when asked for
    g = play(3, 17, stop=lambda g: g.state.version >= 40)
    for viewer in (0, 1, 2, None):
        default = api.view(g.state, viewer)
        full = api.view(g.state, viewer, include_state=True)
        assert "state" not in default and default == {k: v for k, v in full.items() if k != "state"}
        assert full["state"] == api.information_state(g.state, viewer)
    with pytest.raises(ValueError, match="include_state=True"):
        api.determinize(api.view(g.state, 0), 1)
    assert api.determinize(api.information_state(g.state, 0), 1).to_dict() \
        == api.determinize(api.view(g.state, 0, include_state=True), 1).to_dict()


def test_HID_1_a_state_read_from_an_information_state_starts_its_generator_at_zero():
    st = api.new_game(api.Config(players=3), 3)
    info = api.information_state(st, 0)
    assert info["rng"] is None
    assert State.from_dict({**info, "seed": 1, "seed_hash": st.seed_hash}, st.rs).rng == 0
