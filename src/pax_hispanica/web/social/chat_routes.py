"""Routes of turn-based play, clocks and chat (play.py).

WebSocket messages (added to routes/ws.py's HANDLERS): `hello` (the clocks and chat of this
connection: sent by the page once its socket is open), `chat` {text}, `chat_mute` {seat, on},
`chat_report` {message, reason}, `chat_end` (the host).

HTTP: POST /api/notify/{seat token} {email, webhook, lang} (where this seat's player hears of
their move); GET /api/clock/{token}; GET and POST /api/chat/{token} ({text}); POST
/api/chat/{host token}/end; GET /unsubscribe/{signed} (a page with a button), POST
/unsubscribe/{signed} (the button, or RFC 8058's one-click POST: it unsubscribes);
GET /api/admin/chat-reports (a moderator: an account with the admin flag, routes/admin.py).
"""
from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
)

from pax_hispanica.web.http.site import (
    FormVisit,
    cookie_user,
    error_response,
    site,
    validation_message,
)
from pax_hispanica.web.notify.outbox import save_seat_contact, saved_contact
from pax_hispanica.web.play.model import ServerError
from pax_hispanica.web.play.ws_routes import Message, Turn, handles
from pax_hispanica.web.present.i18n import LANGS

router = APIRouter()
EMAIL = re.compile(r"^[^@\s<>\"',;]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}$")


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
    await site(turn.conn.ws).play.hello(turn.conn, turn.live)


@handles("chat", ChatIn)
async def on_chat(turn: Turn, msg: ChatIn) -> None:
    await site(turn.conn.ws).play.chat.post(turn.live, turn.conn.rights, msg.text)
    await turn.conn.send({"type": "ack", "id": turn.msg_id, "version": turn.live.version})


@handles("chat_mute", MuteIn)
async def on_mute(turn: Turn, msg: MuteIn) -> None:
    chat = site(turn.conn.ws).play.chat
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
    chat = site(turn.conn.ws).play.chat
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
    await site(turn.conn.ws).play.chat.end(turn.live)
    await turn.conn.send({"type": "ack", "id": turn.msg_id, "version": turn.live.version})


# ---------------------------------------------------------------- HTTP
class ContactIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    email: str | None = Field(None, max_length=254)
    webhook: str | None = Field(None, max_length=500)   # checked by outbox.check_webhook (bad_webhook, internal_webhook)
    lang: str = Field("en", pattern=f"^({'|'.join(LANGS)})$")


async def _body(request: Request, model: type[BaseModel]) -> Any:
    from pax_hispanica.web.http import security
    raw = await request.body()
    security.parse_json(raw or b"{}")     # bounded depth and size, as every body
    try:
        return model.model_validate_json(raw or b"{}")
    except ValidationError as e:
        raise ServerError("malformed", validation_message(e.errors(include_url=False))) from None


@router.post("/api/notify/{token}")
async def api_notify(request: Request, token: str) -> JSONResponse:
    """Where the player of this seat hears of their move: an email address, a webhook URL."""
    s = site(request)
    try:
        body = await _body(request, ContactIn)
        if body.email is not None and body.email != "" and not EMAIL.fullmatch(body.email):
            raise ServerError("bad_email", "email: not an address")
        if body.email and not s.play.outbox.smtp_url:   # no mail server: email is off (U1)
            raise ServerError("mail_off", "this server sends no email (it has no mail server: PAXH_SMTP_URL); "
                                          "use a webhook", status=409)
        if body.webhook:
            from pax_hispanica.web.notify.outbox import check_webhook
            await check_webhook(body.webhook)
        rights = await s.resolve(token)
        if rights.role != "seat":
            raise ServerError("wrong_seat", "a seat's own link sets where its player is told", status=403)
        (seat,) = rights.seats
        live = await s.svc.get(rights.game_id)
        values = {"email": body.email or None, "webhook": body.webhook or None, "lang": body.lang,
                  "unsubscribed": False}
        await save_seat_contact(s.svc.storage, live.id, seat, values)
        await s.play.clocks.contact_changed(live, seat)
    except ServerError as e:
        return error_response(e)
    return JSONResponse({"ok": True})


@router.get("/api/notify/{token}")
async def api_notify_saved(request: Request, token: str) -> JSONResponse:
    """What is saved for this seat (the page's "Tell me when it is my move" shows it after a
    reload): the seat's own row, else its account's channels; `mail`: whether this server sends
    email at all."""
    s = site(request)
    try:
        rights = await s.resolve(token)
        if rights.role != "seat":
            raise ServerError("wrong_seat", "a seat's own link reads where its player is told", status=403)
        (seat,) = rights.seats
        out = await saved_contact(s.svc.storage, rights.game_id, seat)
    except ServerError as e:
        return error_response(e)
    mail = bool(s.play.outbox.smtp_url)
    return JSONResponse({**out, "email": out["email"] if mail else None, "mail": mail})


@router.get("/api/clock/{token}")
async def api_clock(request: Request, token: str) -> JSONResponse:
    s = site(request)
    try:
        rights, live = await s.game_for(token)
        state = await s.play.clocks.state(live)
    except ServerError as e:
        return error_response(e)
    return JSONResponse(state or {"type": "clock", "seats": []})


@router.get("/api/chat/{token}")
async def api_chat(request: Request, token: str) -> JSONResponse:
    s = site(request)
    try:
        rights, live = await s.game_for(token)
        lang = request.query_params.get("lang", "en")
        state = await s.play.chat.state(live, rights, lang if lang in LANGS else "en")
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
        body = await _body(request, ChatPostIn)
        rights, live = await s.game_for(token)
        row = await s.play.chat.post(live, rights, body.text)
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
        await s.play.chat.end(live)
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
    limit = request.query_params.get("limit", "200")
    limit = min(200, max(1, int(limit))) if limit.isascii() and limit.isdigit() and len(limit) < 5 else 200
    reports = await s.play.chat.reports(limit=limit, before=report_cursor(request.query_params.get("before")))
    return JSONResponse({"reports": reports, "older": reports[-1]["id"] if len(reports) == limit else None})


@router.get("/unsubscribe/{signed}")
async def unsubscribe_get(request: Request, v: FormVisit, signed: str) -> Response:
    """The link in the email: a page that asks, with a button that POSTs. A GET changes nothing
    (mail scanners and link previews follow links; RFC 8058 section 1)."""
    s, user = v.site, v.user
    target = s.play.outbox.unsubscribe_target(signed) if len(signed) < 400 else None
    if target is None:
        return s.message(request, user, 404, "unsubscribe_bad")
    return s.page(request, user, "unsubscribe.html", signed=signed)


@router.post("/unsubscribe/{signed}")
async def unsubscribe_post(request: Request, v: FormVisit, signed: str) -> Response:
    """The page's button, or RFC 8058's one-click POST from the mail client (body
    `List-Unsubscribe=One-Click`, no cookie, no CSRF token: the signed link is the authority)."""
    s, user = v.site, v.user
    done = await s.play.outbox.unsubscribe(signed) if len(signed) < 400 else None
    return s.message(request, user, 200 if done else 404, "unsubscribed" if done else "unsubscribe_bad")
