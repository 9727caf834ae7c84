"""pax_hispanica.rl.openspiel: "python_pax_hispanica" passes OpenSpiel's RandomSimTest (with its
serialisation), round-trips through serialize_game_and_state and pickle, resamples from an
information state, and OpenSpiel's ISMCTSBot plays it to the end; its chance nodes are the
engine's draws (PRJ-70: chance="events", the default) or the seed's bytes (chance="seed")."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts  # noqa: E402 -- after the importorskip above

from pax_hispanica import api  # noqa: E402 -- after the importorskip above
from pax_hispanica.engine.rng import below  # noqa: E402 -- after the importorskip above
from pax_hispanica.rl import observation  # noqa: E402 -- after the importorskip above
from pax_hispanica.rl import openspiel as paxspiel  # noqa: E402 -- after the importorskip above

from engine.helpers import all_cards, counts, secret_violations  # noqa: E402 -- after the importorskip above


def load(players, chance="events", **params):
    return pyspiel.load_game(paxspiel.SHORT_NAME, {"players": players, "chance": chance, **params})


def started(game, seed_bytes=(1, 2, 3, 4, 5, 6, 7, 8), rng=None):
    """Past the setup's chance nodes: the seed's bytes (chance="seed"), else outcomes drawn by `rng`."""
    s = game.new_initial_state()
    if game.chance == "seed":
        for b in seed_bytes:
            assert s.is_chance_node() and len(s.chance_outcomes()) == 256
            s.apply_action(b)
        return s
    rng = rng or np.random.default_rng(sum(seed_bytes))
    while s.is_chance_node():
        s.apply_action(int(rng.integers(len(s.chance_outcomes()))))
    return s


def play_random(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("players,chance", [(2, "events"), (4, "events"), (2, "seed"), (4, "seed")])
def test_PRJ_7_passes_openspiels_random_sim_test(players, chance):
    game = load(players, chance)
    assert game.num_players() == players and game.num_distinct_actions() == paxspiel.encoding_for().size
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_PRJ_1_the_seed_is_the_chance_and_the_history_determines_the_state():
    game = load(3, "seed")
    a, b = started(game), started(game)
    assert str(a) == str(b)
    play_random(a, np.random.default_rng(1), 40)
    play_random(b, np.random.default_rng(1), 40)
    assert str(a) == str(b) and a.history() == b.history()
    assert str(started(game, (9,) * 8)) != str(started(game))
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


@pytest.mark.parametrize("chance", paxspiel.CHANCE_MODES)
def test_PRJ_7_serialisation_round_trips_and_the_game_goes_on_the_same(chance):
    game = load(3, chance)
    s = play_random(started(game), np.random.default_rng(2), 60)
    _g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, s))
    s3 = pickle.loads(pickle.dumps(s))
    for other in (s2, s3):
        assert str(other) == str(s) and other.history() == s.history()
        assert other.legal_actions() == s.legal_actions()
        a = s.legal_actions()[-1]
        x, y = s.clone(), other.clone()
        x.apply_action(a)
        y.apply_action(a)
        assert str(x) == str(y)


@pytest.mark.parametrize("chance", paxspiel.CHANCE_MODES)
def test_HID_1_resampling_keeps_the_information_state_and_redraws_the_hidden(chance):
    game = load(4, chance)
    rng = np.random.default_rng(3)
    s = started(game)
    while s.is_chance_node() or s.current_player() != 0 or \
            not any(api.view(s.st, None, include_state=False)["players"][p]["hand_count"] for p in range(1, 4)):
        play_random(s, rng, 1)
    key = s.information_state_string(0)
    assert "seed_hash" not in key
    seen = set()
    for i in range(6):
        r = s.resample_from_infostate(0, lambda i=i: (i + 0.5) / 6)
        assert r.information_state_string(0) == key and r.current_player() == 0
        assert r.legal_actions() == s.legal_actions()
        np.testing.assert_array_equal(r.information_state_tensor(0), s.information_state_tensor(0))
        seen.add(str(r))
    assert len(seen) > 1          # others' hands and the deck order are drawn anew
    np.testing.assert_array_equal(np.asarray(s.observation_tensor(0), np.float32),
                                  observation.observe(s.st, 0))


@pytest.mark.parametrize("chance", paxspiel.CHANCE_MODES)
def test_AUC_3_sealed_bids_are_consecutive_turns_whose_values_stay_unseen(chance):
    game = load(4, chance)
    rng = np.random.default_rng(8)
    s = started(game)
    while s.is_chance_node() or (api.decision(s.st, None) or {}).get("decision") != "bid" \
            or len(api.acting(s.st)) < 2:
        play_random(s, rng, 1)
    first, second = api.acting(s.st)[:2]
    assert s.current_player() == first
    keys = set()
    for amount in (0, 1):
        x = s.clone()
        x.apply_action(game.enc.encode({"seat": first, "type": "bid", "amount": amount}))
        assert x.current_player() == second
        keys.add((x.information_state_string(second), tuple(x.information_state_tensor(second))))
    assert len(keys) == 1


class _ZeroEvaluator:
    """Values 0 and a uniform prior: keeps the test small (no rollouts)."""

    def evaluate(self, state):
        return np.zeros(state.num_players())

    def prior(self, state):
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


@pytest.mark.parametrize("chance", paxspiel.CHANCE_MODES)
def test_PRJ_7_openspiels_ismcts_bot_plays_a_game_to_the_end(chance):
    game = load(2, chance)
    bot = ismcts.ISMCTSBot(game, _ZeroEvaluator(), uct_c=2.0, max_simulations=4,
                           random_state=np.random.RandomState(0))
    rng = np.random.default_rng(5)
    s = game.new_initial_state()
    moves = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.integers(len(s.chance_outcomes()))))
        elif s.current_player() == 0:
            s.apply_action(bot.step(s))
            moves += 1
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    assert moves > 10 and sorted(s.returns()) == [-1.0, 1.0]


# ---- PRJ-70: the chance nodes are the engine's draws ------------------------------------------

def test_PRJ_70_the_game_is_events_by_default_and_its_largest_draw_is_the_market_deck():
    game = pyspiel.load_game(paxspiel.SHORT_NAME, {"players": 4})
    assert game.chance == "events"
    rs = api.load_ruleset("reference")
    assert game.max_chance_outcomes() == len(rs.market) == 46
    s = game.new_initial_state()
    sizes = []
    while s.is_chance_node():
        sizes.append(len(s.chance_outcomes()))
        s.apply_action(0)
    # the Player Order (4 seats), the Market deck (46), the Haven deck (10), the first year's goods (10)
    assert sizes == [*range(4, 1, -1), *range(46, 1, -1), *range(10, 1, -1), *range(10, 1, -1)]
    assert s.current_player() == api.acting(s.st)[0]


@pytest.mark.parametrize("players", [2, 5])
def test_PRJ_70_every_chance_nodes_probabilities_sum_to_one(players):
    game = load(players)
    rng = np.random.default_rng(players)
    s, nodes = game.new_initial_state(), 0
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            n = len(outcomes)
            assert 2 <= n <= game.max_chance_outcomes()
            assert [a for a, _ in outcomes] == list(range(n)) == sorted(s.legal_actions())
            assert all(p == 1.0 / n for _, p in outcomes)
            assert math.fsum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
            nodes += 1
        play_random(s, rng, 1)
    assert nodes > 66                 # the setup's draws and every year's


def _generators_outcome(state):
    """The outcome the engine's own generator draws at this chance node (seed = the game's)."""
    n, _, counter = state._need
    return below(state.get_game().seed, counter, n)[1]


@pytest.mark.parametrize("players,seed", [(2, 7), (4, 2 ** 31 - 5), (5, 11)])
def test_PRJ_70_the_generators_own_outcomes_replay_the_engine_game_exactly(players, seed):
    """Chance nodes given what rng.below would have drawn: the engine's game with that seed,
    state (counter included) and every seat's view, after every action."""
    game = load(players, seed=seed)
    ref = api.new_game(api.Config(players=players), seed)
    rng = np.random.default_rng(seed % 1000)
    s = game.new_initial_state()
    drawn = 0
    while True:
        while s.is_chance_node():
            s.apply_action(_generators_outcome(s))
            drawn += 1
        assert s.st.to_dict() == ref.to_dict()
        for seat in range(players):
            assert api.view(s.st, seat) == api.view(ref, seat)
        if s.is_terminal():
            break
        action = int(rng.choice(s.legal_actions()))
        ref, _ = api.apply(ref, game.enc.decode(action, s.current_player()))
        s.apply_action(action)
    assert api.is_over(ref) and drawn > 66


