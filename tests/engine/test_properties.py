"""Property tests (Hypothesis, bounded): random legal games of 2-5 players.

Heavier runs: `pytest -m soak tests/engine/test_properties.py` (more examples)."""

from __future__ import annotations

import contextlib
import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from pax_hispanica import api
from pax_hispanica.engine.flow import acting

from .helpers import all_cards, counts, play, secret_violations
from .test_views import perturbed

PLAYERS = hs.sampled_from([2, 3, 4, 5])
SEEDS = hs.integers(min_value=0, max_value=2 ** 64)
FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SOAK = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_game_invariants(n, seed):
    first = {}

    def on_step(before, action, after, events):
        nonlocal first
        if not first:
            first = counts(before)
            assert first["cards"] == all_cards(before)
        now = counts(after)
        assert now == first, (action, {k: (first[k], now[k]) for k in now if now[k] != first[k]})
        if not after.over:
            seats = api.acting(after)
            assert seats, "nobody to act in a game that is not over"
            for s in range(after.n):
                legal = api.expand(api.legal_actions(after, s))
                assert bool(legal) == (s in seats), (s, seats)
        assert after.version == before.version + 1

    g = play(n, seed, on_step=on_step)
    r = api.result(g.state)
    assert api.is_over(g.state) and api.acting(g.state) == ()
    assert 0 <= r["winner"] < n and sorted(r["ranking"]) == list(range(n))
    assert all(api.legal_actions(g.state, s) == [] for s in range(n))
    return g


@FAST
@given(PLAYERS, SEEDS)
def test_CYC_2_random_legal_games_reach_a_winner_with_someone_to_act_and_everything_conserved(n, seed):
    """CYC-2/CYC-3 always reached; someone must act until then; money (Pool accounted), cards
    (a permutation of all cards), meeples and Chests are conserved after every action."""
    check_game_invariants(n, seed)


@pytest.mark.soak
@SOAK
@given(PLAYERS, SEEDS)
def test_soak_random_games_invariants(n, seed):
    check_game_invariants(n, seed)


@SLOW
@given(PLAYERS, SEEDS, hs.integers(1, 7))
def test_HID_1_no_view_ever_carries_another_players_secret(n, seed, every):
    seed += 2 ** 64                      # a seed no small number in the state can equal

    def on_step(before, action, after, events):
        if after.version % every == 0 or (after.stack and after.stack[-1].get("sealed")):
            for viewer in [None, *range(after.n)]:
                assert secret_violations(after, viewer) == [], (viewer, action)

    play(n, seed, bot_seed=seed % 99991, on_step=on_step)


@FAST
@given(PLAYERS, SEEDS)
def test_PRJ_1_permuting_sealed_commits_gives_the_same_result(n, seed):
    g = play(n, seed, stop=lambda g: g.state.stack and g.state.stack[-1].get("sealed")
             and len(api.acting(g.state)) >= 2)
    st = g.state
    if st.over:
        return
    r = random.Random(seed)
    seats = api.acting(st)
    choice = {s: r.choice(api.expand(api.legal_actions(st, s))) for s in seats}
    results = []
    for order in itertools.islice(itertools.permutations(seats), 24):
        cur = st
        for s in order:
            cur, events = api.apply(cur, choice[s])
        results.append((cur.to_dict(), [dict(e, seq=0) for e in events if e["type"] not in
                                        ("ChoiceCommitted", "ChoiceSealed")]))
    assert all(x == results[0] for x in results)


@FAST
@given(PLAYERS, SEEDS)
def test_apply_is_pure_and_refusals_change_nothing(n, seed):
    r = random.Random(seed)
    g = api.Game.new(api.Config(players=n), seed)
    while not api.is_over(g.state):
        st = g.state
        snap = st.to_dict()
        seat = r.choice(api.acting(st))
        legal = api.expand(api.legal_actions(st, seat))
        action = r.choice(legal)
        new, _ = api.apply(st, action)
        assert st.to_dict() == snap, action                 # the input is untouched
        assert st.copy().to_dict() == snap
        for probe in (dict(action, seat=(seat + 1) % n), {"seat": seat, "type": "undo"}):
            with contextlib.suppress(api.IllegalAction):
                api.apply(st, probe)
            assert st.to_dict() == snap
        g.act(action)
        assert g.state.to_dict() == new.to_dict()           # apply is a function of its input


