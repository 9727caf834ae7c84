"""The root decided by sequential halving over common samples (ISMCTS's ``root=halving``, issue 40).

The tree search (bots/ismcts.py) played its prior's move in 97-99% of decisions and did not gain
from 200 to 800 iterations: a sample's hidden cards and a playout's dice move a root action's
value far more than the choice between two good actions does, so at these budgets the means of
the root's children stay within their noise. Here the budget goes to telling the root's actions
apart, and the noise common to them is taken out:

- **Candidates.** Every root action, or, when there are more than `width` (a wide bid), the
  prior's action and `width - 1` others evenly spread over the legal order (base.spread), so
  both ends of a bid range are in.
- **Common samples.** Each round draws samples (determinizations of the view, as the tree's
  iterations do) and plays *every* candidate still in on the same sample, each followed by a
  playout from the same random stream (cut short after the bot's `cutoff`) and scored by the
  bot's cut-off evaluation. Two actions are then compared on the same hidden cards and the
  same dice, and their difference has a fraction of the variance of their values.
- **Sequential halving** (Karnin, Koren & Somekh 2013, the root of Gumbel MuZero): the budget
  is split evenly over ceil(log2(k)) rounds; each round the candidates still in share its
  part, and the better half (by mean value over every sample they were played on) goes on.
  More budget gives every round more samples: the choice among the last candidates is made
  on more of them.
- **The prior is not followed blindly, nor dropped lightly**: the best remaining candidate is
  played unless the prior's action is within `z` standard errors of it, where the standard
  error is that of their paired differences over the samples both were played on; then the
  prior's. (z=0 plays the best mean.)

Budget: one unit is one candidate played on one sample (a sample, one step, a playout, a
score: what one tree iteration costs), so ``iterations=N`` costs about what the tree's N do.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .base import Action, spread

Key = Any
DEFAULT_WIDTH = 16


@dataclass
class Arm:
    """One candidate: its action, and its value on each sample it was played on."""
    key: Key
    action: Action
    values: dict[int, float] = field(default_factory=dict)    # sample index -> the bot's value

    @property
    def mean(self) -> float:
        return math.fsum(self.values.values()) / len(self.values) if self.values else -1.0


def candidates(keyed: Sequence[tuple[Key, Action]], prior: Key | None, width: int) -> list[tuple[Key, Action]]:
    """The root actions the halving compares: all of them up to `width`, else the prior's and
    width - 1 evenly spread over the legal order (its first and last among them)."""
    if len(keyed) <= width:
        return list(keyed)
    picked = set(spread(0, len(keyed) - 1, width - 1 if prior is not None else width))
    return [ka for i, ka in enumerate(keyed) if i in picked or ka[0] == prior]


def rounds_for(k: int) -> int:
    return max(1, math.ceil(math.log2(k))) if k > 1 else 1


def halve(arms: list[Arm], budget: int, play: Callable[[int, list[Arm]], None]) -> tuple[list[Arm], int]:
    """Sequential halving: `play(sample_index, arms)` plays each of `arms` on one new sample and
    records its value. Returns the arms of the last round (best first) and the units spent."""
    alive = list(arms)
    rounds = rounds_for(len(alive))
    spent = 0
    sample = 0
    for r in range(rounds):
        share = (budget - spent) // (rounds - r)
        samples = max(1, share // len(alive))
        for _ in range(samples):
            play(sample, alive)
            sample += 1
            spent += len(alive)
        alive.sort(key=lambda a: -a.mean)       # stable: ties keep the legal order
        if len(alive) > 1 and r < rounds - 1:
            alive = alive[:max(2, math.ceil(len(alive) / 2))]
    return alive, spent


def paired(a: Arm, b: Arm) -> tuple[float, float, int]:
    """Mean and standard error of a's value minus b's over the samples both were played on."""
    common = [i for i in a.values if i in b.values]
    n = len(common)
    if n == 0:
        return 0.0, math.inf, 0
    d = [a.values[i] - b.values[i] for i in common]
    m = math.fsum(d) / n
    if n < 2:
        return m, math.inf, n
    var = math.fsum((x - m) ** 2 for x in d) / (n - 1)
    return m, math.sqrt(var / n), n


def choose(final: list[Arm], arms: list[Arm], prior: Key | None, z: float) -> Arm:
    """The best of the last round, unless the prior's action is within z paired standard errors."""
    best = final[0]
    if prior is None or best.key == prior or z <= 0:
        return best
    p = next((a for a in arms if a.key == prior), None)
    if p is None:
        return best
    m, se, _n = paired(best, p)
    return best if m > z * se else p


def search(keyed: Sequence[tuple[Key, Action]], prior: Key | None, budget: int, width: int, z: float,
           evaluate: Callable[[Any, Key, Action, int], float | None], sample: Callable[[int], Any],
           rng: random.Random) -> tuple[Arm, list[Arm], int]:
    """Decide among `keyed` with `budget` units. `sample(seed)` is a determinized state (or
    whatever `evaluate` reads of one); `evaluate(sample, key, action, playout_seed)` the bot's
    value after `action` there (None when the action is not legal in that sample: that arm
    skips the sample). Returns the chosen arm,
    every arm (for the explanation) and the units spent."""
    arms = [Arm(k, a) for k, a in candidates(keyed, prior, width)]
    seeds: list[tuple[int, int]] = []

    def play(index: int, alive: list[Arm]) -> None:
        while len(seeds) <= index:
            seeds.append((rng.getrandbits(63), rng.getrandbits(63)))
        state_seed, playout_seed = seeds[index]
        state = sample(state_seed)
        for arm in alive:
            v = evaluate(state, arm.key, arm.action, playout_seed)
            if v is not None:
                arm.values[index] = v

    final, spent = halve(arms, budget, play)
    return choose(final, arms, prior, z), arms, spent
