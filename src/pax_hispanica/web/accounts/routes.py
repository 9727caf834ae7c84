"""Pages of accounts, open tables and ratings (issue 16).

    GET/POST /register, /login; POST /logout; GET/POST /forgot, /reset/{token}
    GET /account (my games on every device, my profile), POST /account/claim
    GET/POST /account/settings; GET /u/{name} (a profile); GET /ratings
    POST /tables (open a table); GET /tables/{id} (its page: the invitation link);
    GET /tables/{id}/state (JSON, polled by the table page); POST /tables/{id}/join|leave|start
    POST /tables/rematch/{game_id}

Every POST is a form with the CSRF token of the page (`Site.csrf_token`: an HMAC of the
session when logged in, else of the anonymous user id); another site's Origin is refused
before (security.OriginGuard). The session cookie is HttpOnly, SameSite=Lax, and Secure when
the request came over HTTPS.
"""
from __future__ import annotations

import hmac
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from pax_hispanica.web.accounts import game_rows
from pax_hispanica.web.accounts.game_lists import lists, results_of
from pax_hispanica.web.accounts.service import (
    CHANNELS,
    SESSION_COOKIE,
    SESSION_SECONDS,
    TIME_CONTROLS,
    USER_NAME,
)
from pax_hispanica.web.engine_port import DEFAULT_BOT
from pax_hispanica.web.http.ratelimit import RateLimited
from pax_hispanica.web.http.site import (
    COOKIE_AGE,
    TOKEN,
    FormVisit,
    MemberForm,
    MemberPage,
    PageVisit,
    Site,
    Visit,
    client_address,
    cookie_user,
    site,
)
from pax_hispanica.web.play import variants
from pax_hispanica.web.play.model import ServerError
from pax_hispanica.web.present.i18n import LANGS, Tr

router = APIRouter()


async def lobby_tables(s: Site, user: dict[str, Any]) -> dict[str, Any]:
    """What the lobby shows of tables: the public ones waiting, and the new-table form's default."""
    if s.tables is None:
        return {}
    acct = user.get("account")
    return {"open_tables": await s.tables.lobby(), "account": acct,
            "default_tc": (acct or {}).get("settings", {}).get("time_control", ""), "TIME_CONTROLS": TIME_CONTROLS}


def _form_error(e: ServerError, tr: Tr) -> str:
    text = tr.text("ui", "err_" + e.code)
    return text or e.message


async def _form(s: Site, request: Request, user: dict[str, Any]) -> dict[str, Any]:
    """The posted form, after its CSRF token is checked (ServerError csrf_refused)."""
    try:
        form = dict(await request.form())
    except Exception:
        raise ServerError("malformed", "not a form") from None
    if not s.csrf_ok(user, form.get("csrf")):
        raise ServerError("csrf_refused", "the form's token is not this browser's", status=403)
    return {k: v for k, v in form.items() if isinstance(v, str)}


async def _posted_or_refusal(s: Site, request: Request, user: dict[str, Any]) -> Response | None:
    """None when the posted form (a button with no fields: log out, claim) carries this
    browser's CSRF token, else the page that refuses it."""
    try:
        await _form(s, request, user)
    except ServerError as e:
        return _refusal(s, request, user, e, "message.html", message_key="csrf_refused")
    return None


