"""The web game: FastAPI app (lobby, game pages, JSON API, WebSockets).

    run(host, port, database_url, data_dir)   # blocking; `paxh serve` calls this
    create_app(database_url) -> FastAPI        # for tests

Every connection sees only its own view (api.view / api.redact); every action
goes through games.Service.act (lock, version check, engine check, stored
before acknowledged). What a hostile client can send is refused before it
costs anything (security.py: body size, JSON depth, origin, CSRF, headers;
ratelimit.py: per-address limits); every refusal is the JSON envelope
{"error": {"code", "rule", "message"}} or a page in the user's language.
"""
from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import re
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.engine import make_url
from starlette.exceptions import HTTPException as StarletteHTTPException

from . import db, render, security
from .games import LiveGame, Rights, ServerError, Service
from .i18n import LANGS, Tr, rule_pages
from .info import rule_titles
from .ratelimit import RateLimited, RateLimits
from .seam import BOT_KINDS, DEFAULT_BOT, SEARCH_BOTS

log = logging.getLogger("pax_hispanica.web")
HERE = Path(__file__).parent
COOKIE = "paxh_user"
LANG_COOKIE = "paxh_lang"   # the user's language, for pages answered without the user (errors)
MAX_MESSAGE = security.MAX_BODY   # a WebSocket message, like a request body
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")   # secrets.token_urlsafe; anything else opens nothing
NAME_PATTERN = r"^[^\x00-\x1f\x7f]*$"           # no control characters (PostgreSQL refuses NUL in text)
HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large", 400: "malformed",
              415: "malformed", 422: "malformed"}


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    kind: str = Field("human", pattern="^(human|bot)$")
    bot_kind: str | None = Field(None, pattern=f"^({'|'.join(BOT_KINDS)})$")
    bot_strength: int | None = Field(None, ge=1, le=3)
    name: str = Field("", max_length=40, pattern=NAME_PATTERN)


class GameIn(BaseModel):
    """POST /api/games. No `seed`: the server draws every seed itself (PRJ-1: a
    seed a client chose, or could guess, would reveal every shuffle and salt).
    Unknown fields are refused rather than ignored, and types are strict (no
    "2" for 2)."""
    model_config = ConfigDict(extra="forbid", strict=True)

    players: int = Field(..., ge=2, le=5)
    seats: list[SeatIn] = Field(..., max_length=5)
    nations: list[str] | None = Field(None, max_length=5)
    mode: str = Field("online", pattern="^(online|hotseat)$")
    params: dict[str, int | str] | None = Field(None, max_length=100)  # a variant (PRJ-31): numbers by name


class ActIn(BaseModel):
    """POST /api/act/{token} (documented for the schema; the engine checks the action)."""
    version: int
    action: dict[str, Any]


class SeatBotIn(BaseModel):
    """POST /api/seat/{token}/bot."""
    seat: int | None = None
    bot_kind: str = DEFAULT_BOT


def _inline_schema(model: type[BaseModel]) -> dict:
    """The model's JSON schema with its $defs inlined (for openapi_extra, which
    does not register them as components)."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def walk(x: Any) -> Any:
        if isinstance(x, dict):
            if "$ref" in x and x["$ref"].startswith("#/$defs/"):
                return walk(defs[x["$ref"].split("/")[-1]])
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v) for v in x]
        return x

    return walk(schema)


def _body_doc(model: type[BaseModel], required: bool = True) -> dict:
    return {"requestBody": {"required": required,
                            "content": {"application/json": {"schema": _inline_schema(model)}}}}


def parse_variant(text: str) -> dict:
    """The lobby's variant field, "conquistador_prestige=2, cycles=3" -> {name: value}; the
    engine checks names and values when the game is set up (PRJ-31)."""
    out: dict = {}
    for item in (x.strip() for x in text.replace(";", ",").split(",")):
        if not item:
            continue
        if "=" not in item:
            raise ServerError("malformed", f"variant: {item!r} is not NAME=VALUE")
        k, v = (x.strip() for x in item.split("=", 1))
        out[k] = int(v) if v.lstrip("-").isdigit() else v
    return out


def _preferred_lang(header: str) -> str:
    """The first of our languages in an Accept-Language header (English if none)."""
    for part in header.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return "en"


def _error(e: ServerError, headers: dict | None = None) -> JSONResponse:
    if isinstance(e, RateLimited):
        headers = {**(headers or {}), "Retry-After": str(e.retry_after)}
    return JSONResponse({"error": e.as_dict()}, status_code=e.status, headers=headers)


def _error_frame(e: ServerError, msg_id: Any = None) -> dict:
    """A refusal on a WebSocket: the API's error fields in a frame of type "error"."""
    return {"type": "error", "id": msg_id, **e.as_dict()}


