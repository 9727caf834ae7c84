"""pax_hispanica.rl.encoding: the integer action space (docs/rl.md). Over random positions of every
year, 2-5 players: encode/decode round trips, and the mask is exactly the engine's legal actions
under the documented bid rule (amounts 0..bid_cap)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numpy")

from pax_hispanica import api
from pax_hispanica.rl import encoding
from support import random_game, scenario


def normal(action: dict) -> dict:
    return {k: v for k, v in action.items() if v is not None}


def check_position(st, seat, enc) -> int:
    ds = api.legal_actions(st, seat)
    mask = enc.mask(ds)
    legal = [normal(a) for a in api.iter_actions(ds)]
    representable = [a for a in legal if not (a["type"] == "bid" and a["amount"] > enc.bid_cap)]
    # every legal action within the rule has an index, which decodes back to it
    idx = {enc.encode(a) for a in representable}
    for a in representable:
        assert enc.decode(enc.encode(a), seat) == a
    # the mask is exactly those indices: nothing more, nothing less
    assert set(np.flatnonzero(mask).tolist()) == idx
    assert len(idx) == len(representable)              # no two legal actions share an index
    # and whatever the mask offers the engine accepts
    for i in np.flatnonzero(mask).tolist():
        assert normal(enc.decode(i, seat)) in legal
    return len(legal) - len(representable)


@pytest.mark.parametrize("n,seed", [(2, 17), (3, 3), (4, 11), (5, 15)])    # seeds whose games meet a labour decision (reference-8)
def test_PRJ_7_mask_equals_legal_actions_and_round_trips_over_random_games(n, seed):
    enc = encoding.encoding_for()
    years, types = set(), set()

    def on_step(before, action, after, events):
        if after.over:
            return
        view = api.view(after, None, include_state=False, board=False)
        years.add(view["year"])
        for seat in api.acting(after):
            check_position(after, seat, enc)
        types.add(action["type"])
        assert enc.decode(enc.encode(action), action["seat"]) == normal(action)

    random_game(n, seed, on_step=on_step)
    assert years == {"goods", "auction", "play", "sail"}
    assert {"labour", "initiate", "bid", "play", "end_voyage"} <= types


def test_PRJ_7_every_index_decodes_to_a_well_formed_action_and_back():
    enc = encoding.encoding_for()
    assert enc.size == sum(b[3] for b in enc.blocks)
    r = random.Random(3)
    for i in sorted(r.sample(range(enc.size), 600)) + [0, enc.size - 1]:
        a = enc.decode(i, 2)
        assert a["seat"] == 2 and enc.encode(a) == i
    with pytest.raises(IndexError):
        enc.decode(enc.size, 0)
    assert "undo" not in {b[0] for b in enc.blocks}
    assert len(set(enc.labels())) == enc.size


def test_AUC_3_a_bid_maps_to_its_amount_and_amounts_above_the_cap_are_not_offered():
    g = scenario({"year": "auction", "step": "auctions", "order": [0, 1, 2],
                  "players": [{"money": 40}, {"money": 3}, {"money": 4}]})
    g.act({"seat": 0, "type": "initiate", "deck": "market", "buried": False})
    enc = encoding.encoding_for(g.state)
    off = enc.encode({"seat": 0, "type": "bid", "amount": 0})
    assert enc.encode({"seat": 1, "type": "bid", "amount": 7}) == off + 7
    for seat in api.acting(g.state):
        m = enc.mask(api.legal_actions(g.state, seat))
        d = api.legal_actions(g.state, seat)[0]
        hi = min(d["max"], enc.bid_cap)
        assert np.flatnonzero(m).tolist() == list(range(off + d["min"], off + hi + 1))
    rich = api.acting(g.state)
    assert 0 in rich and check_position(g.state, 0, enc) == 40 - enc.bid_cap
    with pytest.raises(KeyError):
        enc.encode({"seat": 0, "type": "bid", "amount": enc.bid_cap + 1})


def test_PRJ_7_the_module_functions_use_the_ruleset_of_the_view():
    st = api.new_game(api.Config(players=3), seed=9)
    seat = api.acting(st)[0]
    view = api.view(st, seat, include_state=False)
    for i in np.flatnonzero(encoding.action_mask(st, seat)).tolist():
        a = encoding.decode(i, view, seat)
        assert encoding.encode(a, view) == i == encoding.encode(a, st)
        api.apply(st, a)                            # accepted
