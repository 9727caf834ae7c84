"""Pages of accounts (issue 16).

    GET/POST /register, /login; POST /logout; GET/POST /forgot, /reset/{token}
    GET /account (my games on every device, my profile), GET /account/waiting, POST /account/claim
    GET/POST /account/settings

The table pages are social/table_routes.py's; the ratings and a player's profile,
social/ratings_routes.py's. Every POST is a form with the CSRF token of the page
(accounts/forms.py); another site's Origin is refused before (security.OriginGuard). The session
cookie is HttpOnly, SameSite=Lax, and Secure when the request came over HTTPS.
"""
from __future__ import annotations

import hmac
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from pax_hispanica.web.accounts import game_rows
from pax_hispanica.web.accounts.forms import page, posted_form, posted_or_refusal, refusal
from pax_hispanica.web.accounts.game_lists import lists, results_of
from pax_hispanica.web.accounts.service import (
    CHANNELS,
    SESSION_COOKIE,
    SESSION_SECONDS,
    TIME_CONTROLS,
)
from pax_hispanica.web.http.ratelimit import RateLimited
from pax_hispanica.web.http.site import (
    COOKIE_AGE,
    TOKEN,
    FormVisit,
    MemberForm,
    MemberPage,
    PageVisit,
    Site,
    client_address,
    cookie_user,
)
from pax_hispanica.web.play.model import ServerError
from pax_hispanica.web.present.i18n import LANGS
from pax_hispanica.web.social.profile import profile

router = APIRouter()


def _set_session(request: Request, resp: Response, token: str | None) -> Response:
    secure = request.url.scheme == "https"
    if token is None:
        resp.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax", secure=secure)
    else:
        resp.set_cookie(SESSION_COOKIE, token, max_age=SESSION_SECONDS, httponly=True, samesite="lax", secure=secure)
    return resp


def _next(form: dict[str, Any]) -> str:
    """Where to go after logging in: a path on this site only."""
    target = form.get("next", "") or "/account"
    return target if target.startswith("/") and not target.startswith("//") and "\\" not in target else "/account"


async def _login_as(s: Site, request: Request, user: dict[str, Any], uid: str, claim: bool, target: str) -> Response:
    """A new session for `uid` (never the one the browser came with), the old one ended."""
    await s.accounts.end_session(request.cookies.get(SESSION_COOKIE))
    token = await s.accounts.new_session(uid)
    if claim and user.get("account") is None:
        await s.accounts.claim(user["id"], uid)
    resp = RedirectResponse(target, status_code=303)
    s.remember_user(request, resp, user)
    return _set_session(request, resp, token)


# A browser that has logged in to an account before carries KNOWN_COOKIE, a tag per account
# name: HMAC(server secret, browser's user id, name). Its login tries for that name are counted
# under the name and the browser, not the name alone, so strangers who spend the name's
# limit (login_name) never lock its owner out of a browser the owner has used (PRJ-73).
KNOWN_COOKIE = "paxh_known"
KNOWN_TAGS = 4          # the last few accounts this browser logged in to


def _browser_tag(s: Site, request: Request, name_key: str) -> str | None:
    browser = cookie_user(request)
    return None if browser is None else s.csrf.tag(f"known:{browser}:{name_key}")


def _login_name_key(s: Site, request: Request, name_key: str) -> str:
    tag = _browser_tag(s, request, name_key)
    if tag is not None and any(hmac.compare_digest(tag, t) for t in request.cookies.get(KNOWN_COOKIE, "").split(".")):
        return f"{name_key}\0{tag}"
    return name_key


def _remember_known(s: Site, request: Request, resp: Response, name_key: str) -> Response:
    tag = _browser_tag(s, request, name_key)
    if tag is None:    # a browser seen for the first time: its user id is only now being set
        return resp
    tags = [t for t in request.cookies.get(KNOWN_COOKIE, "").split(".") if t and t != tag]
    resp.set_cookie(KNOWN_COOKIE, ".".join([tag, *tags][:KNOWN_TAGS]), max_age=COOKIE_AGE, httponly=True,
                    samesite="lax", secure=request.url.scheme == "https")
    return resp


