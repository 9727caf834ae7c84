"""Turning views (never raw state) into what a connection receives: HTML
fragments for the browser, or JSON for programs (bots, the load benchmark)."""
from __future__ import annotations

import copy
import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from markupsafe import Markup, escape

from pax_hispanica.web.present import board as boardparts
from pax_hispanica.web.present import cards as cardtext
from pax_hispanica.web.present import happened
from pax_hispanica.web.present import svgmap
from pax_hispanica.web.present.scores import score_table
from pax_hispanica.web.play.service import NATIONS, LiveGame
from pax_hispanica.web.present.i18n import LANGS, Tr, humanize
from pax_hispanica.web.present.info import Info, ruleset_info, win_condition
from pax_hispanica.web.present.render_cache import RenderCache
from pax_hispanica.web.engine_port import api

env = Environment(loader=FileSystemLoader(str(Path(__file__).parent.parent / "templates")),
                  autoescape=select_autoescape(["html"]), extensions=["jinja2.ext.i18n"])


# Jinja2's i18n extension: `_("key")` and `ngettext(singular, plural, n)` in a template use the
# gettext catalogue of the page's language, which every page passes as `t` (a Tr)
@pass_context
def _gettext(ctx: Any, key: str, **kw: Any) -> str:
    return ctx["t"](key, **kw)


@pass_context
def _ngettext(ctx: Any, singular: str, plural: str, n: int, **kw: Any) -> str:
    return ctx["t"].n(singular, n, **kw)


@pass_context
def _card(ctx: Any, cid: Any, mark: bool = False) -> Markup:
    """`{{ card(id) }}`: a card you can read (cards.card_html) in the page's language."""
    tr = ctx["t"]
    return cardtext.card_html(cid, tr, getattr(tr, "ruleset", "reference"), mark=mark)


@pass_context
def _card_list(ctx: Any) -> list[dict]:
    """Every card of the reference set in words, one row per card (copies counted), for /rules."""
    tr = ctx["t"]
    rows: dict[str, dict] = {}
    version = ctx.get("card_version")        # PRJ-50, PRJ-67: ?version= shows that version's costs
    if version:
        tr = copy.copy(tr)
        tr.ruleset_version = version
    for cid, c in cardtext._game_cards(tr, "reference").items():
        key = cid.rsplit("-", 1)[0] if cid.rsplit("-", 1)[-1].isdigit() else cid
        if key in rows:
            rows[key]["copies"] += 1
        else:
            rows[key] = {**cardtext.describe(cid, tr), "copies": 1, "anchor": key}
    return sorted(rows.values(), key=lambda r: (r["deck"] != "market", r["name"]))


@pass_context
def _card_texts(ctx: Any) -> Markup:
    tr = ctx["t"]
    return cardtext.card_texts(tr, getattr(tr, "ruleset", "reference"))


def _compact_json(x: Any) -> Markup:
    """`{{ x|compact_json }}`: JSON for a data block in the page, as short as it goes (no spaces,
    letters as they are) and safe in HTML (<, >, & and ' escaped, as Jinja2's tojson does)."""
    text = json.dumps(x, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                  .replace("'", "\\u0027"))


env.filters["compact_json"] = _compact_json
env.globals.update(gettext=_gettext, ngettext=_ngettext, card=_card, card_list=_card_list, card_texts=_card_texts)


def with_cards(text: str, ids: list, tr: Tr, places: list | None = None) -> Markup:
    """`text` (escaped) with each named card's name turned into a card you can read, and each
    named place (zone, colony, site id in `places`) into a button that points at it on the map
    (static/board.js)."""
    html = str(escape(text))
    ruleset = getattr(tr, "ruleset", "reference")
    swaps: list[str] = []

    def swap(name: str, markup: str) -> None:
        nonlocal html
        if name and name in html:
            html = html.replace(name, f"\x00{len(swaps)}\x00", 1)
            swaps.append(markup)

    for cid in ids:
        if isinstance(cid, str) and cid in cardtext.catalogue(ruleset):
            swap(str(escape(tr.word(cid))), str(cardtext.card_html(cid, tr, ruleset)))
    for pid in places or []:
        name = str(escape(tr.word(pid)))
        swap(name, f'<button type="button" class="spot" data-spot="{escape(pid)}">{name}</button>')
    for i, markup in enumerate(swaps):
        html = html.replace(f"\x00{i}\x00", markup)
    return Markup(html)


