"""The moderator's pages (issue 16): GET /admin/reports, the chat reports players made.

A moderator is an account with the admin flag (`accounts.is_admin`), given with
`paxh admin grant NAME` (and taken with `paxh admin revoke NAME`), or at a server's start to
the existing accounts named in PAXH_ADMINS (the first moderator's bootstrap:
accounts.grant_bootstrap_admins; registering never gives it, and such a name without an account is
reserved, issue 37 N5). Anyone else, logged in or not, gets 404
(the page does not say that it exists). The JSON form is GET /api/admin/chat-reports
(social/chat_routes.py).
"""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from typing import Any

from pax_hispanica.web.http.site import site

router = APIRouter()


PAGE = 50   # reports a page (issue 37, N3: the page showed the last 200, and a flood hid the rest)


def report_cursor(value: str | None) -> int | None:
    """?before=<report id>: the page of reports older than it (None: the newest; anything but a
    number of at most 18 digits is the newest page too)."""
    return int(value) if value and value.isascii() and value.isdigit() and len(value) <= 18 else None


async def moderator(request: Request) -> dict[str, Any] | None:
    """The account of a logged-in moderator (admin flag), else None."""
    s = site(request)
    if s.accounts is None:
        return None
    from pax_hispanica.web.accounts.service import SESSION_COOKIE
    found = await s.accounts.session_account(request.cookies.get(SESSION_COOKIE))
    if found is None or not found[1].get("is_admin"):
        return None
    ret: dict[str, Any] | None = found[1]
    return ret


@router.get("/admin/reports", response_class=HTMLResponse)
async def reports_page(request: Request) -> Response:
    s = site(request)
    user = await s.current_user(request)
    if await moderator(request) is None:
        return s.message(request, user, 404, "not_found")
    before = report_cursor(request.query_params.get("before"))
    reports = await s.turn_based.chat.reports(limit=PAGE + 1, before=before)
    older = reports[PAGE - 1]["id"] if len(reports) > PAGE else None
    resp = s.page(request, user, "admin_reports.html", reports=reports[:PAGE], older=older, paged=before is not None)
    resp.headers["Cache-Control"] = "no-store"
    return resp
