"""Interfaces for AI research (docs/rl.md): the integer action space (`encoding`), the
observation tensor (`observation`), PettingZoo environments (`pettingzoo_env`), a Gymnasium
environment registered as "PaxHispanica-v0" (`gym_env`) and an OpenSpiel game
"python_pax_hispanica" (`openspiel`). They need the ``rl`` extra."""

ENV_ID = "PaxHispanica-v0"

try:                                    # register the Gymnasium id when gymnasium is installed
    import gymnasium as _gym
except ImportError:                     # pragma: no cover - without the rl extra
    _gym = None  # type: ignore[assignment]  # no gymnasium: nothing to register
if _gym is not None and ENV_ID not in _gym.registry:
    _gym.register(ENV_ID, entry_point="pax_hispanica.rl.gym_env:PaxHispanicaEnv")