PLACE_FIELDS = ("zone", "to", "from", "colony", "site", "target")


def event_places(e: dict, tr: Tr) -> list[str]:
    """The places an event names (zones, colonies, sites of the map: ids the ruleset names)."""
    out = []
    for k in PLACE_FIELDS:
        v = e.get(k)
        if isinstance(v, str) and v in tr.names and v not in out \
                and v not in cardtext.catalogue(getattr(tr, "ruleset", "reference")):
            out.append(v)
    for v in e.get("colonies") or [] if isinstance(e.get("colonies"), list) else []:
        if isinstance(v, str) and v in tr.names and v not in out:
            out.append(v)
    return out


CARD_FIELDS = ("card", "top")
LOG_TAIL = 150
# rendered updates, shared by the connections that see the same thing; bounded in bytes
# (PAXH_RENDER_CACHE_BYTES, render_cache.py: issue 37, M1)
_cache = RenderCache()


def seat_names(live: LiveGame, lang: str = "en") -> list[str]:
    tr = Tr(lang)
    names = []
    for s in live.seats:
        nation = tr.nation(live.nation(s.seat)) if live.nation(s.seat) else f"#{s.seat + 1}"
        names.append(f"{nation} ({s.name})" if s.name else nation)
    return names


def _game_ruleset(live: LiveGame) -> tuple[str, str | None, tuple]:
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


def name_new_places(tr: Tr, view: Any) -> Tr:
    """Sites and colonies the game made (a Visita a card founded: "tierra_firme.visita-1") are
    named by the view, not by the ruleset: so options, log lines and the map say "Visita 1",
    never the id."""
    if isinstance(view, dict):
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


def _jsonable(x: Any) -> Any:
    return json.loads(json.dumps(x, default=str))


def log_entries(events: list, tr: Tr, tail: int | None = LOG_TAIL) -> list[dict]:
    evs = events[-tail:] if tail else events
    out = []
    for e in reversed(evs):
        if not isinstance(e, dict):
            continue
        text, ids = tr.event(e), [e[k] for k in CARD_FIELDS if isinstance(e.get(k), str)]
        out.append({"seq": e.get("seq"), "type": e.get("type"), "text": text, "rule": e.get("rule"),
                    "page": e.get("page"), "cards": ids, "html": with_cards(text, ids, tr, event_places(e, tr))})
    return out


def can_undo(live: LiveGame, viewer: int | None) -> bool:
    """Whether the engine lets `viewer` take back its last action now (PRJ-2)."""
    check = getattr(api, "can_undo", None)
    return bool(viewer is not None and not live.over and check is not None and check(live.state, viewer))


def widget_key(*parts: Any) -> str:
    """A stable element id for one decision's form: the page morphs an update into the DOM, and
    the same id keeps the same form (with what the player is typing into it) in place, while a
    different decision gets a fresh one."""
    return "w-" + hashlib.sha1("|".join(map(str, parts)).encode()).hexdigest()[:10]


def controls(legal: list, tr: Tr, view: dict | None = None) -> tuple[list[dict], dict | None]:
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
                opts.append({"label": tr.action(o, view), "json": j, "type": o.get("type"), "id": boardparts.option_id(j)})
            if opts:
                widgets.append({"kind": "choice", "label": tr.decision(d), "rule": d.get("rule"), "options": opts,
                                "decision": d.get("decision")})
    return widgets, undo


def handed_to_bot(live: LiveGame, seat: int | None) -> bool:
    return seat is not None and 0 <= seat < len(live.seats) and live.seats[seat].kind == "bot"


