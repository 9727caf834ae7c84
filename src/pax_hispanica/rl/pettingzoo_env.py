"""PettingZoo environments of Pax Hispanica (docs/rl.md, "PettingZoo").

- `env(players=4, **config)` / `raw_env`: the AEC environment. Agents ``player_0 .. player_{n-1}``
  (seat i). The agent selected is the seat the engine asks; a sealed bid or support (AUC-3,
  BAT-3) is a normal turn of each chooser in turn (the order of ``api.acting``), and nothing of a
  committed choice reaches the others' observations (only that it is committed).
- `parallel_env(players=4, **config)`: a native Parallel environment. At each step the seats
  the engine asks act: one seat for an ordinary decision, every chooser at once for a sealed
  one. The actions of the other agents are ignored (their masks are all zeros).

Config (both): ``reward`` = ``"rank"`` (default: at the end, 1 - 2*rank/(n-1), rank 0 = the winner of
``api.result``'s ranking: +1 for the winner, -1 for the last, zero-sum) or ``"score"`` (the final
Prestige score of ``api.result``); ``dense=True`` adds, at every step, each seat's change of
Prestige; ``max_cycles``: truncate after that many steps (AEC: decisions, Parallel: parallel
steps; default None, the game always ends); ``illegal`` = ``"terminate"`` (default, like
PettingZoo's classic games: the offender gets ``illegal_reward`` = -1, the others 0, the game ends)
or ``"refuse"`` (the action is refused, the offender gets ``illegal_reward``, the position is
unchanged and it is asked again); ``bid_cap`` (rl.encoding); ``ruleset``, ``params``, ``nations``.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]  # PettingZoo ships no types
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from pax_hispanica import api
from pax_hispanica.bots.base import SeatLogs
from pax_hispanica.contract import SearchEngine
from pax_hispanica.rl.encoding import BID_CAP, encoding_for
from pax_hispanica.rl.observation import ObservationLayout

NAME = "pax_hispanica_v0"
OBS_HIGH = 1000.0          # the observation Box bound: every count of a game (money, chests, ...) stays far below

ENGINE: SearchEngine[api.State] = api
"""The engine, typed against the contract (pax_hispanica.contract): the nine operations, and of
the helper protocols `model_view` (the Prestige of the dense reward), `summary` (render) and the
bots' logs (`redact`, through SeatLogs). mypy --strict checks that nothing else is asked of it;
tests/engine/test_api_contract.py that the module reads of `api` itself only names of the helper
groups (Config, State, Game)."""


class Game:
    """The position and what every environment computes from it (shared by the AEC, Parallel,
    Gymnasium and OpenSpiel wrappers)."""

    def __init__(self, players: int = 4, reward: str = "rank", dense: bool = False, bid_cap: int = BID_CAP,
                 ruleset: str = "reference", params: dict[str, Any] | None = None,
                 nations: list[str] | None = None) -> None:
        if reward not in ("rank", "score"):
            raise ValueError(f"reward must be 'rank' or 'score', not {reward!r}")
        self.n, self.reward, self.dense = players, reward, dense
        self.config = api.Config(players=players, nations=nations, ruleset=ruleset, params=params or {})
        self.enc = encoding_for({"ruleset": ruleset, "ruleset_params": params or {}}, bid_cap)
        self.layout = ObservationLayout(ruleset, params)
        self.state: api.State = None  # type: ignore[assignment]  # new() sets it before any use
        self.logs: SeatLogs | None = None
        self._mask_cache: tuple[Any, Any, Any] = (None, None, None)

    def new(self, seed: int, bots: dict[int, Any] | None = None) -> None:
        """A new game; `bots` (seat -> bot): the bots in the game, whose own logs are kept
        (bots.base.SeatLogs) for those that read one (ISMCTS), so `decide_bot` passes them."""
        self.logs = None
        if bots and any(getattr(b, "uses_log", False) for b in bots.values()):
            g = api.Game.new(self.config, seed)          # the state of api.new_game, and its events
            self.state, self.logs = g.state, SeatLogs(ENGINE, bots, g.events)
        else:
            self.state = ENGINE.new_game(self.config, seed)
        self.prestige = self._prestige()

    def act(self, action: dict[str, Any]) -> None:
        """Apply a concrete action, keeping the bots' logs."""
        self.state, events = ENGINE.apply(self.state, action)
        if self.logs is not None:
            self.logs.add(events)

    def decide_bot(self, bot: Any, seat: int) -> dict[str, Any]:
        """`bot`'s action for `seat` now: its own view (with the masked state for a search bot)
        and, for a bot that reads it, its own log."""
        view = ENGINE.view(self.state, seat)
        if getattr(bot, "uses_information_state", False):     # what api.view(..., include_state=True) adds
            view["state"] = ENGINE.information_state(self.state, seat)
        legal = ENGINE.legal_actions(self.state, seat)
        action: dict[str, Any] = (self.logs.decide(bot, seat, view, legal) if self.logs is not None
                                  else bot.decide(view, legal))
        return action

    def _prestige(self) -> list[int]:
        return [p["prestige"] for p in ENGINE.model_view(self.state, None)["players"]]   # no whole view per step

    def current(self) -> int | None:
        acting = ENGINE.acting(self.state)
        return acting[0] if acting else None

    def view(self, seat: int | None) -> dict[str, Any]:
        return ENGINE.view(self.state, seat)

    def observation(self, seat: int | None) -> np.ndarray:
        return self.layout.encode(self.view(seat))

    def mask(self, seat: int) -> np.ndarray:
        """The action mask of `seat` (cached for the current position: states never change)."""
        c = self._mask_cache
        if c[0] is not self.state or c[1] != seat:
            c = self._mask_cache = (self.state, seat, self.enc.mask(ENGINE.legal_actions(self.state, seat)))
        m: np.ndarray = c[2]
        return m

    def legal(self, seat: int) -> list[int]:
        indices: list[int] = np.flatnonzero(self.mask(seat)).tolist()
        return indices

    def apply(self, seat: int, index: int) -> list[float]:
        """Apply the action of `index` for `seat` (legal: checked by the caller); the step rewards."""
        self.act(self.enc.decode(int(index), seat))
        rewards = [0.0] * self.n
        if self.dense:
            now = self._prestige()
            rewards = [float(b - a) for a, b in zip(self.prestige, now)]
            self.prestige = now
        if ENGINE.is_over(self.state):
            rewards = [r + f for r, f in zip(rewards, self.final())]
        return rewards

    def over(self) -> bool:
        return ENGINE.is_over(self.state)

    def final(self) -> list[float]:
        res = ENGINE.result(self.state)
        assert res is not None, "the game is not over"
        if self.reward == "score":
            return [float(s) for s in res["scores"]]
        out = [0.0] * self.n
        for rank, seat in enumerate(res["ranking"]):
            out[seat] = 1.0 - 2.0 * rank / (self.n - 1)
        return out

    def render(self, mode: str | None) -> str | None:
        """The position as text (api.summary): printed for "human", returned for "ansi"."""
        if mode is None:
            return None
        text = str(ENGINE.summary(self.state))
        if mode == "human":
            print(text)
            return None
        return text

    def spaces(self) -> tuple[Any, Any]:
        obs = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, OBS_HIGH, (self.layout.size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.enc.size,), np.int8)})
        return obs, gymnasium.spaces.Discrete(self.enc.size)


