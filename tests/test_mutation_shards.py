"""scripts/mutation.py --shard K/N: the full mutation run of issue 36 split into parts that add up."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from support import load_benchmark

mutation = load_benchmark("mutation", folder="scripts")
ROOT = Path(__file__).resolve().parents[1]

NAMES = [f"pax_hispanica.engine.years.auction.x_resolve__mutmut_{i}" for i in range(1, 400)] + \
        [f"pax_hispanica.engine.core.xǁGameǁapply__mutmut_{i}" for i in range(1, 300)]


def test_every_mutant_is_in_exactly_one_shard():
    n = 16
    for name in NAMES:
        assert sum(mutation.in_shard(name, (k, n)) for k in range(1, n + 1)) == 1


def test_shards_are_spread_evenly():
    n = 8
    sizes = [sum(mutation.in_shard(name, (k, n)) for name in NAMES) for k in range(1, n + 1)]
    assert sum(sizes) == len(NAMES)
    assert min(sizes) > len(NAMES) / n / 2 and max(sizes) < len(NAMES) / n * 2


def test_the_shard_of_a_name_does_not_depend_on_the_process():
    # CRC-32, not hash(): str hashes are salted per process, which would move mutants between parts
    assert mutation.in_shard("a", (1 + __import__("zlib").crc32(b"a") % 5, 5))


@pytest.mark.parametrize("text", ["3", "0/4", "5/4", "a/b", "1/0"])
def test_a_bad_shard_is_refused_with_its_form(text):
    with pytest.raises(argparse.ArgumentTypeError, match="shard"):
        mutation.parse_shard(text)


def test_engine_digest_names_the_sources():
    d = mutation.engine_digest()
    assert len(d) == 12 and int(d, 16) >= 0
    assert d == mutation.engine_digest()


def test_the_fresh_recheck_leaves_out_what_mutmut_leaves_out():
    """A survivor's fresh-process recheck runs without the tests [tool.mutmut] deselects: test_events'
    source grep sees mutmut's mutant copies in mutants/ and failed for every mutant there, so every
    survivor counted as killed "at import"."""
    cmd = mutation.fresh_command()
    pairs = {cmd[i + 1] for i, a in enumerate(cmd) if a == "--deselect"}
    assert "tests/engine/test_events.py::test_every_emitted_type_is_declared_and_every_declared_type_is_emitted" in pairs
    assert "tests/engine/test_events.py" in cmd and cmd[cmd.index("pytest") - 1] == "-m"


def test_the_fresh_recheck_must_pass_without_a_mutant_and_fail_with_one():
    mutation.check_fresh_baseline(lambda m: {"": 0, "fail": 1}[m])
    with pytest.raises(SystemExit, match="fails with no mutant active"):
        mutation.check_fresh_baseline(lambda m: 1)
    with pytest.raises(SystemExit, match="passes with every mutated function failing"):
        mutation.check_fresh_baseline(lambda m: 0)


def test_no_wall_clock_limit_can_kill_a_paused_mutant():
    """The runs are paused with SIGSTOP while CI uses the machine; pytest-timeout's wall-clock limit
    would then fail the running test on resume and count its mutant killed. mutmut's runs and the
    fresh recheck turn it off and limit CPU time instead."""
    mutmut = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    args = mutmut["pytest_add_cli_args"]
    assert any(a == "no:timeout" and args[i - 1] == "-p" for i, a in enumerate(args) if i)
    cmd = mutation.fresh_command()
    assert cmd[cmd.index("no:timeout") - 1] == "-p"
    child = subprocess.run([sys.executable, "-c", "import resource; print(resource.getrlimit(resource.RLIMIT_CPU)[0])"],
                           preexec_fn=mutation._limit_cpu, capture_output=True, text=True, check=True)
    assert int(child.stdout) == mutation.FRESH_CPU_SECONDS


MUTANT = "pax_hispanica.engine.flow.x_advance__mutmut_1"


def _pytest(tmp_path: Path, *args: str, mutant: str | None = MUTANT) -> subprocess.CompletedProcess[str]:
    """pytest on tmp_path's files, under `mutant` (None: no mutant at all), with a 1 s CPU floor."""
    env = {k: v for k, v in os.environ.items() if k != "MUTANT_UNDER_TEST"}
    if mutant is not None:
        env.update(MUTANT_UNDER_TEST=mutant, PAXH_MUTATION_CPU_FLOOR="1")
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:timeout", "-p", "no:randomly",
                           "-q", *args, "--rootdir", str(tmp_path), str(tmp_path)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def _run_under_a_mutant(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    (tmp_path / "test_it.py").write_text(body)
    return _pytest(tmp_path)


def test_a_mutant_that_loops_fails_its_test_after_its_cpu_share(tmp_path):
    """tests/conftest.py: under a mutant, a test that spins fails after its CPU limit (here the
    floor, 1 s), and the run goes on to report it: a loop costs a minute, not mutmut's hour."""
    run = _run_under_a_mutant(tmp_path, "def test_spins():\n    while True:\n        pass\n")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "ran past 1 s of CPU" in run.stdout


def test_a_paused_or_waiting_test_spends_no_cpu_and_passes(tmp_path):
    """The limit counts CPU, so waiting (as a worker stopped with SIGSTOP does) fails nothing."""
    run = _run_under_a_mutant(tmp_path, "import time\n\ndef test_waits():\n    time.sleep(2.5)\n")
    assert run.returncode == 0, run.stdout + run.stderr


def test_under_a_mutant_the_fastest_tests_run_first(tmp_path):
    (tmp_path / "mutmut-stats.json").write_text('{"duration_by_test": {"test_it.py::test_slow": 9.0, "test_it.py::test_fast": 0.1}}')
    run = _run_under_a_mutant(tmp_path, "def test_slow():\n    pass\n\ndef test_fast():\n    pass\n")
    assert run.returncode == 0, run.stdout + run.stderr
    listed = _pytest(tmp_path, "--collect-only")
    tests = [line for line in listed.stdout.splitlines() if "::" in line]
    assert tests == ["test_it.py::test_fast", "test_it.py::test_slow"], listed.stdout
    plain = _pytest(tmp_path, "--collect-only", mutant=None)
    assert [line for line in plain.stdout.splitlines() if "::" in line] == ["test_it.py::test_slow", "test_it.py::test_fast"]
