"""Routes of clocks and notifications: where a seat's player hears of their move, the clocks,
and the unsubscribe link of every email.

POST /api/notify/{seat token} {email, webhook, lang}; GET /api/notify/{seat token} (what is
saved); GET /api/clock/{token}; GET /unsubscribe/{signed} (a page with a button), POST
/unsubscribe/{signed} (the button, or RFC 8058's one-click POST: it unsubscribes).
"""
from __future__ import annotations

import re

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from pax_hispanica.web.http.site import FormVisit, error_response, json_body, site
from pax_hispanica.web.notify.outbox import save_seat_contact, saved_contact
from pax_hispanica.web.play.model import ServerError
from pax_hispanica.web.present.i18n import LANGS

router = APIRouter()
EMAIL = re.compile(r"^[^@\s<>\"',;]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}$")


class ContactIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    email: str | None = Field(None, max_length=254)
    webhook: str | None = Field(None, max_length=500)   # checked by outbox.check_webhook (bad_webhook, internal_webhook)
    lang: str = Field("en", pattern=f"^({'|'.join(LANGS)})$")


@router.post("/api/notify/{token}")
async def api_notify(request: Request, token: str) -> JSONResponse:
    """Where the player of this seat hears of their move: an email address, a webhook URL."""
    s = site(request)
    try:
        body = await json_body(request, ContactIn)
        if body.email is not None and body.email != "" and not EMAIL.fullmatch(body.email):
            raise ServerError("bad_email", "email: not an address")
        if body.email and not s.turn_based.outbox.smtp_url:   # no mail server: email is off (U1)
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
        await s.turn_based.clocks.contact_changed(live, seat)
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
    mail = bool(s.turn_based.outbox.smtp_url)
    return JSONResponse({**out, "email": out["email"] if mail else None, "mail": mail})


@router.get("/api/clock/{token}")
async def api_clock(request: Request, token: str) -> JSONResponse:
    s = site(request)
    try:
        _rights, live = await s.game_for(token)
        state = await s.turn_based.clocks.state(live)
    except ServerError as e:
        return error_response(e)
    return JSONResponse(state or {"type": "clock", "seats": []})


@router.get("/unsubscribe/{signed}")
async def unsubscribe_get(request: Request, v: FormVisit, signed: str) -> Response:
    """The link in the email: a page that asks, with a button that POSTs. A GET changes nothing
    (mail scanners and link previews follow links; RFC 8058 section 1)."""
    s, user = v.site, v.user
    target = s.turn_based.outbox.unsubscribe_target(signed) if len(signed) < 400 else None
    if target is None:
        return s.message(request, user, 404, "unsubscribe_bad")
    return s.page(request, user, "unsubscribe.html", signed=signed)


@router.post("/unsubscribe/{signed}")
async def unsubscribe_post(request: Request, v: FormVisit, signed: str) -> Response:
    """The page's button, or RFC 8058's one-click POST from the mail client (body
    `List-Unsubscribe=One-Click`, no cookie, no CSRF token: the signed link is the authority)."""
    s, user = v.site, v.user
    done = await s.turn_based.outbox.unsubscribe(signed) if len(signed) < 400 else None
    return s.message(request, user, 200 if done else 404, "unsubscribed" if done else "unsubscribe_bad")
