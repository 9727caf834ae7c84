"""A single-agent Gymnasium environment: one learner seat against bots (docs/rl.md, "Gymnasium").

``gymnasium.make("PaxHispanica-v0", opponents="heuristic")`` after ``import pax_hispanica.rl``
(or ``gymnasium.make("pax_hispanica.rl:PaxHispanica-v0")``, which imports it). The learner plays
``seat`` (default 0); the other seats are ``pax_hispanica.bots.make_agent(kind, seed)`` bots
(``opponents``: a kind, ``"random"``/``"heuristic"``/``"ismcts"``, or a list of one kind per other
seat; ``opponent_options``: options passed to make_agent), each seeded from the episode's seed.
Observations are the PettingZoo dict ``{"observation", "action_mask"}``; ``info["action_mask"]``
and ``action_masks()`` give the mask too (for masked PPO implementations). A step applies the
learner's action, then the bots' until the learner is asked again or the game ends; its
reward is the learner's (rank or score, plus the dense Prestige changes of all those actions).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.contract import Engine
from pax_hispanica.rl.pettingzoo_env import Game

ENGINE: Engine[api.State] = api
"""The engine, typed against the core contract (pax_hispanica.contract.Engine): the result of a
game (mypy --strict checks it is all that is asked); the opponents' seeds are api's
`derived_seed`, of the "records" helpers (tests/engine/test_api_contract.py)."""


class PaxHispanicaEnv(gymnasium.Env):
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012 -- gymnasium.Env declares it so

    def __init__(self, players: int = 4, seat: int = 0, opponents: str | list[str] = "heuristic",
                 opponent_options: dict[str, Any] | None = None, reward: str = "rank", dense: bool = False,
                 illegal: str = "terminate", illegal_reward: float = -1.0, render_mode: str | None = None,
                 **config: Any) -> None:
        if illegal not in ("terminate", "refuse"):
            raise ValueError(f"illegal must be 'terminate' or 'refuse', not {illegal!r}")
        self.game = Game(players, reward, dense, **config)
        self.seat = seat
        kinds = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(kinds) != players - 1:
            raise ValueError(f"{players - 1} opponents expected, got {len(kinds)}")
        self.kinds = kinds
        self.opponent_options = opponent_options or {}
        self.illegal, self.illegal_reward = illegal, illegal_reward
        self.render_mode = render_mode
        self.observation_space, self.action_space = self.game.spaces()
        self.bots: dict[int, Any] = {}

    def _obs(self) -> dict[str, Any]:
        mask = self.game.mask(self.seat).copy() if not self.game.over() else np.zeros(self.game.enc.size, np.int8)
        return {"observation": self.game.observation(self.seat), "action_mask": mask}

    def action_masks(self) -> np.ndarray:
        return self.game.mask(self.seat).astype(bool)

    def _play_bots(self) -> float:
        reward = 0.0
        while not self.game.over():
            seat = self.game.current()
            if seat == self.seat or seat is None:       # None: nobody acts, only when the game is over
                break
            # its own view and, for a bot that reads it (ISMCTS), its own log (docs/bots.md)
            self.game.act(self.game.decide_bot(self.bots[seat], seat))
            reward += self._after_move()
        return reward

    def _after_move(self) -> float:
        r = 0.0
        if self.game.dense:
            now = self.game._prestige()
            r += now[self.seat] - self.game.prestige[self.seat]
            self.game.prestige = now
        if self.game.over():
            r += self.game.final()[self.seat]
        return r

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2 ** 63))
        others = [s for s in range(self.game.n) if s != self.seat]
        self.bots = {s: make_agent(k, api.derived_seed(game_seed, f"bot-{s}"), **self.opponent_options)
                     for s, k in zip(others, self.kinds)}
        self.game.new(game_seed, self.bots)
        self._play_bots()
        obs = self._obs()
        return obs, {"action_mask": obs["action_mask"]}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        action = int(action)
        if not (0 <= action < self.game.enc.size and self.game.mask(self.seat)[action]):
            obs = self._obs()
            info: dict[str, Any] = {"action_mask": obs["action_mask"], "illegal_action": True}
            return obs, float(self.illegal_reward), self.illegal == "terminate", False, info
        rewards = self.game.apply(self.seat, action)
        reward = rewards[self.seat]
        reward += self._play_bots()
        obs = self._obs()
        info = {"action_mask": obs["action_mask"]}
        if self.game.over():
            info["result"] = ENGINE.result(self.game.state)
        return obs, float(reward), self.game.over(), False, info

    def render(self) -> str | None:
        return self.game.render(self.render_mode)
