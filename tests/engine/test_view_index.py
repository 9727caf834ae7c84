"""api.index: a view's players, colonies and sites keyed by id, and what stands in each zone."""

from __future__ import annotations

import json
import random

from pax_hispanica import api


def _some_states():
    g = api.Game.new(api.Config(players=4), seed=21)
    r = random.Random(21)
    out = []
    while not api.is_over(g.state):
        if g.state.version % 25 == 0:
            out.append(g.state)
        s = api.acting(g.state)[0]
        legal = api.legal_actions(g.state, s)
        g.act(api.nth_action(legal, r.randrange(api.count_actions(legal))))
    return out + [g.state]


def test_index_finds_every_colony_site_and_player_by_id_and_leaves_the_view_unchanged():
    for st in _some_states():
        v = api.view(st, 0, include_state=False)
        before = json.dumps(v, sort_keys=True)
        ix = api.index(v)
        assert json.dumps(v, sort_keys=True) == before
        rs = st.rs
        for c, cid in enumerate(rs.col_ids):
            col = ix.colony(cid)
            assert col["id"] == cid and col["chests"] == st.col_chests[c] and col["labour"] == st.col_labour[c]
        for i, sid in enumerate(st.site_ids):
            assert ix.site(sid)["count"] == st.site_count[i]
        for s in range(st.n):
            assert ix.player(s)["money"] == st.money[s]
            assert s in ix.zones[rs.zone_ids[st.fzone[s]]]["fleets"]
            owned = {c["id"] for c in ix.colonies_of(s)}
            assert owned == {rs.col_ids[c] for c in range(len(rs.col_ids)) if st.col_owner[c] == s}
        for z, n in enumerate(st.rebels):
            if n:
                assert ix.zones[rs.zone_ids[z]]["rebels"] == n
        for cid, col in ix.colonies.items():
            assert cid in ix.zones[col["zone"]]["colonies"]


def test_index_of_a_view_without_its_board():
    st = api.new_game(api.Config(players=3), seed=1)
    ix = api.index(api.view(st, None, include_state=False, board=False))
    assert ix.colonies == {} and ix.sites == {} and set(ix.players) == {0, 1, 2}