def _game_seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2 ** 63))


class _Core:
    """What the AEC and the Parallel environments share: the configuration, the spaces, the
    seeding, the legality check, applying one seat's action with its rewards, rendering."""
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 1, "name": NAME}

    def _setup(self, players: int, reward: str, dense: bool, max_cycles: int | None, illegal: str,
               illegal_reward: float, render_mode: str | None, config: dict[str, Any]) -> None:
        if illegal not in ("terminate", "refuse"):
            raise ValueError(f"illegal must be 'terminate' or 'refuse', not {illegal!r}")
        self.game = Game(players, reward, dense, **config)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        self.max_cycles, self.illegal, self.illegal_reward = max_cycles, illegal, illegal_reward
        self.render_mode = render_mode
        self._obs_space, _ = self.game.spaces()
        self._rng = np.random.default_rng()

    @functools.cache  # noqa: B019 -- PettingZoo's idiom: one space object per agent, for the env's life
    def observation_space(self, agent: str) -> Any:
        return self._obs_space

    @functools.cache  # noqa: B019 -- as above
    def action_space(self, agent: str) -> Any:
        return gymnasium.spaces.Discrete(self.game.enc.size)

    def seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _zeros(self) -> np.ndarray:
        return np.zeros(self.game.enc.size, np.int8)

    def _obs(self, seat: int, acting: bool) -> dict[str, Any]:
        """An agent's observation: its own view, and its mask when it is asked to act."""
        return {"observation": self.game.observation(seat),
                "action_mask": self.game.mask(seat).copy() if acting else self._zeros()}

    def _new_game(self, seed: int | None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game.new(_game_seed(self._rng))
        self.agents = self.possible_agents[:]
        self.steps = 0

    def _is_legal(self, seat: int, action: Any) -> bool:
        return action is not None and 0 <= int(action) < self.game.enc.size and bool(self.game.mask(seat)[int(action)])

    def _apply(self, seat: int, action: Any, rewards: dict[str, Any]) -> None:
        """Apply a legal action of `seat`, adding every seat's step reward to `rewards`."""
        for s, r in enumerate(self.game.apply(seat, int(action))):
            rewards[self.possible_agents[s]] += r

    def _results(self) -> dict[str, Any]:
        return {a: {"result": ENGINE.result(self.game.state)} for a in self.agents}

    def _truncated(self) -> bool:
        return self.max_cycles is not None and self.steps >= self.max_cycles and not self.game.over()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
        return self.game.render(self.render_mode)

    def close(self) -> None:
        pass


class raw_env(_Core, AECEnv):  # type: ignore[misc]  # PettingZoo is untyped
    metadata: ClassVar[dict[str, Any]] = {**_Core.metadata, "is_parallelizable": False}

    def __init__(self, players: int = 4, reward: str = "rank", dense: bool = False, max_cycles: int | None = None,
                 illegal: str = "terminate", illegal_reward: float = -1.0, render_mode: str | None = None,
                 **config: Any) -> None:
        AECEnv.__init__(self)
        self._setup(players, reward, dense, max_cycles, illegal, illegal_reward, render_mode, config)

    def observe(self, agent: str) -> dict[str, Any]:
        return self._obs(self.seat(agent), agent == self.agent_selection and not self.terminations[agent]
                         and not self.truncations[agent])

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_game(seed)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._current()]

    def _current(self) -> int:
        seat = self.game.current()
        assert seat is not None, "someone acts in a game that is not over"
        return seat

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.seat(agent)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.steps += 1
        if not self._is_legal(seat, action):
            self.rewards[agent] = float(self.illegal_reward)
            self.infos[agent] = {"illegal_action": True}
            if self.illegal == "terminate":
                self.terminations = {a: True for a in self.agents}
        else:
            self._apply(seat, action, self.rewards)
            if self.game.over():
                self.terminations = {a: True for a in self.agents}
                self.infos = self._results()
        if self._truncated():
            self.truncations = {a: True for a in self.agents}
        if not any(self.terminations.values()) and not any(self.truncations.values()):
            self.agent_selection = self.possible_agents[self._current()]
        self._accumulate_rewards()