def _is_api(path: str) -> bool:
    return path.startswith("/api/") or path == "/api"


def _validation_message(errors: list) -> str:
    return "; ".join(f"{'.'.join(map(str, x.get('loc', ())))}: {x.get('msg', '')}" for x in errors)[:500]


def _malformed(message: str) -> JSONResponse:
    return _error(ServerError("malformed", message))


class Conn:
    """One WebSocket: its rights, language, format, and (hot-seat) who is shown.

    Updates are full pictures of the game, so they are coalesced: `push` only marks
    the connection dirty and a writer task renders and sends the latest state. A
    slow client never holds up the player who acted, and is never sent more than
    one stale picture."""

    def __init__(self, ws: WebSocket, rights: Rights, lang: str, fmt: str, with_view: bool = True) -> None:
        self.ws, self.rights, self.lang, self.fmt, self.with_view = ws, rights, lang, fmt, with_view
        self.shown: int | None = None
        self.send_lock = asyncio.Lock()
        self.last_seq_sent: int | None = None  # JSON clients: the last event sent
        self.closed = False
        self.dirty = asyncio.Event()
        self.live: LiveGame | None = None
        self.last_html: dict | None = None   # the board last sent (HTML clients): updates send what changed
        self.writer = asyncio.create_task(self._write_updates())

    def viewer(self, live: LiveGame) -> tuple[int | None, int | None]:
        """(seat whose view is shown, seat waiting behind a pass-the-device screen)."""
        if self.rights.role in ("seat", "bot"):
            (seat,) = self.rights.seats
            return seat, None
        if self.rights.role != "table":
            return None, None
        nxt = render.next_human(live, self.rights.seats)
        if self.shown is not None and self.shown != nxt:
            self.shown = None
        if self.shown is None:
            return None, nxt
        return self.shown, None

    async def send(self, msg: dict) -> None:
        if self.closed:
            return
        async with self.send_lock:
            try:
                await self.ws.send_text(json.dumps(msg, default=str))
            except Exception:
                self.closed = True

    async def push(self, live: LiveGame) -> None:
        """The game changed: send this connection its new picture soon (never blocks)."""
        self.live = live
        self.dirty.set()

    async def flush(self) -> None:
        """Send the pending picture now (before acknowledging this connection's own action)."""
        if self.dirty.is_set() and self.live is not None:
            self.dirty.clear()
            await self.send(self.update(self.live))

    async def _write_updates(self) -> None:
        while not self.closed:
            await self.dirty.wait()
            await self.flush()

    def update(self, live: LiveGame) -> dict:
        viewer, waiting = self.viewer(live)
        if self.fmt == "json":
            # the first update carries the last 50 events, then only the new ones
            msg = render.json_update(live, viewer, with_view=self.with_view, since_seq=self.last_seq_sent)
            if msg["events"]:
                self.last_seq_sent = msg["events"][-1].get("seq", 0)
            elif self.last_seq_sent is None:
                self.last_seq_sent = 0
            return msg
        full = render.html_update(live, viewer, waiting, self.rights.role, self.lang)
        msg = render.html_message(full, self.last_html)
        self.last_html = full
        return msg

    def close(self) -> None:
        self.closed = True
        self.writer.cancel()


