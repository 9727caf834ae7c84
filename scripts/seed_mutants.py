#!/usr/bin/env python3
"""Seed mutants: does every seed clause have a test that fails when its rule breaks? (issue 36)

For every rule ID that ../shared/RULES.md marks [SEED] this plants one mutation that breaks the
seed's sentence (the initiator loses ties, employing pays a player instead of the Pool, a
PLUNDER fleet loads its own colonies, ...) in a throwaway copy of the sources, runs the
project's tests for that rule on the copy, and counts the mutant killed when a test fails.
Outside the default test run; tests/rules/test_seed_clauses.py is the list of seed clauses it
mutates, and the run fails (exit 2) if a seed ID of that list has no mutant here.

    python scripts/seed_mutants.py                 # every mutant, tests named after its rule
    python scripts/seed_mutants.py --only AUC-4    # one rule
    python scripts/seed_mutants.py --tests seed    # only the clause's own check (test_seed_clauses.py)
    python scripts/seed_mutants.py --tests all     # every test of tests/rules and tests/engine
    python scripts/seed_mutants.py --source HEAD   # the committed sources, not the working tree
    python scripts/seed_mutants.py --extra         # and the mutants beyond the seed clauses (EXTRA)
    python scripts/seed_mutants.py --list          # the mutants, without running anything

How: the sources (src/, tests/, docs/, pyproject.toml) are copied once into a temporary folder
(from the working tree, or `git archive` of a revision with --source). The unmutated copy is
run first (the baseline): if a selected test fails there, nothing can be concluded and the
run stops (exit 2). Then for each mutant its textual patch is applied to the copy (each patch
must match exactly once; a patch with alternatives, for sources that are being rewritten,
uses the first that does), `pytest -x` runs with PAXH_PURE=1 and the copy's own PYTHONPATH,
and the file is restored. Tests selected by default: those of tests/rules and tests/engine
whose name holds the rule ID (`-k "AUC_4 or AUC-4"`: tests are named after rule IDs, and
test_seed_clauses' parametrized check carries the ID); `--tests all` runs them all instead.

The process renices itself to 19 (2 shared cores). Progress goes to stderr; the summary table
(Markdown) to stdout and, with the results as JSON, to --out (default: a folder under the
system's temporary directory, never inside the tree). Exit status: 0 when every mutant is
killed, 1 when one survives, 2 on a setup error (a patch that does not apply, a failing
baseline).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
COPY = ("src", "tests", "docs", "pyproject.toml")
RULES_MD = Path(os.environ.get("PAXH_RULES_MD", ROOT.parent / "shared" / "RULES.md"))
ENGINE = "src/pax_hispanica/engine/"


@dataclass(frozen=True)
class Mutant:
    rule: str
    what: str                                    # the broken sentence, in words
    path: str                                    # relative to the copy's root
    patches: tuple[tuple[tuple[str, str], ...], ...]   # alternatives, each a list of (old, new)


def m(rule: str, what: str, path: str, *alternatives: tuple[tuple[str, str], ...]) -> Mutant:
    return Mutant(rule, what, path, alternatives)


MUTANTS: tuple[Mutant, ...] = (
    m("CYC-1", "the Play Year comes before the Auction Year", ENGINE + "years/__init__.py",
      (("YEAR_STEPS[1] = auction.STEPS\nYEAR_STEPS[2] = play.STEPS",
        "YEAR_STEPS[1] = play.STEPS\nYEAR_STEPS[2] = auction.STEPS"),)),
    m("GDS-1", "colony die-off before labour acquisition", ENGINE + "years/goods.py",
      (("labour_acquisition, die_off,", "die_off, labour_acquisition,"),)),
    m("LAB-1", "employing pays the next player instead of the Pool", ENGINE + "labour.py",
      (("        st.burned += paid\n", "        st.money[(owner + 1) % st.n if owner != CROWN else 0] += paid\n"),)),
    m("LAB-3", "kidnapping is not offered when employing is possible (the owner no longer chooses)",
      ENGINE + "labour.py",
      (("             for i in kidnap_sources(st, col)]",
        "             for i in ([] if employ_sources(st, col, seat) else kidnap_sources(st, col))]"),)),
    m("LAB-4", "kidnapping allowed in a rebellious land zone", ENGINE + "labour.py",
      (("    if st.rebels[zone] > 0:\n        return []\n", ""),
       ("    require(st.rebels[zone] == 0, \"rebellious_zone\"", "    require(True, \"rebellious_zone\""))),
    m("LAB-5", "kidnapping allowed from a wilderness Tribal Site", ENGINE + "labour.py",
      (("            and not st.site_wild[i]]", "            ]"),
       ("    require(not st.site_wild[i], \"wilderness\"", "    require(True, \"wilderness\""))),
    m("AUC-2", "buried treasure auctions the face-up top card", ENGINE + "years/auction.py",
      (("    pos = 1 if buried else 0\n", "    pos = 0\n"),)),
    m("AUC-3", "players with $0 bid too", ENGINE + "years/auction.py",
      (("if st.money[s] >= 1)", "if st.money[s] >= 0)"),)),
    m("AUC-4", "the initiator loses ties", ENGINE + "years/auction.py",
      (("    if bids[initiator] == high:\n",
        "    if bids[initiator] == high and list(bids.values()).count(high) == 1:\n"),)),
    m("AUC-5", "another winner pays the Pool, not the initiator", ENGINE + "years/auction.py",
      (("        st.money[initiator] += price\n", "        st.burned += price\n"),)),
    m("AUC-7", "the hand limit is enforced in the Auction Year: a card won over the limit is discarded",
      ENGINE + "years/auction.py",
      (("    st.hands = appended(st.hands, winner, card)          # shared between states: replaced\n",
        "    st.hands = appended(st.hands, winner, card)          # shared between states: replaced\n"
        "    if len(st.hands[winner]) > st.hand_limit(winner):\n"
        "        st.hands = st.hands[:winner] + [st.hands[winner][:-1]] + st.hands[winner + 1:]\n"
        "        decks.discard_market_card(st, card, out)\n"),)),
    m("HND-2", "a play turn may end one card over the hand limit", ENGINE + "years/play.py",
      (("            if n > limit:", "            if n > limit + 1:"),)),
    m("HND-3", "a Market card sells for $2", "src/pax_hispanica/data/reference/ruleset.toml",
      (("\nsell_price = 1 ", "\nsell_price = 2 "),)),
    m("HND-4", "a discarded Haven card goes to the Market discard pile", ENGINE + "years/play.py",
      (("        decks.return_haven_card(st, c, out)\n", "        decks.discard_market_card(st, c, out)\n"),)),
    m("BAT-1", "a fort gives no Strength to a targeted colony", ENGINE + "battle.py",
      (("+ (1 if st.col_fort[idx] else 0)", "+ (0 if st.col_fort[idx] else 0)"),)),
    m("BAT-3", "a supporter may stay neutral", ENGINE + "battle.py",
      (("SIDES = (\"attacker\", \"target\")", "SIDES = (\"attacker\", \"target\", \"neutral\")"),)),
    m("BAT-4", "a tie favours the attacker", ENGINE + "battle.py",
      (("    won = a > t\n", "    won = a >= t\n"),)),
    m("LOAD-1", "no emigration on entering a land zone (not automatic)", ENGINE + "years/sail.py",
      (("    elif rs.is_land(to):\n        loading.emigrate(st, seat, to, out)\n",
        "    elif rs.is_land(to):\n        pass\n"),)),
    m("LOAD-2", "meeples load without a vacant colony (only cargo space counts)", ENGINE + "loading.py",
      (("    return max(0, min(free_space(st, seat), len(st.vacant_colonies(seat)) - meeples_aboard(st, seat)))",
        "    return max(0, free_space(st, seat))"),)),
    m("TRS-1", "a PRIVATEER scores Treasure as a CONQUISTADOR does", ENGINE + "treasure.py",
      (("    if legality == CONQUISTADOR:\n        return rs.conquistador_prestige * k, 0\n",
        "    if legality in (CONQUISTADOR, PRIVATEER):\n        return rs.conquistador_prestige * k, 0\n"),),
      (("    if legality == CONQUISTADOR:\n        prestige = rs.conquistador_prestige * k\n",
        "    if legality in (CONQUISTADOR, PRIVATEER):\n        prestige = rs.conquistador_prestige * k\n"),)),
    m("TRS-2", "a PLUNDER fleet loads its own colonies' Chests without a sack", ENGINE + "treasure.py",
      (("        if sacked or (owner == seat and rs.plunder_loading == \"sack_or_own\"):",
        "        if sacked or owner == seat:"),)),
)

# Beyond the seed clauses (--extra): the sack's lapse (issue 36), a [REF] rule whose loss no test
# caught before tests/rules/test_sack_lapse.py.
EXTRA: tuple[Mutant, ...] = (
    m("BAT-5", "the sack's right to load survives leaving the land zone (TRS-2, TRS-4)", ENGINE + "years/sail.py",
      (("    v[\"won_site\"] = None\n    v[\"sacked\"] = None\n    v[\"taken\"] = 0\n",
        "    v[\"won_site\"] = None\n"),)),
)


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def seed_ids() -> list[str]:
    """The [SEED] rule IDs: tests/rules/test_seed_clauses.py's list (itself checked against RULES.md)."""
    text = (ROOT / "tests" / "rules" / "test_seed_clauses.py").read_text(encoding="utf-8")
    block = text.split("SEED_CLAUSES = {", 1)[1].split("\n}\n", 1)[0]
    ids = re.findall(r'(?m)^    "([A-Z]+-\d+)":', block)
    if RULES_MD.exists():
        from_md = re.findall(r"(?m)^- ([A-Z]+-\d+)\b[^\n]*\[SEED", RULES_MD.read_text(encoding="utf-8"))
        if sorted(from_md) != sorted(ids):
            raise SystemExit(f"RULES.md's [SEED] IDs and test_seed_clauses.py's list differ: "
                             f"{sorted(set(from_md) ^ set(ids))}")
    return ids