# ---------------------------------------------------------------------- register, log in, out
@router.get("/register", response_class=HTMLResponse)
async def register_page(request: Request, v: PageVisit) -> Response:
    s, user = v.site, v.user
    return page(s, request, user, "register.html", form={}, anon_games=await s.accounts.anonymous_games(user["id"]))


@router.post("/register")
async def register(request: Request, v: FormVisit) -> Response:
    s, user = v.site, v.user
    form: dict[str, Any] = {}
    try:
        form = await posted_form(s, request, user)
        await s.limits.hit("register", client_address(request))
        if form.get("password", "") != form.get("password2", ""):
            raise ServerError("password_mismatch", "the two passwords differ")
        uid = await s.accounts.register(form.get("user_name", ""), form.get("password", ""), form.get("email", ""),
                                        lang=user["lang"])
    except ServerError as e:
        return refusal(s, request, user, e, "register.html", form={"user_name": form.get("user_name", "")[:32],
                                                                   "email": form.get("email", "")[:254]},
                       anon_games=0)
    resp = await _login_as(s, request, user, uid, form.get("claim") == "1", "/account")
    return _remember_known(s, request, resp, form.get("user_name", "").strip().lower())


@router.get("/login", response_class=HTMLResponse)
async def login_page(request: Request, v: PageVisit) -> Response:
    s, user = v.site, v.user
    target = request.query_params.get("next", "")
    return page(s, request, user, "login.html", form={"next": _next({"next": target})},
                anon_games=await s.accounts.anonymous_games(user["id"]) if user.get("account") is None else 0)


@router.post("/login")
async def login(request: Request, v: FormVisit) -> Response:
    s, user = v.site, v.user
    form: dict[str, Any] = {}
    try:
        form = await posted_form(s, request, user)
        name = form.get("user_name", "")[:64]
        name_key = name.strip().lower()
        await s.limits.hit("login", client_address(request))
        await s.limits.hit("login_name", _login_name_key(s, request, name_key))
        uid = await s.accounts.authenticate(name, form.get("password", ""))
    except ServerError as e:
        return refusal(s, request, user, e, "login.html", form={"user_name": form.get("user_name", "")[:32],
                                                                "next": _next(form)}, anon_games=0)
    resp = await _login_as(s, request, user, uid, form.get("claim") == "1", _next(form))
    return _remember_known(s, request, resp, name_key)


@router.post("/logout")
async def logout(request: Request, v: FormVisit) -> Response:
    s, user = v.site, v.user
    if (refused := await posted_or_refusal(s, request, user)) is not None:
        return refused
    await s.accounts.end_session(request.cookies.get(SESSION_COOKIE))
    return _set_session(request, s.remember_user(request, RedirectResponse("/", status_code=303), user), None)


# ---------------------------------------------------------------------- lost password
@router.get("/forgot", response_class=HTMLResponse)
async def forgot_page(request: Request, v: PageVisit) -> Response:
    s, user = v.site, v.user
    return page(s, request, user, "forgot.html")


@router.post("/forgot")
async def forgot(request: Request, v: FormVisit) -> Response:
    s, user = v.site, v.user
    try:
        form = await posted_form(s, request, user)
        who = form.get("who", "")
        try:
            await s.limits.hit("reset", client_address(request))
        except RateLimited as e:   # sentences of their own (issue 37, N6)
            e.code = "too_many_resets_here"
            raise
        try:
            if (key := s.accounts.reset_key(who)) is not None:   # any name, existing or not: the same answer
                await s.limits.hit("reset_name", key)
        except RateLimited as e:
            e.code = "too_many_resets"
            raise
        # the link's base is the configured public URL, never this request's Host (N1); the
        # request does the same work for every name (N10): Accounts.request_reset
        await s.accounts.request_reset(who, user["lang"])
    except ServerError as e:
        return refusal(s, request, user, e, "forgot.html")
    return page(s, request, user, "forgot.html", sent=True)   # the same answer for any name


