"""The replay page of a finished game: each step with every hand revealed, and its years."""
from __future__ import annotations

from markupsafe import Markup
from typing import Any

from pax_hispanica.web.engine_port import api
from pax_hispanica.web.play.service import LiveGame
from pax_hispanica.web.present import happened, svgmap
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.present.log import _jsonable, details, log_entries
from pax_hispanica.web.present.page_context import (
    game_info,
    name_new_places,
    translator,
)
from pax_hispanica.web.present.panels import (
    decks,
    house_rules_line,
    own_parts,
    players_table,
)
from pax_hispanica.web.present.scores import score_table


def replay_years(live: LiveGame, tr: Tr) -> list[dict[str, Any]]:
    """Where each year of the game begins, as replay steps: [{"step", "label"}] (the step after
    the action whose events hold the YearBegan; the setup's first year is step 0)."""
    import bisect

    starts = happened.action_starts(live)
    out = []
    for e in live.events:
        if e.get("type") == "YearBegan":
            out.append({"step": bisect.bisect_right(starts, e.get("seq") or 0),
                        "label": f"{tr('cycle')} {e.get('cycle')} · {tr('sum_year', year=tr.word(e.get('year')))}"})
    return out


def replay_context(live: LiveGame, step: int, lang: str) -> dict[str, Any]:
    """Everything revealed at `step` (only offered once the game is over)."""
    tr = translator(live, lang)
    info = game_info(live)
    game = api.replay(live.record, upto=step)
    state = game.state
    public = api.view(state, None, include_state=False)
    name_new_places(tr, public)
    hands = []
    for s in live.seats:
        parts = own_parts(api.view(state, s.seat, include_state=False), s.seat, info)
        hands.append({"name": tr.seat(s.seat), "hand": parts.get("hand", []), "sealed": parts.get("sealed")})
    events = game.events
    result = _jsonable(api.result(state)) if api.is_over(state) else None
    starts = happened.action_starts(live)
    first = starts[step - 1] if step > 0 else 1
    after = starts[step] if step < len(starts) else (events[-1]["seq"] + 1 if events else 1)
    return {"tr": tr, "years": replay_years(live, tr), "summary": happened.summary(events, first, public, tr),
            "recent": happened.highlights(events, None, first, after), "score_table": score_table(events, result, tr) if result else None, "map": Markup(svgmap.render(public, tr, info)), "hands": hands, "decks": decks(public, tr),
            "players": players_table(public, tr, live),
            "log": log_entries(events, tr, tail=None),
            "action": tr.action(live.record["actions"][step - 1]) if step > 0 else "",
            "seed": live.seed, "details": Markup(details({k: public.get(k) for k in ("supply", "gone")}, tr)),
            "house_rules": house_rules_line(public, tr)}
