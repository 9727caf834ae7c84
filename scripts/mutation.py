#!/usr/bin/env python3
"""Mutation score of the rules engine (src/pax_hispanica/engine), outside the default test run.

It drives mutmut 3 (configured in pyproject.toml, [tool.mutmut]): mutmut copies src/ and the
tests into mutants/, writes every mutant of every engine function into the copy behind a
trampoline, runs the fast tests once to learn which tests reach which function, and then runs,
for each mutant, only the tests of tests/engine and tests/rules that reach the mutated function
(stopping at the first failure). A mutant is killed when one of them fails.

Modes:

  python scripts/mutation.py --sample 300 --seed 1   # a sample spread over the engine's modules
  python scripts/mutation.py --full                  # every mutant (nightly; resumable: a mutant
                                                     # that already has a result is not run again)
  python scripts/mutation.py --full --shard 3/16     # one sixteenth of them (see below)
  python scripts/mutation.py --report                # print the last results again
  python scripts/mutation.py --rerun-survivors       # run the last report's survivors again
  python scripts/mutation.py --resume                # run the last sample's mutants that have no result

The sample is stratified: each module gets a share of the N mutants proportional to its number of
mutants (at least one), drawn with random.Random(seed), so the same N and seed give the same mutants
while the engine's sources are unchanged. Run it niced with one worker on a shared machine
(`nice -n 19 ... --jobs 1`, the default). It prints the share of mutants killed per module and in
all, and lists the survivors (file:line and the mutation). Mutants listed in
tests/mutation_equivalent.txt (equivalent mutants: no behaviour can tell them from the original,
each with its reason) are counted apart and left out of the score's denominator.

mutmut forks its workers from a process that has already imported the engine, so it cannot see a
mutant of code that runs only at import (the pydantic schemas are built so); every survivor is
therefore run once more in a fresh process on a few tests, and one that fails there counts as
killed ("at import" in the table).

Under a mutant, tests/conftest.py runs the selected tests fastest first and fails a test that
spends ten times its stats time of CPU (at least a minute): a mutant that loops costs a minute.
No limit counts wall time, so the run may be paused (kill -STOP / -CONT) while CI uses the machine.

A full run takes hours (a sixteenth about an hour on two workers). `--shard K/N` runs the K-th of N fixed parts of the mutants
(a mutant's part is the CRC-32 of its name modulo N, so the parts are the same on every machine
for the same sources, and each is spread over all the modules like a random sample). Each part's
report ends with the digest of the engine's sources it ran on; the full score is the sum of the N
parts' counts when they ran on the same digest, and any one part is already an unbiased estimate.

mutmut learns once which tests reach which function (mutants/mutmut-stats.json) and then only
for tests it has not seen: a test whose body changed keeps its old association until it is
renamed or mutants/ is deleted (--fresh). The engine's loaders cache by folder path, so a test
that means to exercise them loads a copy under a new name.

Exit status: 0 when the score reaches --target (default 95, issue 36), 1 when it does not, 2 on a setup error.
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import random
import re
import resource
import subprocess
import sys
import tomllib
import zlib
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"
ENGINE = "src/pax_hispanica/engine"
SAMPLE_FILE = MUTANTS / "sample.txt"
EQUIVALENT_FILE = ROOT / "tests" / "mutation_equivalent.txt"
KILLED = {1, 3}            # mutmut: a test failed (3: pytest internal error, counted as a kill by mutmut)
TIMEOUT = {36, -24, 24, 152, 255}   # the tests ran past the time limit: an infinite loop, counted as killed
SURVIVED = {0}
FRESH_FILE = MUTANTS / "fresh_kills.json"
# mutmut forks its workers from a process that has already imported the engine, so a mutant of code
# that runs only while a module is imported (building the pydantic schemas, say) is never seen by
# the tests there. Each survivor is therefore run again in a fresh process on these tests; one that
# fails there (most often: the engine no longer imports) is killed "at import".
# (about 8 s a survivor: the loaders, schemas, decision tables and events, whose code runs at import
# or fills a cache before mutmut's forked workers see it)
FRESH_TESTS = ["tests/engine/test_golden.py", "tests/engine/test_ruleset.py", "tests/engine/test_loader_edges.py",
               "tests/engine/test_loader_messages.py", "tests/engine/test_scenario_loaded.py",
               "tests/engine/test_schema.py", "tests/engine/test_decisions.py",
               "tests/engine/test_decision_concerns.py", "tests/engine/test_events.py"]
NO_TESTS = {5, 33}         # no selected test reaches the function
INTERRUPTED = {2, -2, -15}  # the run was stopped (Ctrl-C, SIGTERM): no result


def _generate() -> None:
    """Write the mutants into mutants/ (mutmut's own first step, without running any test)."""
    sys.argv = ["mutmut"]
    import mutmut.__main__ as mm
    mm.set_mutant_under_test("mutant_generation")
    os.makedirs("mutants", exist_ok=True)
    mm.copy_src_dir()
    mm.copy_also_copy_files()
    mm.setup_source_paths()
    mm.store_lines_covered_by_tests()
    stats = mm.create_mutants(1)
    print(f"mutants written: {stats.mutated} files mutated, {stats.ignored} not mutated", flush=True)


def generate() -> None:
    r = subprocess.run([sys.executable, __file__, "--_generate"], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        print(r.stdout[-4000:])
        sys.exit(2)
    print(r.stdout.strip().splitlines()[-1])


def metas() -> dict[str, dict]:
    """module path (src/...py) -> mutmut's meta data for it."""
    out = {}
    for meta in sorted((MUTANTS / ENGINE).rglob("*.py.meta")):
        rel = str(meta.relative_to(MUTANTS))[: -len(".meta")]
        out[rel] = json.loads(meta.read_text())
    return out


def all_mutants() -> dict[str, str]:
    """mutant name -> module path."""
    return {name: path for path, m in metas().items() for name in m["exit_code_by_key"]}


def in_shard(name: str, shard: tuple[int, int]) -> bool:
    k, n = shard
    return zlib.crc32(name.encode()) % n == k - 1


def parse_shard(text: str) -> tuple[int, int]:
    k, _, n = text.partition("/")
    try:
        kn = int(k), int(n)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--shard wants K/N, e.g. 3/16, not {text!r}") from None
    if not 1 <= kn[0] <= kn[1]:
        raise argparse.ArgumentTypeError(f"--shard {text}: K must be between 1 and N")
    return kn


def engine_digest() -> str:
    """SHA-256 (first 12 hex digits) of the engine's sources: the parts of a sharded full run add up
    only when they ran on the same sources."""
    h = hashlib.sha256()
    for p in sorted((ROOT / ENGINE).rglob("*.py")):
        h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:12]


def stratified_sample(mutants: dict[str, str], n: int, seed: int) -> list[str]:
    by_module: dict[str, list[str]] = defaultdict(list)
    for name, path in sorted(mutants.items()):
        by_module[path].append(name)
    total = len(mutants)
    rng = random.Random(seed)
    # largest remainder apportionment, at least one per module
    quotas = {p: max(1, n * len(ms) / total) for p, ms in by_module.items()}
    take = {p: min(len(by_module[p]), int(q)) for p, q in quotas.items()}
    rest = n - sum(take.values())
    for p in sorted(quotas, key=lambda p: (quotas[p] - int(quotas[p])), reverse=True):
        if rest <= 0:
            break
        if take[p] < len(by_module[p]):
            take[p] += 1
            rest -= 1
    chosen = []
    for p in sorted(by_module):
        chosen += rng.sample(by_module[p], take[p])
    return sorted(chosen)


def run_mutmut(names: list[str] | None, jobs: int, log: Path) -> int:
    cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs)] + (names or [])
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)   # mutmut puts mutants/src first itself; a PYTHONPATH would shadow it
    print(f"running mutmut ({len(names) if names else 'all'} mutants, {jobs} worker(s)); log: {log}", flush=True)
    with open(log, "w") as f:
        return subprocess.run(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, env=env).returncode


