"""The replay page of a finished game: each step with every hand revealed, or as one seat or a
spectator saw it (issue 38), its caption naming who acted, and its years."""
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


SPECTATOR = -1        # the replay's point of view of a spectator (None: every hand revealed)


def point_of_view(asked: str | None, live: LiveGame) -> int | None:
    """?seat= of the replay page: a seat's number, "spectator", or anything else (every hand)."""
    if asked == "spectator":
        return SPECTATOR
    if asked is not None and asked.isdigit() and len(asked) <= 2 and int(asked) < len(live.seats):
        return int(asked)
    return None


def caption(action: dict[str, Any], raw: list[Any], seen: list[Any], viewer: int | None, everything: bool,
            tr: Tr) -> str:
    """What step's action was, naming who did it ("Spanish (Ana) bid $1"). `raw` are the step's
    events, `seen` the same as the point of view may see them: from a seat's or a spectator's
    point of view, another seat's sealed choice not revealed in its step is only "has made a
    sealed choice", as that seat saw it during the game; an auction names its lot as shown."""
    actor = action.get("seat")
    hidden = any("to" in e and (viewer is None or viewer not in e["to"]) for e in raw)
    if not everything and actor != viewer and hidden and not any(e.get("type") == "ChoicesRevealed" for e in seen):
        said = next((e for e in seen if e.get("seat") == actor and e.get("type") == "ChoiceCommitted"), None)
        return tr.event(said).rstrip(".") if said is not None else tr("deed", who=tr.seat(actor), action="…")
    started = next((e for e in seen if e.get("type") == "AuctionStarted" and isinstance(e.get("card"), str)
                    and not e.get("buried")), None)
    if action.get("type") == "initiate" and started is not None:
        action = {**action, "lot": tr.word(started["card"])}
    return tr.deed(action)


def _hands(live: LiveGame, state: Any, public: dict[str, Any], viewer: int | None, everything: bool,
           tr: Tr, info: Any) -> list[dict[str, Any]]:
    """The hands the replay shows: every seat's (`everything`), else the viewer's own only."""
    hands = []
    for s in live.seats:
        if everything or s.seat == viewer:
            parts = own_parts(public if s.seat == viewer else api.view(state, s.seat, include_state=False), s.seat, info)
            hands.append({"name": tr.seat(s.seat), "hand": parts.get("hand", []), "sealed": parts.get("sealed")})
    return hands


def _point_of_view(live: LiveGame, viewer: int | None, everything: bool, tr: Tr) -> dict[str, Any]:
    """The point of view: "" (every hand), "spectator" or the seat's number, as ?seat= says it,
    and the chooser's choices."""
    return {"pov": "" if everything else ("spectator" if viewer is None else str(viewer)),
            "pov_name": tr.seat(viewer) if viewer is not None else "",
            "povs": [{"q": "", "label": tr("replay_pov_all")}, {"q": "spectator", "label": tr("replay_pov_spectator")}]
            + [{"q": str(s.seat), "label": tr.seat(s.seat)} for s in live.seats]}


def replay_context(live: LiveGame, step: int, lang: str, pov: int | None = None) -> dict[str, Any]:
    """The game at `step` (only offered once the game is over): with every hand revealed (`pov`
    None), or as one seat (`pov` its number) or a spectator (SPECTATOR) saw it then: that seat's
    view, hand and sealed choice, its log (api.redact: what it was told), nobody else's secret."""
    tr = translator(live, lang)
    info = game_info(live)
    game = api.replay(live.record, upto=step)
    state = game.state
    everything = pov is None
    viewer = pov if pov is not None and pov >= 0 else None
    public = api.view(state, viewer, include_state=False)
    name_new_places(tr, public)
    hands = _hands(live, state, public, viewer, everything, tr, info)
    raw = game.events
    events = raw if everything else api.redact(raw, viewer)
    result = _jsonable(api.result(state)) if api.is_over(state) else None
    starts = happened.action_starts(live)
    first = starts[step - 1] if step > 0 else 1
    after = starts[step] if step < len(starts) else (raw[-1]["seq"] + 1 if raw else 1)
    action = ""
    if step > 0:
        in_step = [e for e in raw if first <= (e.get("seq") or 0) < after]
        action = caption(live.record["actions"][step - 1], in_step,
                         [e for e in events if first <= (e.get("seq") or 0) < after], viewer, everything, tr)
    return {"tr": tr, "years": replay_years(live, tr), "summary": happened.summary(events, first, public, tr),
            "recent": happened.highlights(events, viewer, first, after),
            "score_table": score_table(events, result, tr) if result else None,
            "map": Markup(svgmap.render(public, tr, info)), "hands": hands, "decks": decks(public, tr),
            "players": players_table(public, tr, live),
            "log": log_entries(events, tr, tail=None),
            "action": action,
            "seed": live.seed, "details": Markup(details({k: public.get(k) for k in ("supply", "gone")}, tr)),
            "house_rules": house_rules_line(public, tr),
            **_point_of_view(live, viewer, everything, tr)}
