"""pax_hispanica.rl.pettingzoo_env: PettingZoo's own checks (api_test, seed_test,
parallel_api_test, parallel_seed_test, max_cycles_test), sealed choices as turns that pass no
information (AUC-3), and the documented rewards."""

from __future__ import annotations

import types

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

from pax_hispanica import api
from pax_hispanica.rl import pettingzoo_env as pz


@pytest.mark.parametrize("players", [2, 4])
def test_PRJ_7_aec_env_passes_pettingzoos_api_test(players):
    api_test(pz.env(players=players), num_cycles=400)


def test_PRJ_7_aec_env_passes_seed_test():
    seed_test(lambda: pz.env(players=3), num_cycles=60)


def test_PRJ_7_parallel_env_passes_parallel_api_and_seed_tests():
    parallel_api_test(pz.parallel_env(players=5), num_cycles=400)
    parallel_seed_test(lambda: pz.parallel_env(players=3), num_cycles=60)


def test_PRJ_7_pettingzoos_turn_based_conversion_plays_the_aec_env():
    parallel_seed_test(lambda: pz.turn_based_parallel_env(players=3), num_cycles=40)
    par = pz.turn_based_parallel_env(players=2)
    obs, _ = par.reset(seed=4)
    rng = np.random.default_rng(0)
    steps = 0
    while par.agents:
        acting = [a for a in par.agents if obs[a]["action_mask"].any()]
        assert len(acting) == 1                        # one agent at a time, even for sealed bids
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) if a in acting else 0
                   for a in par.agents}
        obs, rew, _term, _trunc, _info = par.step(actions)
        steps += 1
    assert steps > 20 and sum(rew.values()) == pytest.approx(0.0)


def test_PRJ_7_max_cycles_truncates_the_parallel_env_and_its_aec_conversion():
    # max_cycles_test samples actions without the mask: "refuse" keeps the game going
    mod = types.SimpleNamespace(
        parallel_env=lambda max_cycles: pz.parallel_env(max_cycles=max_cycles, illegal="refuse"),
        env=lambda max_cycles: parallel_to_aec(pz.parallel_env(max_cycles=max_cycles, illegal="refuse")))
    max_cycles_test(mod)
    e = pz.env(players=3, max_cycles=7)
    e.reset(seed=1)
    n = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            assert trunc and not term and n == 7
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        n += 1


def play_to_sealed(e, rng):
    """Masked random play until a sealed bid with at least two choosers still to commit."""
    while True:
        st = e.unwrapped.game.state
        dec = api.decision(st, None)
        if dec and dec["decision"] == "bid" and len(api.acting(st)) >= 2:
            return
        obs, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_AUC_3_a_sealed_bid_is_a_turn_of_each_chooser_and_passes_no_information():
    e = pz.env(players=4)
    e.reset(seed=5)
    play_to_sealed(e, np.random.default_rng(0))
    raw = e.unwrapped
    first, second = api.acting(raw.game.state)[:2]
    assert e.agent_selection == f"player_{first}"
    saved = api.snapshot(raw.game.state)
    seen = []
    for amount in (0, 1):
        raw.game.state = api.restore(saved)
        raw.agent_selection = f"player_{first}"
        e.step(raw.game.enc.encode({"seat": first, "type": "bid", "amount": amount}))
        assert e.agent_selection == f"player_{second}"      # the next chooser, the bid still sealed
        o = e.observe(f"player_{second}")
        seen.append(o)
        assert o["action_mask"].sum() > 0
    assert np.array_equal(seen[0]["observation"], seen[1]["observation"])
    assert np.array_equal(seen[0]["action_mask"], seen[1]["action_mask"])


def finish(e, rng):
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, r, term, trunc, _info = e.last()
        total[agent] += r
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


def test_CYC_3_rank_reward_is_zero_sum_and_dense_reward_adds_prestige_changes():
    totals = {}
    for dense in (False, True):
        e = pz.env(players=3, dense=dense)
        e.reset(seed=11)
        totals[dense] = finish(e, np.random.default_rng(4))
        st = e.unwrapped.game.state
    res = api.result(st)
    ranks = {f"player_{s}": 1 - r for s, r in zip(res["ranking"], range(3))}   # +1, 0, -1
    assert totals[False] == pytest.approx(ranks)
    final = {f"player_{p['seat']}": p["prestige"] for p in api.view(st, None, include_state=False)["players"]}
    assert {a: totals[True][a] - ranks[a] for a in ranks} == pytest.approx(final)


def test_PRJ_7_score_reward_and_illegal_action_handling():
    e = pz.env(players=2, reward="score")
    e.reset(seed=3)
    total = finish(e, np.random.default_rng(1))
    assert total == pytest.approx({f"player_{s}": v for s, v in enumerate(api.result(e.unwrapped.game.state)["scores"])})
    for mode, done in (("terminate", True), ("refuse", False)):
        e = pz.env(players=2, illegal=mode)
        e.reset(seed=3)
        agent = e.agent_selection
        bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
        e.step(bad)
        assert e.rewards[agent] == -1.0 and e.infos[agent]["illegal_action"]
        assert e.terminations[agent] is done and (done or e.agent_selection == agent)