@FAST
@given(PLAYERS, SEEDS, hs.integers(0, 2 ** 32))
def test_same_record_replays_to_the_same_state_even_with_the_global_random_disturbed(n, seed, noise):
    g = play(n, seed)
    rec = json.loads(json.dumps(g.record))       # as saved and loaded
    r = api.Game.new(rec["config"], rec["seed"])
    disturb = random.Random(noise)
    for a in rec["actions"]:
        random.seed(disturb.random())           # anything the engine took from `random` would now differ
        random.random()
        r.act(a)
    assert r.state.to_dict() == g.state.to_dict()
    assert r.events == g.events
    assert api.replay(rec).state.to_dict() == g.state.to_dict()


@FAST
@given(PLAYERS, SEEDS, hs.integers(0, 400))
def test_snapshot_restore_round_trips_and_the_game_goes_on_identically(n, seed, at):
    g = play(n, seed)
    actions = g.record["actions"]
    at = min(at, len(actions))
    mid = api.replay(g.record, upto=at).state
    data = api.snapshot(mid)
    back = api.restore(data)
    assert back.to_dict() == mid.to_dict()
    assert api.view(back, None, include_state=True) == api.view(mid, None, include_state=True)
    for s in range(n):
        assert api.legal_actions(back, s) == api.legal_actions(mid, s)
    for a in actions[at:]:
        back, _ = api.apply(back, a)
    assert back.to_dict() == g.state.to_dict()


@SLOW
@given(PLAYERS, SEEDS, hs.integers(0, 2 ** 32), hs.integers(2, 9))
def test_determinize_gives_a_state_with_the_same_view_that_depends_only_on_the_view(n, seed, dseed, every):
    tried = [0]

    def on_step(before, action, after, events):
        if after.over or after.version % every:
            return
        for viewer in [None, *range(after.n)]:
            v = api.view(after, viewer, include_state=True)
            det = api.determinize(v, dseed)
            assert api.view(det, viewer, include_state=True) == v
            assert det.to_dict() == api.determinize(api.view(after, viewer, include_state=True), dseed).to_dict()
            other = perturbed(after, viewer)            # others' secrets differ, the view does not
            assert api.determinize(api.view(other, viewer, include_state=True), dseed).to_dict() == det.to_dict()
            # the sample is a playable state: every acting seat has a legal action that applies
            for s in acting(det):
                api.apply(det, api.expand(api.legal_actions(det, s))[0])
            tried[0] += 1

    play(n, seed, on_step=on_step)
    assert tried[0] > 0


JUNK = [None, True, -1, 0, 1, 2, 99, "", "x", "europe", "jamaica", "rebels", "market", "haven", "employ",
        "kidnap", "attacker", "target", "jamaica.port_royal", "nueva_espana.veracruz", "galeon-1", "tortuga"]
FIELDS = ["deck", "buried", "amount", "card", "target", "to", "zone", "colony", "count", "source", "site", "side"]


@FAST
@given(PLAYERS, SEEDS, hs.integers(2, 6))
def test_PRJ_7_legal_actions_are_exactly_what_apply_accepts(n, seed, every):
    """Every listed action applies; a probe action is accepted only when it is a listed one
    (possibly with ignored extra fields), and then gives the same state."""
    from pax_hispanica.engine.core import ACTION_TYPES
    r = random.Random(seed)

    def on_step(before, action, after, events):
        if after.over or after.version % every:
            return
        for seat in range(after.n):
            legal = api.expand(api.legal_actions(after, seat))
            for a in legal:
                api.apply(after, a)                       # never refused
            for _ in range(6):
                probe = {"seat": seat, "type": r.choice(sorted(ACTION_TYPES - {"undo"}))}
                for f in r.sample(FIELDS, r.randint(0, 3)):
                    probe[f] = r.choice(JUNK)
                try:
                    new, _ = api.apply(after, probe)
                except api.IllegalAction:
                    continue
                match = [a for a in legal if all(probe.get(k, False if k == "buried" else None) == v
                                                 for k, v in a.items())]
                assert match, probe
                assert api.apply(after, match[0])[0].to_dict() == new.to_dict()

    play(n, seed, on_step=on_step)


@pytest.mark.soak
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PLAYERS, SEEDS, hs.integers(0, 2 ** 32))
def test_soak_views_determinize_and_permutations(n, seed, dseed):
    test_HID_1_no_view_ever_carries_another_players_secret.hypothesis.inner_test(n, seed, 1)
    test_determinize_gives_a_state_with_the_same_view_that_depends_only_on_the_view.hypothesis.inner_test(
        n, seed, dseed, 2)
    test_PRJ_1_permuting_sealed_commits_gives_the_same_result.hypothesis.inner_test(n, seed)
