"""Routes of ratings (issue 16, PRJ-35; the service is social/ratings.py).

    GET /ratings (the bot kinds' ratings and the top players); GET /u/{name} (a player's profile)
"""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from pax_hispanica.web.accounts.forms import page
from pax_hispanica.web.accounts.service import USER_NAME
from pax_hispanica.web.http.site import PageVisit
from pax_hispanica.web.social.profile import profile

router = APIRouter()


@router.get("/u/{name}", response_class=HTMLResponse)
async def profile_page(request: Request, v: PageVisit, name: str) -> Response:
    s, user = v.site, v.user
    acct = await s.accounts.by_name(name) if USER_NAME.fullmatch(name) else None
    if acct is None:
        return s.message(request, user, 404, "not_found")
    own = acct["user_id"] == user["id"]         # one's own profile says "you"; another's, their name
    return page(s, request, user, "profile.html", account_name=acct["user_name"], profile=await profile(s, acct["user_id"]),
                owner=None if own else acct["user_name"])


@router.get("/ratings", response_class=HTMLResponse)
async def ratings_page(request: Request, v: PageVisit) -> Response:
    s, user = v.site, v.user
    await s.ratings.rate_pending()
    return page(s, request, user, "ratings.html", bots=await s.ratings.bots(), top=await s.ratings.top())