@router.get("/reset/{token}", response_class=HTMLResponse)
async def reset_page(request: Request, v: FormVisit, token: str) -> Response:
    s, user = v.site, v.user
    if not TOKEN.fullmatch(token) or await s.accounts.reset_valid(token) is None:
        return s.message(request, user, 400, "err_bad_reset_link")
    return page(s, request, user, "reset.html", token=token)


@router.post("/reset/{token}")
async def reset(request: Request, v: FormVisit, token: str) -> Response:
    s, user = v.site, v.user
    try:
        form = await posted_form(s, request, user)
        if form.get("password", "") != form.get("password2", ""):
            raise ServerError("password_mismatch", "the two passwords differ")
        if not TOKEN.fullmatch(token):
            raise ServerError("bad_reset_link", "unknown link")
        uid = await s.accounts.reset(token, form.get("password", ""))
    except ServerError as e:
        return refusal(s, request, user, e, "reset.html", token=token)
    return await _login_as(s, request, user, uid, False, "/account")


# ---------------------------------------------------------------------- my account
async def _my_games(s: Site, uid: str, query: Any = None) -> dict[str, Any]:
    """The account's games in three lists, a page each (accounts/game_lists.py: keyset pages with
    "older" links): to move, waiting for others (and tables waiting for players), finished."""

    out = await lists(s.svc, uid, query or {})
    results = await results_of(s.svc.storage, [g["id"] for g in out["finished"]])
    for g in out["finished"]:
        result = results.get(g["id"])
        g["place"] = next((result["ranking"].index(x["seat"]) + 1 for x in g["my_seats"]
                           if x["seat"] in result.get("ranking", [])), None) if result else None
    await game_rows.describe(s.svc.storage, uid, out["to_move"] + out["waiting"] + out["finished"])
    return out


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request, v: MemberPage) -> Response:
    s, user = v.site, v.user
    games = await _my_games(s, user["id"], request.query_params)
    return page(s, request, user, "account.html", games=games, tables=await s.tables.open_of(user["id"]),
                profile=await profile(s, user["id"]), account_name=user["account"]["user_name"],
                anon_games=await s.accounts.anonymous_games(user["anon_id"]))


@router.get("/account/waiting")
async def waiting_count(request: Request, v: PageVisit) -> Response:
    """How many of the account's games wait for its move (the header's count, static/nav.js)."""
    s, user = v.site, v.user
    if not user.get("account"):
        return JSONResponse({"count": 0})
    games = await lists(s.svc, user["id"], {})
    return JSONResponse({"count": len(games["to_move"]), "more": bool(games["older"]["to_move"])})


@router.post("/account/claim")
async def claim(request: Request, v: MemberForm) -> Response:
    s, user = v.site, v.user
    if (refused := await posted_or_refusal(s, request, user)) is not None:
        return refused
    await s.accounts.claim(user["anon_id"], user["id"])
    return RedirectResponse("/account", status_code=303)


@router.get("/account/settings", response_class=HTMLResponse)
async def settings_page(request: Request, v: MemberPage) -> Response:
    s, user = v.site, v.user
    return page(s, request, user, "settings.html", acct=user["account"], TIME_CONTROLS=TIME_CONTROLS,
                CHANNELS=CHANNELS)


@router.post("/account/settings")
async def save_settings(request: Request, v: MemberForm) -> Response:
    s, user = v.site, v.user
    try:
        form = await posted_form(s, request, user)
        lang = form.get("lang")
        await s.accounts.save_settings(user["id"], lang if lang in LANGS else None,
                                       {c: form.get(f"notify_{c}") == "1" for c in CHANNELS},
                                       form.get("time_control", ""), form.get("email", ""),
                                       form.get("webhook"))
    except ServerError as e:
        return refusal(s, request, user, e, "settings.html", acct=user["account"], TIME_CONTROLS=TIME_CONTROLS,
                       CHANNELS=CHANNELS)
    resp = RedirectResponse("/account/settings?saved=1", status_code=303)
    if lang in LANGS:
        from pax_hispanica.web.http.site import COOKIE_AGE, LANG_COOKIE
        resp.set_cookie(LANG_COOKIE, lang, max_age=COOKIE_AGE, httponly=True, samesite="lax")
    return resp
