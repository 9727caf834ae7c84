"""Turning views (never raw state) into what a connection receives: the board as HTML parts
(cached and sent as what changed) for browsers, JSON for programs (bots, the load benchmark)."""
from __future__ import annotations

import re
from markupsafe import Markup
from typing import Any

from pax_hispanica.web.engine_port import api
from pax_hispanica.web.play.service import LiveGame
from pax_hispanica.web.present.jinja_env import env
from pax_hispanica.web.present.log import log_item
from pax_hispanica.web.present.page_context import (
    board_context,
    can_undo,
    handed_to_bot,
)
from pax_hispanica.web.present.render_cache import RenderCache

# rendered updates, shared by the connections that see the same thing; bounded in bytes
# (PAXH_RENDER_CACHE_BYTES, present/render_cache.py: issue 37, M1)
_cache = RenderCache()


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


# the blank lines a part's template leaves where a block rendered nothing (no part holds a <pre>
# or <textarea>, whose whitespace would count): sent with every update, they are dropped
_BLANK_LINES = re.compile(r"\n[ \t]*(?=\n)")


def board_parts(ctx: dict[str, Any]) -> dict[str, str]:
    tmpl = env.get_template("_parts.html")
    c = tmpl.new_context(ctx)
    return {name: _BLANK_LINES.sub("", "".join(tmpl.blocks[name](c))).strip() for name in PARTS}


# A fleet's legality in the players part is named only: what it loads, scores and risks is the
# same words in every update (about 0.4 KB a player row, issue 38's 5 KB per update), so the page
# is sent them once, as #legality-tips (_board.html), and the whole tip is put in where the part
# names one: by board_html for a whole board, by app.js (withTips) for a part or a row.
LEGALITY_REF = '<details class="legality-tip" data-legality="{}"></details>'


def legality_tips(ctx: dict[str, Any]) -> dict[str, str]:
    """{legality code: its whole tip (_legality.html's legality_tip)} in the game's numbers."""
    module: Any = env.get_template("_legality.html").make_module(vars=ctx)   # its macros by name
    return {str(g["code"]): str(module.legality_tip(g)) for g in ctx.get("legalities") or []}


def with_tips(html: str, tips: dict[str, str]) -> str:
    """A part with the legalities it names given their whole tips."""
    for code, tip in tips.items():
        html = html.replace(LEGALITY_REF.format(code), tip)
    return html


def board_html(ctx: dict[str, Any], parts: dict[str, str] | None = None, items: list[str] | None = None) -> str:
    parts = parts if parts is not None else board_parts(ctx)
    items = items if items is not None else [log_item(e) for e in ctx["log"]]
    tips = legality_tips(ctx)
    return env.get_template("_board.html").render(**ctx, parts={k: Markup(with_tips(v, tips)) for k, v in parts.items()},
                                                  log_html=Markup("".join(items)), legality_tips=tips)


def html_update(live: LiveGame, viewer: int | None, waiting: int | None, role: str, lang: str,
                digest: bool = False) -> dict[str, Any]:
    """The whole board for one way of seeing the game (cached: connections that see the same
    thing share it). "html" is the board; "_parts" and "_log" (never sent) are what
    `html_message` compares to send a connection only what changed. `digest`: a turn-based
    game's seat sees everything since it last acted (happened.digest)."""
    key = (live.id, live.version, tuple(s.kind for s in live.seats), live.away, bool(live.hint), viewer, waiting,
           role, lang, digest)
    hit = _cache.get(key)
    if hit is not None:
        ret: dict[str, Any] = hit
        return ret
    ctx = board_context(live, viewer, waiting, role, lang, digest)
    parts = board_parts(ctx)
    items = [log_item(e) for e in ctx["log"]]   # newest first
    msg = {"type": "update", "version": live.version, "seat": viewer, "waiting": waiting,
           "acting": ctx["acting"], "over": live.over, "html": board_html(ctx, parts, items),
           "_parts": parts, "_log": items}
    _cache.put(key, msg)
    return msg


def html_message(full: dict[str, Any], last: dict[str, Any] | None) -> dict[str, Any]:
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
                since_seq: int | None = None) -> dict[str, Any]:
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
        msg["decision"] = view.get("decision") if msg["legal"] else None
    return msg
