"""A view names the year's step as engine/flow.py does (flow.step_name), also when its cache of
step names is empty, as in a fresh process (engine/fast_views.py keeps the names of each
year's steps; a test run that has already drawn a view finds them cached). Written to kill
survivors of scripts/mutation.py's full run."""

from __future__ import annotations

import random

from pax_hispanica import api
from pax_hispanica.engine import fast_views
from pax_hispanica.engine.flow import YEARS, step_name


def test_a_view_names_the_step_of_every_year_from_an_empty_cache(monkeypatch):
    """Every position of a seeded random game's first cycle: it waits for a seat in the Auction,
    Play and Sail Years (its Goods Year asks no seat anything: no colony is ready for Labour)."""
    st = api.new_game(api.Config(players=3), 5)
    r = random.Random(5)
    seen: set[str] = set()
    while not st.over and st.cycle < 2:
        monkeypatch.setattr(fast_views, "_STEP_NAMES", {})
        for board in (True, False):
            view = api.view(st, None, include_state=False, board=board)
            assert (view["year"], view["step"]) == (str(YEARS[st.year]), step_name(st))
        seen.add(view["year"])
        seat = r.choice(api.acting(st))
        legal = api.legal_actions(st, seat)
        st, _ = api.apply(st, api.nth_action(legal, r.randrange(api.count_actions(legal))))
    assert seen == {"auction", "play", "sail"}
