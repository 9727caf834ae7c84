"""An OpenSpiel game, ``pyspiel.load_game("python_pax_hispanica", {"players": 4})`` (docs/rl.md,
"OpenSpiel"). Importing this module registers it.

- **Sequential**: a sealed bid or support (AUC-3, BAT-3) is modelled as consecutive turns of its
  choosers, in the order of ``api.acting``; a chooser's information state never carries another's
  committed value (only that it is committed), so the sequential game has the same information
  sets as the simultaneous one.
- **Chance: explicit, as the seed** (``ChanceMode.EXPLICIT_STOCHASTIC``). The engine draws every
  shuffle and die roll inside ``api.apply`` from the game's secret seed (PRJ-1, a keyed generator):
  all of a game's chance is its seed, and exposing each shuffle and roll as its own node would
  change the engine, its records and its commitments. So a game begins with ``SEED_BYTES`` = 8
  chance nodes, each drawing one byte of a 64-bit seed uniformly (256 outcomes); the engine game
  is set up from it, and every later draw is a function of it. No player observes the bytes.
  The history (8 bytes, then the actions) therefore determines the state, and OpenSpiel's
  serialisation and RandomSimTest work unchanged. (The sampled-stochastic mode was the other
  choice; OpenSpiel serialises such games through ``Game::GetRNGState``, which a Python game
  cannot implement, so neither ``serialize_game_and_state`` nor RandomSimTest's serialisation
  would run.) ``resample_from_infostate`` draws a full state consistent with the player's
  information (``api.determinize``: hidden hands and decks and others' sealed choices resampled,
  a fresh seed for the shuffles and dice to come), which is what ISMCTS needs.
- **Utility**: zero-sum final rank, ``1 - 2*rank/(n-1)`` (+1 the winner, -1 the last).
- **Information state / observation**: both are the seat's view (rl.observation): the tensor of
  ``ObservationLayout`` and, as the string, the canonical JSON of the view without its
  seed-dependent fields. The information state is Markov (the current view), not the full
  history of observations.
- Actions are the integers of ``rl.encoding`` (``bid_cap`` parameter).
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pyspiel

from pax_hispanica import api
from pax_hispanica.rl.encoding import BID_CAP, encoding_for
from pax_hispanica.rl.observation import ObservationLayout

SHORT_NAME = "python_pax_hispanica"
MAX_GAME_LENGTH = 5000          # decisions; random play ends in about 70 (2 players) to 260 (5)
SEED_BYTES = 8
_DEFAULTS = {"players": 4, "bid_cap": BID_CAP}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Pax Hispanica (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS))


class _Position:
    """An engine state (immutable once made: api.apply never changes one) shared by clones
    instead of deep-copied, and pickled as its snapshot (serialisation)."""
    __slots__ = ("st",)

    def __init__(self, st):
        self.st = st

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_restore, (api.snapshot(self.st),))


def _restore(snapshot: bytes) -> _Position:
    return _Position(api.restore(snapshot))


def _public(view: dict) -> dict:
    """The view without what depends on the seed (its hash, the commitments' hashes, the decision id)."""
    v = {k: x for k, x in view.items() if k not in ("seed_hash", "state")}
    if v.get("decision"):
        v["decision"] = {k: x for k, x in v["decision"].items() if k not in ("hashes", "id")}
    return v


class PaxHispanicaGame(pyspiel.Game):
    def __init__(self, params=None):
        p = {**_DEFAULTS, **(params or {})}
        self.n, self.bid_cap = int(p["players"]), int(p["bid_cap"])
        if not 2 <= self.n <= 5:
            raise ValueError(f"players must be 2..5, not {self.n}")
        self.enc = encoding_for(None, self.bid_cap)
        self.layout = ObservationLayout()
        info = pyspiel.GameInfo(num_distinct_actions=self.enc.size, max_chance_outcomes=256, num_players=self.n,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=MAX_GAME_LENGTH + SEED_BYTES)
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self):
        return PaxHispanicaState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return PaxHispanicaObserver(self)


class PaxHispanicaState(pyspiel.State):
    def __init__(self, game: PaxHispanicaGame):
        super().__init__(game)
        self._seed_bytes = []               # the chance outcomes drawn so far (the seed's bytes)
        self._pos = None                    # the engine state, once the seed is drawn

    @property
    def st(self):
        return self._pos.st

    def current_player(self):
        if self._pos is None:
            return pyspiel.PlayerId.CHANCE
        if api.is_over(self.st):
            return pyspiel.PlayerId.TERMINAL
        return api.acting(self.st)[0]

    def chance_outcomes(self):
        return [(i, 1.0 / 256) for i in range(256)]

    def _legal_actions(self, player):
        return self.get_game().enc.legal_indices(api.legal_actions(self.st, player))

    def _apply_action(self, action):
        if self._pos is None:
            self._seed_bytes = self._seed_bytes + [int(action)]
            if len(self._seed_bytes) == SEED_BYTES:
                seed = int.from_bytes(bytes(self._seed_bytes), "big")
                self._pos = _Position(api.new_game(api.Config(players=self.get_game().n), seed=seed))
            return
        seat = api.acting(self.st)[0]
        st, _ = api.apply(self.st, self.get_game().enc.decode(int(action), seat))
        self._pos = _Position(st)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        a = self.get_game().enc.decode(int(action), player)
        return a["type"] + "".join(f" {k}={v}" for k, v in a.items() if k not in ("seat", "type"))

    def is_terminal(self):
        return self._pos is not None and api.is_over(self.st)

    def returns(self):
        g = self.get_game()
        if not self.is_terminal():
            return [0.0] * g.n
        out = [0.0] * g.n
        for rank, seat in enumerate(api.result(self.st)["ranking"]):
            out[seat] = 1.0 - 2.0 * rank / (g.n - 1)
        return out

    def resample_from_infostate(self, player, probability_sampler=None):
        """A state drawn from `player`'s information set (api.determinize of its information state)."""
        u = probability_sampler() if probability_sampler is not None else np.random.random()
        seed = int(u * 2 ** 53)
        new = self.get_game().new_initial_state()
        new._seed_bytes = list(range(SEED_BYTES))           # (the seed is no longer these bytes: unseen)
        new._pos = _Position(api.determinize(api.information_state(self.st, player), seed))
        return new

    def information_state_string(self, player=None):
        return self._string(self.current_player() if player is None else player)

    def observation_string(self, player=None):
        return self._string(self.current_player() if player is None else player)

    def _string(self, player) -> str:
        if self._pos is None:
            return f"setup: {len(self._seed_bytes)} of {SEED_BYTES} seed bytes drawn"
        return json.dumps(_public(api.view(self.st, player, include_state=False)), sort_keys=True,
                          separators=(",", ":"))

    def __str__(self):
        if self._pos is None:
            return f"setup: seed bytes {self._seed_bytes}"
        # the public summary and a digest of the whole position (hands, deck order, PRNG, ...)
        digest = hashlib.sha256(api.snapshot(self.st)).hexdigest()[:16]
        return json.dumps(api.summary(self.st), sort_keys=True, default=str) + f"\nposition {digest}"


class PaxHispanicaObserver:
    """The observation tensor of rl.observation, for information state and observation alike."""

    def __init__(self, game: PaxHispanicaGame):
        self.layout = game.layout
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {name: self.tensor[off:off + size] for name, off, size, _ in self.layout.segments}

    def set_from(self, state, player):
        if state._pos is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = self.layout.encode(api.view(state.st, player, include_state=False))

    def string_from(self, state, player):
        return state._string(player)


pyspiel.register_game(_GAME_TYPE, PaxHispanicaGame)