def board_context(live: LiveGame, viewer: int | None, waiting: int | None, role: str, lang: str) -> dict:
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
    decision = (view.get("decision") if isinstance(view, dict) else None) if legal else None
    result = _jsonable(api.result(state)) if live.over else None
    first, after = happened.window(live, viewer)
    svg, choices = svgmap.render_with_choices(view, tr, info, places)
    return {
        "status_text": happened.status(view.get("decision") if isinstance(view, dict) else None, acting, viewer,
                                       live.over, tr),
        "summary": happened.summary(events, first, view, tr), "recent": happened.highlights(events, viewer, first, after),
        "results": happened.results(events, viewer, first, tr),
        "t": tr, "live": live, "view": view, "viewer": viewer, "waiting": waiting, "role": role, "botted": botted,
        "acting": acting, "acting_names": [tr.seat(s) for s in acting],
        "widgets": widgets, "undo": json.dumps(undo) if undo else None, "decision": decision,
        "sealed": bool(decision and api.is_sealed_decision(decision.get("d"))),
        "lot": lot(decision, tr),
        **public_lot(view, tr),
        "log": log_entries(events, tr), "result": result, "over": live.over,
        "score_table": score_table(events, result, tr) if result else None,
        "players": players_table(view, tr, live), "mine": own_parts(view, viewer, info),
        "decks": decks(view, tr), "year": tr.word(view.get("year")), "cycle": view.get("cycle"),
        "committed": [tr.seat(s) for s in ((view.get("decision") or {}).get("committed") or [])],
        "map": Markup(svg),
        "choices": choices, "map_choices": bool(places.options),
        "previews": boardparts.previews(state, None if botted or not legal else viewer, tr),
        "details": Markup(details({k: view.get(k) for k in ("supply", "gone", "seed_hash") if k in view}, tr)),
        "version": live.version,
        "variant": ", ".join(f"{k} = {v}" for k, v in (view.get("ruleset_params") or {}).items()),
        "house_rules": house_rules_line(view, tr),
        **game_numbers(view),
    }


@lru_cache(maxsize=256)
def _house_rule_ids(ruleset: str, version: str, params: tuple) -> tuple[str, ...]:
    rs = api.load_ruleset(ruleset, dict(params) or None, version=version)
    return tuple(dict.fromkeys(h.rule for h in api.house_rules(rs)))


def house_rules_line(view: Any, tr: Tr) -> str:
    """PRJ-81: the seed rules the game's ruleset changes (its house rules), for the status line:
    the named set (PRJ-83) if the game chose one, then each rule's ID and title in the page's
    language ("reference-7: TRS-2 PLUNDER must sack; TRS-1 ..."); "" for a game of the rules as
    printed, or a view the page cannot read (an odd ruleset: the page works without)."""
    if not isinstance(view, dict) or not view.get("ruleset_version"):
        return ""
    params = view.get("ruleset_params") or {}
    try:
        ids = _house_rule_ids(str(view.get("ruleset") or "reference"), str(view["ruleset_version"]),
                              tuple(sorted(params.items())))
    except Exception:  # noqa: BLE001 -- whatever the ruleset's data, the page still renders
        return ""
    if not ids:
        return ""
    rules = "; ".join(f"{rid} {tr.text('rule_titles', rid) or ''}".strip() for rid in ids)
    named = params.get("house_rules")
    return f"{named}: {rules}" if isinstance(named, str) else rules


def game_win_condition(view: Any) -> dict[str, Any] | None:
    """The win condition's numbers (CYC-2, CYC-3) of the game a view is of: its own version's
    (PRJ-50: a game of an earlier version keeps its numbers) with its variant (PRJ-31); None
    when the view names no ruleset the page can read (an odd ruleset: the page works without)."""
    if not isinstance(view, dict) or not view.get("ruleset_version"):
        return None
    try:
        return win_condition(str(view.get("ruleset") or "reference"), str(view["ruleset_version"]),
                             tuple(sorted((view.get("ruleset_params") or {}).items())))
    except Exception:  # noqa: BLE001 -- whatever the ruleset's data, the page still renders
        return None


