"""Hypothesis strategies over positions and actions (issue 39, "Tests by rule").

A position is a prefix of a recorded game of the corpus (tests/corpus/: bot games of 2-5
players, the scenario files, games played through the web server), replayed with `api.replay`;
actions are then drawn from the legal ones, one at a time, as indices into `api.legal_actions`
(so Hypothesis shrinks towards the first game of the corpus, its first actions and the first
legal action of each decision).

    positions()                 a Game replayed to a drawn prefix of a drawn corpus record
    legal_actions_of(state)     one legal action of one of the acting seats
    walks(max_steps)            a position, then up to max_steps random legal actions from it

Speed: the default run keeps each test to a few dozen examples (`EXAMPLES`, deadline off);
`pytest -m soak` runs the same properties with `SOAK_EXAMPLES`, and the environment variable
PAXH_HYPOTHESIS_EXAMPLES sets the default run's number (e.g. 500 for a long local run).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from pax_hispanica import api
from pax_hispanica.sim import corpus

ENTRIES: list[dict] = [e for _file, e in corpus.load()]
# seeds a small number of the state could equal by chance (scenarios use small ones): the view
# checks (engine/helpers.secret_violations) look for the seed among a view's numbers
LARGE_SEEDS: list[dict] = [e for e in ENTRIES if e["record"]["seed"] >= 2 ** 32]

EXAMPLES = int(os.environ.get("PAXH_HYPOTHESIS_EXAMPLES", "25"))
SOAK_EXAMPLES = 400
DEFAULT = settings(max_examples=EXAMPLES, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SOAK = settings(DEFAULT, max_examples=SOAK_EXAMPLES)


@st.composite
def positions(draw: st.DrawFn, entries: list[dict] | None = None, from_end: int | None = None) -> api.Game:
    """A corpus record replayed to a drawn number of its actions (0: the setup; all: the end).
    `from_end`: only the last `from_end` actions' positions (near the end of the game)."""
    entry = draw(st.sampled_from(entries if entries is not None else ENTRIES), label="record")
    n = len(entry["record"]["actions"])
    least = 0 if from_end is None else max(0, n - from_end)
    k = draw(st.integers(least, n), label="actions replayed")
    return api.replay(entry["record"], upto=k)


@st.composite
def legal_actions_of(draw: st.DrawFn, state: api.State) -> dict:
    """One legal action of a position that is not over: a seat drawn among the acting ones,
    then an index into its legal actions (descriptors, ranges counted one per value)."""
    seats = api.acting(state)
    seat = draw(st.sampled_from(seats), label="seat") if len(seats) > 1 else seats[0]
    legal = api.legal_actions(state, seat)
    i = draw(st.integers(0, api.count_actions(legal) - 1), label="legal action index")
    return api.nth_action(legal, i)


@dataclass
class Step:
    before: api.State
    action: dict
    after: api.State
    events: list


@dataclass
class Walk:
    """A position (`start`: a copy of its state before the walk) and the game after the walk's
    steps (`game`: its record holds the corpus prefix and the drawn actions)."""
    start: api.State
    game: api.Game
    steps: list[Step] = field(default_factory=list)


@st.composite
def walks(draw: st.DrawFn, max_steps: int = 30, entries: list[dict] | None = None,
          from_end: int | None = None) -> Walk:
    """A position from the corpus, then up to `max_steps` legal actions drawn one by one (fewer
    when the game ends; how many is drawn too, so Hypothesis can shrink a walk to its start)."""
    game = draw(positions(entries, from_end))
    walk = Walk(game.state, game)
    steps = draw(st.integers(0, max_steps), label="steps")
    for _ in range(steps):
        if api.is_over(game.state):
            break
        before = game.state
        action = draw(legal_actions_of(before))
        events = game.act(action)
        walk.steps.append(Step(before, action, game.state, events))
    return walk
