"""Issue 13's voyage legal actions: the options of a voyage (SAIL-1) and a zone's battle
targets (BAT-2) read the ruleset's zone -> colonies table (Ruleset.zone_cols, made once when
the ruleset is built) instead of scanning every colony of the map each call. They are the
old scan's, in the same order (a random bot's nth_action, and so every recorded game, depends
on it), at every voyage decision of random and heuristic games of 2 to 5 players."""

from __future__ import annotations

import random

import pytest

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.engine import battle, loading, treasure
from pax_hispanica.engine.vocab import CHEST, CITIZEN, INDIGENOUS


def old_targets(st, seat: int, zone: int) -> list[str]:
    """battle.targets as it was: every colony of the map looked at."""
    rs = st.rs
    out = [rs.col_ids[c] for c, z in enumerate(rs.col_zone)
           if z == zone and st.col_owner[c] is not None and st.col_owner[c] != seat]
    if st.rebels[zone] > 0:
        out.append("rebels")
    out += [st.site_ids[i] for i, z in enumerate(st.site_zone)
            if z == zone and st.site_kind[i] in ("tribal", "visita") and st.site_count[i] > 0]
    return out


def old_voyage_options(st, seat: int, v) -> list[dict]:
    """sail.voyage_options as it was before the zone table (every colony scanned, twice)."""
    rs = st.rs
    z = st.fzone[seat]
    opts = []
    if not v["started"] and z == rs.europe:
        opts += [{"seat": seat, "type": "start_at_haven", "zone": rs.zone_ids[h]} for h in dict.fromkeys(st.havens[seat])]
    if v["moves"] > 0:
        opts += [{"seat": seat, "type": "move", "to": rs.zone_ids[a]} for a in rs.adjacent[z]]
    if rs.is_land(z):
        if z not in v["battled"]:
            opts += [{"seat": seat, "type": "attack", "target": t} for t in old_targets(st, seat, z)]
        if v["won_site"] is not None and v["won_site"] in st.site_ids:
            i = st.site_ids.index(v["won_site"])
            n = min(st.site_count[i], loading.meeple_room(st, seat))
            opts += [{"seat": seat, "type": "enslave", "count": k} for k in range(1, n + 1)]
        for c, cz in enumerate(rs.col_zone):
            if cz == z and st.col_owner[c] is not None and st.col_chests[c] > 0:
                n = treasure.load_limit(st, seat, c, v)
                opts += [{"seat": seat, "type": "load_chests", "colony": rs.col_ids[c], "count": k}
                         for k in range(1, n + 1)]
        kinds = [str(m) for m in dict.fromkeys(x for x in st.cargo[seat] if x != CHEST)]
        opts += [{"seat": seat, "type": "unload", "colony": rs.col_ids[c], "meeple": m}
                 for c in st.vacant_colonies(seat) if rs.col_zone[c] == z for m in kinds]
        if z in st.havens[seat] and CHEST in st.cargo[seat]:
            opts.append({"seat": seat, "type": "unload_haven"})
    opts.append({"seat": seat, "type": "end_voyage"})
    return opts


def _games():
    """Every state of random and heuristic games, 2 to 5 players."""
    for players, seed, heuristic in [(2, 31, False), (3, 32, True), (4, 33, False), (4, 34, True), (5, 35, True),
                                     (5, 36, False)]:
        bots = [make_agent("heuristic" if heuristic else "random", seed + s) for s in range(players)]
        st, r = api.new_game(api.Config(players=players), seed), random.Random(seed)
        while not st.over:
            yield st
            seat = r.choice(api.acting(st))
            st, _ = api.apply(st, bots[seat].decide(api.view(st, seat), api.legal_actions(st, seat)))