def make_copy(source: str, where: Path) -> None:
    if source == "worktree":
        for name in COPY:
            src = ROOT / name
            if src.is_dir():
                shutil.copytree(src, where / name, ignore=shutil.ignore_patterns(
                    "__pycache__", "*.so", "*.pyd", "build", ".pytest_cache", "mutants"))
            else:
                shutil.copy2(src, where / name)
    else:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", source, *COPY], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)


def patch_text(text: str, mutant: Mutant) -> str:
    """The mutated text: the first alternative whose every `old` occurs exactly once."""
    for alternative in mutant.patches:
        if all(text.count(old) == 1 for old, _ in alternative):
            for old, new in alternative:
                text = text.replace(old, new)
            return text
    counts = [[text.count(old) for old, _ in alt] for alt in mutant.patches]
    raise ValueError(f"{mutant.rule}: the patch does not apply to {mutant.path} (occurrences {counts})")


def selection(rules: list[str], tests: str) -> list[str]:
    args = ["tests/rules/test_seed_clauses.py"] if tests == "seed" else ["tests/rules", "tests/engine"]
    if tests in ("named", "seed"):
        args += ["-k", " or ".join(f"{r.replace('-', '_')} or {r}" for r in rules)]
    return args


IGNORE: list[str] = []                           # --ignore: test files left out of every run


