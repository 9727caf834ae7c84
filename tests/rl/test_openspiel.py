"""pax_hispanica.rl.openspiel: "python_pax_hispanica" passes OpenSpiel's RandomSimTest (with its
serialisation), round-trips through serialize_game_and_state and pickle, resamples from an
information state, and OpenSpiel's ISMCTSBot plays it to the end."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts

from pax_hispanica import api
from pax_hispanica.rl import observation
from pax_hispanica.rl import openspiel as paxspiel


def started(game, seed_bytes=(1, 2, 3, 4, 5, 6, 7, 8)):
    s = game.new_initial_state()
    for b in seed_bytes:
        assert s.is_chance_node() and len(s.chance_outcomes()) == 256
        s.apply_action(b)
    return s


def play_random(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.integers(256)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("players", [2, 4])
def test_PRJ_7_passes_openspiels_random_sim_test(players):
    game = pyspiel.load_game(paxspiel.SHORT_NAME, {"players": players})
    assert game.num_players() == players and game.num_distinct_actions() == paxspiel.encoding_for().size
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_PRJ_1_the_seed_is_the_chance_and_the_history_determines_the_state():
    game = pyspiel.load_game(paxspiel.SHORT_NAME, {"players": 3})
    a, b = started(game), started(game)
    assert str(a) == str(b)
    play_random(a, np.random.default_rng(1), 40)
    play_random(b, np.random.default_rng(1), 40)
    assert str(a) == str(b) and a.history() == b.history()
    assert str(started(game, (9,) * 8)) != str(started(game))
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def test_PRJ_7_serialisation_round_trips_and_the_game_goes_on_the_same():
    game = pyspiel.load_game(paxspiel.SHORT_NAME, {"players": 3})
    s = play_random(started(game), np.random.default_rng(2), 60)
    g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, s))
    s3 = pickle.loads(pickle.dumps(s))
    for other in (s2, s3):
        assert str(other) == str(s) and other.history() == s.history()
        assert other.legal_actions() == s.legal_actions()
        a = s.legal_actions()[-1]
        x, y = s.clone(), other.clone()
        x.apply_action(a)
        y.apply_action(a)
        assert str(x) == str(y)


def test_HID_1_resampling_keeps_the_information_state_and_redraws_the_hidden():
    game = pyspiel.load_game(paxspiel.SHORT_NAME, {"players": 4})
    rng = np.random.default_rng(3)
    s = started(game)
    while not any(api.view(s.st, None, include_state=False)["players"][p]["hand_count"] for p in range(1, 4)) \
            or s.current_player() != 0:
        play_random(s, rng, 1)
    key = s.information_state_string(0)
    assert "seed_hash" not in key
    seen = set()
    for i in range(6):
        r = s.resample_from_infostate(0, lambda: (i + 0.5) / 6)
        assert r.information_state_string(0) == key and r.current_player() == 0
        assert r.legal_actions() == s.legal_actions()
        np.testing.assert_array_equal(r.information_state_tensor(0), s.information_state_tensor(0))
        seen.add(str(r))
    assert len(seen) > 1          # others' hands and the deck order are drawn anew
    np.testing.assert_array_equal(np.asarray(s.observation_tensor(0), np.float32),
                                  observation.observe(s.st, 0))


def test_AUC_3_sealed_bids_are_consecutive_turns_whose_values_stay_unseen():
    game = pyspiel.load_game(paxspiel.SHORT_NAME, {"players": 4})
    rng = np.random.default_rng(8)
    s = started(game)
    while (api.decision(s.st, None) or {}).get("decision") != "bid" or len(api.acting(s.st)) < 2:
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


def test_PRJ_7_openspiels_ismcts_bot_plays_a_game_to_the_end():
    game = pyspiel.load_game(paxspiel.SHORT_NAME, {"players": 2})
    bot = ismcts.ISMCTSBot(game, _ZeroEvaluator(), uct_c=2.0, max_simulations=4,
                           random_state=np.random.RandomState(0))
    rng = np.random.default_rng(5)
    s = game.new_initial_state()
    moves = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.integers(256)))
        elif s.current_player() == 0:
            s.apply_action(bot.step(s))
            moves += 1
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    assert moves > 10 and sorted(s.returns()) == [-1.0, 1.0]
