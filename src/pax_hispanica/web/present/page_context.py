"""What the game page is rendered from: a seat's (or a spectator's) view of a live game, in
its language, with the choices it may make (`board_context`)."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from markupsafe import Markup

from pax_hispanica.web.engine_port import View, api
from pax_hispanica.web.play.service import LiveGame
from pax_hispanica.web.present import board as boardparts
from pax_hispanica.web.present import happened, legality, svgmap, variant_words
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.present.info import Info, ruleset_info
from pax_hispanica.web.present.log import _jsonable, details, log_entries
from pax_hispanica.web.present.panels import (
    decks,
    game_numbers,
    house_rules_line,
    lot,
    own_parts,
    players_table,
    public_lot,
)
from pax_hispanica.web.present.scores import score_table


def seat_names(live: LiveGame, lang: str = "en") -> list[str]:
    tr = Tr(lang)
    names = []
    for s in live.seats:
        nation = tr.nation(live.nation(s.seat)) if live.nation(s.seat) else f"#{s.seat + 1}"
        names.append(f"{nation} ({s.name})" if s.name else nation)
    return names


def _game_ruleset(live: LiveGame) -> tuple[str, str | None, tuple[Any, ...]]:
    """The game's ruleset name, version (PRJ-50) and variant parameters (PRJ-31), as a key."""
    cfg = live.record.get("config") or {}
    version = live.record.get("ruleset_version")
    try:
        params = tuple(sorted((cfg.get("params") or {}).items()))
        hash(params)
    except (AttributeError, TypeError):
        params = ()
    return str(cfg.get("ruleset") or "reference"), str(version) if version else None, params


def game_info(live: LiveGame) -> Info:
    return ruleset_info(*_game_ruleset(live))


def translator(live: LiveGame, lang: str) -> Tr:
    tr = Tr(lang, seat_names(live, lang), game_info(live).names)
    tr.ruleset, tr.ruleset_version, tr.ruleset_params = _game_ruleset(live)   # a card's cost: PRJ-67
    return tr


def name_new_places(tr: Tr, view: View | None) -> Tr:
    """Sites and colonies the game made (a Visita a card founded: "tierra_firme.visita-1") are
    named by the view, not by the ruleset: so options, log lines and the map say "Visita 1",
    never the id."""
    if view is not None:
        extra = {str(x["id"]): str(x["name"]) for key in ("sites", "colonies") for x in view.get(key) or []
                 if isinstance(x, dict) and x.get("id") and x.get("name") and x["id"] not in tr.names}
        if extra:
            tr.names = {**tr.names, **extra}
    return tr


def next_human(live: LiveGame, seats: frozenset[int]) -> int | None:
    """The first seat that must act now and is played at this table."""
    for s in api.acting(live.state):
        if s in seats and live.seats[s].kind == "human":
            return s
    return None


def can_undo(live: LiveGame, viewer: int | None) -> bool:
    """Whether the engine lets `viewer` take back its last action now (PRJ-2)."""
    check = getattr(api, "can_undo", None)
    return bool(viewer is not None and not live.over and check is not None and check(live.state, viewer))


def widget_key(*parts: Any) -> str:
    """A stable element id for one decision's form: the page morphs an update into the DOM, and
    the same id keeps the same form (with what the player is typing into it) in place, while a
    different decision gets a fresh one."""
    return "w-" + hashlib.sha1("|".join(map(str, parts)).encode()).hexdigest()[:10]


def controls(legal: list[Any], tr: Tr, view: dict[str, Any] | None = None) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """(decision widgets, the undo action or None); the map's places are board.places'."""
    widgets, undo = [], None
    for d in legal:
        if not isinstance(d, dict):
            continue
        if d.get("kind") == "range":
            template = json.dumps(d.get("action", {}))
            widgets.append({"kind": "range", "label": tr.decision(d), "rule": d.get("rule"),
                            "key": widget_key(d.get("decision"), template, d.get("field", "amount")),
                            "template": template, "field": d.get("field", "amount"),
                            "min": d.get("min", 0), "max": d.get("max", 0),
                            "decision": d.get("decision")})
        else:
            opts = []
            for o in d.get("options", []):
                if not isinstance(o, dict):
                    continue
                if o.get("type") == "undo":
                    undo = o
                    continue
                j = json.dumps(o)
                # "card": the card a play with a target plays, which the action bar offers to pick
                # before its place (issue 38)
                card = o.get("card") if o.get("type") == "play" and o.get("target") is not None else None
                opts.append({"label": tr.action(o, view), "json": j, "type": o.get("type"), "id": boardparts.option_id(j),
                             "card": card})
            if opts:
                widgets.append({"kind": "choice", "label": tr.decision(d), "rule": d.get("rule"), "options": opts,
                                "decision": d.get("decision")})
    return widgets, undo