def game_numbers(view: Any) -> dict:
    """The game's ruleset version and its Prestige goal (CYC-2), as the status line shows them."""
    version = str(view["ruleset_version"]) if isinstance(view, dict) and view.get("ruleset_version") else None
    win = game_win_condition(view)
    return {"ruleset_version": version, "goal": win["prestige"] if win else None}


def public_lot(view: Any, tr: Tr) -> dict:
    """What everyone may see of a sealed choice under way (spectators, and players who have
    chosen): what it is about, and who is still choosing."""
    d = view.get("decision") if isinstance(view, dict) else None
    if not isinstance(d, dict) or not api.is_sealed_decision(d.get("d")):
        return {"public_lot": None, "choosing": []}
    committed = set(d.get("committed") or [])
    return {"public_lot": lot(d, tr),
            "choosing": [tr.seat(s) for s in d.get("seats") or [] if s not in committed]}


def lot(decision: dict | None, tr: Tr) -> str | None:
    """What a sealed choice is about: the card auctioned (or that it is buried), or the battle."""
    if not decision:
        return None
    if decision.get("d") == "bid":
        if decision.get("card"):
            return with_cards(tr("lot_card", card=tr.word(decision["card"]), deck=tr.word(decision.get("deck"))),
                              [decision["card"]], tr)
        return tr("lot_buried", deck=tr.word(decision.get("deck")))
    if decision.get("d") == "support":
        return tr("lot_battle", zone=tr.word(decision.get("zone")), attacker=tr.seat(decision.get("attacker")),
                  target=tr.word(decision.get("target")))
    return None


def money_per_prestige(view: Any) -> int | None:
    """CYC-3's dollars to 1 Prestige in the game's own numbers; None when they cannot be read."""
    per = (game_win_condition(view) or {}).get("money")
    return per if isinstance(per, int) and per > 0 else None


def score_now(p: dict, per_dollar: int | None, tr: Tr) -> str | None:
    """What CYC-3 would give the player if the game ended now (Prestige held + 1 per
    `money_per_prestige` dollars + its colonies' Prestige), with its parts: the race as it
    stands, which held Prestige alone does not show until the final count (issue 15)."""
    parts = (p.get("prestige"), p.get("money"), p.get("colony_prestige", 0))
    if per_dollar is None or not all(isinstance(x, int) for x in parts):
        return None
    held, money, colonies = parts
    from_money = money // per_dollar
    return tr("score_now_value", total=held + from_money + colonies, prestige=held, money=from_money,
              colonies=colonies)


