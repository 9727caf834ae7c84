"""An OpenSpiel game, ``pyspiel.load_game("python_pax_hispanica", {"players": 4})`` (docs/rl.md,
"OpenSpiel"). Importing this module registers it.

- **Sequential**: a sealed bid or support (AUC-3, BAT-3) is modelled as consecutive turns of its
  choosers, in the order of ``api.acting``; a chooser's information state never carries another's
  committed value (only that it is committed), so the sequential game has the same information
  sets as the simultaneous one.
- **Chance: the game's own random events** (PRJ-70, ``ChanceMode.EXPLICIT_STOCHASTIC``,
  parameter ``chance="events"``, the default). Every draw the engine makes is a chance node whose
  outcomes are the draw's uniform choices, each of probability 1/n: a die roll (GDS-6: outcome
  r is the face r+1), the place a returned Haven card goes (HND-4), and each shuffle (the Player
  Order, CYC-4; the Market and Haven decks; the year's goods, GDS-5; a Market refill, AUC-6) as
  its Fisher-Yates draws, one node per position from the last down to the second, the outcome
  being which of the cards still unplaced goes there (``action_to_string`` names it). A draw
  of one thing is no node. The engine takes the outcomes through its one seam
  (``api.new_game_with_outcomes`` / ``api.apply_with_outcomes``): an action (or the setup) is
  applied with the outcomes chosen so far; if it needs another, the engine says how many
  (``api.ChanceNeeded``) and this state is a chance node; each outcome re-runs that apply from
  the same engine state (apply is pure, so re-running is exact). So a game starts with the
  setup's draws (3 + 45 + 9 + 9 = 66 nodes for 4 players), and an action that draws is followed
  by its draws' nodes. ``max_chance_outcomes`` is the largest draw, the 46-card Market deck. The
  engine seed (parameter ``seed``, default 0) only keys the sealed choices' salts; no player
  observes it or the outcomes (the views and so the information states strip the hashes).
  Playing the outcomes the engine's generator would have drawn gives the engine's game with
  that seed exactly (tests/rl/test_openspiel.py).
- **Chance as the seed** (``chance="seed"``, the earlier design, kept as an option): 8 chance
  nodes draw the bytes of a 64-bit seed (256 outcomes each) and the engine draws everything
  from it; cheaper to step, but the chance structure is hidden in the seed.
- Both are EXPLICIT: the history determines the state, and OpenSpiel's serialisation and
  RandomSimTest work. (The sampled-stochastic mode was the other choice; OpenSpiel serialises
  such games through ``Game::GetRNGState``, which a Python game cannot implement.)
- ``resample_from_infostate`` draws a state consistent with the player's information
  (``api.determinize``: hidden hands and decks and others' sealed choices resampled) whose
  future draws are again chance nodes (events) or a fresh seed's (seed). At a chance node it
  determinizes the engine state before the action being resolved, keeps that action for its
  actor (or, for another seat, who does not see it, draws one of the actor's legal actions that
  draws too), and restarts its draws: the outcomes drawn so far are seen by no one.
- **Utility**: zero-sum final rank, ``1 - 2*rank/(n-1)`` (+1 the winner, -1 the last).
- **Information state / observation**: both are the seat's view (rl.observation): the tensor of
  ``ObservationLayout`` and, as the string, the canonical JSON of the view without its
  seed-dependent fields. The information state is Markov (the current view), not the full
  history of observations. At a chance node between an action and its result they are those of
  the state before the action (the string adds that a seat has acted, and the actor's action).
- Actions are the integers of ``rl.encoding`` (``bid_cap`` parameter).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]  # OpenSpiel's compiled module ships no types

from pax_hispanica import api
from pax_hispanica.contract import Sampling
from pax_hispanica.rl.encoding import BID_CAP, encoding_for
from pax_hispanica.rl.observation import ObservationLayout

ENGINE: Sampling[api.State] = api
"""The engine, typed against the contract (pax_hispanica.contract.Sampling: the nine operations,
`determinize` and `summary`); mypy --strict checks that nothing else is asked of it. The chance
nodes (`new_game_with_outcomes`, `apply_with_outcomes`, `ChanceNeeded`), the snapshots a
position is pickled as (`snapshot`, `restore`) and the ruleset are api's helper groups of those
names, read from `api` itself (tests/engine/test_api_contract.py)."""

SHORT_NAME = "python_pax_hispanica"
MAX_GAME_LENGTH = 5000          # decisions; random play ends in about 70 (2 players) to 260 (5)
MAX_CHANCE_NODES = 5000         # draws (events): random play makes about 100 (2 players) to 250 (5)
SEED_BYTES = 8                  # chance="seed": the seed's bytes
CHANCE_MODES = ("events", "seed")
_DEFAULTS = {"players": 4, "bid_cap": BID_CAP, "chance": "events", "seed": 0}

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


def max_draw(players: int, ruleset: str = "reference") -> int:
    """The most outcomes a draw of the game has (PRJ-70): a shuffle of the Market or Haven deck,
    of the Player Order or the goods, a die, a Haven card's place (at most the Haven deck)."""
    rs = api.load_ruleset(ruleset)
    return max(len(rs.market), len(rs.haven), len(rs.goods_types), rs.die_sides, players)