@pytest.mark.parametrize("players,seed", [(3, 1), (4, 2), (5, 3)])
def test_PRJ_70_games_of_sampled_outcomes_keep_every_invariant(players, seed):
    """CYC-2, HID-1: outcomes drawn by OpenSpiel's sampling, not the engine's generator; money,
    meeples, Chests and cards are conserved, someone acts until the end, no view leaks a secret."""
    game = load(players, seed=2 ** 30 + seed)     # (secret_violations looks for the seed: not a small int)
    rng = np.random.default_rng(seed)
    s = started(game, rng=rng)
    first = counts(s.st)
    assert first["cards"] == all_cards(s.st)
    version = s.st.version
    while not s.is_terminal():
        play_random(s, rng, 1)
        if s.is_chance_node():
            continue
        st = s.st
        assert counts(st) == first and st.version == version + 1
        version = st.version
        if not st.over:
            seats = api.acting(st)
            assert seats and all(bool(api.legal_actions(st, p)) == (p in seats) for p in range(players))
            if version % 7 == 0:
                for viewer in (None, *range(players)):
                    assert secret_violations(st, viewer) == []
    r = api.result(s.st)
    assert sorted(r["ranking"]) == list(range(players)) and sorted(s.returns())[-1] == 1.0


def _forced(game, target, bottom):
    """The setup with the Market deck's Fisher-Yates steered: `target` chosen for the last place
    at the first draw (bottom), or never chosen, so that it is the card left for the top."""
    market = set(api.load_ruleset("reference").market)
    s = game.new_initial_state()
    while s.is_chance_node():
        _n, items, _ = s._need
        choice = 0
        if items is not None and target in items and set(items) <= market:
            j = items.index(target)
            choice = j if bottom else (1 if j == 0 else 0)
            assert s.action_to_string(pyspiel.PlayerId.CHANCE, choice).startswith(f"draw {items[choice]} ")
        s.apply_action(choice)
    return s


