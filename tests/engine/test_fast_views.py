"""Issue 13's fast paths change no output: `api.view` (engine/fast_views.py: built from the state's
fields, the ruleset's static parts cached), the samples of engine/fast_determinizer.py,
`api.information_state` (the masked state without the
generic `_plain` walk over `to_dict`) and the cached `acting` give exactly what the old
construction gave (tests/engine/reference_view.py), compared as objects and as JSON bytes,
for every seat and a spectator, over positions of random and heuristic games of 2 to 5
players, a variant ruleset, and finished games."""

from __future__ import annotations

import json
import random

import pytest

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.engine.flow import acting as cached_acting
from pax_hispanica.engine.flow import seats_to_act
from pax_hispanica.engine.state import (COPIED, COPIED_NESTED, DICTS, FIELDS, SHARED, SHARED_DICTS, SHARED_NESTED,
                                         from_fields)

from .reference_view import reference_determinize, reference_masked_state, reference_view


def _bytes(x) -> bytes:
    return json.dumps(x, separators=(",", ":"), ensure_ascii=False).encode()


def random_positions(players: int, seed: int, every: int, params: dict | None = None) -> list:
    cfg = api.Config(players=players, params=params or {})
    st = api.new_game(cfg, seed)
    r = random.Random(seed)
    out = [st]
    i = 0
    while not st.over:
        seat = r.choice(api.acting(st))
        legal = api.legal_actions(st, seat)
        st, _ = api.apply(st, api.nth_action(legal, r.randrange(api.count_actions(legal))))
        i += 1
        if i % every == 0 or st.over:
            out.append(st)
    return out


def heuristic_positions(players: int, seed: int, every: int) -> list:
    bots = [make_agent("heuristic", seed + s) for s in range(players)]
    st = api.new_game(api.Config(players=players), seed)
    out = [st]
    i = 0
    while not st.over:
        seat = api.acting(st)[0]
        legal = api.legal_actions(st, seat)
        st, _ = api.apply(st, bots[seat].decide(api.view(st, seat, include_state=False), legal))
        i += 1
        if i % every == 0 or st.over:
            out.append(st)
    return out


def _positions() -> list:
    states = []
    for players in (2, 3, 4, 5):
        for k in range(2):
            states += random_positions(players, 100 + 10 * k + players, 3)
            states += heuristic_positions(players, 200 + 10 * k + players, 4)
    states += random_positions(3, 77, 3, params={"start_money": 25})
    return states


POSITIONS = _positions()


def test_positions_cover_every_year_sealed_choices_and_the_end():
    years = {api.view(st, None, include_state=False)["year"] for st in POSITIONS}
    assert years == {"goods", "auction", "play", "sail"}
    assert any(st.stack and st.stack[-1].get("sealed") and st.stack[-1]["committed"] for st in POSITIONS)
    assert any(st.secrets for st in POSITIONS) and any(st.over for st in POSITIONS)
    assert len(POSITIONS) > 400


@pytest.mark.parametrize("include_state", [True, False])
def test_view_is_the_old_view_byte_for_byte(include_state):
    for st in POSITIONS:
        for viewer in [None, *range(st.n)]:
            new = api.view(st, viewer, include_state=include_state)
            old = reference_view(st, viewer, include_state=include_state)
            assert new == old
            assert _bytes(new) == _bytes(old)


def test_information_state_is_the_old_masked_state():
    for st in POSITIONS:
        for viewer in [None, *range(st.n)]:
            new = api.information_state(st, viewer)
            old = reference_masked_state(st, viewer)
            assert new == old and list(new) == list(old)
            assert _bytes(new) == _bytes(old)


