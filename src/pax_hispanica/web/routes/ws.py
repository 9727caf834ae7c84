"""The WebSockets: /ws/{token} (a game's live connection) and /ws/echo.

A connection (`Conn`) is bound to what its token opens and receives only its own
pictures of the game. What a client sends is dispatched through `HANDLERS`, a table
from message type to a typed handler: each message is validated by the handler's
pydantic model before the handler runs, and a refusal is an error frame (the
connection stays open)."""
from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, StrictInt, ValidationError

from .. import render, security
from ..games import Service
from ..i18n import LANGS
from ..model import LiveGame, Rights, ServerError
from ..ratelimit import RateLimits
from .common import client_address, cookie_user, error_frame, site, validation_message

router = APIRouter()
MAX_MESSAGE = security.MAX_BODY   # a WebSocket message, like a request body


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


# ---------------------------------------------------------------- messages and their handlers
class Message(BaseModel):
    """A client message's fields besides `type` and `id` (others are ignored)."""
    model_config = ConfigDict(extra="ignore")


class Act(Message):
    version: StrictInt                 # the number of actions the client has seen
    action: dict[str, Any]             # the engine checks the rest


class Takeover(Message):
    seat: StrictInt                    # a seat whose player has left


@dataclass
class Turn:
    """One message being handled: the connection, its game, the services, the message id."""
    conn: Conn
    live: LiveGame
    svc: Service
    msg_id: Any

    async def ack(self, live: LiveGame) -> None:
        await self.conn.flush()   # the new picture first, then the ack
        await self.conn.send({"type": "ack", "id": self.msg_id, "version": live.version})


@dataclass(frozen=True)
class Handler:
    model: type[Message]
    run: Callable[[Turn, Any], Awaitable[None]]
    limited: bool = False              # counts against the "act" rate limit


HANDLERS: dict[str, Handler] = {}


def handles(kind: str, model: type[Message] = Message, limited: bool = False) -> Callable:
    def register(fn: Callable[[Turn, Any], Awaitable[None]]) -> Callable[[Turn, Any], Awaitable[None]]:
        HANDLERS[kind] = Handler(model, fn, limited)
        return fn
    return register


@handles("act", Act, limited=True)
async def on_act(t: Turn, msg: Act) -> None:
    await t.ack(await t.svc.act(t.conn.rights, msg.action, msg.version))


@handles("reveal")
async def on_reveal(t: Turn, _msg: Message) -> None:
    """Hot-seat: the next player pressed "I am ..."."""
    if t.conn.rights.role != "table":
        raise ServerError("wrong_seat", "only a hot-seat table passes the device")
    t.conn.shown = render.next_human(t.live, t.conn.rights.seats)
    await t.conn.push(t.live)
    await t.ack(t.live)


@handles("refresh")
async def on_refresh(t: Turn, _msg: Message) -> None:
    t.conn.last_html = None   # the whole board again
    await t.conn.push(t.live)
    await t.conn.flush()


@handles("ping")
async def on_ping(t: Turn, _msg: Message) -> None:
    await t.conn.send({"type": "pong", "id": t.msg_id})


@handles("leave", limited=True)
async def on_leave(t: Turn, _msg: Message) -> None:
    """A player leaves: a bot takes the seat (the page then shows it as a bot's)."""
    if t.conn.rights.role != "seat":
        raise ServerError("wrong_seat", "only a seated player can leave")
    (seat,) = t.conn.rights.seats
    await t.ack(await t.svc.seat_to_bot(t.conn.rights, seat))


@handles("takeover", Takeover, limited=True)
async def on_takeover(t: Turn, msg: Takeover) -> None:
    """Hand a seat whose player has left to a bot."""
    await t.ack(await t.svc.seat_to_bot(t.conn.rights, msg.seat))


def _field_errors(e: ValidationError) -> ServerError:
    return ServerError("malformed", validation_message(e.errors(include_url=False)))


async def handle_message(conn: Conn, live: LiveGame, svc: Service, limits: RateLimits, text: str,
                         address: str | None = None) -> None:
    """Parse one text frame, look its type up in HANDLERS, validate it with the handler's model
    and run it; any refusal goes back as an error frame."""
    msg_id = None
    try:
        if len(text) > MAX_MESSAGE:
            raise ServerError("too_large", f"messages are at most {MAX_MESSAGE} bytes", status=413)
        msg = security.parse_json(text, "the message")
        if not isinstance(msg, dict):
            raise ServerError("malformed", "messages are JSON objects")
        msg_id = msg.get("id") if isinstance(msg.get("id"), (int, str)) else None
        kind = msg.get("type")
        handler = HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise ServerError("malformed", f"unknown message type: use {', '.join(HANDLERS)}")
        if handler.limited:
            limits.check("act", address)
        try:
            body = handler.model.model_validate({k: v for k, v in msg.items() if k not in ("type", "id")})
        except ValidationError as e:
            raise _field_errors(e) from None
        await handler.run(Turn(conn, live, svc, msg_id), body)
    except ServerError as e:
        await conn.send(error_frame(e, msg_id))


# ---------------------------------------------------------------- the sockets
@router.websocket("/ws/echo")
async def ws_echo(ws: WebSocket) -> None:
    await ws.accept()
    while True:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            return
        if msg.get("text") is None:
            await ws.send_text(json.dumps(error_frame(ServerError("malformed", "send text frames"))))
        else:
            await ws.send_text(msg["text"][:MAX_MESSAGE])


async def _language(ws: WebSocket, svc: Service) -> str:
    """?lang, else the browser's user's stored language, else English."""
    lang = "en"
    uid = cookie_user(ws)
    if uid:
        lang = (await svc.user(uid)).get("lang", "en")
    if ws.query_params.get("lang") in LANGS:
        lang = ws.query_params["lang"]
    return lang


@router.websocket("/ws/{token}")
async def ws_game(ws: WebSocket, token: str) -> None:
    s = site(ws)
    svc = s.svc
    await ws.accept()
    try:
        rights, live = await s.game_for(token)
    except ServerError as e:
        await ws.send_text(json.dumps(error_frame(e)))
        await ws.close(code=4404)
        return
    lang = await _language(ws, svc)
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
                await conn.send(error_frame(ServerError("malformed", "messages are JSON text frames, not binary")))
                continue
            await handle_message(conn, live, svc, s.limits, text, client_address(ws))
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