def fresh_kills() -> dict[str, int]:
    return json.loads(FRESH_FILE.read_text()) if FRESH_FILE.exists() else {}


def fresh_command() -> list[str]:
    """The fresh-process recheck's pytest command: FRESH_TESTS less the tests mutmut leaves out
    ([tool.mutmut]'s --deselect pairs: a source grep there sees mutmut's mutant copies in mutants/
    and fails for every mutant, which made every survivor look killed)."""
    selection = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]["pytest_add_cli_args_test_selection"]
    deselect = [a for i, a in enumerate(selection) if i and selection[i - 1] == "--deselect"]
    return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:timeout", "-x", "-q", *FRESH_TESTS,
            *(x for d in deselect for x in ("--deselect", d))]


def _fresh_run(mutant: str) -> int:
    env = dict(os.environ, PYTHONPATH=str(MUTANTS / "src"), MUTANT_UNDER_TEST=mutant)
    return subprocess.run(fresh_command(), cwd=MUTANTS, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, preexec_fn=_limit_cpu).returncode


FRESH_CPU_SECONDS = 600  # the recheck's tests take about 20 s of CPU; a mutant that loops at import stops here


def _limit_cpu() -> None:
    """A CPU-time limit, not a wall-clock one (pytest-timeout is off), so pausing the run with
    SIGSTOP while CI uses the machine cannot fail a test; past it the process dies (SIGXCPU) and
    the mutant counts as killed by timeout, as in mutmut."""
    resource.setrlimit(resource.RLIMIT_CPU, (FRESH_CPU_SECONDS, FRESH_CPU_SECONDS + 1))