def run_tests(copy: Path, rules: list[str], tests: str, timeout: int) -> tuple[str, str, float]:
    """('killed' | 'survived' | 'timeout' | 'error', the failing test or a note, seconds)."""
    env = {**os.environ, "PAXH_PURE": "1", "PYTHONPATH": str(copy / "src"), "PYTHONDONTWRITEBYTECODE": "1",
           "PAXH_RULES_MD": str(RULES_MD)}
    cmd = [PY, "-m", "pytest", "-x", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", "--durations=0",
           "-o", "addopts=-m 'not soak'", "--timeout", str(timeout),
           *[f"--ignore={path}" for path in IGNORE], *selection(rules, tests)]
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout + 60)
    except subprocess.TimeoutExpired:
        return "timeout", "", time.monotonic() - t0
    dt = time.monotonic() - t0
    out = proc.stdout + proc.stderr
    failed = re.findall(r"(?m)^(?:FAILED|ERROR) (\S+)", out)
    if proc.returncode == 0:
        return "survived", _count(out), dt
    if proc.returncode == 1:
        return "killed", failed[0] if failed else "a test failed", dt
    if proc.returncode == 5:
        return "error", "no test selected", dt
    return "error", f"pytest exit {proc.returncode}: {out.strip().splitlines()[-1] if out.strip() else ''}", dt


