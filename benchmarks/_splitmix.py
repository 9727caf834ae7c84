"""The engine's old generator, SplitMix64 (before PRJ-1's keyed generator), kept for the
benchmarks only: `use("splitmix")` swaps it into the engine of this process, with the new
generator's signatures; `use("keyed")` puts the engine's own back. Never imported by the
engine or the tests.

What is swapped, and what is not (each `use` returns this, and the --compare-rng runs of
benchmarks/engine.py and benchmarks/bots.py print it with their figures):

- the game's draws: `rng.below` and `rng.shuffle`, which `rng.draw`/`rng.draw_shuffle` call
  for every die, deck and setup shuffle of a game (PRJ-70), and `seed_state` where a game's
  counter starts (`rng` and `setup`, which imports it by name);
- NOT a search's samples (`information.determinize`, ISMCTS's determinizations): since PRJ-45
  they draw from their own SHAKE-256 word stream (engine/sampling.py), not from the game's
  generator, so there is nothing of SplitMix's to put there; they cost the same in both runs.

Every swap point is named here and checked: a refactor that moves a draw elsewhere makes
`use` fail loudly instead of comparing nothing (before this, a name missing from a module
was skipped without a word, and after PRJ-45/PRJ-70 only `setup.seed_state` was still swapped)."""

from __future__ import annotations

from pax_hispanica.engine import rng, sampling, setup

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


# (module, name): every place the game's generator is looked up at call time
SWAPPED = ((rng, "seed_state"), (rng, "below"), (rng, "shuffle"), (setup, "seed_state"))
NOT_SWAPPED = {
    "engine/sampling.py (information.determinize, ISMCTS's samples)":
        "a search's samples draw from their own SHAKE-256 word stream since PRJ-45, not from the game's "
        "generator: nothing to swap, the same cost in both runs",
}
_OLD = {"seed_state": seed_state, "below": below, "shuffle": shuffle}
_NEW = {"seed_state": rng.seed_state, "below": rng.below, "shuffle": rng.shuffle}
assert sampling.Stream is not None      # the module named in NOT_SWAPPED is still the samples' source


def use(name: str) -> dict:
    """Swap the game's generator (`splitmix` or `keyed`); returns what was swapped and what not."""
    funcs = {"splitmix": _OLD, "keyed": _NEW}[name]
    for mod, f in SWAPPED:
        if not hasattr(mod, f):
            raise RuntimeError(f"{mod.__name__}.{f} is gone: the generator is called elsewhere now; "
                               "update benchmarks/_splitmix.py's SWAPPED")
        setattr(mod, f, funcs[f])
    # the draws really go through what was put there: a setup's shuffle with each generator
    if name == "splitmix":
        a = _setup_order(_OLD)
        b = _setup_order(_NEW)
        if a == b:
            raise RuntimeError("SplitMix64 swapped in, yet a setup's shuffle came out the same: "
                               "the game draws through something not in SWAPPED")
        setattr_all(_OLD)
    return {"generator": name, "swapped": [f"{m.__name__}.{f}" for m, f in SWAPPED],
            "not_swapped": NOT_SWAPPED}


def setattr_all(funcs: dict) -> None:
    for mod, f in SWAPPED:
        setattr(mod, f, funcs[f])


def _setup_order(funcs: dict) -> list:
    setattr_all(funcs)
    items = list(range(20))
    rng.draw_shuffle(1, rng.seed_state(1) if funcs is _NEW else seed_state(1), items, None)
    return items