def test_SAIL_1_voyage_options_and_BAT_2_targets_are_the_old_scans_in_the_same_order():
    seen: dict[str, int] = {}
    voyages = 0
    for st in _games():
        rs = st.rs
        assert [c for z in range(len(rs.zone_ids)) for c in rs.zone_cols[z]] == \
            sorted(range(len(rs.col_ids)), key=lambda c: (rs.col_zone[c], c))
        if st.year == 3:                         # the Sail Year: every seat's targets in every land zone
            for seat in range(st.n):
                for z in range(rs.n_land):
                    assert battle.targets(st, seat, z) == old_targets(st, seat, z)
        dec = st.stack[-1] if st.stack else None
        if dec is None or dec["d"] != "voyage":
            continue
        seat = dec["seats"][0]
        legal = api.legal_actions(st, seat)
        assert len(legal) == 1 and legal[0]["options"] == old_voyage_options(st, seat, dec)
        voyages += 1
        options = list(legal[0]["options"])
        z = st.fzone[seat]
        if rs.is_land(z):
            # the same position with meeples aboard and the zone's colonies the seat's, every other
            # one vacant, and a Chest on each: the unload and load_chests options of every colony
            alt = st.copy()
            alt.cargo = [c[:] for c in alt.cargo]
            alt.cargo[seat] = alt.cargo[seat] + [CITIZEN, INDIGENOUS]
            alt.col_owner, alt.col_labour, alt.col_chests = alt.col_owner[:], alt.col_labour[:], alt.col_chests[:]
            for k, c in enumerate(c for c, cz in enumerate(rs.col_zone) if cz == z):
                alt.col_owner[c] = seat if k % 3 else (seat + 1) % st.n
                alt.col_labour[c] = None if k % 2 == 0 else alt.col_labour[c]
                alt.col_chests[c] += 1
            alt_dec = alt.stack[-1]
            assert api.legal_actions(alt, seat)[0]["options"] == old_voyage_options(alt, seat, alt_dec)
            options += api.legal_actions(alt, seat)[0]["options"]
        for o in options:
            seen[o["type"]] = seen.get(o["type"], 0) + 1
    assert voyages > 300, voyages
    for kind in ("move", "attack", "load_chests", "unload", "end_voyage"):
        assert seen.get(kind, 0) >= 5, (kind, sorted(seen.items()))


def old_colony_prestige_all(st) -> list[int]:
    """end.colony_prestige_all as it was: a loop over every colony space (the King's colonies:
    the game's Crown colonies, PRJ-75, so with 2 and 3 players the first 6 of the map's, PRJ-77)."""
    out = [0] * st.n
    if st.over:
        return out
    rs = st.rs
    spanish = st.spanish_seat()
    normal, kings, crown = rs.prestige_per_colony, rs.crown_colony_prestige, rs.crown_of_game(st.n, spanish is not None)
    for c, owner in enumerate(st.col_owner):
        if owner is not None and owner >= 0:
            out[owner] += kings if (owner == spanish and crown[c]) else normal
    return out


@pytest.mark.parametrize("params", [{}, {"crown_colony_prestige": 2, "prestige_per_colony": 1},
                                    {"crown_colony_prestige": 0, "prestige_per_colony": 3}])
def test_CYC_3_PRJ_30_colony_prestige_counted_per_seat_is_the_old_loops(params):
    """end.colony_prestige_all reuses its last numbers when the owners and nations equal the
    last ones (issue 13): the old per-colony loop's numbers at every state of random games
    with and without the Spanish player, and for one King's colony given to each seat, to
    the Crown and to nobody in turn (each a new list: the memo must see the change)."""
    from pax_hispanica.engine.end import colony_prestige_all
    from pax_hispanica.engine.state import CROWN
    spanish_seen = crown_owned = 0
    for players, seed in [(2, 41), (4, 42), (5, 43)]:
        st = api.new_game(api.Config(players=players, params=params), seed)
        r = random.Random(seed)
        while True:
            assert colony_prestige_all(st) == old_colony_prestige_all(st)
            spanish = st.spanish_seat()
            spanish_seen += spanish is not None
            crown_cols = [c for c, crown in enumerate(st.rs.col_crown) if crown]
            if not st.over and crown_cols:
                alt = st.copy()
                c = crown_cols[st.version % len(crown_cols)]
                for owner in (*range(st.n), CROWN, None):
                    alt.col_owner = alt.col_owner[:]
                    alt.col_owner[c] = owner
                    crown_owned += owner == spanish and spanish is not None
                    assert colony_prestige_all(alt) == old_colony_prestige_all(alt)
                    alt.col_owner[c] = st.col_owner[c]        # changed in place: compared by value
                    assert colony_prestige_all(alt) == old_colony_prestige_all(st)
            if st.over:
                break
            seat = r.choice(api.acting(st))
            legal = api.legal_actions(st, seat)
            st, _ = api.apply(st, api.nth_action(legal, r.randrange(api.count_actions(legal))))
    assert spanish_seen and crown_owned