def _count(out: str) -> str:
    found = re.search(r"(\d+) passed", out)
    return f"{found.group(1)} tests passed" if found else "passed"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    ap.add_argument("--only", action="append", metavar="RULE", help="mutate only this rule ID (repeatable)")
    ap.add_argument("--tests", choices=("named", "seed", "all"), default="named",
                    help="named: tests of tests/rules and tests/engine whose name holds the rule ID "
                         "(default); seed: only test_seed_clauses.py's check of that clause; all: every "
                         "test of tests/rules and tests/engine")
    ap.add_argument("--source", default="worktree",
                    help="worktree (default: the files as they are now) or a git revision (HEAD, ...)")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per pytest run (default 900)")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "paxh-seed-mutants",
                    help="folder for results.json and table.md (default: %(default)s)")
    ap.add_argument("--keep", action="store_true", help="keep the copy (its path is printed)")
    ap.add_argument("--extra", action="store_true",
                    help="also the mutants beyond the seed clauses (EXTRA: the sack's lapse, BAT-5)")
    ap.add_argument("--ignore", action="append", default=[], metavar="PATH",
                    help="leave this test file out of every run, baseline included (repeatable; e.g. a "
                         "file that does not collect)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    args = ap.parse_args(argv)

    IGNORE[:] = args.ignore
    # SIGTERM ends the run as Ctrl-C does: the running pytest is killed (subprocess.run does so on
    # any exception) and the copy removed (the finally below)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with contextlib.suppress(OSError):
        os.nice(19)
    ids = seed_ids()
    by_rule = {mu.rule: mu for mu in MUTANTS}
    missing = [r for r in ids if r not in by_rule]
    if missing:
        log(f"no mutant for the seed clause(s) {missing}")
        return 2
    by_rule.update({mu.rule: mu for mu in EXTRA})
    chosen = [by_rule[r] for r in (args.only or ids + ([mu.rule for mu in EXTRA] if args.extra else []))]
    if args.list:
        for mu in chosen:
            print(f"{mu.rule:7} {mu.path}: {mu.what}")
        return 0
    out_dir = args.out.resolve()
    if out_dir == ROOT or ROOT in out_dir.parents:
        log(f"--out {out_dir} is inside the tree; choose a folder outside it")
        return 2
    copy = Path(tempfile.mkdtemp(prefix="paxh-seed-mutants-"))
    results: list[dict[str, object]] = []
    try:
        make_copy(args.source, copy)
        log(f"sources ({args.source}) copied to {copy}")
        texts = {}
        for mu in chosen:                      # every patch applies before anything runs
            texts.setdefault(mu.path, (copy / mu.path).read_text(encoding="utf-8"))
            patch_text(texts[mu.path], mu)
        rules = [mu.rule for mu in chosen]
        log(f"baseline: the unmutated copy, tests {args.tests} ({', '.join(rules)})")
        status, note, dt = run_tests(copy, rules, args.tests, args.timeout)
        log(f"baseline: {'passed' if status == 'survived' else status} ({note}) in {dt:.0f}s")
        if status != "survived":
            log("the baseline does not pass: fix it (or choose --source) before counting kills")
            return 2
        for i, mu in enumerate(chosen, 1):
            path = copy / mu.path
            original = texts[mu.path]
            path.write_text(patch_text(original, mu), encoding="utf-8")
            try:
                status, note, dt = run_tests(copy, [mu.rule], args.tests, args.timeout)
            finally:
                path.write_text(original, encoding="utf-8")
            results.append({"rule": mu.rule, "mutation": mu.what, "file": mu.path.removeprefix("src/pax_hispanica/"),
                            "result": status, "by": note, "seconds": round(dt, 1)})
            log(f"{i}/{len(chosen)} {mu.rule}: {status} ({note}) in {dt:.0f}s")
    except ValueError as e:
        log(str(e))
        return 2
    finally:
        if args.keep:
            log(f"copy kept: {copy}")
        else:
            shutil.rmtree(copy, ignore_errors=True)

    killed = sum(r["result"] in ("killed", "timeout") for r in results)
    lines = [f"Seed mutants: {killed} of {len(results)} killed (tests: {args.tests}; sources: {args.source})", "",
             "| rule | mutation | file | result | first failing test |", "|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r['rule']} | {r['mutation']} | {r['file']} | {r['result']} | {r['by']} |")
    table = "\n".join(lines)
    print(table)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "results.json").write_text(json.dumps({"tests": args.tests, "source": args.source,
                                                      "killed": killed, "total": len(results),
                                                      "mutants": results}, indent=1) + "\n")
    (out_dir / "table.md").write_text(table + "\n")
    log(f"written: {out_dir / 'results.json'}, {out_dir / 'table.md'}")
    return 0 if killed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