def check_fresh_baseline(run: Callable[[str], int] = _fresh_run) -> None:
    """The recheck can tell: with no mutant active its tests pass, and with mutmut's "fail" (every
    trampolined function raises) they fail. Either way wrong, a kill there would mean nothing."""
    if run("") != 0:
        raise SystemExit("the fresh-process recheck fails with no mutant active: fix its tests "
                         f"(cd mutants && MUTANT_UNDER_TEST= PYTHONPATH=src {' '.join(fresh_command())})")
    if run("fail") == 0:
        raise SystemExit("the fresh-process recheck passes with every mutated function failing: its tests "
                         "do not reach the engine")


def recheck_in_fresh_processes(names: list[str], run: Callable[[str], int] = _fresh_run) -> None:
    """Run each survivor among `names` in a new process on FRESH_TESTS (see FRESH_FILE), once the
    recheck has shown that it passes without a mutant and fails with one."""
    codes = {n: c for m in metas().values() for n, c in m["exit_code_by_key"].items()}
    done, eq = fresh_kills(), equivalent()
    todo = [n for n in names if codes.get(n) in SURVIVED | NO_TESTS and n not in eq]
    if todo:
        check_fresh_baseline(run)
    for n in todo:
        done[n] = run(n)
    for n in list(done):
        if n not in todo and (codes.get(n) not in SURVIVED | NO_TESTS or n in eq):
            del done[n]                      # killed by mutmut since, or listed as equivalent
    FRESH_FILE.write_text(json.dumps(done, indent=1, sort_keys=True))


def equivalent() -> dict[str, str]:
    """mutant name -> why it is equivalent (tests/mutation_equivalent.txt: `name  # reason`)."""
    out = {}
    if EQUIVALENT_FILE.exists():
        for line in EQUIVALENT_FILE.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, why = line.partition("#")
                out[name.strip()] = why.strip()
    return out


_DEFS: dict[str, dict[str, int]] = {}


def _def_lines(path: str) -> dict[str, int]:
    """mutmut's mangled function name (x_f, xǁClassǁm) -> first line of its def in the source."""
    if path not in _DEFS:
        tree = ast.parse((ROOT / path).read_text())
        lines: dict[str, int] = {}

        def walk(body, cls=None):
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                    lines[f"xǁ{cls}ǁ{node.name}" if cls else f"x_{node.name}"] = first
                elif isinstance(node, ast.ClassDef) and cls is None:
                    walk(node.body, node.name)
        walk(tree.body)
        _DEFS[path] = lines
    return _DEFS[path]