def _page(s: Site, request: Request, user: dict[str, Any], template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    return s.page(request, user, template, status=status, csrf=s.csrf_token(user), **ctx)


def _refusal(s: Site, request: Request, user: dict[str, Any], e: ServerError, template: str, **ctx: Any) -> HTMLResponse:
    resp = _page(s, request, user, template, status=e.status, error=_form_error(e, Tr(user["lang"])), **ctx)
    if isinstance(e, RateLimited):
        resp.headers["Retry-After"] = str(e.retry_after)
    return resp


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
    return _page(s, request, user, "register.html", form={}, anon_games=await s.accounts.anonymous_games(user["id"]))


@router.post("/register")
async def register(request: Request, v: FormVisit) -> Response:
    s, user = v.site, v.user
    form: dict[str, Any] = {}
    try:
        form = await _form(s, request, user)
        await s.limits.hit("register", client_address(request))
        if form.get("password", "") != form.get("password2", ""):
            raise ServerError("password_mismatch", "the two passwords differ")
        uid = await s.accounts.register(form.get("user_name", ""), form.get("password", ""), form.get("email", ""),
                                        lang=user["lang"])
    except ServerError as e:
        return _refusal(s, request, user, e, "register.html", form={"user_name": form.get("user_name", "")[:32],
                                                                    "email": form.get("email", "")[:254]},
                        anon_games=0)
    resp = await _login_as(s, request, user, uid, form.get("claim") == "1", "/account")
    return _remember_known(s, request, resp, form.get("user_name", "").strip().lower())


@router.get("/login", response_class=HTMLResponse)
async def login_page(request: Request, v: PageVisit) -> Response:
    s, user = v.site, v.user
    target = request.query_params.get("next", "")
    return _page(s, request, user, "login.html", form={"next": _next({"next": target})},
                 anon_games=await s.accounts.anonymous_games(user["id"]) if user.get("account") is None else 0)


@router.post("/login")
async def login(request: Request, v: FormVisit) -> Response:
    s, user = v.site, v.user
    form: dict[str, Any] = {}
    try:
        form = await _form(s, request, user)
        name = form.get("user_name", "")[:64]
        name_key = name.strip().lower()
        await s.limits.hit("login", client_address(request))
        await s.limits.hit("login_name", _login_name_key(s, request, name_key))
        uid = await s.accounts.authenticate(name, form.get("password", ""))
    except ServerError as e:
        return _refusal(s, request, user, e, "login.html", form={"user_name": form.get("user_name", "")[:32],
                                                                 "next": _next(form)}, anon_games=0)
    resp = await _login_as(s, request, user, uid, form.get("claim") == "1", _next(form))
    return _remember_known(s, request, resp, name_key)


@router.post("/logout")
async def logout(request: Request, v: FormVisit) -> Response:
    s, user = v.site, v.user
    if (refused := await _posted_or_refusal(s, request, user)) is not None:
        return refused
    await s.accounts.end_session(request.cookies.get(SESSION_COOKIE))
    return _set_session(request, s.remember_user(request, RedirectResponse("/", status_code=303), user), None)


# ---------------------------------------------------------------------- lost password
@router.get("/forgot", response_class=HTMLResponse)
async def forgot_page(request: Request, v: PageVisit) -> Response:
    s, user = v.site, v.user
    return _page(s, request, user, "forgot.html")


@router.post("/forgot")
async def forgot(request: Request, v: FormVisit) -> Response:
    s, user = v.site, v.user
    try:
        form = await _form(s, request, user)
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
        return _refusal(s, request, user, e, "forgot.html")
    return _page(s, request, user, "forgot.html", sent=True)   # the same answer for any name


@router.get("/reset/{token}", response_class=HTMLResponse)
async def reset_page(request: Request, v: FormVisit, token: str) -> Response:
    s, user = v.site, v.user
    if not TOKEN.fullmatch(token) or await s.accounts.reset_valid(token) is None:
        return s.message(request, user, 400, "err_bad_reset_link")
    return _page(s, request, user, "reset.html", token=token)


@router.post("/reset/{token}")
async def reset(request: Request, v: FormVisit, token: str) -> Response:
    s, user = v.site, v.user
    try:
        form = await _form(s, request, user)
        if form.get("password", "") != form.get("password2", ""):
            raise ServerError("password_mismatch", "the two passwords differ")
        if not TOKEN.fullmatch(token):
            raise ServerError("bad_reset_link", "unknown link")
        uid = await s.accounts.reset(token, form.get("password", ""))
    except ServerError as e:
        return _refusal(s, request, user, e, "reset.html", token=token)
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


async def _result_of(s: Site, gid: str) -> dict[str, Any] | None:
    return (await results_of(s.svc.storage, [gid])).get(gid)


async def _profile(s: Site, uid: str) -> dict[str, Any]:
    """A player's rating, games played and recent results, those as a game list's rows."""
    await s.ratings.rate_pending()
    record = await s.ratings.record(uid)
    return {"rating": await s.ratings.rating(f"user:{uid}"), **record,
            "games": await game_rows.of_results(s.svc.storage, uid, record["recent"])}


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request, v: MemberPage) -> Response:
    s, user = v.site, v.user
    games = await _my_games(s, user["id"], request.query_params)
    return _page(s, request, user, "account.html", games=games, tables=await s.tables.open_of(user["id"]),
                 profile=await _profile(s, user["id"]), account_name=user["account"]["user_name"],
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
    if (refused := await _posted_or_refusal(s, request, user)) is not None:
        return refused
    await s.accounts.claim(user["anon_id"], user["id"])
    return RedirectResponse("/account", status_code=303)


@router.get("/account/settings", response_class=HTMLResponse)
async def settings_page(request: Request, v: MemberPage) -> Response:
    s, user = v.site, v.user
    return _page(s, request, user, "settings.html", acct=user["account"], TIME_CONTROLS=TIME_CONTROLS,
                 CHANNELS=CHANNELS)


@router.post("/account/settings")
async def save_settings(request: Request, v: MemberForm) -> Response:
    s, user = v.site, v.user
    try:
        form = await _form(s, request, user)
        lang = form.get("lang")
        await s.accounts.save_settings(user["id"], lang if lang in LANGS else None,
                                       {c: form.get(f"notify_{c}") == "1" for c in CHANNELS},
                                       form.get("time_control", ""), form.get("email", ""),
                                       form.get("webhook"))
    except ServerError as e:
        return _refusal(s, request, user, e, "settings.html", acct=user["account"], TIME_CONTROLS=TIME_CONTROLS,
                        CHANNELS=CHANNELS)
    resp = RedirectResponse("/account/settings?saved=1", status_code=303)
    if lang in LANGS:
        from pax_hispanica.web.http.site import COOKIE_AGE, LANG_COOKIE
        resp.set_cookie(LANG_COOKIE, lang, max_age=COOKIE_AGE, httponly=True, samesite="lax")
    return resp


@router.get("/u/{name}", response_class=HTMLResponse)
async def profile_page(request: Request, v: PageVisit, name: str) -> Response:
    s, user = v.site, v.user
    acct = await s.accounts.by_name(name) if USER_NAME.fullmatch(name) else None
    if acct is None:
        return s.message(request, user, 404, "not_found")
    own = acct["user_id"] == user["id"]         # one's own profile says "you"; another's, their name
    return _page(s, request, user, "profile.html", account_name=acct["user_name"], profile=await _profile(s, acct["user_id"]),
                 owner=None if own else acct["user_name"])


@router.get("/ratings", response_class=HTMLResponse)
async def ratings_page(request: Request, v: PageVisit) -> Response:
    s, user = v.site, v.user
    await s.ratings.rate_pending()
    return _page(s, request, user, "ratings.html", bots=await s.ratings.bots(), top=await s.ratings.top())


# ---------------------------------------------------------------------- tables
@router.post("/tables")
async def create_table(request: Request, v: MemberForm) -> Response:
    s, user = v.site, v.user
    try:
        form = await _form(s, request, user)
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
        from pax_hispanica.web.play.page_routes import _refuse_form
        return await _refuse_form(s, request, user, e.status, "bad_request", text=_form_error(e, Tr(user["lang"])))
    return RedirectResponse(f"/tables/{tid}", status_code=303)


async def _table_or_404(s: Site, tid: str) -> dict[str, Any] | None:
    return await s.tables.get(tid) if TOKEN.fullmatch(tid) and len(tid) <= 32 else None


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
    return _page(s, request, user, "table.html", BOT_DEFAULT=DEFAULT_BOT, **ctx)


@router.get("/tables/{tid}/state")
async def table_state(request: Request, tid: str) -> Response:
    """What the table page polls: it reloads when this changes."""
    s = site(request)
    table = await _table_or_404(s, tid)
    if table is None:
        return JSONResponse({"error": {"code": "unknown_table", "rule": None, "message": "no such table"}},
                            status_code=404)
    over = bool(table["game_id"]) and await _result_of(s, table["game_id"]) is not None
    rematch = await s.tables.rematch_of(table["game_id"]) if table["game_id"] else None
    return JSONResponse({"status": table["status"], "seats": [x["seat"] for x in table["seats"]],
                         "game": bool(table["game_id"]), "over": over, "rematch": rematch})


async def _table_action(request: Request, v: Visit, tid: str, what: str) -> Response:
    s, user = v.site, v.user
    table = await _table_or_404(s, tid)
    if table is None:
        return s.message(request, user, 404, "not_found")
    try:
        form = await _form(s, request, user)
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
        return _refusal(s, request, user, e, "table.html", table=table, BOT_DEFAULT=DEFAULT_BOT,
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
        await _form(s, request, user)
        if len(gid) > 32 or not TOKEN.fullmatch(gid):
            raise ServerError("unknown_game", "no such game", status=404)
        tid, made = await s.tables.rematch_made(gid, user["id"])
    except ServerError as e:
        return _refusal(s, request, user, e, "message.html", message_key="err_" + e.code)
    if made and s.play is not None:   # the other players hear of it: live, and by their settings
        account = user.get("account") or {}
        await s.play.tell_rematch(gid, tid, user["id"], str(account.get("user_name") or user.get("name") or ""))
    return RedirectResponse(f"/tables/{tid}", status_code=303)

