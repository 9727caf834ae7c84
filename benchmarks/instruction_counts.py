"""One engine operation, repeated, for counting instructions (a measure the machine's load
does not touch), old code against new:

    PYTHONHASHSEED=0 PYTHONPATH=<checkout>/src valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/instruction_counts.py OP N

and subtract the same run with OP `none`. OP `loop` / `trusted` play N random 4-player games
(acting, legal_actions, count + nth_action, apply / apply_trusted); the others call OP N
times on each of the 46 positions of every 7th decision of two random games: copy, to_dict,
restore, view, view_state, view_shared (copy=False, PRJ-65), information_state, determinize, sample, and the apply path's parts
for the seat to act and the position's first legal action: legal (legal_actions), shape
(core.check_shape), apply, apply_trusted (README, "Benchmarks"). OP `ismcts` runs ISMCTS with
N iterations on each of tests/bots/test_ismcts_pinned.py's 16 positions (4 per year): subtract
`ismcts 0` (the positions' games) and divide by 16 N for an iteration's instructions.

Or every OP in one process, a callgrind part each (`segments`):

    PYTHONHASHSEED=0 PYTHONPATH=<checkout>/src valgrind --tool=callgrind --dump-before=getppid \\
        --callgrind-out-file=/tmp/cg.out .venv/bin/python benchmarks/instruction_counts.py \\
        --segments none,view,view_state,determinize,sample,legal,apply,apply_trusted N
    grep -h summary /tmp/cg.out.*        # part 1 the setup, then one part per OP, in order
                                         # (OP ismcts there: 10 N iterations on each position)
"""

from __future__ import annotations

import random
import sys

from pax_hispanica import api
from pax_hispanica.engine import core


def game(seed: int, trusted: bool = False, every: int = 0) -> list:
    bot = random.Random(seed)
    st = api.new_game(api.Config(players=4), seed)
    n, samples = 0, []
    while not st.over:
        seat = bot.choice(api.acting(st))
        legal = api.legal_actions(st, seat)
        a = api.nth_action(legal, bot.randrange(api.count_actions(legal)))
        st = api.apply_trusted(st, a) if trusted else api.apply(st, a)[0]
        n += 1
        if every and n % every == 0 and not st.over:
            samples.append(st)
    return samples


def ismcts_positions() -> list:
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "bots"))
    import test_ismcts_pinned as pinned
    return pinned.positions()


def search(positions: list, n: int) -> None:
    from pax_hispanica.bots import make_agent
    for i, (v, legal) in enumerate(positions):
        if n:
            make_agent("ismcts", 1000 + i, iterations=n).decide(v, legal)


def per_state_ops() -> tuple[list, dict]:
    """The positions (every 7th state of two random games) and each OP that runs once per
    position, with what it needs (views, snapshots, samplers, a first action) made beforehand."""
    states = game(1, every=7) + game(2, every=7)
    def seat(st):
        return api.acting(st)[0]
    views = {id(s): api.view(s, seat(s), include_state=True) for s in states}
    snaps = {id(s): api.snapshot(s) for s in states}
    samplers = {k: api.determinizer(v) for k, v in views.items()}
    first = {id(s): api.nth_action(api.legal_actions(s, seat(s)), 0) for s in states}
    fn = {"none": lambda st: None, "copy": lambda st: st.copy(), "to_dict": lambda st: st.to_dict(),
          "restore": lambda st: api.restore(snaps[id(st)]), "view": lambda st: api.view(st, seat(st)),
          "view_state": lambda st: api.view(st, seat(st), include_state=True),
          "view_shared": lambda st: api.view(st, seat(st), copy=False),
          "information_state": lambda st: api.information_state(st, seat(st)),
          "determinize": lambda st: api.determinize(views[id(st)], 123),
          "sample": lambda st: samplers[id(st)](123),
          "legal": lambda st: api.legal_actions(st, seat(st)), "shape": lambda st: core.check_shape(st, first[id(st)]),
          "apply": lambda st: api.apply(st, first[id(st)]),
          "apply_trusted": lambda st: api.apply_trusted(st, first[id(st)])}
    return states, fn


def main(op: str, n: int) -> None:
    if op in ("loop", "trusted"):
        for g in range(n):
            game(1 + g, trusted=op == "trusted")
        return
    if op == "ismcts":                 # N iterations on each of test_ismcts_pinned's 16 positions
        search(ismcts_positions(), n)
        return
    states, fns = per_state_ops()
    fn = fns[op]
    for _ in range(n):
        for st in states:
            fn(st)


def segments(ops: list[str], n: int) -> None:
    """Every OP of `ops` in one process, each after a call of os.getppid (libc's getppid),
    which valgrind is told to dump before (--dump-before=getppid): part 1 is the setup, and
    part k + 1 OP k's N rounds. One process instead of one per OP (a run under callgrind on
    a loaded machine takes minutes), the setup counted once; the same positions and calls."""
    import os
    states, fn = per_state_ops()
    positions = ismcts_positions() if "ismcts" in ops else []
    for op in ops:
        os.getppid()
        if op == "ismcts":              # N * 10 iterations on each of the 16 positions
            search(positions, 10 * n)
            continue
        f = fn[op]
        for _ in range(n):
            for st in states:
                f(st)
    os.getppid()
    print("calls per op", n * len(states), file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1] == "--segments":     # --segments OP,OP,... N (see segments)
        segments(sys.argv[2].split(","), int(sys.argv[3]))
    else:
        main(sys.argv[1], int(sys.argv[2]))
