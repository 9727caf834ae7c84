"""What the routers share: `Site` (the game service, rate limits, CSRF key, templates, and the
request helpers every page needs), and the JSON refusal envelope."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlencode

from fastapi import Depends, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ValidationError

from pax_hispanica.web.http import security
from pax_hispanica.web.http.ratelimit import RateLimited, RateLimits
from pax_hispanica.web.play.model import LiveGame, Rights, ServerError
from pax_hispanica.web.play.service import Service
from pax_hispanica.web.present.i18n import LANGS, Tr

if TYPE_CHECKING:   # turn_based imports the routes' models, which import this module
    from pax_hispanica.web.play.turn_based import Play

COOKIE = "paxh_user"
LANG_COOKIE = "paxh_lang"   # the user's language, for pages answered without the user (errors)
COOKIE_AGE = 3600 * 24 * 365 * 5
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")   # secrets.token_urlsafe; anything else opens nothing
NAME_PATTERN = r"^[^\x00-\x1f\x7f]*$"           # no control characters (PostgreSQL refuses NUL in text)


def error_response(e: ServerError, headers: dict[str, Any] | None = None) -> JSONResponse:
    """A refusal as the API's envelope {"error": {"code", "rule", "message"}}."""
    if isinstance(e, RateLimited):
        headers = {**(headers or {}), "Retry-After": str(e.retry_after)}
    return JSONResponse({"error": e.as_dict()}, status_code=e.status, headers=headers)


def error_frame(e: ServerError, msg_id: Any = None) -> dict[str, Any]:
    """A refusal on a WebSocket: the API's error fields in a frame of type "error"."""
    return {"type": "error", "id": msg_id, **e.as_dict()}


def validation_message(errors: Sequence[Any]) -> str:
    return "; ".join(f"{'.'.join(map(str, x.get('loc', ())))}: {x.get('msg', '')}" for x in errors)[:500]


def is_api(path: str) -> bool:
    return path.startswith("/api/") or path == "/api"


def preferred_lang(header: str) -> str:
    """The first of our languages in an Accept-Language header (English if none)."""
    for part in header.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return "en"


def client_address(conn: Request | WebSocket) -> str | None:
    return conn.client.host if conn.client else None


def cookie_user(conn: Request | WebSocket) -> str | None:
    uid = conn.cookies.get(COOKIE)
    return uid if uid and TOKEN.fullmatch(uid) else None


def site(conn: Request | WebSocket) -> Site:
    """The app's Site (create_app puts it on app.state)."""
    ret: Site = conn.app.state.site
    return ret


