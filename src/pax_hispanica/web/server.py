"""The web game: FastAPI app (lobby, game pages, JSON API, WebSockets).

    run(host, port, database_url, data_dir)   # blocking; `paxh serve` calls this
    create_app(database_url) -> FastAPI        # for tests

Every connection sees only its own view (api.view / api.redact); every action
goes through games.Service.act (lock, version check, engine check, stored
before acknowledged).
"""
from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy.engine import make_url

from . import db, render
from .games import LiveGame, Rights, ServerError, Service
from .i18n import LANGS, Tr, rule_pages
from .info import rule_titles

log = logging.getLogger("pax_hispanica.web")
HERE = Path(__file__).parent
COOKIE = "paxh_user"
MAX_MESSAGE = 8000


class SeatIn(BaseModel):
    kind: str = Field("human", pattern="^(human|bot)$")
    bot_kind: str | None = Field(None, pattern="^(random|heuristic|ismcts)$")
    bot_strength: int | None = Field(None, ge=1, le=3)
    name: str = Field("", max_length=40)


class GameIn(BaseModel):
    players: int = Field(..., ge=2, le=5)
    seats: list[SeatIn]
    nations: list[str] | None = None
    mode: str = Field("online", pattern="^(online|hotseat)$")
    seed: int | None = Field(None, ge=0, le=2**31 - 1)
    params: dict[str, int | str] | None = None      # a variant (PRJ-31): ruleset numbers by name


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


def _error(e: ServerError) -> JSONResponse:
    return JSONResponse({"error": e.as_dict()}, status_code=e.status)


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
        return render.html_update(live, viewer, waiting, self.rights.role, self.lang)

    def close(self) -> None:
        self.closed = True
        self.writer.cancel()


