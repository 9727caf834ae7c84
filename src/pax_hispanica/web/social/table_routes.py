"""Routes of open tables (issue 16; the service is social/tables.py).

    POST /tables (open a table); GET /tables/{id} (its page: the invitation link);
    GET /tables/{id}/state (JSON, polled by the table page); POST /tables/{id}/join|leave|start
    POST /tables/rematch/{game_id}

Every POST is a form with the CSRF token of the page (accounts/forms.py); another site's Origin
is refused before (security.OriginGuard).
"""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from pax_hispanica.web.accounts.forms import form_error, page, posted_form, refusal
from pax_hispanica.web.accounts.game_lists import results_of
from pax_hispanica.web.accounts.service import TIME_CONTROLS
from pax_hispanica.web.engine_port import DEFAULT_BOT
from pax_hispanica.web.http.site import TOKEN, MemberForm, PageVisit, Site, Visit, client_address, site
from pax_hispanica.web.play import variants
from pax_hispanica.web.play.lobby_page import lobby_refusal
from pax_hispanica.web.play.model import ServerError
from pax_hispanica.web.present.i18n import Tr

router = APIRouter()


async def _result_of(s: Site, gid: str) -> dict[str, Any] | None:
    return (await results_of(s.svc.storage, [gid])).get(gid)


@router.post("/tables")
async def create_table(request: Request, v: MemberForm) -> Response:
    s, user = v.site, v.user
    try:
        form = await posted_form(s, request, user)
        s.limits.check("create", client_address(request))
        players = int(form.get("players", "0")) if form.get("players", "").isdigit() else 0
        tc = form.get("time_control", "")
        if tc not in TIME_CONTROLS:
            raise ServerError("malformed", "unknown time control")
        params = variants.variant_of_form(form)
        if params:   # refuse a bad variant now, in the player's words, not when the table starts (PRJ-31)
            if (why := variants.variant_refusal(params, Tr(user["lang"]))) is not None:
                raise ServerError("variant_refused", why)   # said in words: no err_ text stands in
            variants.refuse_config(players, params)
        tid = await s.tables.create(user["id"], players, form.get("public") == "1", params, tc)
    except ServerError as e:
        return await lobby_refusal(s, request, user, e.status, "bad_request", text=form_error(e, Tr(user["lang"])))
    return RedirectResponse(f"/tables/{tid}", status_code=303)


async def _table_or_404(s: Site, tid: str) -> dict[str, Any] | None:
    return await s.tables.get(tid) if TOKEN.fullmatch(tid) and len(tid) <= 32 else None


def _watched(table: dict[str, Any], over: bool, rematch: str | None) -> dict[str, Any]:
    """What the table page watches: the page reloads when this differs from what it was drawn from.

    The page carries the state it was drawn from (data-state), not the first answer to its poll: a
    table that goes from "starting" to "started" between the drawing and the first poll would
    otherwise never show its players their seats."""
    return {"status": table["status"], "seats": [x["seat"] for x in table["seats"]],
            "game": bool(table["game_id"]), "over": over, "rematch": rematch}


async def _watched_state(s: Site, table: dict[str, Any]) -> dict[str, Any]:
    """_watched, its game's result and rematch read from the database."""
    gid = table["game_id"]
    over = bool(gid) and await _result_of(s, gid) is not None
    return _watched(table, over, await s.tables.rematch_of(gid) if gid else None)


@router.get("/tables/{tid}", response_class=HTMLResponse)
async def table_page(request: Request, v: PageVisit, tid: str) -> Response:
    s, user = v.site, v.user
    table = await _table_or_404(s, tid)
    if table is None:
        return s.message(request, user, 404, "not_found")
    ctx: dict[str, Any] = {"table": table, "me": next((x for x in table["seats"] if x["user_id"] == user["id"]), None)}
    if table["game_id"]:
        gid = table["game_id"]
        ctx["my_token"] = await s.tables.seat_token(gid, user["id"])
        ctx["spectator"] = await s.tables.spectator_token(gid)
        result = await _result_of(s, gid)
        ctx["over"] = result is not None
        ctx["winner"] = next((x["user_name"] or "" for x in table["seats"] if result and x["seat"] == result.get("winner")),
                             None)
        ctx["rematch"] = await s.tables.rematch_of(gid)
        if result is not None:
            await s.ratings.rate_pending()
            ctx["rating_status"] = await s.ratings.game_status(gid)
    ctx["watched"] = _watched(table, bool(ctx.get("over")), ctx.get("rematch"))     # read above: not again
    return page(s, request, user, "table.html", BOT_DEFAULT=DEFAULT_BOT, **ctx)


@router.get("/tables/{tid}/state")
async def table_state(request: Request, tid: str) -> Response:
    """What the table page polls: it reloads when this changes."""
    s = site(request)
    table = await _table_or_404(s, tid)
    if table is None:
        return JSONResponse({"error": {"code": "unknown_table", "rule": None, "message": "no such table"}},
                            status_code=404)
    return JSONResponse(await _watched_state(s, table))


async def _table_action(request: Request, v: Visit, tid: str, what: str) -> Response:
    s, user = v.site, v.user
    table = await _table_or_404(s, tid)
    if table is None:
        return s.message(request, user, 404, "not_found")
    try:
        form = await posted_form(s, request, user)
        if what == "join":
            await s.tables.join(tid, user["id"])
        elif what == "leave":
            await s.tables.leave(tid, user["id"])
        else:
            strength = form.get("strength", "2")
            await s.tables.fill_and_start(tid, user["id"], form.get("bot_kind", DEFAULT_BOT),
                                          int(strength) if strength.isdigit() and len(strength) < 3 else 0)
    except ServerError as e:
        table = await s.tables.get(tid)
        return refusal(s, request, user, e, "table.html", table=table, BOT_DEFAULT=DEFAULT_BOT,
                       watched=await _watched_state(s, table) if table else None,
                       me=next((x for x in table["seats"] if x["user_id"] == user["id"]), None) if table else None)
    return RedirectResponse(f"/tables/{tid}", status_code=303)


@router.post("/tables/{tid}/join")
async def join_table(request: Request, v: MemberForm, tid: str) -> Response:
    return await _table_action(request, v, tid, "join")


@router.post("/tables/{tid}/leave")
async def leave_table(request: Request, v: MemberForm, tid: str) -> Response:
    return await _table_action(request, v, tid, "leave")


@router.post("/tables/{tid}/start")
async def start_table(request: Request, v: MemberForm, tid: str) -> Response:
    return await _table_action(request, v, tid, "start")


@router.post("/tables/rematch/{gid}")
async def rematch(request: Request, v: MemberForm, gid: str) -> Response:
    s, user = v.site, v.user
    try:
        await posted_form(s, request, user)
        if len(gid) > 32 or not TOKEN.fullmatch(gid):
            raise ServerError("unknown_game", "no such game", status=404)
        tid, made = await s.tables.rematch_made(gid, user["id"])
    except ServerError as e:
        return refusal(s, request, user, e, "message.html", message_key="err_" + e.code)
    if made and s.play is not None:   # the other players hear of it: live, and by their settings
        account = user.get("account") or {}
        await s.play.tell_rematch(gid, tid, user["id"], str(account.get("user_name") or user.get("name") or ""))
    return RedirectResponse(f"/tables/{tid}", status_code=303)
