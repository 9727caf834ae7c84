"""Routes of chat, and the WebSocket's `hello` (clocks and chat) (play/turn_based.py).

WebSocket messages (added to play/ws_routes.py's HANDLERS): `hello` (the clocks and chat of this
connection: sent by the page once its socket is open), `chat` {text}, `chat_mute` {seat, on},
`chat_report` {message, reason}, `chat_end` (the host).

HTTP: GET and POST /api/chat/{token} ({text}); POST /api/chat/{host token}/end; GET
/api/admin/chat-reports (a moderator: an account with the admin flag, social/admin_routes.py).
Clocks and notifications: notify/routes.py.
"""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
)

from pax_hispanica.web.http.site import (
    cookie_user,
    error_response,
    json_body,
    site,
)
from pax_hispanica.web.play.model import ServerError
from pax_hispanica.web.play.ws_routes import Message, Turn, handles
from pax_hispanica.web.present.i18n import LANGS

router = APIRouter()


# ---------------------------------------------------------------- WebSocket messages
class ChatIn(Message):
    text: StrictStr = Field(..., max_length=4000)


class MuteIn(Message):
    seat: StrictInt
    on: StrictBool = True


class ReportIn(Message):
    message: StrictInt
    reason: StrictStr = Field("", max_length=1000)


@handles("hello")
async def on_hello(turn: Turn, _msg: Message) -> None:
    await site(turn.conn.ws).turn_based.hello(turn.conn, turn.live)


@handles("chat", ChatIn)
async def on_chat(turn: Turn, msg: ChatIn) -> None:
    await site(turn.conn.ws).turn_based.chat.post(turn.live, turn.conn.rights, msg.text)
    await turn.conn.send({"type": "ack", "id": turn.msg_id, "version": turn.live.version})


@handles("chat_mute", MuteIn)
async def on_mute(turn: Turn, msg: MuteIn) -> None:
    chat = site(turn.conn.ws).turn_based.chat
    await chat.mute(turn.live, turn.conn.rights, msg.seat, msg.on)
    state = await chat.state(turn.live, turn.conn.rights, turn.conn.lang)
    if state is not None:
        await turn.conn.send(state)
    await turn.conn.send({"type": "ack", "id": turn.msg_id, "version": turn.live.version})


async def _reporter(ws: Any, rights: Any) -> str:
    """Who a chat report is counted against (PAXH_RATE_REPORT, issue 37 N3): the logged-in
    account, else the browser's anonymous user, else the seat of the game its link opens."""
    accounts = site(ws).accounts
    uid = None
    if accounts is not None:
        from pax_hispanica.web.accounts.service import SESSION_COOKIE
        uid = await accounts.session_user(ws.cookies.get(SESSION_COOKIE))
    uid = uid or cookie_user(ws)
    return f"user:{uid}" if uid else f"seat:{rights.game_id}:{rights.role}:{sorted(rights.seats)}"


@handles("chat_report", ReportIn)
async def on_report(turn: Turn, msg: ReportIn) -> None:
    from pax_hispanica.web.http.ratelimit import RateLimited
    chat = site(turn.conn.ws).turn_based.chat
    await chat.check_report(turn.live, turn.conn.rights, msg.message)   # cheap refusals first
    try:
        await site(turn.conn.ws).limits.hit("report", await _reporter(turn.conn.ws, turn.conn.rights))
    except RateLimited as e:
        e.message = f"too many reports from this account; try again in {e.retry_after} s"
        raise
    await chat.report(turn.live, turn.conn.rights, msg.message, msg.reason)
    await turn.conn.send({"type": "ack", "id": turn.msg_id, "version": turn.live.version})


async def _is_host(rights: Any, live: Any, conn: Any) -> bool:
    """The host's link, or the player whose browser (its anonymous user, or its logged-in
    account: a game made while logged in is the account's) made the game."""
    if rights.role in ("host", "table"):
        return True
    if live.host_user is None:
        return False
    ids = {cookie_user(conn)}
    accounts = site(conn).accounts
    if accounts is not None:
        from pax_hispanica.web.accounts.service import SESSION_COOKIE
        ids.add(await accounts.session_user(conn.cookies.get(SESSION_COOKIE)))
    return live.host_user in ids


@handles("chat_end")
async def on_end(turn: Turn, _msg: Message) -> None:
    if not await _is_host(turn.conn.rights, turn.live, turn.conn.ws):
        raise ServerError("wrong_seat", "only the host ends the table's chat", status=403)
    await site(turn.conn.ws).turn_based.chat.end(turn.live)
    await turn.conn.send({"type": "ack", "id": turn.msg_id, "version": turn.live.version})


# ---------------------------------------------------------------- HTTP
@router.get("/api/chat/{token}")
async def api_chat(request: Request, token: str) -> JSONResponse:
    s = site(request)
    try:
        rights, live = await s.game_for(token)
        lang = request.query_params.get("lang", "en")
        state = await s.turn_based.chat.state(live, rights, lang if lang in LANGS else "en")
    except ServerError as e:
        return error_response(e)
    return JSONResponse(state or {"type": "chat", "items": []})


class ChatPostIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: str = Field(..., max_length=4000)


@router.post("/api/chat/{token}")
async def api_chat_post(request: Request, token: str) -> JSONResponse:
    s = site(request)
    try:
        body = await json_body(request, ChatPostIn)
        rights, live = await s.game_for(token)
        row = await s.turn_based.chat.post(live, rights, body.text)
    except ServerError as e:
        return error_response(e)
    return JSONResponse({"ok": True, "id": row["id"]})


@router.post("/api/chat/{token}/end")
async def api_chat_end(request: Request, token: str) -> JSONResponse:
    s = site(request)
    try:
        rights, live = await s.game_for(token)
        if not await _is_host(rights, live, request):
            raise ServerError("wrong_seat", "only the host ends the table's chat", status=403)
        await s.turn_based.chat.end(live)
    except ServerError as e:
        return error_response(e)
    return JSONResponse({"ok": True})


@router.get("/api/admin/chat-reports")
async def api_reports(request: Request) -> JSONResponse:
    """The chat reports, for a moderator: a logged-in account with the admin flag (admin.py)."""
    from pax_hispanica.web.social.admin_routes import moderator

    s = site(request)
    if await moderator(request) is None:
        return error_response(ServerError("forbidden", "for moderators only", status=403))
    from pax_hispanica.web.social.admin_routes import report_cursor
    asked = request.query_params.get("limit", "200")
    limit = min(200, max(1, int(asked))) if asked.isascii() and asked.isdigit() and len(asked) < 5 else 200
    reports = await s.turn_based.chat.reports(limit=limit, before=report_cursor(request.query_params.get("before")))
    return JSONResponse({"reports": reports, "older": reports[-1]["id"] if len(reports) == limit else None})