def create_app(database_url: str | None = None, data_dir: str = "data", bot_delay: float | None = None) -> FastAPI:
    url = database_url or os.environ.get("PAXH_DATABASE_URL") or db.default_url(data_dir)
    db.migrate(url)
    if bot_delay is None:
        bot_delay = float(os.environ.get("PAXH_BOT_DELAY", "0.4"))
    svc = Service(url, bot_delay=bot_delay)

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # noqa: ANN202
        await svc.start()
        yield
        await svc.close()

    app = FastAPI(title="Pax Hispanica", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.svc = svc
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(env=render.env)

    async def current_user(request: Request) -> dict:
        user = await svc.user(request.cookies.get(COOKIE))
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
    async def lobby(request: Request) -> HTMLResponse:
        user = await current_user(request)
        games = await svc.games_of(user["id"])
        return page(request, user, "lobby.html", games=games)

    @app.post("/games")
    async def create_from_form(request: Request) -> Response:
        user = await current_user(request)
        form = await request.form()
        try:
            players = int(str(form.get("players", "0")))
            if not 2 <= players <= 5:
                raise ServerError("malformed", "a game has 2 to 5 players")
            seats, nations = [], []
            for i in range(players):
                kind = str(form.get(f"kind{i}", "human"))
                seats.append({"kind": kind if kind in ("human", "bot") else "human",
                              "bot_kind": str(form.get(f"bot{i}", "heuristic")) if kind == "bot" else None,
                              "bot_strength": int(str(form.get(f"strength{i}", "2"))) if kind == "bot" else None,
                              "name": str(form.get(f"name{i}", ""))[:40]})
                nations.append(str(form.get(f"nation{i}", "")))
            if any(nations) and not all(nations):
                raise ServerError("malformed", "choose a nation for every seat, or for none")
            chosen = nations if all(nations) else None
            mode = str(form.get("mode", "online"))
            params = parse_variant(str(form.get("variant", ""))[:500])
            live = await svc.create_game(players, seats, chosen, mode=mode, host_user=user["id"], params=params)
        except (ValueError, ServerError) as e:
            msg = e.message if isinstance(e, ServerError) else str(e)
            games = await svc.games_of(user["id"])
            return page(request, user, "lobby.html", status=400, games=games, error=msg)
        resp = RedirectResponse(f"/host/{live.host_token}", status_code=303)
        if user.get("new"):
            resp.set_cookie(COOKIE, user["id"], max_age=3600 * 24 * 365 * 5, httponly=True, samesite="lax")
        return resp

    @app.get("/host/{token}", response_class=HTMLResponse)
    async def host_page(request: Request, token: str) -> HTMLResponse:
        user = await current_user(request)
        try:
            rights = await svc.resolve(token)
        except ServerError:
            return page(request, user, "message.html", status=404, message_key="not_found")
        if rights.role not in ("host", "table"):
            return page(request, user, "message.html", status=404, message_key="not_found")
        live = await svc.get(rights.game_id)
        tr = render.translator(live, user["lang"])
        return page(request, user, "host.html", tr=tr, live=live, base=str(request.base_url).rstrip("/"),
                    names=render.seat_names(live, user["lang"]))

    @app.get("/play/{token}", response_class=HTMLResponse)
    async def play_page(request: Request, token: str) -> HTMLResponse:
        return await game_page(request, token)

    @app.get("/watch/{token}", response_class=HTMLResponse)
    async def watch_page(request: Request, token: str) -> HTMLResponse:
        return await game_page(request, token)

    async def game_page(request: Request, token: str) -> HTMLResponse:
        user = await current_user(request)
        try:
            rights = await svc.resolve(token)
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
        return page(request, user, "game.html", tr=tr, live=live, token=token, role=rights.role, seat=seat,
                    update=update)

    @app.get("/replay/{token}", response_class=HTMLResponse)
    async def replay_page(request: Request, token: str, step: int | None = None) -> HTMLResponse:
        user = await current_user(request)
        try:
            rights = await svc.resolve(token)
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
    async def rules_page(request: Request) -> HTMLResponse:
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
    @app.post("/api/games")
    async def api_create(request: Request) -> JSONResponse:
        try:
            body = GameIn.model_validate_json(await request.body())
        except ValidationError as e:
            return _malformed("; ".join(f"{'.'.join(map(str, x['loc']))}: {x['msg']}" for x in e.errors()))
        uid = request.cookies.get(COOKIE)  # a browser's user, so the game shows in its list
        try:
            live = await svc.create_game(body.players, [s.model_dump() for s in body.seats], body.nations,
                                         mode=body.mode, host_user=uid, seed=body.seed, params=body.params)
        except ServerError as e:
            return _error(e)
        return JSONResponse({
            "game": live.id, "version": live.version, "host": live.host_token, "spectator": live.spectator_token,
            "seats": [{"seat": s.seat, "kind": s.kind, "bot_kind": s.bot_kind,
                       "token": s.token if s.kind == "human" else None} for s in live.seats]})

    @app.get("/api/view/{token}")
    async def api_view(token: str) -> JSONResponse:
        try:
            rights = await svc.resolve(token)
            live = await svc.get(rights.game_id)
        except ServerError as e:
            return _error(e)
        seat = next(iter(rights.seats)) if rights.role == "seat" else None
        return JSONResponse(json.loads(json.dumps(render.json_update(live, seat, full_log=True), default=str)))

    @app.post("/api/act/{token}")
    async def api_act(request: Request, token: str) -> JSONResponse:
        raw = await request.body()
        if len(raw) > MAX_MESSAGE:
            return _malformed("message too large")
        try:
            body = json.loads(raw)
        except ValueError:
            return _malformed("the body is not JSON")
        if not isinstance(body, dict):
            return _malformed("the body is a JSON object {version, action}")
        try:
            rights = await svc.resolve(token)
            live = await svc.act(rights, body.get("action"), body.get("version"))
        except ServerError as e:
            return _error(e)
        return JSONResponse({"ok": True, "version": live.version})

    @app.post("/api/seat/{token}/bot")
    async def api_seat_bot(request: Request, token: str) -> JSONResponse:
        try:
            body = json.loads(await request.body() or b"{}")
            if not isinstance(body, dict):
                raise ValueError
        except ValueError:
            return _malformed("the body is a JSON object {seat, bot_kind}")
        try:
            rights = await svc.resolve(token)
            seat = body.get("seat", next(iter(rights.seats)) if rights.role == "seat" else None)
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise ServerError("malformed", "which seat?")
            live = await svc.seat_to_bot(rights, seat, str(body.get("bot_kind", "heuristic")))
        except ServerError as e:
            return _error(e)
        return JSONResponse({"ok": True, "seats": [{"seat": s.seat, "kind": s.kind} for s in live.seats]})

    @app.get("/api/record/{token}")
    async def api_record(token: str) -> JSONResponse:
        try:
            rights = await svc.resolve(token)
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
        try:
            while True:
                await ws.send_text(await ws.receive_text())
        except WebSocketDisconnect:
            pass

    @app.websocket("/ws/{token}")
    async def ws_game(ws: WebSocket, token: str) -> None:
        await ws.accept()
        try:
            rights = await svc.resolve(token)
            live = await svc.get(rights.game_id)
        except ServerError as e:
            await ws.send_text(json.dumps({"type": "error", "id": None, **e.as_dict()}))
            await ws.close(code=4404)
            return
        lang = "en"
        uid = ws.cookies.get(COOKIE)
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
                text = await ws.receive_text()
                await handle_message(conn, live, text)
        except WebSocketDisconnect:
            pass
        finally:
            conn.close()
            live.listeners.discard(conn.push)
            for seat in played:
                await svc.seat_connected(live, seat, -1)

    async def handle_message(conn: Conn, live: LiveGame, text: str) -> None:
        msg_id = None
        try:
            if len(text) > MAX_MESSAGE:
                raise ServerError("malformed", "message too large")
            try:
                msg = json.loads(text)
            except ValueError:
                raise ServerError("malformed", "messages are JSON objects") from None
            if not isinstance(msg, dict):
                raise ServerError("malformed", "messages are JSON objects")
            msg_id = msg.get("id") if isinstance(msg.get("id"), (int, str)) else None
            kind = msg.get("type")
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
            elif kind == "refresh":
                await conn.push(live)
                await conn.flush()
            elif kind == "ping":
                await conn.send({"type": "pong", "id": msg_id})
            elif kind == "leave":
                if conn.rights.role != "seat":
                    raise ServerError("wrong_seat", "only a seated player can leave")
                (seat,) = conn.rights.seats
                await svc.seat_to_bot(conn.rights, seat)
            elif kind == "takeover":  # hand a seat whose player has left to a bot
                seat = msg.get("seat")
                if not isinstance(seat, int) or isinstance(seat, bool):
                    raise ServerError("malformed", "which seat?")
                await svc.seat_to_bot(conn.rights, seat)
            else:
                raise ServerError("malformed", "unknown message type: use act, reveal, refresh, ping, leave or takeover")
        except ServerError as e:
            await conn.send({"type": "error", "id": msg_id, **e.as_dict()})

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
