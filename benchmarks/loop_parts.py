"""The bare engine loop's parts, one callgrind part each (issue 13, seventh round):

    PYTHONHASHSEED=0 PYTHONPATH=<checkout>/src valgrind --tool=callgrind --dump-before=getppid \\
        --callgrind-out-file=/tmp/lp/cg.out .venv/bin/python benchmarks/loop_parts.py N
    grep -h summary /tmp/lp/cg.out.*     # part 1 the setup, then one part per OP, in order

The decisions of N random 4-player games (benchmarks/instruction_counts.py's `loop`: the same
seeds and choices) are recorded first; then each part runs once over every recorded decision:
  none (the bare Python loop over the records), acting, legal (legal_actions), count
  (count_actions), nth (nth_action), bot (the random choices: choice + randrange), apply,
  apply_trusted, copy (State.copy), shape (core.check_shape), and the whole loop again
  (loop: what instruction_counts.py `loop N` minus `loop 0` counts, per decision).
Divide each part's instructions by the number of decisions (printed to stderr).
"""

from __future__ import annotations

import os
import random
import sys

from pax_hispanica import api
from pax_hispanica.engine import core


def record(n: int) -> list[tuple]:
    rows = []
    for g in range(n):
        seed = 1 + g
        bot = random.Random(seed)
        st = api.new_game(api.Config(players=4), seed)
        while not st.over:
            seat = bot.choice(api.acting(st))
            legal = api.legal_actions(st, seat)
            k = api.count_actions(legal)
            i = bot.randrange(k)
            a = api.nth_action(legal, i)
            rows.append((st, seat, legal, k, i, a))
            st = api.apply(st, a)[0]
    return rows


def loop(n: int) -> None:
    for g in range(n):
        bot = random.Random(1 + g)
        st = api.new_game(api.Config(players=4), 1 + g)
        while not st.over:
            seat = bot.choice(api.acting(st))
            legal = api.legal_actions(st, seat)
            st = api.apply(st, api.nth_action(legal, bot.randrange(api.count_actions(legal))))[0]


def each(fn) -> None:
    for row in ROWS:
        fn(*row)           # nothing kept: the loop drops each state as it goes


ROWS: list[tuple] = []


def _over(mine: list[tuple], step) -> object:
    def run() -> None:
        for r in mine:
            step(r[0], r[5])
    return run


def main(n: int) -> None:
    ROWS[:] = rows = record(n)
    bot = random.Random(0)
    acting, legal_actions, count, nth = api.acting, api.legal_actions, api.count_actions, api.nth_action
    parts = {
        "none": lambda: each(lambda st, seat, legal, k, i, a: None),
        "acting": lambda: each(lambda st, seat, legal, k, i, a: acting(st)),
        "legal": lambda: each(lambda st, seat, legal, k, i, a: legal_actions(st, seat)),
        "count": lambda: each(lambda st, seat, legal, k, i, a: count(legal)),
        "nth": lambda: each(lambda st, seat, legal, k, i, a: nth(legal, i)),
        "bot": lambda: each(lambda st, seat, legal, k, i, a: (bot.choice(acting(st)), bot.randrange(k))),
        "apply": lambda: each(lambda st, seat, legal, k, i, a: api.apply(st, a)),
        "apply_trusted": lambda: each(lambda st, seat, legal, k, i, a: api.apply_trusted(st, a)),
        "copy": lambda: each(lambda st, seat, legal, k, i, a: st.copy()),
        "shape": lambda: each(lambda st, seat, legal, k, i, a: core.check_shape(st, a)),
        "loop": lambda: loop(n),
    }
    kinds = sorted({st.stack[-1]["d"] for st, *_ in rows})
    for kind in kinds:                  # apply and apply_trusted of each decision type's decisions
        mine = [r for r in rows if r[0].stack[-1]["d"] == kind]
        parts[f"apply:{kind}:{len(mine)}"] = _over(mine, lambda st, a: api.apply(st, a))
        parts[f"trusted:{kind}:{len(mine)}"] = _over(mine, api.apply_trusted)
    only = sys.argv[2].split(",") if len(sys.argv) > 2 else None
    parts = {k: f for k, f in parts.items() if only is None or k.split(":")[0] in only}
    for fn in parts.values():
        os.getppid()
        fn()
    os.getppid()
    print("decisions", len(rows), "parts", ",".join(parts), file=sys.stderr)


if __name__ == "__main__":
    main(int(sys.argv[1]))      # N [PART,PART,...: only those]
