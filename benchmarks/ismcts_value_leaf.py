"""ISMCTS with the value model (pax_hispanica.analysis.value) as its cut-off evaluation, at two
budgets, paired against the same three heuristic bots (issue 40, "search that gains from
thinking time"): benchmarks/strength_ab.py with every ISMCTS bot of the process scoring its
cut-offs by `win_probabilities` of the spectator's view of the sampled state (public facts
only), softmax(logits / (model temperature x the bot's `temperature`)).

    nice -n 10 .venv/bin/python benchmarks/ismcts_value_leaf.py \
        --a ismcts:iterations=200 --b ismcts:iterations=800 --games 200 --seed 40 \
        --out out/value_leaf/200_800.jsonl --resume

Takes strength_ab.py's options (--resume continues a run stopped in the middle: run it in chunks).
"""
from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength_ab import main

from pax_hispanica.analysis import value
from pax_hispanica.bots import ismcts

MODEL = value.load()


def _values(self: Any, state: Any, n: int) -> list[float]:
    api = self.api
    if api.is_over(state):
        winner = api.result(state)["winner"]
        return [1.0 if p == winner else 0.0 for p in range(n)]
    z = MODEL.logits(value.seat_features(api.view(state, None)))
    t = MODEL.temperature * float(self.temperature)
    top = max(z)
    ex = [math.exp((v - top) / t) for v in z]
    total = sum(ex)
    return [e / total for e in ex]


ismcts.ISMCTSAgent._values = _values   # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(main())