@dataclass
class Site:
    """The services and settings behind the routes, and the request helpers they share."""

    svc: Service
    limits: RateLimits
    csrf: security.Csrf
    templates: Jinja2Templates
    accounts: Any = None    # accounts.Accounts, tables.Tables, ratings.Ratings (issue 16)
    tables: Any = None
    ratings: Any = None
    play: Play | None = None   # turn-based play: clocks, chat, the outbox (create_app)

    @property
    def turn_based(self) -> Play:
        """`play`, for the routes that need it (create_app always sets it up)."""
        assert self.play is not None, "create_app sets up turn-based play"
        return self.play

    async def resolve(self, token: str) -> Rights:
        """svc.resolve, for strings that can be tokens at all (a NUL or 10 KB link is unknown, not a
        database error)."""
        if not TOKEN.fullmatch(token):
            raise ServerError("unknown_token", "no game has this link", status=404)
        return await self.svc.resolve(token)

    async def game_for(self, token: str) -> tuple[Rights, LiveGame]:
        """What a link opens and its live game (ServerError for an unknown link or a damaged game)."""
        rights = await self.resolve(token)
        return rights, await self.svc.get(rights.game_id)

    def request_lang(self, request: Request) -> str:
        """The language for a page when the user is not at hand (errors): ?lang, else the user's
        language as last stored (the paxh_lang cookie), else Accept-Language."""
        for lang in (request.query_params.get("lang"), request.cookies.get(LANG_COOKIE)):
            if lang in LANGS:
                return lang
        return preferred_lang(request.headers.get("accept-language", ""))

    def error_page(self, request: Request, status: int, key: str, lang: str | None = None) -> HTMLResponse:
        lang = lang or self.request_lang(request)
        return self.templates.TemplateResponse(request, "message.html", {"t": Tr(lang), "lang": lang, "user": {},
                                                                         "message_key": key}, status_code=status)

    async def current_user(self, request: Request) -> dict[str, Any]:
        user = await self.svc.user(cookie_user(request))
        if self.accounts is not None:   # a logged-in browser is its account's user
            user = await self.accounts_user(request, user)
        lang = request.query_params.get("lang")
        if lang is None and user.get("new"):  # a new browser starts in the language it prefers
            lang = preferred_lang(request.headers.get("accept-language", ""))
        if lang in LANGS and lang != user["lang"]:
            await self.svc.set_user(user["id"], lang=lang)
            user["lang"] = lang
        return user

    async def accounts_user(self, request: Request, anon: dict[str, Any]) -> dict[str, Any]:
        """The account's user when the session cookie is a live session, else the anonymous one;
        either way with its CSRF key (the session when logged in, else the anonymous user id)."""
        from pax_hispanica.web.accounts.service import SESSION_COOKIE, digest

        token = request.cookies.get(SESSION_COOKIE)
        found = await self.accounts.session_account(token)
        if found is None:
            return {**anon, "account": None, "csrf_key": anon["id"]}
        user, acct = found
        return {**user, "new": anon.get("new", False), "anon_id": anon["id"], "account": acct,
                "csrf_key": "s:" + digest(token or "")}

    def csrf_token(self, user: dict[str, Any]) -> str:
        return self.csrf.token(user.get("csrf_key") or user["id"])

    def csrf_ok(self, user: dict[str, Any], token: object) -> bool:
        return self.csrf.ok(user.get("csrf_key") or user["id"], token)

    @staticmethod
    def remember_user(request: Request, resp: Response, user: dict[str, Any]) -> Response:
        """A new browser's user id goes into its cookie (its anonymous one, also when logged in);
        Secure over https, like the session's (issue 37: it names the browser's seats)."""
        if user.get("new"):
            resp.set_cookie(COOKIE, user.get("anon_id", user["id"]), max_age=COOKIE_AGE, httponly=True,
                            samesite="lax", secure=request.url.scheme == "https")
        return resp

    def page(self, request: Request, user: dict[str, Any], name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        tr = ctx.pop("tr", None) or Tr(user["lang"])
        base = {"t": tr, "lang": user["lang"], "user": user}
        if user.get("account"):   # the header's Log out (base.html)
            base["nav_csrf"] = self.csrf_token(user)
        resp = self.templates.TemplateResponse(request, name, {**base, **ctx},
                                               status_code=status)
        self.remember_user(request, resp, user)
        return resp

    def message(self, request: Request, user: dict[str, Any], status: int, key: str) -> HTMLResponse:
        return self.page(request, user, "message.html", status=status, message_key=key)

    async def lang_switch(self, request: Request) -> Response | None:
        """A page opened with ?lang=en|ca (the EN/CA links): store the language on the user and
        answer with a redirect to the same page without it, so the history holds no ?lang
        addresses and going Back never switches the language again (issue 14)."""
        if request.query_params.get("lang") not in LANGS:
            return None
        user = await self.current_user(request)   # stores the language
        rest = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
        resp = RedirectResponse(request.url.path + (f"?{urlencode(rest)}" if rest else ""), status_code=303)
        self.remember_user(request, resp, user)
        resp.set_cookie(LANG_COOKIE, user["lang"], max_age=COOKIE_AGE, httponly=True, samesite="lax")
        return resp


# ---------------------------------------------------------------------- the page prelude
class Answer(Exception):
    """A page's answer decided before its handler's own work (the ?lang redirect, "log in
    first", an unknown link's 404 page); errors.install answers with its response."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response


@dataclass
class Visit:
    """What every page handler starts from: the site and the browser's user (its language
    stored first when the page came with ?lang)."""

    site: Site
    user: dict[str, Any]
    request: Request

    async def rights(self, token: str, roles: tuple[str, ...] | None = None) -> Rights:
        """What a link opens; an unknown link (or one of another role) is the 404 page."""
        try:
            rights = await self.site.resolve(token)
        except ServerError:
            raise Answer(self.site.message(self.request, self.user, 404, "not_found")) from None
        if roles is not None and rights.role not in roles:
            raise Answer(self.site.message(self.request, self.user, 404, "not_found"))
        return rights


def login_first(request: Request) -> Response:
    return RedirectResponse("/login?next=" + request.url.path, status_code=303)


async def visit(request: Request, switch: bool = True, login: bool = False) -> Visit:
    """The prelude of a page: the ?lang switch (a GET page answers with its redirect), the
    current user, and for account pages "log in first"."""
    s = site(request)
    if switch and (switched := await s.lang_switch(request)) is not None:
        raise Answer(switched)
    user = await s.current_user(request)
    if login and user.get("account") is None:
        raise Answer(login_first(request))
    return Visit(s, user, request)


async def _page_visit(request: Request) -> Visit:
    return await visit(request)


async def _form_visit(request: Request) -> Visit:
    return await visit(request, switch=False)


async def _member_page(request: Request) -> Visit:
    return await visit(request, login=True)


async def _member_form(request: Request) -> Visit:
    return await visit(request, switch=False, login=True)


# handler parameters: `v: PageVisit` (GET pages), `FormVisit` (posts and links that keep
# ?lang), `MemberPage`/`MemberForm` (the same, logged in or redirected to /login)
PageVisit = Annotated[Visit, Depends(_page_visit)]
FormVisit = Annotated[Visit, Depends(_form_visit)]
MemberPage = Annotated[Visit, Depends(_member_page)]
MemberForm = Annotated[Visit, Depends(_member_form)]


async def json_body(request: Request, model: type[BaseModel]) -> Any:
    """A JSON request body checked like every body (bounded depth and size), then validated by
    `model` (a refusal: "malformed", naming the fields)."""
    raw = await request.body()
    security.parse_json(raw or b"{}")     # bounded depth and size, as every body
    try:
        return model.model_validate_json(raw or b"{}")
    except ValidationError as e:
        raise ServerError("malformed", validation_message(e.errors(include_url=False))) from None