def players_table(view: Any, tr: Tr, live: LiveGame) -> list[dict]:
    """Each player's public state, in seat order."""
    players = view.get("players") if isinstance(view, dict) else None
    if not isinstance(players, list):
        return [{"seat": s.seat, "name": tr.seat(s.seat), "kind": s.kind, "fields": [], "tableau": []}
                for s in live.seats]
    rows = []
    # once the game is over the Prestige shown is the final score (CYC-3 has counted)
    per_dollar = None if view.get("over") else money_per_prestige(view)
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            continue
        seat = p.get("seat", i)
        fields = []
        now = score_now(p, per_dollar, tr)
        if now is not None:
            fields.append((tr("score_now"), now))
        for key, label in (("money", "money"), ("prestige", "prestige"), ("hand_count", "hand_size"),
                           ("hand_limit", "hand_limit"), ("income", "income")):
            if key in p:
                fields.append((tr(label), tr("money_amount", n=p[key]) if key == "money" else str(p[key])))
        fleet = p.get("fleet")
        if isinstance(fleet, dict):
            cargo = fleet.get("cargo") or []
            fields.append((tr("fleet"), f"{tr.word(fleet.get('zone'))} · {tr.n('ships', fleet.get('ships', 1))} · "
                                        f"{tr.word(fleet.get('legality'))}"
                                        + (f" · {tr('cargo')}: {tr.value('cargo', cargo)}" if cargo else "")))
        if p.get("havens"):
            fields.append((tr("havens"), tr.value("havens", p["havens"])))
        shown = {"seat", "nation", "hand", "money", "prestige", "hand_count", "hand_limit", "income", "fleet",
                 "havens", "tableau"}
        # other fields: labelled from the catalogue when it has the name (else from the name itself)
        fields += [(tr(k) if tr.text("ui", k) is not None else humanize(k), tr.value(k, v)) for k, v in p.items() if k not in shown]
        tableau = [{"id": t.get("card"), "target": tr.word(t["target"]) if t.get("target") else None}
                   if isinstance(t, dict) else {"id": t, "target": None} for t in p.get("tableau") or []]
        kind = live.seats[seat].kind if isinstance(seat, int) and 0 <= seat < len(live.seats) else ""
        rows.append({"seat": seat, "name": tr.seat(seat), "kind": kind, "fields": fields, "tableau": tableau,
                     "color": svgmap.seat_color(view, seat), "mark": svgmap.seat_mark(view, seat, tr),
                     "away": seat in live.away})
    return rows


def own_parts(view: Any, viewer: int | None, info: Info | None = None) -> dict:
    """The viewer's own secret parts as the view gives them (hand, sealed choice)."""
    if viewer is None or not isinstance(view, dict):
        return {}
    players = view.get("players") or []
    hand = players[viewer].get("hand") if 0 <= viewer < len(players) else None
    cards = []
    for c in hand if isinstance(hand, list) else []:
        cid = c.get("id") if isinstance(c, dict) else c
        cards.append({"id": cid, "name": info.names.get(cid, cid) if info else cid,
                      "cost": info.card_cost.get(cid) if info else None,
                      "deck": info.card_deck.get(cid) if info else None})
    return {"hand": cards, "sealed": view.get("my_sealed_choice")}


def decks(view: Any, tr: Tr) -> list[dict]:
    d = view.get("decks") if isinstance(view, dict) else None
    if not isinstance(d, dict):
        return []
    out = []
    for name in ("market", "haven"):
        if isinstance(d.get(name), dict):
            out.append({"name": tr.word(name), "top": tr.word(d[name].get("top")) if d[name].get("top") else "—",
                        "top_id": d[name].get("top"), "count": d[name].get("count", 0)})
    return out


def rule_link(rule: Any, page: Any) -> str:
    """Where a rule id and its page point on the rules page."""
    p = str(page or "")
    digits = "".join(ch for ch in p.split(",")[0] if ch.isdigit() or ch == "-").split("-")[0]
    return f"/rules?rule={rule or ''}" + (f"#p{digits}" if "SEED" in p and digits else f"#{rule or ''}")


# the codes a refusal can carry that the page says in its own words (an engine code not listed
# here is said as "not_legal", with its rule)
ERROR_CODES = ("stale_version", "game_over", "wrong_seat", "not_your_turn", "nothing_to_undo", "busy",
               "rate_limited", "malformed", "too_large", "offline", "unknown_token", "damaged_game", "not_legal")


def client_text(tr: Tr) -> dict:
    """The words app.js needs, in the page's language."""
    return {"connected": tr("connected"), "disconnected": tr("disconnected"), "error": tr("error"),
            "rule": tr("rule"), "errors": {c: tr("err_" + c) for c in ERROR_CODES},
            "place_menu_title": tr("place_menu_title"), "place_menu_close": tr("place_menu_close")}


env.globals["rule_link"] = rule_link
env.globals["client_text"] = client_text
env.globals["LANGS"] = LANGS
env.globals["NATIONS"] = NATIONS


