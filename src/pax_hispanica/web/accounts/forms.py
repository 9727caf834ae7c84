"""Posted forms and the pages that answer them, for the account, table and rating routes
(accounts/routes.py, social/table_routes.py, social/ratings_routes.py).

Every POST is a form with the CSRF token of the page (`Site.csrf_token`: an HMAC of the session
when logged in, else of the anonymous user id); a refused one is its page again, with the reason
in the user's language (and Retry-After when a limit refused it).
"""
from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from pax_hispanica.web.http.ratelimit import RateLimited
from pax_hispanica.web.http.site import Site
from pax_hispanica.web.play.model import ServerError
from pax_hispanica.web.present.i18n import Tr


def form_error(e: ServerError, tr: Tr) -> str:
    """A refusal in the user's words: the catalogue's `err_<code>`, else its message."""
    text = tr.text("ui", "err_" + e.code)
    return text or e.message


async def posted_form(s: Site, request: Request, user: dict[str, Any]) -> dict[str, Any]:
    """The posted form, after its CSRF token is checked (ServerError csrf_refused)."""
    try:
        form = dict(await request.form())
    except Exception:
        raise ServerError("malformed", "not a form") from None
    if not s.csrf_ok(user, form.get("csrf")):
        raise ServerError("csrf_refused", "the form's token is not this browser's", status=403)
    return {k: v for k, v in form.items() if isinstance(v, str)}


async def posted_or_refusal(s: Site, request: Request, user: dict[str, Any]) -> Response | None:
    """None when the posted form (a button with no fields: log out, claim) carries this
    browser's CSRF token, else the page that refuses it."""
    try:
        await posted_form(s, request, user)
    except ServerError as e:
        return refusal(s, request, user, e, "message.html", message_key="csrf_refused")
    return None


def page(s: Site, request: Request, user: dict[str, Any], template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    """A page with this browser's CSRF token for its forms."""
    return s.page(request, user, template, status=status, csrf=s.csrf_token(user), **ctx)


def refusal(s: Site, request: Request, user: dict[str, Any], e: ServerError, template: str, **ctx: Any) -> HTMLResponse:
    """The page again with the reason it was refused (its status; Retry-After for a limit)."""
    resp = page(s, request, user, template, status=e.status, error=form_error(e, Tr(user["lang"])), **ctx)
    if isinstance(e, RateLimited):
        resp.headers["Retry-After"] = str(e.retry_after)
    return resp