def describe(name: str, path: str) -> tuple[str, str]:
    """(file:line, the mutation as `- old / + new`) of a mutant."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        diff = get_diff_for_mutant(name, path=Path(path))
    except Exception as e:  # any failure: a report line, not a verdict
        return f"{path}:?", f"(no diff: {e})"
    finally:
        os.chdir(cwd)
    func = name.rpartition(".")[2].partition("__mutmut_")[0]
    start = _def_lines(path).get(func)
    line = "?"
    old, new = [], []
    pos = 0
    for d in diff.splitlines():
        m = re.match(r"@@ -(\d+)", d)
        if m:
            pos = int(m.group(1)) - 1
            continue
        if d.startswith(("---", "+++")):
            continue
        if d.startswith("-"):
            if not old and start is not None:
                line = str(start + pos)
            old.append(d[1:].strip())
            pos += 1
        elif d.startswith("+"):
            new.append(d[1:].strip())
        else:
            pos += 1
    return f"{path}:{line}", f"{' | '.join(old)}  ->  {' | '.join(new)}"


def report(names: list[str] | None, target: float, show_equivalent: bool = False) -> tuple[float, list[str]]:
    codes: dict[str, tuple[str, object]] = {}
    for path, m in metas().items():
        for name, code in m["exit_code_by_key"].items():
            codes[name] = (path, code)
    names = sorted(codes) if names is None else names
    eq = equivalent()
    fresh = {n for n, rc in fresh_kills().items() if rc != 0}
    per: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    survivors, unchecked = [], 0
    for name in names:
        path, code = codes[name]
        row = per[path.removeprefix(ENGINE + "/")]
        if code is None or code in INTERRUPTED:
            unchecked += 1
            continue
        if name in eq:
            row["equivalent"] += 1
            continue
        row["tested"] += 1
        if code in KILLED or code in TIMEOUT:
            row["killed"] += 1
        elif name in fresh:
            row["killed"] += 1
            row["at import"] += 1
        elif code in NO_TESTS:
            row["no tests"] += 1
            survivors.append(name)
        else:
            row["survived"] += 1
            survivors.append(name)
    print()
    print(f"{'module':28} {'killed':>7} {'tested':>7} {'share':>7} {'survived':>9} {'no tests':>9} {'equiv':>6}"
          f" {'at import':>10}")
    tot = defaultdict(int)
    for mod in sorted(per):
        row = per[mod]
        for k, v in row.items():
            tot[k] += v
        share = f"{100 * row['killed'] / row['tested']:.1f}%" if row["tested"] else "-"
        print(f"{mod:28} {row['killed']:7} {row['tested']:7} {share:>7} {row['survived']:9} "
              f"{row['no tests']:9} {row['equivalent']:6} {row['at import']:10}")
    score = 100 * tot["killed"] / tot["tested"] if tot["tested"] else 0.0
    print(f"{'all':28} {tot['killed']:7} {tot['tested']:7} {score:6.1f}% {tot['survived']:9} "
          f"{tot['no tests']:9} {tot['equivalent']:6} {tot['at import']:10}")
    print("(killed: a selected test failed or timed out; 'at import' of them: killed only in a fresh process)")
    if unchecked:
        print(f"({unchecked} mutants of the selection have no result yet)")
    survivors = [n for n in survivors if n not in fresh]
    if survivors:
        print("\nsurvivors (file:line  mutation  [mutant]):")
        for name in survivors:
            where, what = describe(name, codes[name][0])
            tag = " (no test reaches it)" if codes[name][1] in NO_TESTS else ""
            print(f"  {where}  {what}  [{name}]{tag}")
    if show_equivalent:
        print("\nequivalent (tests/mutation_equivalent.txt):")
        for name in names:
            if name in eq:
                where, what = describe(name, codes[name][0])
                print(f"  {where}  {what}  -- {eq[name]}")
    print(f"engine sources: {engine_digest()}")
    verdict = "reaches" if score >= target else "is below"
    print(f"\nmutation score: {tot['killed']}/{tot['tested']} = {score:.1f}% killed "
          f"({tot['equivalent']} equivalent left out); {verdict} the target {target:g}%")
    return score, survivors


def compiled_extensions() -> list[str]:
    """mypyc extensions in src/ (benchmarks/mypyc_build.py builds them in place): mutmut mutates the
    .py sources, which Python does not load while a module's .so sits next to them. (The compiled
    engine of scripts/compile_engine.py lies outside src/ and is never loaded for mutmut's copy of
    the sources, whose digests differ, and PAXH_PURE=1 is set for every run besides.)"""
    src = ROOT / "src"
    return sorted(str(p.relative_to(ROOT)) for p in [*src.rglob("*.so"), *src.rglob("*.pyd")])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--sample", type=int, metavar="N", help="run N mutants spread over the modules (default 200)")
    mode.add_argument("--full", action="store_true", help="run every mutant that has no result yet")
    mode.add_argument("--report", action="store_true", help="only print the last results (of the last sample)")
    mode.add_argument("--rerun-survivors", action="store_true", help="run the last selection's survivors again")
    mode.add_argument("--resume", action="store_true", help="run the last selection's mutants that have no result")
    mode.add_argument("--_generate", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--module", action="append", default=[],
                    help="only mutants of this module (e.g. years/auction.py); may be repeated")
    ap.add_argument("--shard", type=parse_shard, metavar="K/N",
                    help="with --full: only the K-th of N fixed parts of the mutants (resumable across machines)")
    ap.add_argument("--jobs", type=int, default=1, help="mutmut workers (default 1)")
    ap.add_argument("--target", type=float, default=95.0, help="the share of non-equivalent mutants to kill, in %% (issue 36: 95)")
    ap.add_argument("--equivalent", action="store_true", help="also list the equivalent mutants")
    ap.add_argument("--fresh", action="store_true", help="delete mutants/ first (after the engine changed)")
    a = ap.parse_args()
    os.environ["PAXH_PURE"] = "1"      # every run below (mutmut's, the fresh processes) on the pure engine
    if a._generate:
        os.chdir(ROOT)
        _generate()
        return 0
    try:
        import mutmut  # noqa: F401
    except ImportError:
        print("mutmut is not installed: pip install -e '.[dev]'")
        return 2
    compiled = compiled_extensions()
    if compiled:
        print(f"the engine is compiled here ({len(compiled)} extension(s), e.g. {compiled[0]}): a mutant of a "
              "module Python loads from its .so would never run. Mutate the pure sources: "
              "python benchmarks/mypyc_build.py clean")
        return 2
    if a.fresh and MUTANTS.exists():
        import shutil
        shutil.rmtree(MUTANTS)
    if a.shard and not (a.full or a.report):
        ap.error("--shard goes with --full or --report")
    if a.report:
        names = SAMPLE_FILE.read_text().split() if SAMPLE_FILE.exists() else None
        if a.shard:
            names = sorted(n for n in all_mutants() if in_shard(n, a.shard))
        score, _ = report(names, a.target, a.equivalent)
        return 0 if score >= a.target else 1
    generate()
    mutants = all_mutants()
    if a.module:
        mutants = {n: p for n, p in mutants.items() if p.removeprefix(ENGINE + "/") in a.module}
    if a.shard:
        mutants = {n: p for n, p in mutants.items() if in_shard(n, a.shard)}
    print(f"{len(mutants)} mutants in {len(set(mutants.values()))} modules")
    if a.rerun_survivors or a.resume:
        names = SAMPLE_FILE.read_text().split() if SAMPLE_FILE.exists() else sorted(mutants)
        codes = {n: c for m in metas().values() for n, c in m["exit_code_by_key"].items()}
        if a.resume:
            todo = [n for n in names if codes.get(n) is None or codes[n] in INTERRUPTED]
        else:
            todo = [n for n in names if codes.get(n) in SURVIVED | NO_TESTS and n not in equivalent()]
        if todo:
            run_mutmut(todo, a.jobs, MUTANTS / "mutmut-run.log")
    elif a.full:
        SAMPLE_FILE.unlink(missing_ok=True)
        names = sorted(mutants) if a.module or a.shard else None
        if a.shard:
            SAMPLE_FILE.write_text("\n".join(names) + "\n")   # so that --report and --resume keep to it
        run_mutmut(names, a.jobs, MUTANTS / "mutmut-run.log")
        names = sorted(mutants)
    else:
        names = stratified_sample(mutants, a.sample or 200, a.seed)
        SAMPLE_FILE.write_text("\n".join(names) + "\n")
        run_mutmut(names, a.jobs, MUTANTS / "mutmut-run.log")
    recheck_in_fresh_processes(names)
    score, _ = report(names, a.target, a.equivalent)
    return 0 if score >= a.target else 1


if __name__ == "__main__":
    sys.exit(main())