def test_information_state_shares_no_list_or_dict_with_the_state():
    """A caller may change what it receives; the state must not change with it."""
    st = POSITIONS[len(POSITIONS) // 2]
    before = api.snapshot(st)
    d = api.information_state(st, 0)
    for v in d.values():
        if isinstance(v, list):
            v.append("x")
            for x in v:
                if isinstance(x, list):
                    x.append("x")
        elif isinstance(v, dict):
            v["x"] = 1
    assert api.snapshot(st) == before


def test_determinize_reads_a_view_or_an_information_state_alike():
    for st in POSITIONS[::17]:
        if st.over:
            continue
        seat = api.acting(st)[0]
        a = api.determinize(api.view(st, seat, include_state=True), 5)
        b = api.determinize(api.information_state(st, seat), 5)
        assert api.snapshot(a) == api.snapshot(b)


def test_determinize_gives_the_old_samples():
    """The sampler (a template State, the unseen cards worked out once) deals what the old
    determinize dealt: every field, acting, for several seeds, over positions of all years."""
    checked = 0
    for st in POSITIONS[::3]:
        if st.over:
            continue
        for seat in api.acting(st):
            info = api.information_state(st, seat)
            sampler = api.determinizer(info)
            for seed in (1, 2 ** 62 + 3, 987654321):
                old = reference_determinize(info, seed)
                for new in (api.determinize(info, seed), sampler(seed)):
                    assert api.snapshot(new) == api.snapshot(old)
                    assert new.acting_now == old.acting_now == seats_to_act(new)
                    assert new.undo_stack == () and new.undo_seat is None
                checked += 1
    assert checked > 300


def test_determinize_template_is_from_fields_field_by_field():
    """The sampler's template shares the view's lists instead of copying them (issue 13,
    seventh round) and converts the rest itself: every field equals what state.from_fields
    builds, with the same types down to the elements (the words as vocab's members, tableau
    entries and the decisions' sequences as tuples), but the sample's own (seed, PRNG, the
    hidden cards, the secrets) and the shared lists are the view's own objects."""
    checked = 0
    for st in POSITIONS[::4]:
        for seat in api.acting(st) or [0]:
            info = json.loads(_bytes(api.information_state(st, seat)))     # as a client has it: plain words
            dz = api.determinizer(info)
            tpl = dz.template
            ref = from_fields(info, tpl.rs, info.get("seed_hash") or "")
            for name in FIELDS:
                if name in ("seed", "rng", "market", "haven", "hands", "secrets", "acting_now"):
                    continue
                a, b = getattr(tpl, name), getattr(ref, name)
                assert a == b and type(a) is type(b), name
                if isinstance(a, list):
                    assert [type(x) for x in a] == [type(x) for x in b], name
                    for x, y in zip(a, b):
                        if isinstance(x, (list, dict)):
                            assert x == y and [type(e) for e in x] == [type(e) for e in y], name
                            if name == "stack":
                                assert {k: type(e) for k, e in x.items()} == {k: type(e) for k, e in y.items()}
            # cargo (its words made members) and supply are the template's own, though State.copy
            # shares them since the loop's seventh round (their writers replace them)
            for name in SHARED + SHARED_NESTED + SHARED_DICTS:
                if name not in ("legality", "col_labour", "tableaus", "secrets", "cursor", "cargo", "supply"):
                    assert getattr(tpl, name) is info[name], name      # shared, not copied
            for name in COPIED + COPIED_NESTED + DICTS + ("stack", "cargo", "supply"):
                assert getattr(tpl, name) is not info[name], name
            checked += 1
    assert checked > 30


def test_playing_a_sample_leaves_the_view_it_shares_lists_with_unchanged():
    """A sample shares the view's lists that no rule changes in place: whole stretches of
    play from samples (apply and apply_trusted) leave the view as it was, byte for byte."""
    r = random.Random(13)
    for st in POSITIONS[::9]:
        if st.over:
            continue
        seat = api.acting(st)[0]
        v = api.view(st, seat, include_state=True)
        before = _bytes(v)
        for seed, trusted in ((1, False), (2, True)):
            for sample in (api.determinize(v, seed), api.determinizer(v)(seed)):
                for _ in range(40):
                    if sample.over:
                        break
                    s = r.choice(api.acting(sample))
                    legal = api.legal_actions(sample, s)
                    a = api.nth_action(legal, r.randrange(api.count_actions(legal)))
                    sample = api.apply_trusted(sample, a) if trusted else api.apply(sample, a)[0]
        assert _bytes(v) == before


def test_samples_of_one_determinizer_share_nothing_a_rule_changes():
    st = next(s for s in POSITIONS if not s.over and s.year == 3 and s.version > 60)
    seat = api.acting(st)[0]
    sampler = api.determinizer(api.information_state(st, seat))
    a, b = sampler(1), sampler(2)
    for name in COPIED + DICTS + ("stack",):      # what State.copy copies: what the rules change in place
        assert getattr(a, name) is not getattr(b, name), name
    assert all(x is not y for x, y in zip(a.hands, b.hands))
    before = api.snapshot(b)
    a.money[0] += 5                 # cargo and supply are shared like the other SHARED fields since
    a.hands[0].append("x")          # issue 13's seventh round (their writers replace them:
    a.stack[-1]["x"] = 1            # test_state_copy.py's read-only copies prove it)
    assert api.snapshot(b) == before and api.snapshot(sampler(2)) == before


def test_decision_is_the_views_decision_with_its_name_under_decision():
    for st in POSITIONS[::5]:
        seen = reference_view(st, 0, include_state=False)["decision"]
        if seen is None:
            assert api.decision(st, None) is None
            continue
        named = {"decision": seen["d"], **{k: v for k, v in seen.items() if k != "d"}}
        assert api.decision(st, None) == named
        assert api.decision(st, 0) == (named if 0 in api.acting(st) else None)


def test_acting_cached_by_apply_is_what_the_decision_says():
    for st in POSITIONS:
        assert cached_acting(st) == seats_to_act(st)     # what apply stored = the decision's seats


def test_model_view_is_part_of_the_view():
    """api.model_view's keys are the view's, with the view's values (players: each key of a
    player, the fleet's of its fleet), for every seat and a spectator."""
    for st in POSITIONS[::2]:
        for viewer in [None, *range(st.n)]:
            facts, whole = api.model_view(st, viewer), api.view(st, viewer)
            assert {k: v for k, v in facts.items() if k != "players"} == \
                {k: whole[k] for k in facts if k != "players"}
            for p, q in zip(facts["players"], whole["players"], strict=True):
                assert p["fleet"] == {k: q["fleet"][k] for k in p["fleet"]}
                assert {k: v for k, v in p.items() if k != "fleet"} == {k: q[k] for k in p if k != "fleet"}


def test_bid_facts_are_the_model_views_facts():
    """api.bid_facts (ISMCTS's memo key for the heuristic's bids) is what model_view shows."""
    checked = 0
    for st in POSITIONS:
        for seat in range(st.n):
            facts = api.model_view(st, seat)
            dec = facts["decision"] or {}
            me = facts["players"][seat]
            want = (dec.get("card"), dec.get("deck"), dec.get("initiator"), me["money"], me["fleet"]["legality"],
                    me["fleet"]["ships"], facts["cycle"])
            got = api.bid_facts(st, seat)
            assert got == want and [type(x) for x in got] == [type(x) for x in want]
            checked += dec.get("d") == "bid"
    assert checked > 20


def test_a_view_without_the_board_is_the_view_without_the_map():
    for st in POSITIONS[::3]:
        whole = api.view(st, 0, include_state=False)
        light = api.view(st, 0, include_state=False, board=False)
        assert light == {k: v for k, v in whole.items() if k not in ("colonies", "sites", "rebels")}


def test_a_view_hiding_more_cards_than_are_unseen_is_refused():
    st = next(s for s in POSITIONS if not s.over)
    seat = api.acting(st)[0]
    for field, extra in (("market", 200), ("haven", 200)):
        info = api.information_state(st, seat)
        info[field] = info[field] + ["?"] * extra
        with pytest.raises(ValueError, match="hides more cards than are unseen"):
            api.determinizer(info)
        with pytest.raises(ValueError, match="hides more cards than are unseen"):
            api.determinize(info, 1)
    info = api.information_state(st, seat)
    other = (seat + 1) % len(info["hands"])
    info["hands"][other] = info["hands"][other] + ["?"] * 200
    with pytest.raises(ValueError, match="hides more cards than are unseen"):
        api.determinize(info, 1)


def _containers(x, out: dict) -> dict:
    """Every list and dict in `x` (nested), by id, with the object (kept alive)."""
    if isinstance(x, (list, dict)):
        out[id(x)] = x
        for v in (x.values() if isinstance(x, dict) else x):
            _containers(v, out)
    elif isinstance(x, tuple):
        for v in x:
            _containers(v, out)
    return out


def _state_containers(st) -> dict:
    from pax_hispanica.engine.state import FIELDS
    out: dict = {}
    for name in FIELDS:
        _containers(getattr(st, name, None), out)
    return out


def _mutate_all(x) -> None:
    """Change every list and dict in `x` in place (nested ones first)."""
    if isinstance(x, dict):
        for v in list(x.values()):
            _mutate_all(v)
        x["mutated"] = 1
    elif isinstance(x, list):
        for v in x:
            _mutate_all(v)
        x.append("mutated")


def test_a_views_lists_and_dicts_are_its_own():
    """HID-1's views are handed to callers, which may change them (docs/api.md): no list or
    dict of a view is another view's, the state's or the view cache's (the last board's filled
    dicts, issue 13); changing every one of them in place changes no other view, no later view
    and not the state. Positions of every year, with sealed choices, and finished games (whose
    "result" is the state's own)."""
    from pax_hispanica.engine import fast_views as view_module
    picked = [st for st in POSITIONS[::9]] + [st for st in POSITIONS if st.over][:3]
    assert any(st.over for st in picked) and any(st.stack and st.stack[-1].get("sealed") for st in picked)
    for st in picked:
        for viewer in (None, 0):
            for board in (True, False):
                a = api.view(st, viewer, include_state=False, board=board)
                b = api.view(st, viewer, include_state=False, board=board)
                before, b_bytes = api.snapshot(st), _bytes(b)
                mine = _containers(a, {})
                cache = view_module._static(st.rs)
                cached = _containers((cache.colonies, cache.sites, cache.filled_colonies, cache.filled_sites), {})
                assert not set(mine) & set(_containers(b, {}))
                assert not set(mine) & set(_state_containers(st))
                assert not set(mine) & set(cached)
                _mutate_all(a)
                assert _bytes(b) == b_bytes
                assert api.snapshot(st) == before
                assert _bytes(api.view(st, viewer, include_state=False, board=board)) == b_bytes


@pytest.mark.parametrize("board", [True, False])
def test_PRJ_65_a_shared_view_is_the_view(board):
    """view(..., copy=False) (PRJ-65): equal to the default view, the same JSON, for every seat
    and a spectator over all positions; only who owns its lists and dicts differs."""
    for st in POSITIONS:
        for viewer in [None, *range(st.n)]:
            shared = api.view(st, viewer, board=board, copy=False)
            own = api.view(st, viewer, board=board)
            assert shared == own and list(shared) == list(own)
            assert _bytes(shared) == _bytes(own)


def test_PRJ_65_a_shared_view_shares_what_it_says_and_the_default_view_does_not():
    """The shared view really is the cheaper one (it hands out the state's and the cache's
    objects), so the default view's copies are not dead code: a mutant that shares in the
    default view fails test_a_views_lists_and_dicts_are_its_own, one that copies here fails this."""
    from pax_hispanica.engine import fast_views as view_module
    st = next(s for s in POSITIONS if not s.over and any(s.cargo) and s.market_discard)
    v = api.view(st, 0, copy=False)
    cache = view_module._static(st.rs)
    assert v["players"][0]["hand"] is st.hands[0] and v["decks"]["market_discard"] is st.market_discard
    assert v["supply"] is st.supply and v["order"] is st.order
    assert v["colonies"] is cache.filled_colonies[1] and v["sites"] is cache.filled_sites[1]


def test_PRJ_65_no_client_facing_code_asks_for_a_shared_view():
    """A shared view must never reach a client or a caller's code: no module outside the engine
    and the bots (the web server, the command line, the TUI, the simulator, the RL wrappers) calls
    view(..., copy=...) at all."""
    import ast
    from pathlib import Path

    import pax_hispanica
    root = Path(pax_hispanica.__file__).parent
    checked = 0
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).parts
        if rel[0] in ("engine", "bots"):
            continue
        checked += 1
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and any(k.arg == "copy" for k in node.keywords):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                assert name != "view", f"{path}:{node.lineno} asks for a shared view (PRJ-65)"
    assert checked > 30