def handed_to_bot(live: LiveGame, seat: int | None) -> bool:
    return seat is not None and 0 <= seat < len(live.seats) and live.seats[seat].kind == "bot"


def board_context(live: LiveGame, viewer: int | None, waiting: int | None, role: str, lang: str,
                  digest: bool = False) -> dict[str, Any]:
    """`digest`: a turn-based game's seat is shown everything since it last acted (happened.digest)."""
    tr = translator(live, lang)
    info = game_info(live)
    state = live.state
    # a seat its player has left is a bot's: the link now shows what a spectator sees, so the
    # player who left cannot go on reading (or passing on) the hand the bot plays (HID-1)
    botted = role == "seat" and handed_to_bot(live, viewer)
    if botted:
        viewer = None
    view = api.view(state, viewer, include_state=False)      # the page never reads the masked state
    name_new_places(tr, view)
    events = api.redact(live.events, viewer)
    acting = list(api.acting(state))
    legal = api.legal_actions(state, viewer) if viewer is not None and not live.over and not botted else []
    widgets, undo = controls(legal, tr, view)
    places, greyed = boardparts.places(legal, state, None if botted else viewer, view, tr)
    for w in widgets:                 # why not? the options the rules forbid now, beside the ones allowed
        w["unavailable"] = greyed.get(str(w.get("decision")), [])
    if undo is None and not botted and can_undo(live, viewer):
        undo = {"seat": viewer, "type": "undo"}
    decision = view.get("decision") if legal else None
    result = _jsonable(api.result(state)) if live.over else None
    first, after = happened.window(live, viewer)
    svg, choices = svgmap.render_with_choices(view, tr, info, places)
    return {
        "status_text": happened.status(view.get("decision"), acting, viewer,
                                       live.over, tr),
        "summary": happened.summary(events, first, view, tr), "recent": happened.highlights(events, viewer, first, after),
        "results": happened.results(events, viewer, first, tr),
        "digest": happened.digest(events, viewer, first, after, view, tr) if digest and not live.over else None,
        "t": tr, "live": live, "view": view, "viewer": viewer, "waiting": waiting, "role": role, "botted": botted,
        "acting": acting, "acting_names": [tr.seat(s) for s in acting],
        "widgets": widgets, "undo": json.dumps(undo) if undo else None, "decision": decision,
        "sealed": bool(decision and api.is_sealed_decision(decision.get("d"))),
        "lot": lot(decision, tr),
        **public_lot(view, tr),
        "log": log_entries(events, tr), "result": result, "over": live.over,
        "score_table": score_table(events, result, tr) if result else None,
        "players": players_table(view, tr, live), "mine": own_parts(view, viewer, info),
        # the legalities in this game's numbers: where fleets show theirs (the players) and where a
        # card that changes one is offered (the action bar), what each loads, scores and risks
        "legalities": legality.of_view(view, tr), "legality_offered": legality.offered(legal, tr.ruleset),
        "my_legality": legality.of_seat(view, viewer),
        "decks": decks(view, tr), "year": tr.word(view.get("year")), "cycle": view.get("cycle"),
        "committed": [tr.seat(s) for s in ((view.get("decision") or {}).get("committed") or [])],
        "map": Markup(svg),
        "choices": choices, "map_choices": bool(places.options),
        "previews": boardparts.previews(state, None if botted or not legal else viewer, tr),
        "details": Markup(details({k: view.get(k) for k in ("supply", "gone", "seed_hash") if k in view}, tr)),
        "version": live.version,
        "variant": variant_words.variant_text(view.get("ruleset_params"), tr, with_set=False),
        "house_rules": house_rules_line(view, tr),
        **game_numbers(view),
    }
