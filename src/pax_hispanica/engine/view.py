"""Secrecy as a projection (HID-1, HID-2): views and redacted events.

A seat's view is its information state (engine/information.py: hidden cards are "?", no
seed, no PRNG, others' sealed choices gone) in readable form: each player's money,
Prestige, income, hand (its own only, every hand once the game is over) and fleet; the
colonies, sites and rebels; the decks' face-up tops; the pending decision as everyone may
see it (a sealed choice shows who has committed and their hashes, PRJ-1, never what).
The log a seat reads is `redact`ed: events addressed to other seats are dropped (HID-2).

`view`, `model_view`, `bid_facts` and `public_decision` are built by engine/fast_views.py,
tested equal to the masked state projected (tests/engine/test_fast_views.py).
"""

from __future__ import annotations

from .end import colony_prestige_all
from .fast_views import bid_facts, model_view, public_decision, view
from .flow import YEARS, acting, step_name
from .information import HIDDEN, determinize, information_state
from .jsontypes import Event, JsonDict
from .state import State

__all__ = ["HIDDEN", "bid_facts", "determinize", "information_state", "masked_state", "model_view",
           "public_decision", "redact", "summary", "view"]

masked_state = information_state          # its former name, kept for callers


def redact(events: list[Event], viewer: int | None, reveal_all: bool = False) -> list[Event]:
    """HID-2: the log as `viewer` may see it; events addressed to other seats are dropped."""
    if reveal_all:
        return list(events)
    return [e for e in events if "to" not in e or (viewer is not None and viewer in e["to"])]


def summary(st: State) -> JsonDict:
    """A short public summary: where the game is, and each player's standing."""
    rs = st.rs
    from_colonies = colony_prestige_all(st)
    return {
        "cycle": st.cycle, "year": YEARS[st.year], "step": step_name(st), "version": st.version,
        "acting": list(acting(st)), "decision": st.stack[-1]["d"] if st.stack else None, "over": st.over,
        "order": list(st.order),
        "players": [{"seat": s, "nation": st.nation[s], "money": st.money[s], "prestige": st.prestige[s],
                     "colony_prestige": from_colonies[s], "hand": len(st.hands[s]), "income": st.income[s],
                     "tableau": [c for c, _ in st.tableaus[s]],
                     "colonies": [rs.col_ids[c] for c in st.colonies_of(s)],
                     "fleet": {"zone": rs.zone_ids[st.fzone[s]], "ships": st.fships[s],
                               "legality": st.legality[s], "cargo": list(st.cargo[s])}}
                    for s in range(st.n)],
        "result": st.result,
    }
