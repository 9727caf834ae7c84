"""A CPU-time limit per test while mutmut runs a mutant (scripts/mutation.py; inert otherwise).

A mutant that makes a loop endless used to run until mutmut's limit for the whole mutant, many
times the estimated time of every test that reaches the function: 30-120 minutes of a worker for
one result. Here the test it hangs fails once it has spent ten times its own time in mutmut's
stats pass (mutants/mutmut-stats.json), and at least a minute, of CPU; the mutant counts as
killed, as a timeout does. CPU time, not wall time: the runs are paused with SIGSTOP while CI uses
the machine, and a pause must not fail a test.

Under a mutant the tests also run fastest first (by the same stats): mutmut stops at the first
failure, and a mutant is most often killed by one of the short tests named after its rule.
"""
from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import FrameType

import pytest

STATS = Path("mutmut-stats.json")   # in mutants/, mutmut's working folder
FACTOR = 10                         # times the test's duration in the stats pass ...
FLOOR = "PAXH_MUTATION_CPU_FLOOR"   # ... and at least this many seconds (60: module fixtures, a cold start)


def mutant_under_test() -> str:
    """The mutant mutmut runs in this process, or "" (a normal run, mutmut's clean, stats or forced-fail runs)."""
    name = os.environ.get("MUTANT_UNDER_TEST", "")
    return name if "__mutmut_" in name else ""


@cache
def stats_durations() -> dict[str, float]:
    try:
        return dict(json.loads(STATS.read_text())["duration_by_test"])
    except (OSError, ValueError, KeyError):
        return {}


def cpu_limit(nodeid: str) -> float:
    return max(float(os.environ.get(FLOOR, "60")), FACTOR * stats_durations().get(nodeid, 0.0))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if mutant_under_test():
        durations = stats_durations()
        items.sort(key=lambda item: durations.get(item.nodeid, 0.0))   # stable: ties keep their order


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    mutant = mutant_under_test()
    if not mutant:
        yield
        return
    limit = cpu_limit(item.nodeid)

    def over(signum: int, frame: FrameType | None) -> None:
        # pytest.fail raises a BaseException, which the engine's `except Exception` cannot swallow
        pytest.fail(f"{mutant}: the test ran past {limit:.0f} s of CPU (a loop?); counted as a timeout",
                    pytrace=False)

    previous = signal.signal(signal.SIGPROF, over)
    signal.setitimer(signal.ITIMER_PROF, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