class _Position:
    """An engine state (immutable once made: api.apply never changes one) shared by clones
    instead of deep-copied, and pickled as its snapshot (serialisation)."""
    __slots__ = ("st",)

    def __init__(self, st: api.State) -> None:
        self.st = st

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return self

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        return (_restore, (api.snapshot(self.st),))


def _restore(snapshot: bytes) -> _Position:
    return _Position(api.restore(snapshot))


def _public(view: dict[str, Any]) -> dict[str, Any]:
    """The view without what depends on the seed (its hash, the commitments' hashes, the decision id)."""
    v = {k: x for k, x in view.items() if k not in ("seed_hash", "state")}
    if v.get("decision"):
        v["decision"] = {k: x for k, x in v["decision"].items() if k not in ("hashes", "id")}
    return v


class PaxHispanicaGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self.n, self.bid_cap = int(p["players"]), int(p["bid_cap"])
        self.chance, self.seed = str(p["chance"]), int(p["seed"])
        if not 2 <= self.n <= 5:
            raise ValueError(f"players must be 2..5, not {self.n}")
        if self.chance not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {', '.join(CHANCE_MODES)}, not {self.chance!r}")
        self.enc = encoding_for(None, self.bid_cap)
        self.layout = ObservationLayout()
        self.config = api.Config(players=self.n)
        events = self.chance == "events"
        info = pyspiel.GameInfo(num_distinct_actions=self.enc.size,
                                max_chance_outcomes=max_draw(self.n) if events else 256, num_players=self.n,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=MAX_GAME_LENGTH + (MAX_CHANCE_NODES if events else SEED_BYTES))
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> PaxHispanicaState:
        return PaxHispanicaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PaxHispanicaObserver:
        return PaxHispanicaObserver(self)