def create_app(database_url: str | None = None, data_dir: str = "data", bot_delay: float | None = None,
               rate_limits: dict[str, str | None] | None = None, secret: str | None = None,
               api_docs: bool | None = None) -> FastAPI:
    """rate_limits: {"create": "30/minute", "act": "20/second"} overrides PAXH_RATE_* ("0" = off);
    secret: the CSRF key (PAXH_SECRET); api_docs: serve /api/docs (PAXH_API_DOCS=1; off by default,
    since Swagger UI loads its script from a CDN that the CSP refuses)."""
    url = database_url or os.environ.get("PAXH_DATABASE_URL") or db.default_url(data_dir)
    db.migrate(url)
    if bot_delay is None:
        bot_delay = float(os.environ.get("PAXH_BOT_DELAY", "0.4"))
    if api_docs is None:
        api_docs = os.environ.get("PAXH_API_DOCS", "") not in ("", "0", "off")
    svc = Service(url, bot_delay=bot_delay)
    limits = RateLimits(rate_limits)
    csrf = security.Csrf(secret)

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # noqa: ANN202
        await svc.start()
        yield
        await svc.close()

    app = FastAPI(title="Pax Hispanica", lifespan=lifespan, docs_url="/api/docs" if api_docs else None,
                  redoc_url=None)
    app.state.svc = svc
    app.state.rate_limits = limits
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(env=render.env)
    render.env.globals["BOT_KINDS"] = (DEFAULT_BOT, *(k for k in BOT_KINDS if k != DEFAULT_BOT))
    render.env.globals["SEARCH_BOTS"] = SEARCH_BOTS
    # the last added runs first: headers on every answer, then the size limit, then the origin check
    app.add_middleware(security.OriginGuard)
    app.add_middleware(security.BodyLimit)
    app.add_middleware(security.SecurityHeaders)

    def client_address(conn: Request | WebSocket) -> str | None:
        return conn.client.host if conn.client else None

    def request_lang(request: Request) -> str:
        """The language for a page when the user is not at hand (errors): ?lang, else the user's
        language as last stored (the paxh_lang cookie), else Accept-Language."""
        for lang in (request.query_params.get("lang"), request.cookies.get(LANG_COOKIE)):
            if lang in LANGS:
                return lang
        return _preferred_lang(request.headers.get("accept-language", ""))

    def error_page(request: Request, status: int, key: str, lang: str | None = None) -> HTMLResponse:
        lang = lang or request_lang(request)
        resp = templates.TemplateResponse(request, "message.html", {"t": Tr(lang), "lang": lang, "user": {},
                                                                    "message_key": key}, status_code=status)
        return resp

    # ----------------------------------------------------------------- refusals
    # FastAPI's own refusals (unknown path, wrong method, bad path/query parameter) in our
    # envelope for the API, as a page in the user's language otherwise; anything unexpected is
    # logged and answered "internal" -- never a stack trace.
    @app.exception_handler(StarletteHTTPException)
    async def http_refusal(request: Request, exc: StarletteHTTPException) -> Response:
        code = HTTP_CODES.get(exc.status_code, "refused")
        if _is_api(request.url.path) or exc.status_code == 413:
            detail = exc.detail if isinstance(exc.detail, str) else code
            return _error(ServerError(code, detail, status=exc.status_code), getattr(exc, "headers", None))
        return error_page(request, exc.status_code, {404: "page_not_found"}.get(exc.status_code, "bad_request"))

    @app.exception_handler(RequestValidationError)
    async def validation_refusal(request: Request, exc: RequestValidationError) -> Response:
        if _is_api(request.url.path):
            return _malformed(_validation_message(exc.errors()))
        return error_page(request, 400, "bad_request")

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> Response:
        # Starlette's ServerErrorMiddleware calls this outside the other middlewares, so the
        # security headers are added here.
        log.exception("internal error on %s %s", request.method, request.url.path)
        if _is_api(request.url.path):
            resp: Response = _error(ServerError("internal", "the server failed on this request; it is logged",
                                                status=500))
        else:
            try:
                resp = error_page(request, 500, "internal_error")
            except Exception:  # noqa: BLE001 - the error page itself failed: plain text
                resp = Response("internal error", status_code=500, media_type="text/plain")
        for k, v in security.SecurityHeaders(app).common:
            resp.headers[k.decode()] = v.decode()
        resp.headers["cache-control"] = "no-store"
        return resp

    async def resolve(token: str) -> Rights:
        """svc.resolve, for strings that can be tokens at all (a NUL or 10 KB link is unknown, not a
        database error)."""
        if not TOKEN.fullmatch(token):
            raise ServerError("unknown_token", "no game has this link", status=404)
        return await svc.resolve(token)

    def cookie_user(conn: Request | WebSocket) -> str | None:
        uid = conn.cookies.get(COOKIE)
        return uid if uid and TOKEN.fullmatch(uid) else None

    async def current_user(request: Request) -> dict:
        user = await svc.user(cookie_user(request))
        lang = request.query_params.get("lang")
        if lang is None and user.get("new"):  # a new browser starts in the language it prefers
            lang = _preferred_lang(request.headers.get("accept-language", ""))
        if lang in LANGS and lang != user["lang"]:
            await svc.set_user(user["id"], lang=lang)
            user["lang"] = lang
        return user

    def page(request: Request, user: dict, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        tr = ctx.pop("tr", None) or Tr(user["lang"])
        resp = templates.TemplateResponse(request, name, {"t": tr, "lang": user["lang"], "user": user, **ctx},
                                          status_code=status)
        if user.get("new"):
            resp.set_cookie(COOKIE, user["id"], max_age=3600 * 24 * 365 * 5, httponly=True, samesite="lax")
        return resp

    async def lang_switch(request: Request) -> Response | None:
        """A page opened with ?lang=en|ca (the EN/CA links): store the language on the user and
        answer with a redirect to the same page without it, so the history holds no ?lang
        addresses and going Back never switches the language again (issue 14)."""
        if request.query_params.get("lang") not in LANGS:
            return None
        user = await current_user(request)   # stores the language
        rest = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
        resp = RedirectResponse(request.url.path + (f"?{urlencode(rest)}" if rest else ""), status_code=303)
        if user.get("new"):
            resp.set_cookie(COOKIE, user["id"], max_age=3600 * 24 * 365 * 5, httponly=True, samesite="lax")
        resp.set_cookie(LANG_COOKIE, user["lang"], max_age=3600 * 24 * 365 * 5, httponly=True, samesite="lax")
        return resp

    @app.exception_handler(ServerError)
    async def refused(request: Request, e: ServerError) -> Response:
        """A refusal no endpoint caught (a page opening a damaged game): JSON under /api,
        else a page in the user's language, never a bare 500."""
        if request.url.path.startswith("/api/"):
            return _error(e)
        user = await current_user(request)
        key = e.code if e.code in ("damaged_game",) else "not_found"
        return page(request, user, "message.html", status=e.status, message_key=key)

    # ----------------------------------------------------------------- pages
    @app.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> Response:
        if (switched := await lang_switch(request)) is not None:
            return switched
        user = await current_user(request)
        games = await svc.games_of(user["id"])
        return page(request, user, "lobby.html", games=games, csrf=csrf.token(user["id"]))

    @app.post("/games")
    async def create_from_form(request: Request) -> Response:
        user = await current_user(request)

        async def refuse(status: int, key: str, headers: dict | None = None, text: str | None = None) -> Response:
            games = await svc.games_of(user["id"])
            resp = page(request, user, "lobby.html", status=status, games=games, csrf=csrf.token(user["id"]),
                        error=text or Tr(user["lang"])(key))
            resp.headers.update(headers or {})
            return resp

        # another site's page cannot post this form for the user: its Origin is foreign, and it
        # cannot know the token (an HMAC of the user id, which sits in an HttpOnly cookie)
        if security.foreign_origin(request.scope, security.allowed_origins()) is not None:
            return await refuse(403, "cross_origin")
        try:
            form = await request.form()
        except Exception:  # noqa: BLE001 - python-multipart's refusals (bad boundary, too many fields)
            return await refuse(400, "bad_request")
        if not csrf.ok(user["id"], form.get("csrf")):
            return await refuse(403, "csrf_refused")
        try:
            limits.check("create", client_address(request))
        except RateLimited as e:
            return await refuse(429, "rate_limited", {"Retry-After": str(e.retry_after)})
        try:
            players = int(str(form.get("players", "0")))
            if not 2 <= players <= 5:
                raise ServerError("malformed", "a game has 2 to 5 players")
            seats, nations = [], []
            for i in range(players):
                kind = str(form.get(f"kind{i}", "human"))
                seats.append({"kind": kind if kind in ("human", "bot") else "human",
                              "bot_kind": str(form.get(f"bot{i}", DEFAULT_BOT)) if kind == "bot" else None,
                              "bot_strength": int(str(form.get(f"strength{i}", "2"))) if kind == "bot" else None,
                              "name": re.sub(r"[\x00-\x1f\x7f]", "", str(form.get(f"name{i}", "")))[:40]})
                nations.append(str(form.get(f"nation{i}", "")))
            if any(nations) and not all(nations):
                raise ServerError("malformed", "choose a nation for every seat, or for none")
            chosen = nations if all(nations) else None
            mode = str(form.get("mode", "online"))
            params = parse_variant(str(form.get("variant", ""))[:500])
            live = await svc.create_game(players, seats, chosen, mode=mode, host_user=user["id"], params=params)
        except (ValueError, ServerError) as e:
            return await refuse(400, "bad_request", text=e.message if isinstance(e, ServerError) else str(e))
        # the creator lands in their seat (online, first seat a person's), the links one click away
        first = live.seats[0] if live.seats else None
        target = f"/play/{first.token}" if live.mode == "online" and first is not None and first.kind == "human" \
            and first.user_id == user["id"] else f"/host/{live.host_token}"
        resp = RedirectResponse(target, status_code=303)
        if user.get("new"):
            resp.set_cookie(COOKIE, user["id"], max_age=3600 * 24 * 365 * 5, httponly=True, samesite="lax")
        return resp

    @app.get("/host/{token}", response_class=HTMLResponse)
    async def host_page(request: Request, token: str) -> Response:
        if (switched := await lang_switch(request)) is not None:
            return switched
        user = await current_user(request)
        try:
            rights = await resolve(token)
        except ServerError:
            return page(request, user, "message.html", status=404, message_key="not_found")
        if rights.role not in ("host", "table"):
            return page(request, user, "message.html", status=404, message_key="not_found")
        live = await svc.get(rights.game_id)
        tr = render.translator(live, user["lang"])
        return page(request, user, "host.html", tr=tr, live=live, base=str(request.base_url).rstrip("/"),
                    names=render.seat_names(live, user["lang"]))

    @app.get("/play/{token}", response_class=HTMLResponse)
    async def play_page(request: Request, token: str) -> Response:
        return await game_page(request, token)

    @app.get("/watch/{token}", response_class=HTMLResponse)
    async def watch_page(request: Request, token: str) -> Response:
        return await game_page(request, token)

    async def game_page(request: Request, token: str) -> Response:
        if (switched := await lang_switch(request)) is not None:
            return switched
        user = await current_user(request)
        try:
            rights = await resolve(token)
        except ServerError:
            return page(request, user, "message.html", status=404, message_key="not_found")
        await svc.claim_seat(rights, user["id"])
        live = await svc.get(rights.game_id)
        await svc.refresh_presence(live)
        seat = next(iter(rights.seats)) if rights.role == "seat" else None
        waiting = render.next_human(live, rights.seats) if rights.role == "table" else None
        update = render.html_update(live, seat, waiting, rights.role, user["lang"])
        tr = render.translator(live, user["lang"])
        svc.kick_bots(live)
        host_token = live.host_token if live.host_user is not None and live.host_user == user["id"] else None
        return page(request, user, "game.html", tr=tr, live=live, token=token, role=rights.role, seat=seat,
                    update=update, host_token=host_token)

    @app.get("/replay/{token}", response_class=HTMLResponse)
    async def replay_page(request: Request, token: str, step: str | None = None) -> Response:
        if (switched := await lang_switch(request)) is not None:
            return switched
        user = await current_user(request)
        if step is not None and not (step.isdigit() and len(step) <= 9):  # no int() of a 10,000-digit string
            return page(request, user, "message.html", status=400, message_key="bad_step")
        try:
            rights = await resolve(token)
        except ServerError:
            return page(request, user, "message.html", status=404, message_key="not_found")
        live = await svc.get(rights.game_id)
        if not live.over:
            return page(request, user, "message.html", status=403, message_key="replay_locked")
        total = live.version
        step = total if step is None else max(0, min(int(step), total))
        ctx = await asyncio.to_thread(render.replay_context, live, step, user["lang"])
        return page(request, user, "replay.html", tr=ctx["tr"], live=live, token=token, step=step, total=total,
                    **{k: v for k, v in ctx.items() if k != "tr"})

    @app.get("/rules", response_class=HTMLResponse)
    async def rules_page(request: Request) -> Response:
        if (switched := await lang_switch(request)) is not None:
            return switched
        user = await current_user(request)
        return page(request, user, "rules.html", paragraphs=rule_pages(user["lang"]), titles=rule_titles(),
                    rule=request.query_params.get("rule", ""))

    @app.get("/favicon.ico")
    async def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/healthz")
    async def healthz() -> dict:
        return {"ok": True}

    # ----------------------------------------------------------------- JSON API
    @app.post("/api/games", openapi_extra=_body_doc(GameIn))
    async def api_create(request: Request) -> JSONResponse:
        try:
            raw = await request.body()
            data = security.parse_json(raw)
            if isinstance(data, dict) and "seed" in data:
                raise ServerError("seed_not_allowed", "the server draws every game's seed; a client may not "
                                  "choose it (it is published when the game ends)", rule="PRJ-1")
            try:
                body = GameIn.model_validate_json(raw)
            except ValidationError as e:
                raise ServerError("malformed", _validation_message(e.errors())) from None
            limits.check("create", client_address(request))
            uid = cookie_user(request)  # a browser's user, so the game shows in its list
            live = await svc.create_game(body.players, [s.model_dump() for s in body.seats], body.nations,
                                         mode=body.mode, host_user=uid, params=body.params)
        except ServerError as e:
            return _error(e)
        return JSONResponse({
            "game": live.id, "version": live.version, "host": live.host_token, "spectator": live.spectator_token,
            "seats": [{"seat": s.seat, "kind": s.kind, "bot_kind": s.bot_kind,
                       "token": s.token if s.kind == "human" else None} for s in live.seats]})

    @app.get("/api/view/{token}")
    async def api_view(token: str) -> JSONResponse:
        try:
            rights = await resolve(token)
            live = await svc.get(rights.game_id)
        except ServerError as e:
            return _error(e)
        seat = next(iter(rights.seats)) if rights.role == "seat" else None
        return JSONResponse(json.loads(json.dumps(render.json_update(live, seat, full_log=True), default=str)))

    @app.post("/api/act/{token}", openapi_extra=_body_doc(ActIn))
    async def api_act(request: Request, token: str) -> JSONResponse:
        try:
            body = security.parse_json(await request.body())
            if not isinstance(body, dict):
                raise ServerError("malformed", "the body is a JSON object {version, action}")
            limits.check("act", client_address(request))
            rights = await resolve(token)
            live = await svc.act(rights, body.get("action"), body.get("version"))
        except ServerError as e:
            return _error(e)
        return JSONResponse({"ok": True, "version": live.version})

    @app.post("/api/seat/{token}/bot", openapi_extra=_body_doc(SeatBotIn, required=False))
    async def api_seat_bot(request: Request, token: str) -> JSONResponse:
        try:
            body = security.parse_json(await request.body() or b"{}")
            if not isinstance(body, dict):
                raise ServerError("malformed", "the body is a JSON object {seat, bot_kind}")
            limits.check("act", client_address(request))
            rights = await resolve(token)
            seat = body.get("seat", next(iter(rights.seats)) if rights.role == "seat" else None)
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise ServerError("malformed", "which seat?")
            live = await svc.seat_to_bot(rights, seat, str(body.get("bot_kind", DEFAULT_BOT)))
        except ServerError as e:
            return _error(e)
        return JSONResponse({"ok": True, "seats": [{"seat": s.seat, "kind": s.kind} for s in live.seats]})

    @app.get("/api/record/{token}")
    async def api_record(token: str) -> JSONResponse:
        try:
            rights = await resolve(token)
            live = await svc.get(rights.game_id)
        except ServerError as e:
            return _error(e)
        if not live.over:
            return _error(ServerError("game_not_over", "the record (with its seed) is shown when the game is over",
                                      "HID-1", status=403))
        return JSONResponse(json.loads(json.dumps(live.record, default=str)))

    # ----------------------------------------------------------------- WebSockets
    @app.websocket("/ws/echo")
    async def ws_echo(ws: WebSocket) -> None:
        await ws.accept()
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
            if msg.get("text") is None:
                await ws.send_text(json.dumps(_error_frame(ServerError("malformed", "send text frames"))))
            else:
                await ws.send_text(msg["text"][:MAX_MESSAGE])

    @app.websocket("/ws/{token}")
    async def ws_game(ws: WebSocket, token: str) -> None:
        await ws.accept()
        try:
            rights = await resolve(token)
            live = await svc.get(rights.game_id)
        except ServerError as e:
            await ws.send_text(json.dumps(_error_frame(e)))
            await ws.close(code=4404)
            return
        lang = "en"
        uid = cookie_user(ws)
        if uid:
            lang = (await svc.user(uid)).get("lang", "en")
        if ws.query_params.get("lang") in LANGS:
            lang = ws.query_params["lang"]
        fmt = "json" if ws.query_params.get("fmt") == "json" else "html"
        conn = Conn(ws, rights, lang, fmt, with_view=ws.query_params.get("view") != "0")
        played = sorted(rights.seats) if rights.role in ("seat", "table") else []
        for seat in played:  # the others see this player is here (again)
            await svc.seat_connected(live, seat, +1)
        live.listeners.add(conn.push)
        try:
            await conn.push(live)
            await conn.flush()
            svc.kick_bots(live)
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:  # a binary frame: say so, keep the connection
                    await conn.send(_error_frame(ServerError("malformed",
                                                             "messages are JSON text frames, not binary")))
                    continue
                await handle_message(conn, live, text, client_address(ws))
        except WebSocketDisconnect:
            pass
        finally:
            conn.close()
            live.listeners.discard(conn.push)

            async def gone() -> None:
                for seat in played:
                    await svc.seat_connected(live, seat, -1)
            # shielded: a handler cancelled here (server shutdown, the test client) must not cut a
            # database write in half (aiosqlite then leaves a connection that never closes)
            await asyncio.shield(gone())

    async def handle_message(conn: Conn, live: LiveGame, text: str, address: str | None = None) -> None:
        msg_id = None
        try:
            if len(text) > MAX_MESSAGE:
                raise ServerError("too_large", f"messages are at most {MAX_MESSAGE} bytes", status=413)
            msg = security.parse_json(text, "the message")
            if not isinstance(msg, dict):
                raise ServerError("malformed", "messages are JSON objects")
            msg_id = msg.get("id") if isinstance(msg.get("id"), (int, str)) else None
            kind = msg.get("type")
            if kind in ("act", "leave", "takeover"):
                limits.check("act", address)
            if kind == "act":
                live = await svc.act(conn.rights, msg.get("action"), msg.get("version"))
                await conn.flush()  # the new picture first, then the ack
                await conn.send({"type": "ack", "id": msg_id, "version": live.version})
            elif kind == "reveal":
                if conn.rights.role != "table":
                    raise ServerError("wrong_seat", "only a hot-seat table passes the device")
                conn.shown = render.next_human(live, conn.rights.seats)
                await conn.push(live)
                await conn.flush()
                await conn.send({"type": "ack", "id": msg_id, "version": live.version})
            elif kind == "refresh":
                conn.last_html = None   # the whole board again
                await conn.push(live)
                await conn.flush()
            elif kind == "ping":
                await conn.send({"type": "pong", "id": msg_id})
            elif kind == "leave":
                if conn.rights.role != "seat":
                    raise ServerError("wrong_seat", "only a seated player can leave")
                (seat,) = conn.rights.seats
                live = await svc.seat_to_bot(conn.rights, seat)
                await conn.flush()  # the page shows the seat as a bot's, then the ack
                await conn.send({"type": "ack", "id": msg_id, "version": live.version})
            elif kind == "takeover":  # hand a seat whose player has left to a bot
                seat = msg.get("seat")
                if not isinstance(seat, int) or isinstance(seat, bool):
                    raise ServerError("malformed", "which seat?")
                live = await svc.seat_to_bot(conn.rights, seat)
                await conn.flush()
                await conn.send({"type": "ack", "id": msg_id, "version": live.version})
            else:
                raise ServerError("malformed", "unknown message type: use act, reveal, refresh, ping, leave or takeover")
        except ServerError as e:
            await conn.send(_error_frame(e, msg_id))

    return app


def run(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None, data_dir: str = "data") -> None:
    """Serve the web game (blocking)."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    url = database_url or os.environ.get("PAXH_DATABASE_URL") or db.default_url(data_dir)
    app = create_app(url, data_dir=data_dir)
    shown = make_url(url).render_as_string(hide_password=True)
    log.info("Pax Hispanica at http://%s:%s (database %s)", host, port, shown)
    # Engine states are many small objects: collect young garbage less often, and never
    # re-scan what start-up built (fewer long pauses under load).
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=64 * 1024)


if __name__ == "__main__":  # python -m pax_hispanica.web.server [port]
    import sys

    run(port=int(sys.argv[1]) if len(sys.argv) > 1 else 8000)