@pytest.mark.parametrize("bottom", [False, True])
def test_PRJ_70_AUC_6_a_hand_chosen_market_draw_gives_that_card(bottom):
    """The Market deck's face-up top (AUC-6) is the card the chance outcomes left for it."""
    game = load(4)
    rs = api.load_ruleset("reference")
    for target in (rs.market[17], rs.market[0], rs.market[-1]):
        s = _forced(game, target, bottom)
        top = api.view(s.st, 0)["decks"]["market"]["top"]
        if bottom:
            assert s.st.market[-1] == target and top != target
        else:
            assert top == target == s.st.market[0]


def test_PRJ_70_HID_1_resampling_at_a_chance_node_keeps_each_seats_information():
    """Between an action and its result (the draws of a year's end, GDS-5, or a refill) each
    seat's resampled state is a chance node with that seat's information state; the outcomes
    drawn so far are nobody's information, so they are drawn anew."""
    game = load(3)
    rng = np.random.default_rng(4)
    s = started(game, rng=rng)
    while not (s.is_chance_node() and s._pending[2]):
        play_random(s, rng, 1)
    actor = s._pending[1]
    for player in range(3):
        key = s.information_state_string(player)
        assert (f"action {s._pending[0]}" in key) == (player == actor)
        for i in range(3):
            r = s.resample_from_infostate(player, lambda i=i: (i + 0.5) / 3)
            assert r.is_chance_node() and r._pending[1] == actor and r._pending[2] == ()
            assert r.information_state_string(player) == key
            np.testing.assert_array_equal(r.information_state_tensor(player), s.information_state_tensor(player))
            while r.is_chance_node():
                r.apply_action(0)
            assert not r.is_chance_node()
