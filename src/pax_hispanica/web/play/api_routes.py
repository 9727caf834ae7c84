"""The JSON API under /api: create a game, a seat's view, act, hand a seat to a bot, the record.
Every refusal is the envelope {"error": {"code", "rule", "message"}}."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pax_hispanica.web.engine_port import BOT_KINDS, DEFAULT_BOT, STRENGTHS
from pax_hispanica.web.http import security
from pax_hispanica.web.http.site import (
    NAME_PATTERN,
    client_address,
    cookie_user,
    error_response,
    site,
    validation_message,
)
from pax_hispanica.web.play.model import LiveGame, Rights, ServerError
from pax_hispanica.web.play.turn_based import TableIn
from pax_hispanica.web.present import updates

router = APIRouter(prefix="/api")


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    kind: str = Field("human", pattern="^(human|bot)$")
    bot_kind: str | None = Field(None, pattern=f"^({'|'.join(BOT_KINDS)})$")
    bot_strength: int | None = Field(None, ge=min(STRENGTHS, default=1), le=max(STRENGTHS, default=1))
    name: str = Field("", max_length=40, pattern=NAME_PATTERN)


class GameIn(BaseModel):
    """POST /api/games. No `seed`: the server draws every seed itself (PRJ-1: a
    seed a client chose, or could guess, would reveal every shuffle and salt).
    Unknown fields are refused rather than ignored, and types are strict (no
    "2" for 2)."""
    model_config = ConfigDict(extra="forbid", strict=True)

    players: int = Field(..., ge=2, le=5)
    seats: list[SeatIn] = Field(..., max_length=5)
    nations: list[str | None] | None = Field(None, max_length=5)   # null: that seat's nation drawn at random
    mode: str = Field("online", pattern="^(online|hotseat)$")
    params: dict[str, int | str] | None = Field(None, max_length=100)  # a variant (PRJ-31): numbers by name
    table: TableIn | None = None       # pace (live | turn), clock, chat (play/turn_based.py)


class ActIn(BaseModel):
    """POST /api/act/{token} (documented for the schema; the engine checks the action)."""
    version: int
    action: dict[str, Any]


class SeatBotIn(BaseModel):
    """POST /api/seat/{token}/bot."""
    seat: int | None = None
    bot_kind: str = DEFAULT_BOT


def _inline_schema(model: type[BaseModel]) -> dict[str, Any]:
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

    ret: dict[str, Any] = walk(schema)
    return ret


def _body_doc(model: type[BaseModel], required: bool = True) -> dict[str, Any]:
    return {"requestBody": {"required": required,
                            "content": {"application/json": {"schema": _inline_schema(model)}}}}


def _plain(x: Any) -> Any:
    """JSON-safe (anything else as its str), as the pages' sockets send it."""
    return json.loads(json.dumps(x, default=str))


async def _json_object(request: Request, shape: str, empty_is: bytes | None = None) -> dict[str, Any]:
    """The request's body as a JSON object (bounded by security.parse_json); `empty_is`: what an
    empty body stands for (an optional body)."""
    body = security.parse_json(await request.body() or empty_is or b"")
    if not isinstance(body, dict):
        raise ServerError("malformed", f"the body is a JSON object {shape}")
    return body


async def _owner(request: Request) -> str | None:
    """Who makes a game through the API: the logged-in account when the request carries a live
    session (so the game and its first seat are on the account, on every device), else the
    browser's anonymous user."""
    s = site(request)
    if s.accounts is not None:
        from pax_hispanica.web.accounts.service import SESSION_COOKIE
        account = await s.accounts.session_user(request.cookies.get(SESSION_COOKIE))
        if account is not None:
            ret: str | None = account
            return ret
    return cookie_user(request)


@router.post("/games", openapi_extra=_body_doc(GameIn))
async def api_create(request: Request) -> JSONResponse:
    s = site(request)
    try:
        raw = await request.body()
        data = security.parse_json(raw)
        if isinstance(data, dict) and "seed" in data:
            raise ServerError("seed_not_allowed", "the server draws every game's seed; a client may not "
                              "choose it (it is published when the game ends)", rule="PRJ-1")
        try:
            body = GameIn.model_validate_json(raw)
        except ValidationError as e:
            raise ServerError("malformed", validation_message(e.errors())) from None
        s.limits.check("create", client_address(request))
        uid = await _owner(request)  # the account (or else the browser's user), so the game shows in its list
        live = await s.svc.create_game(body.players, [x.model_dump() for x in body.seats], body.nations,
                                       mode=body.mode, host_user=uid, params=body.params,
                                       table=body.table.model_dump() if body.table else None)
    except ServerError as e:
        return error_response(e)
    return JSONResponse({
        "game": live.id, "version": live.version, "host": live.host_token, "spectator": live.spectator_token,
        "seats": [{"seat": x.seat, "kind": x.kind, "bot_kind": x.bot_kind,
                   "token": x.token if x.kind == "human" else None} for x in live.seats]})


async def _about_game(request: Request, token: str, answer: Callable[[Rights, LiveGame], Any]) -> JSONResponse:
    """The JSON answer(rights, live) about the game that the link `token` sees, or the refusal
    of the ServerError that finding the game, or `answer`, raised."""
    try:
        rights, live = await site(request).game_for(token)
        return JSONResponse(_plain(answer(rights, live)))
    except ServerError as e:
        return error_response(e)


@router.get("/view/{token}")
async def api_view(request: Request, token: str) -> JSONResponse:
    def view(rights: Rights, live: LiveGame) -> Any:
        seat = next(iter(rights.seats)) if rights.role == "seat" else None
        return updates.json_update(live, seat, full_log=True)
    return await _about_game(request, token, view)


@router.post("/act/{token}", openapi_extra=_body_doc(ActIn))
async def api_act(request: Request, token: str) -> JSONResponse:
    s = site(request)
    try:
        body = await _json_object(request, "{version, action}")
        s.limits.check("act", client_address(request))
        rights = await s.resolve(token)
        live = await s.svc.act(rights, body.get("action"), body.get("version"))
    except ServerError as e:
        return error_response(e)
    return JSONResponse({"ok": True, "version": live.version})


@router.post("/seat/{token}/bot", openapi_extra=_body_doc(SeatBotIn, required=False))
async def api_seat_bot(request: Request, token: str) -> JSONResponse:
    s = site(request)
    try:
        body = await _json_object(request, "{seat, bot_kind}", empty_is=b"{}")
        s.limits.check("act", client_address(request))
        rights = await s.resolve(token)
        seat = body.get("seat", next(iter(rights.seats)) if rights.role == "seat" else None)
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ServerError("malformed", "which seat?")
        live = await s.svc.seat_to_bot(rights, seat, str(body.get("bot_kind", DEFAULT_BOT)))
    except ServerError as e:
        return error_response(e)
    return JSONResponse({"ok": True, "seats": [{"seat": x.seat, "kind": x.kind} for x in live.seats]})


@router.get("/record/{token}")
async def api_record(request: Request, token: str) -> JSONResponse:
    def record(_rights: Rights, live: LiveGame) -> Any:
        if not live.over:
            raise ServerError("game_not_over", "the record (with its seed) is shown when the game is over", "HID-1",
                              status=403)
        return live.record
    return await _about_game(request, token, record)
