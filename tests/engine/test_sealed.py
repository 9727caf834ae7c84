"""PRJ-1: sealed choices are committed as salted hashes, revealed at once, verifiable
afterwards, and their result never depends on the order of the commits."""

from __future__ import annotations

import itertools

import pytest

from pax_hispanica import api
from pax_hispanica.engine import sealed
from pax_hispanica.engine.flow import Out
from support import scenario

from .helpers import play, without


def sealed_log(events):
    commits = {(e["id"], e["seat"]): e["hash"] for e in events if e["type"] == "ChoiceCommitted"}
    reveals = [e for e in events if e["type"] == "ChoicesRevealed"]
    return commits, reveals


@pytest.mark.parametrize("n,seed", [(3, 2 ** 70 + 1), (5, 12)])
def test_PRJ_1_every_revealed_choice_verifies_against_its_published_hash(n, seed):
    g = play(n, seed, bot_seed=n)
    commits, reveals = sealed_log(g.events)
    assert reveals and {r["decision"] for r in reveals} >= {"bid"}
    started, ended = g.events[0], g.events[-1]
    assert started["type"] == "GameStarted" and ended["type"] == "GameEnded"
    # the seed published at the end matches the hash published at setup
    assert ended["seed"] == seed and sealed.seed_hash(ended["seed"]) == started["seed_hash"]
    for r in reveals:
        for choice in r["choices"]:
            assert commits[(r["id"], choice["seat"])] == choice["hash"]      # published before the reveal
            assert sealed.verify(r["id"], choice) and api.verify(r["id"], choice)
            # and the salt was derived from the seed, so nobody could pick it after the fact
            assert choice["salt"] == sealed.salt(ended["seed"], r["id"], choice["seat"])
            forged = dict(choice, value=choice["value"] + 1 if isinstance(choice["value"], int) else "x")
            assert not sealed.verify(r["id"], forged)
    assert len(commits) == sum(len(r["choices"]) for r in reveals)


def test_PRJ_1_commits_are_published_before_the_reveal_and_the_reveal_is_all_at_once():
    g = scenario({"year": "auction", "step": "auctions", "order": [0, 1, 2],
                  "players": [{"money": 5}, {"money": 5}, {"money": 5}]})
    g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": False})
    assert api.acting(g.state) == (0, 1, 2)
    ev = g.act({"seat": 2, "type": "bid", "amount": 4})
    assert [e["type"] for e in ev] == ["ChoiceCommitted", "ChoiceSealed"]
    assert api.acting(g.state) == (0, 1)
    assert not any(e["type"] == "ChoicesRevealed" for e in g.events)
    g.act({"seat": 0, "type": "bid", "amount": 1})
    ev = g.act({"seat": 1, "type": "bid", "amount": 2})
    rev = [e for e in ev if e["type"] == "ChoicesRevealed"]
    assert len(rev) == 1 and [c["seat"] for c in rev[0]["choices"]] == [0, 1, 2]
    assert [c["value"] for c in rev[0]["choices"]] == [1, 2, 4]
    assert g.state.secrets == {}


def _auction(order):
    g = scenario({"year": "auction", "step": "auctions", "order": [1, 0, 2],
                  "players": [{"money": 6}, {"money": 6}, {"money": 6}]}, seed=9)
    g.act({"seat": 1, "type": "initiate", "deck": "market", "buried": True})
    bids = {0: 3, 1: 3, 2: 3}
    last = []
    for s in order:
        last = g.act({"seat": s, "type": "bid", "amount": bids[s]})
    return g, last


def _battle(order):
    g = scenario({"year": "sail", "step": "voyages", "order": [0, 1, 2, 3],
                  "players": [{"fleet": {"zone": "jamaica", "ships": 3}}, {}, {"fleet": {"zone": "jamaica"}},
                              {"fleet": {"zone": "jamaica", "ships": 2}}]}, players=4, seed=9)
    g.act({"seat": 0, "type": "attack", "target": "jamaica.port_royal"})
    sides = {2: "target", 3: "attacker"}
    assert set(api.acting(g.state)) == set(sides)
    last = []
    for s in order:
        last = g.act({"seat": s, "type": "support", "side": sides[s]})
    return g, last


@pytest.mark.parametrize("make,seats", [(_auction, (0, 1, 2)), (_battle, (2, 3))])
def test_PRJ_1_permuting_the_commits_gives_the_same_result(make, seats):
    results = []
    for order in itertools.permutations(seats):
        g, last = make(order)
        reveal_on = [without(e, "seq") for e in last if e["type"] != "ChoiceCommitted" and e["type"] != "ChoiceSealed"]
        results.append((g.state.to_dict(), reveal_on))
    assert all(r == results[0] for r in results[1:])
    assert any(e["type"] == "ChoicesRevealed" for e in results[0][1])


def test_PRJ_1_a_salt_is_the_hmac_of_its_decision_and_seat_keyed_from_the_seed():
    """sealed.salt is HMAC-SHA256 keyed from the seed: the digest hmac.new gives, for many
    seeds, ids and seats, memoised or not."""
    import hashlib
    import hmac

    from pax_hispanica.engine import sealed
    from pax_hispanica.engine.keys import derive
    for seed in (0, 1, 7, 2 ** 62 + 5, 123456789):
        for dec_id in ("bid.1.3", "battle.2.40", "x" * 90):
            for seat in range(5):
                want = hmac.new(derive(seed, "paxh-salt"), f"{dec_id}|{seat}".encode(), hashlib.sha256).hexdigest()
                assert sealed.salt(seed, dec_id, seat) == want
                assert sealed.salt(seed, dec_id, seat) == want          # the memo gives it again
                assert sealed.salt.__wrapped__(seed, dec_id, seat) == want


def test_PRJ_1_a_sealed_choice_committed_twice_is_refused_in_words():
    st = api.new_game(api.Config(players=3), 2)
    seat = api.acting(st)[0]
    initiate = next(a for a in api.expand(api.legal_actions(st, seat)) if a["type"] == "initiate")
    st = api.apply(st, initiate)[0]
    assert api.decision(st)["decision"] == "bid"
    seat = api.acting(st)[0]
    st = api.apply(st, {"seat": seat, "type": "bid", "amount": 0})[0]
    new = st.copy()
    with pytest.raises(api.IllegalAction) as e:
        sealed.commit(new, new.stack[-1], seat, 1, Out(new), lambda *a: None)
    assert (e.value.code, e.value.message) == \
        ("already_committed", "Your choice is already sealed; it cannot be changed before the reveal.")