def details(x: Any, tr: Tr | None = None) -> str:
    """Other parts of a view (supply, pieces out of play) as nested definition lists, labelled
    in the page's language (catalogue keys "detail_<key>", else the key made readable)."""
    if isinstance(x, dict):
        if not x:
            return ""
        return "<dl>" + "".join(f"<dt>{escape(_detail_label(k, tr))}</dt><dd>{details(v, tr)}</dd>"
                                for k, v in x.items()) + "</dl>"
    if isinstance(x, list):
        if all(not isinstance(v, (dict, list)) for v in x):
            return str(escape(", ".join(str(v) for v in x))) or "—"
        return "<ol start=0>" + "".join(f"<li>{details(v, tr)}</li>" for v in x) + "</ol>"
    return str(escape("—" if x is None else x))


def _detail_label(key: Any, tr: Tr | None) -> str:
    return (tr.text("ui", f"detail_{key}") if tr is not None else None) or humanize(str(key))


# the blocks of _parts.html, each in its own `#part-<name>` (_board.html); the log is sent entry by
# entry. Small blocks keep an update small: a change of money resends the players table only, not
# the hand and decks with their card buttons, and the status line (whose move number changes every
# time) is not sent with the decision panel.
PARTS = ("status", "happened", "top", "map", "choices", "hand", "players", "decks")
# parts sent piece by piece when only some pieces changed: the map's zones (svgmap draws each as
# one <g>, one after the other) and the players table's rows; (marker of a piece, end of the last)
# a part sent piece by piece: each piece starts at the marker, which ends just before its id
# (so a piece's classes, e.g. a zone with choices, may change without changing its id)
CHUNKED = {"map": ('<g id="', "</svg>"), "players": ('<tr id="', "</table>")}


def chunks(html: str, mark: str, stop: str) -> tuple[str, str, dict[str, str]]:
    """A part cut into its pieces: (what comes before the first, what comes after the last,
    {element id: the piece's HTML}). A piece runs from its marker to the next one (the last one
    to `stop`)."""
    pieces = html.split(mark)
    head, tail, out = pieces[0], "", {}
    for piece in pieces[1:]:
        body = mark + piece
        end = body.find(stop)
        if end >= 0:
            body, tail = body[:end].rstrip(), body[end:]
        out[piece[:piece.index('"')]] = body
    return head, tail, out


def chunks_changed(name: str, new: str, old: str) -> dict[str, str] | None:
    """The pieces of part `name` whose HTML changed, when nothing else of it did (else None:
    the whole part is sent)."""
    if name not in CHUNKED:
        return None
    h1, t1, c1 = chunks(new, *CHUNKED[name])
    h0, t0, c0 = chunks(old, *CHUNKED[name])
    if h1 != h0 or t1 != t0 or list(c1) != list(c0) or not c1:
        return None
    return {k: v for k, v in c1.items() if v != c0[k]}


def log_item(e: dict) -> str:
    """One log line as HTML (escaped): the event's sentence and a link to its rule."""
    attrs = (f' id="ev{escape(e["seq"])}"' if e.get("seq") is not None else "") + f' data-type="{escape(e.get("type"))}"'
    rule = ""
    if e.get("rule"):
        page = f" · {escape(e['page'])}" if e.get("page") else ""
        rule = f'<a class="rule" href="{escape(rule_link(e["rule"], e.get("page")))}">{escape(e["rule"])}{page}</a>'
    return f"<li{attrs}>{e.get('html') or escape(e.get('text'))} {rule}</li>"


def board_parts(ctx: dict) -> dict[str, str]:
    tmpl = env.get_template("_parts.html")
    c = tmpl.new_context(ctx)
    return {name: "".join(tmpl.blocks[name](c)) for name in PARTS}


def board_html(ctx: dict, parts: dict[str, str] | None = None, items: list[str] | None = None) -> str:
    parts = parts if parts is not None else board_parts(ctx)
    items = items if items is not None else [log_item(e) for e in ctx["log"]]
    return env.get_template("_board.html").render(**ctx, parts={k: Markup(v) for k, v in parts.items()},
                                                  log_html=Markup("".join(items)))