class PaxHispanicaState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    def __init__(self, game: PaxHispanicaGame) -> None:
        super().__init__(game)
        self._seed_bytes: list[int] = []    # chance="seed": the seed's bytes drawn so far
        self._pos: _Position | None = None  # the engine state, once set up; before a pending action
        # chance="events": the apply being resolved, (action, seat, outcomes so far); action and
        # seat None for the setup. None at a decision or the end.
        self._pending: tuple[int | None, int | None, tuple[int, ...]] | None = None
        # the chance node's draw: (n, the items a shuffle chooses among or None, the generator's
        # counter it would draw from: tests replay the engine's own game through it)
        self._need: tuple[int, tuple[Any, ...] | None, int] | None = None
        if game.chance == "events":
            self._pending = (None, None, ())
            self._resolve()

    @property
    def st(self) -> api.State:
        assert self._pos is not None, "no engine state before the setup's draws are done"
        return self._pos.st

    def _resolve(self) -> None:
        """Run the pending apply with its outcomes: done, or the next draw becomes a chance node."""
        assert self._pending is not None
        action, seat, outcomes = self._pending
        g: PaxHispanicaGame = self.get_game()
        try:
            if action is None:
                st = api.new_game_with_outcomes(g.config, g.seed, outcomes)
            else:
                assert seat is not None                     # an action's apply has its actor
                st, _ = api.apply_with_outcomes(self.st, g.enc.decode(action, seat), outcomes)
        except api.ChanceNeeded as e:
            self._need = (e.n, e.items, e.counter)
            return
        self._pos, self._pending, self._need = _Position(st), None, None

    def current_player(self) -> int:
        if self._pending is not None or self._pos is None:
            ret: int = pyspiel.PlayerId.CHANCE
            return ret
        if ENGINE.is_over(self.st):
            ret = pyspiel.PlayerId.TERMINAL
            return ret
        return ENGINE.acting(self.st)[0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._need is None:
            return [(i, 1.0 / 256) for i in range(256)]
        n = self._need[0]
        return [(i, 1.0 / n) for i in range(n)]

    def _legal_actions(self, player: int) -> list[int]:
        ret: list[int] = self.get_game().enc.legal_indices(ENGINE.legal_actions(self.st, player))
        return ret

    def _apply_action(self, action: int) -> None:
        action = int(action)
        if self._pending is not None:
            a, seat, outcomes = self._pending
            self._pending = (a, seat, outcomes + (action,))
            self._resolve()
            return
        if self._pos is None:
            self._seed_bytes = self._seed_bytes + [action]
            if len(self._seed_bytes) == SEED_BYTES:
                seed = int.from_bytes(bytes(self._seed_bytes), "big")
                self._pos = _Position(ENGINE.new_game(self.get_game().config, seed))
            return
        self._pending = (action, ENGINE.acting(self.st)[0], ())
        self._resolve()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._need is None:
                return f"seed byte {action}"
            n, items = self._need[:2]
            if items is not None and 0 <= action < len(items):
                return f"draw {items[action]} ({action} of {n})"
            return f"outcome {action} of {n}"
        a = self.get_game().enc.decode(int(action), player)
        ret: str = a["type"] + "".join(f" {k}={v}" for k, v in a.items() if k not in ("seat", "type"))
        return ret

    def is_terminal(self) -> bool:
        return self._pending is None and self._pos is not None and ENGINE.is_over(self.st)

    def returns(self) -> list[float]:
        g: PaxHispanicaGame = self.get_game()
        if not self.is_terminal():
            return [0.0] * g.n
        out = [0.0] * g.n
        res = ENGINE.result(self.st)
        assert res is not None                      # the game is over
        for rank, seat in enumerate(res["ranking"]):
            out[seat] = 1.0 - 2.0 * rank / (g.n - 1)
        return out

    def resample_from_infostate(self, player: int, probability_sampler: Any = None) -> PaxHispanicaState:
        """A state drawn from `player`'s information set: api.determinize of its information
        state, future draws again chance nodes (module docstring)."""
        def u() -> float:
            x: float = probability_sampler() if probability_sampler is not None else np.random.random()
            return x

        g: PaxHispanicaGame = self.get_game()
        new = g.new_initial_state()
        if g.chance == "seed":
            if self._pos is None:
                return new if not self._seed_bytes else self._setup_resampled(new, u)
            new._seed_bytes = list(range(SEED_BYTES))       # (the seed is no longer these bytes: unseen)
            new._pos = _Position(ENGINE.determinize(ENGINE.information_state(self.st, player), int(u() * 2 ** 53)))
            return new
        if self._pos is None:                               # the setup's draws, seen by no one
            return self._setup_resampled(new, u)
        pre = ENGINE.determinize(ENGINE.information_state(self.st, player), int(u() * 2 ** 53))
        new._pos, new._pending, new._need = _Position(pre), None, None
        if self._pending is None:
            return new
        action, seat, _ = self._pending
        if seat != player:          # the actor's action is not seen until its draws are done
            assert seat is not None                         # past the setup: an action's actor
            legal = g.enc.legal_indices(ENGINE.legal_actions(pre, seat))
            drawing = [a for a in legal if _draws(pre, g.enc.decode(a, seat))]
            if not drawing:
                raise ValueError("no action of the actor draws in the resampled state")
            action = drawing[min(int(u() * len(drawing)), len(drawing) - 1)]
        new._pending = (action, seat, ())
        new._resolve()
        return new

    def _setup_resampled(self, new: PaxHispanicaState, u: Callable[[], float]) -> PaxHispanicaState:
        """`new` (an initial state) given as many setup outcomes as this state has, drawn by `u`."""
        if self.get_game().chance == "seed":
            k = len(self._seed_bytes)
        else:
            assert self._pending is not None                # the setup's draws are pending
            k = len(self._pending[2])
        for _ in range(k):
            n = len(new.chance_outcomes())
            new.apply_action(min(int(u() * n), n - 1))
        return new

    def information_state_string(self, player: int | None = None) -> str:
        return self._string(self.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return self._string(self.current_player() if player is None else player)

    def _string(self, player: int) -> str:
        if self._pos is None:
            if self._pending is not None:
                return f"setup: {len(self._pending[2])} draws made"
            return f"setup: {len(self._seed_bytes)} of {SEED_BYTES} seed bytes drawn"
        s = json.dumps(_public(ENGINE.view(self.st, player)), sort_keys=True,
                       separators=(",", ":"))
        if self._pending is not None:
            action, seat, _ = self._pending
            s += f"\nseat {seat} has acted" + (f": action {action}" if seat == player else "") + "; drawing"
        return s

    def __str__(self) -> str:
        if self._pos is None:
            if self._pending is not None:
                return f"setup: outcomes {list(self._pending[2])}"
            return f"setup: seed bytes {self._seed_bytes}"
        # the public summary and a digest of the whole position (hands, deck order, PRNG, ...)
        digest = hashlib.sha256(api.snapshot(self.st)).hexdigest()[:16]
        s = json.dumps(ENGINE.summary(self.st), sort_keys=True, default=str) + f"\nposition {digest}"
        if self._pending is not None:
            action, seat, outcomes = self._pending
            s += f"\nseat {seat} action {action}, outcomes {list(outcomes)}"
        return s


def _draws(st: api.State, action: dict[str, Any]) -> bool:
    """Whether applying `action` to `st` makes a draw of more than one outcome."""
    try:
        api.apply_with_outcomes(st, action, ())
    except api.ChanceNeeded:
        return True
    return False


class PaxHispanicaObserver:
    """The observation tensor of rl.observation, for information state and observation alike."""

    def __init__(self, game: PaxHispanicaGame) -> None:
        self.layout = game.layout
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {name: self.tensor[off:off + size] for name, off, size, _ in self.layout.segments}

    def set_from(self, state: PaxHispanicaState, player: int) -> None:
        if state._pos is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = self.layout.encode(ENGINE.view(state.st, player))

    def string_from(self, state: PaxHispanicaState, player: int) -> str:
        return state._string(player)


pyspiel.register_game(_GAME_TYPE, PaxHispanicaGame)