def env(**kwargs: Any) -> Any:
    """The AEC environment with PettingZoo's usual wrappers (bounds and call order checked)."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class parallel_env(_Core, ParallelEnv):  # type: ignore[misc]  # PettingZoo is untyped
    """Every seat the engine asks acts at once (all choosers of a sealed choice together)."""

    def __init__(self, players: int = 4, reward: str = "rank", dense: bool = False, max_cycles: int | None = None,
                 illegal: str = "terminate", illegal_reward: float = -1.0, render_mode: str | None = None,
                 **config: Any) -> None:
        self._setup(players, reward, dense, max_cycles, illegal, illegal_reward, render_mode, config)

    def _observations(self) -> dict[str, dict[str, Any]]:
        acting = set(ENGINE.acting(self.game.state))
        return {a: self._obs(s, s in acting) for s, a in enumerate(self.possible_agents) if a in self.agents}

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        self._new_game(seed)
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        rewards = {a: 0.0 for a in self.agents}
        infos: dict[str, Any] = {a: {} for a in self.agents}
        terminated = False
        self.steps += 1
        # the choosers act in the engine's order; a sealed choice is revealed once all committed
        for seat in ENGINE.acting(self.game.state):
            agent = self.possible_agents[seat]
            action = actions.get(agent)
            if not self._is_legal(seat, action):
                rewards[agent] += float(self.illegal_reward)
                infos[agent] = {"illegal_action": True}
                if self.illegal == "terminate":
                    terminated = True
                    break
                continue
            self._apply(seat, action, rewards)
        if self.game.over():
            terminated = True
            infos = self._results()
        truncated = not terminated and self._truncated()
        obs = self._observations()
        terms = {a: terminated for a in self.agents}
        truncs = {a: truncated for a in self.agents}
        if terminated or truncated:
            self.agents = []
        return obs, rewards, terms, truncs, infos


def turn_based_parallel_env(**kwargs: Any) -> Any:
    """The AEC environment through PettingZoo's own `turn_based_aec_to_parallel` conversion: a
    Parallel interface in which only the selected agent's action is used each step (sealed
    choosers one after another, as in the AEC env); `infos[agent]["active_agent"]` names it."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # type: ignore[import-untyped]
    return turn_based_aec_to_parallel(raw_env(**kwargs))
