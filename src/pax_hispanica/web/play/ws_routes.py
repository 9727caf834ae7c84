"""The WebSockets: /ws/{token} (a game's live connection) and /ws/echo.

A connection (`Conn`) is bound to what its token opens and receives only its own
pictures of the game. What a client sends is dispatched through `HANDLERS`, a table
from message type to a typed handler: each message is validated by the handler's
pydantic model before the handler runs, and a refusal is an error frame (the
connection stays open)."""
from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, StrictInt, ValidationError

from pax_hispanica.web import settings
from pax_hispanica.web.http import security
from pax_hispanica.web.http.ratelimit import RateLimits, TokenBucket
from pax_hispanica.web.http.site import (
    client_address,
    cookie_user,
    error_frame,
    site,
    validation_message,
)
from pax_hispanica.web.play.model import LiveGame, Rights, ServerError
from pax_hispanica.web.play.service import Service
from pax_hispanica.web.present import page_context, updates
from pax_hispanica.web.present.i18n import LANGS
from pax_hispanica.web.present.pace import is_turn_based

router = APIRouter()
MAX_MESSAGE = security.MAX_BODY   # a WebSocket message, like a request body

# every connection's message budget (issue 37, N3: one socket sending `refresh` moved another
# player's p99 from 96 to 1,192 ms): a token bucket of WS_BURST messages refilled at WS_RATE a
# second; a `refresh` (a whole board rendered) costs WS_COSTS["refresh"]. Over it: an error frame
# `rate_limited`, the message unread; WS_FLOOD_CLOSE refusals in a row close the socket (1008),
# and its address waits WS_FLOOD_PENALTY seconds for a new game socket.
WS_RATE = settings.number("PAXH_WS_RATE")     # messages a second, per connection
WS_BURST = settings.number("PAXH_WS_BURST")   # messages at once
WS_COSTS = {"refresh": 5.0}
WS_FLOOD_CLOSE = 50
WS_FLOOD_PENALTY = 10.0   # seconds an address closed for flooding waits before a new game socket
_penalised: dict[str, float] = {}   # address -> until (this process's memory; bounded below)


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
        self.last_html: dict[str, Any] | None = None   # the board last sent (HTML clients): updates send what changed
        self.bucket = TokenBucket(WS_RATE, WS_BURST)   # this connection's message budget (N3)
        self.refused = 0                                # messages refused in a row for it
        self.digest = False   # a turn-based game's seat: "since your last move" (happened.digest)
        self.writer = asyncio.create_task(self._write_updates())

    def viewer(self, live: LiveGame) -> tuple[int | None, int | None]:
        """(seat whose view is shown, seat waiting behind a pass-the-device screen)."""
        if self.rights.role in ("seat", "bot"):
            (seat,) = self.rights.seats
            return seat, None
        if self.rights.role != "table":
            return None, None
        nxt = page_context.next_human(live, self.rights.seats)
        if self.shown is not None and self.shown != nxt:
            self.shown = None
        if self.shown is None:
            return None, nxt
        return self.shown, None

    async def send(self, msg: dict[str, Any]) -> None:
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

    def update(self, live: LiveGame) -> dict[str, Any]:
        viewer, waiting = self.viewer(live)
        if self.fmt == "json":
            # the first update carries the last 50 events, then only the new ones
            msg = updates.json_update(live, viewer, with_view=self.with_view, since_seq=self.last_seq_sent)
            if msg["events"]:
                self.last_seq_sent = msg["events"][-1].get("seq", 0)
            elif self.last_seq_sent is None:
                self.last_seq_sent = 0
            return msg
        full = updates.html_update(live, viewer, waiting, self.rights.role, self.lang, self.digest)
        msg = updates.html_message(full, self.last_html)
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


def handles(kind: str, model: type[Message] = Message, limited: bool = False) -> Callable[..., Any]:
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
    t.conn.shown = page_context.next_human(t.live, t.conn.rights.seats)
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
        extra = WS_COSTS.get(str(kind), 1.0) - 1.0      # the first token was taken before parsing (kind: a str, as HANDLERS has it)
        if extra > 0 and not conn.bucket.take(extra):
            raise flood_error(conn, extra)
        if handler.limited:
            limits.check("act", address)
        try:
            body = handler.model.model_validate({k: v for k, v in msg.items() if k not in ("type", "id")})
        except ValidationError as e:
            raise _field_errors(e) from None
        await handler.run(Turn(conn, live, svc, msg_id), body)
    except ServerError as e:
        await conn.send(error_frame(e, msg_id))


def flood_error(conn: Conn, n: float = 1.0) -> ServerError:
    from pax_hispanica.web.http.ratelimit import RateLimited
    conn.refused += 1
    e = RateLimited("message", max(1, math.ceil(conn.bucket.wait(n))))
    e.message = (f"too many messages on this connection: at most {WS_RATE:g} a second ({WS_BURST:g} at once, "
                 f"a refresh counts {WS_COSTS['refresh']:g}); this one was not read")
    return e


async def admit(conn: Conn) -> bool:
    """The message budget, before a frame is even parsed: True to read it; False when it was
    refused with an error frame (and the socket closed, 1008, after WS_FLOOD_CLOSE in a row)."""
    if conn.bucket.take(1.0):
        conn.refused = 0
        return True
    e = flood_error(conn)
    await conn.send(error_frame(e))
    if conn.refused >= WS_FLOOD_CLOSE:
        await conn.send(error_frame(ServerError("flooding", f"{WS_FLOOD_CLOSE} messages in a row over the "
                                                            "limit: this connection is closed")))
        conn.closed = True
        address = client_address(conn.ws) or "unknown"
        now = time.monotonic()
        if len(_penalised) > 10_000:   # forget the served penalties first, then the oldest
            for a in [a for a, until in _penalised.items() if until < now] or list(_penalised)[:5_000]:
                _penalised.pop(a, None)
        _penalised[address] = now + WS_FLOOD_PENALTY
        await conn.ws.close(code=1008)
    return False


def penalty(address: str | None) -> float:
    """Seconds left of a flooding address's wait (0: none)."""
    until = _penalised.get(address or "unknown")
    return max(0.0, until - time.monotonic()) if until else 0.0


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
    if (wait := penalty(client_address(ws))) > 0:   # closed for flooding a moment ago: no new board yet
        from pax_hispanica.web.http.ratelimit import RateLimited
        e = RateLimited("message", math.ceil(wait))
        e.code, e.message = "flooding", f"this address flooded a connection: wait {math.ceil(wait)} s"
        await ws.send_text(json.dumps(error_frame(e)))
        await ws.close(code=1008)
        return
    try:
        rights, live = await s.game_for(token)
    except ServerError as e:
        await ws.send_text(json.dumps(error_frame(e)))
        await ws.close(code=4404)
        return
    lang = await _language(ws, svc)
    fmt = "json" if ws.query_params.get("fmt") == "json" else "html"
    conn = Conn(ws, rights, lang, fmt, with_view=ws.query_params.get("view") != "0")
    conn.digest = is_turn_based(await s.play.clocks.rules(live.id)) if s.play is not None else False
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
            if not await admit(conn):   # over the connection's message budget (N3)
                if conn.closed:
                    break
                continue
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
