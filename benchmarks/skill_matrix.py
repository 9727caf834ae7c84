"""Issue 15's skill-depth matrix from a benchmarks/ismcts_strength.py JSONL file: each bot's
wins, and for each pair the share of games the row's bot finished above the column's (the final
ranking: Prestige, then money, then Player Order), with 95% Wilson intervals (chance 50%).

    .venv/bin/python benchmarks/skill_matrix.py out/issue15_skill800/skill800.jsonl

The bots are read from the file's games (one of each at every table); the order printed is the
order of the first game's seats sorted by a bot's name as random, heuristic, then ISMCTS by budget.
"""
import json
import math
import re
import sys


def wilson(k, n, z=1.96):
    if n == 0:
        return (0, 0)
    p = k / n
    d = 1 + z*z/n
    c = p + z*z/(2*n)
    h = z*math.sqrt(p*(1-p)/n + z*z/(4*n*n))
    return ((c-h)/d, (c+h)/d)


with open(sys.argv[1]) as f:
    rows = [json.loads(line) for line in f if line.strip()]
rows = [r for r in rows if not r.get("error")]


def strength(bot: str) -> tuple[int, int]:
    budget = re.search(r"iterations=(\d+)", bot)
    return ({"random": 0, "heuristic": 1}.get(bot.split(":")[0], 2), int(budget.group(1)) if budget else 0)


def label(bot: str) -> str:
    budget = re.search(r"iterations=(\d+)", bot)
    return f"ISMCTS {budget.group(1)}" if bot.startswith("ismcts") and budget else bot


names = sorted(rows[0]["bots"], key=strength)
short = {b: label(b) for b in names}
n = len(rows)
wins = {b: 0 for b in names}
above = {(a, b): 0 for a in names for b in names}
for r in rows:
    pos = {b: r["ranking"].index(s) for s, b in enumerate(r["bots"])}   # ranking: seats best first
    wins[r["bots"][r["winner"]]] += 1
    for a in names:
        for b in names:
            if a != b and pos[a] < pos[b]:
                above[(a, b)] += 1
print(f"{n} games")
print("| bot | wins | win rate (95% Wilson) |\n|---|---|---|")
for b in names:
    lo, hi = wilson(wins[b], n)
    print(f"| {short[b]} | {wins[b]}/{n} | {wins[b]/n:.0%} ({lo:.0%}–{hi:.0%}) |")
print("\n| row ranked above column | " + " | ".join(short[b] for b in names) + " |\n|---|" + "---|" * len(names))
for a in names:
    cells = []
    for b in names:
        if a == b:
            cells.append("—")
            continue
        k = above[(a, b)]
        lo, hi = wilson(k, n)
        cells.append(f"{k}/{n} = {k/n:.0%} ({lo:.0%}–{hi:.0%})")
    print(f"| {short[a]} | " + " | ".join(cells) + " |")
