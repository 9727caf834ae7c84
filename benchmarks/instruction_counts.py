"""One engine operation, repeated, for counting instructions (a measure the machine's load
does not touch), old code against new:

    PYTHONHASHSEED=0 PYTHONPATH=<checkout>/src valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/instruction_counts.py OP N

and subtract the same run with OP `none`. OP `loop` / `trusted` play N random 4-player games
(acting, legal_actions, count + nth_action, apply / apply_trusted); the others call OP N
times on each of the 46 positions of every 7th decision of two random games: copy, to_dict,
restore, view, view_state, information_state, determinize, sample, and the apply path's parts
for the seat to act and the position's first legal action: legal (legal_actions), shape
(core.check_shape), apply, apply_trusted (README, "Benchmarks").
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


def main(op: str, n: int) -> None:
    if op in ("loop", "trusted"):
        for g in range(n):
            game(1 + g, trusted=op == "trusted")
        return
    states = game(1, every=7) + game(2, every=7)
    seat = (lambda st: api.acting(st)[0])
    views = {id(s): api.view(s, seat(s), include_state=True) for s in states}
    snaps = {id(s): api.snapshot(s) for s in states}
    samplers = {k: api.determinizer(v) for k, v in views.items()}
    first = {id(s): api.nth_action(api.legal_actions(s, seat(s)), 0) for s in states}
    fn = {"none": lambda st: None, "copy": lambda st: st.copy(), "to_dict": lambda st: st.to_dict(),
          "restore": lambda st: api.restore(snaps[id(st)]), "view": lambda st: api.view(st, seat(st)),
          "view_state": lambda st: api.view(st, seat(st), include_state=True),
          "information_state": lambda st: api.information_state(st, seat(st)),
          "determinize": lambda st: api.determinize(views[id(st)], 123),
          "sample": lambda st: samplers[id(st)](123),
          "legal": lambda st: api.legal_actions(st, seat(st)), "shape": lambda st: core.check_shape(st, first[id(st)]),
          "apply": lambda st: api.apply(st, first[id(st)]),
          "apply_trusted": lambda st: api.apply_trusted(st, first[id(st)])}[op]
    for _ in range(n):
        for st in states:
            fn(st)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