def html_update(live: LiveGame, viewer: int | None, waiting: int | None, role: str, lang: str) -> dict:
    """The whole board for one way of seeing the game (cached: connections that see the same
    thing share it). "html" is the board; "_parts" and "_log" (never sent) are what
    `html_message` compares to send a connection only what changed."""
    key = (live.id, live.version, tuple(s.kind for s in live.seats), live.away, viewer, waiting, role, lang)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    ctx = board_context(live, viewer, waiting, role, lang)
    parts = board_parts(ctx)
    items = [log_item(e) for e in ctx["log"]]   # newest first
    msg = {"type": "update", "version": live.version, "seat": viewer, "waiting": waiting,
           "acting": ctx["acting"], "over": live.over, "html": board_html(ctx, parts, items),
           "_parts": parts, "_log": items}
    _cache.put(key, msg)
    return msg


def html_message(full: dict, last: dict | None) -> dict:
    """What a browser connection is sent: the whole board the first time (`last` None), then
    only what changed since `last`, the update it was sent before: {"parts": {name: html}} for
    the parts whose HTML changed, and {"log": {"add": html, "keep": n}} for the new log lines
    (the page puts them on top and keeps the first n), or {"log": {"html": ...}} when the earlier
    lines changed too (another seat's view on a hot-seat table: nothing of one player's secret
    lines is kept on the page for the next). Typical updates are a few hundred bytes to a few KB
    instead of the whole board's 30-50 KB."""
    msg = {k: v for k, v in full.items() if not k.startswith("_") and k != "html"}
    if last is None:
        msg["html"] = full["html"]
        return msg
    msg["parts"] = {name: html for name, html in full["_parts"].items() if html != last["_parts"].get(name)}
    for name in [n for n in msg["parts"] if n in CHUNKED and n in last["_parts"]]:
        pieces = chunks_changed(name, msg["parts"][name], last["_parts"][name])
        if pieces is not None:     # only some zones (rows) changed: those, which the page morphs by id
            del msg["parts"][name]
            msg.setdefault("chunks", {}).update(pieces)
    new, old = full["_log"], last["_log"]
    if new != old:
        k = next((i for i, item in enumerate(new[:51]) if old and item == old[0]), None)
        if k is not None and new[k:] == old[:len(new) - k]:
            msg["log"] = {"add": "".join(new[:k]), "keep": len(new)}
        else:
            msg["log"] = {"html": "".join(new)}
    return msg


def json_update(live: LiveGame, viewer: int | None, full_log: bool = False, with_view: bool = True,
                since_seq: int | None = None) -> dict:
    """The update for programs: version, who acts, this seat's legal actions and view,
    and the events it may see (all of them, or those after `since_seq`). A seat handed to a
    bot is shown as a spectator sees it (HID-1: its former player no longer reads its hand)."""
    if handed_to_bot(live, viewer):
        viewer = None
    state = live.state
    events = api.redact(live.events, viewer)
    if since_seq is not None:
        events = [e for e in events if e.get("seq", 0) > since_seq]
    elif not full_log:
        events = events[-50:]
    msg = {
        "type": "update", "version": live.version, "seat": viewer, "acting": list(api.acting(state)),
        "legal": api.legal_actions(state, viewer) if viewer is not None and not live.over else [],
        "can_undo": can_undo(live, viewer),
        "events": events, "over": live.over, "result": api.result(state) if live.over else None,
        "seats": [{"seat": s.seat, "kind": s.kind, "bot_kind": s.bot_kind} for s in live.seats],
    }
    if with_view:
        view = api.view(state, viewer)      # the page and /api/view: no masked state (docs/web.md)
        msg["view"] = view
        msg["decision"] = view.get("decision") if isinstance(view, dict) and msg["legal"] else None
    return msg


def replay_years(live: LiveGame, tr: Tr) -> list[dict]:
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


def replay_context(live: LiveGame, step: int, lang: str) -> dict:
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
