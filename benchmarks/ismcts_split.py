"""ISMCTS's instructions per iteration, split into the engine calls it makes and its own work
(issue 13, seventh round), counted by callgrind in parts (os.getppid before each:
--dump-before=getppid):

    PYTHONHASHSEED=0 PYTHONPATH=<checkout>/src valgrind --tool=callgrind --dump-before=getppid \\
        --callgrind-out-file=/tmp/cgs.out .venv/bin/python benchmarks/ismcts_split.py N
    for k in 2 4 6 7 8 9 10 11 12; do grep -h summary /tmp/cgs.out.$k; done

Part 1 is the setup (tests/bots/test_ismcts_pinned.py's 16 positions, one warm-up decision);
part 2 the search itself: N iterations on each position, a fresh bot each, empty memos.
The search is then run again with the API's functions wrapped to record every call it makes
(part 3, no figure), and those calls are replayed on fresh states of the same samples:
part 4 the samples (a determinizer's calls) and api.apply_trusted (the chain that rebuilds the
states), part 6 legal_actions, 7 acting + is_over + result, 8 score_facts, 9 bid_facts, 10
model_view + view, 11 the decisions' determinizer, known_cards and view_ruleset; part 12 is
the replay loop's own cost (an empty function called with each replayed call's arguments), to
subtract from parts 6..10. The bot's own work is part 2 less the engine parts (4, 6..11 less
12). Part 2 with N and with 1 gives the per-iteration (marginal) cost and the per-decision
cost (the search's seed, stable_seed of the view and legal actions; the prior's heuristic;
the determinizer). Collections are frozen out of the replays (gc.freeze), so their share
stays in the bot's part."""
import os
import sys
from pathlib import Path

from pax_hispanica import api
from pax_hispanica.bots import ismcts, make_agent

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "bots"))
import test_ismcts_pinned as pinned

pos = pinned.positions()
N = int(sys.argv[1])
def search():
    getattr(ismcts, "_SHARED_MEMOS", {}).clear()
    for i, (v, legal) in enumerate(pos):
        make_agent("ismcts", 1000 + i, iterations=N).decide(v, legal)
make_agent("ismcts", 1000, iterations=2).decide(*pos[0])       # warm imports and caches
getattr(ismcts, "_SHARED_MEMOS", {}).clear()
os.getppid()                       # part 2: the search
search()
os.getppid()                       # part 3: recording (not a figure)
ops = []                           # (op, args with states as ("S", k)), results' states get new k
sid = {}                           # id(state) -> k
keep = []
def S(st):
    k = sid.get(id(st))
    if k is None:
        k = sid[id(st)] = len(keep)
        keep.append(st)
    return ("S", k)
orig = {n: getattr(api, n) for n in ("legal_actions", "apply_trusted", "acting", "is_over", "result", "score_facts",
                                      "bid_facts", "model_view", "view", "determinizer", "known_cards", "view_ruleset")}
def wrap(name):
    f = orig[name]
    def w(*a, **kw):
        args = tuple(S(x) if isinstance(x, api.State) else x for x in a)
        out = f(*a, **kw)
        if name == "apply_trusted":
            ops.append((name, args, kw, S(out)))
        elif name == "determinizer":
            d_index = len(dets)
            dets.append(a)
            ops.append((name, args, kw, d_index))
            def sample(seed, _d=out, _i=d_index):
                st = _d(seed)
                ops.append(("sample", (_i, seed), {}, S(st)))
                return st
            return sample
        else:
            ops.append((name, args, kw, None))
        return out
    return w
dets = []
for n in orig:
    setattr(api, n, wrap(n))
search()
for n, f in orig.items():
    setattr(api, n, f)
fresh = {}                         # recorded k -> replayed state
made = {}                          # determinizer index -> replayed determinizer
def R(x):
    return fresh[x[1]] if isinstance(x, tuple) and len(x) == 2 and x[0] == "S" else x
def replay(kinds):
    for name, args, kw, res in ops:
        if name not in kinds:
            continue
        if name == "sample":
            fresh[res[1]] = made[args[0]](args[1])
        elif name == "determinizer":
            made[res] = orig[name](*args, **kw)
        elif name == "apply_trusted":
            fresh[res[1]] = orig[name](R(args[0]), *args[1:], **kw)
        else:
            orig[name](*(R(a) for a in args), **kw)
replay({"determinizer"})            # the samplers (counted in part 11 below)
import gc  # noqa: E402 -- where the script's parts need it, after the counted parts above
chain = [o for o in ops if o[0] in ("sample", "apply_trusted")]
gc.collect()
gc.freeze()                        # the recorded states are kept: no collection walks them in the parts below
os.getppid()                       # part 4: samples + apply_trusted (the chain that rebuilds the states)
for name, args, kw, res in chain:
    if name == "sample":
        fresh[res[1]] = made[args[0]](args[1])
    else:
        fresh[res[1]] = orig[name](R(args[0]), *args[1:], **kw)
os.getppid()                       # part 5: (nothing counted: the replayed calls' arguments resolved)
def calls(kinds):
    return [(orig[name], tuple(R(a) for a in args), kw) for name, args, kw, _res in ops if name in kinds]
def nop(*a, **k):
    return None
groups = [{"legal_actions"}, {"acting", "is_over", "result"}, {"score_facts"}, {"bid_facts"}, {"model_view", "view"}]
prepared = [calls(g) for g in groups]
counts = [len(c) for c in prepared]
dcalls = [(name, args, kw, res) for name, args, kw, res in ops if name in ("determinizer", "known_cards", "view_ruleset")]
allc = [x for c in prepared for x in c]
gc.collect()
gc.freeze()
for c in prepared:                 # parts 6..10: each group's calls, arguments resolved beforehand
    os.getppid()
    for f, a, kw in c:
        f(*a, **kw)
os.getppid()                       # part 11: the decisions' determinizers, known_cards, view_ruleset
for name, args, kw, _res in dcalls:
    orig[name](*args, **kw)
os.getppid()                       # part 12: the loop and a call of an empty function per replayed call (parts 6..10: their overhead)
for _f, a, kw in allc:
    nop(*a, **kw)
os.getppid()
from collections import Counter  # noqa: E402 -- after the last counted part
print(Counter(o[0] for o in ops), counts, file=sys.stderr)
