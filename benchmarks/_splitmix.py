"""The engine's old generator, SplitMix64 (before PRJ-1's keyed generator), kept for the
benchmarks only: `use("splitmix")` swaps it into the engine modules of this process, with
the new generator's signatures; `use("keyed")` puts the engine's own back. Never imported
by the engine or the tests."""

from __future__ import annotations

from pax_hispanica.engine import decks, rng, setup, view
try:                      # determinize's module since issue 13's fast paths
    from pax_hispanica.engine import information
except ImportError:
    information = view
from pax_hispanica.engine.years import goods

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK


def next_u64(seed: int, state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(seed: int, state: int, n: int) -> tuple[int, int]:
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, x = next_u64(seed, state)
        if x < limit:
            return state, x % n


def shuffle(seed: int, state: int, items: list) -> int:
    for i in range(len(items) - 1, 0, -1):
        state, j = below(seed, state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


_OLD = {"seed_state": seed_state, "below": below, "shuffle": shuffle}
_NEW = {"seed_state": rng.seed_state, "below": rng.below, "shuffle": rng.shuffle}
USERS = (setup, decks, goods, view, information)      # the modules that import the generator's functions


def use(name: str) -> None:
    funcs = {"splitmix": _OLD, "keyed": _NEW}[name]
    for mod in USERS:
        for f, fn in funcs.items():
            if hasattr(mod, f):
                setattr(mod, f, fn)
