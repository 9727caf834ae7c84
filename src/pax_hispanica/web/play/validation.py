"""What a request must look like before anything is looked up: a new game's description and
an action message. Every refusal is `malformed` (or `bad_config` from the engine, later)."""
from __future__ import annotations

import json
import secrets
from typing import Any

from pax_hispanica.web.engine_port import BOT_KINDS, DEFAULT_BOT, STRENGTHS
from pax_hispanica.web.play.model import Seat, ServerError
from pax_hispanica.web.present.info import nation_ids

MAX_ACTION = 4000   # bytes of an action's JSON


def one_of(names: tuple[str, ...]) -> str:
    return f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0]


def new_seats(players: int, seats: list[dict[str, Any]], nations: list[str | None] | None, mode: str,
              ruleset: str = "reference") -> list[Seat]:
    """A new game's seats (each with a fresh secret token), checked: 2-5 players, one seat
    description each, the ruleset's nations (different ones; None for a seat left on
    "random"), known bot kinds and strengths."""
    if not 2 <= players <= 5:
        raise ServerError("malformed", "a game has 2 to 5 players")
    if len(seats) != players:
        raise ServerError("malformed", "one seat description per player")
    if mode not in ("online", "hotseat"):
        raise ServerError("malformed", "mode is online or hotseat")
    known = nation_ids(ruleset)
    if nations is not None:
        named = [n for n in nations if n is not None]
        if len(nations) != players or len(set(named)) != len(named) or any(n not in known for n in named):
            raise ServerError("malformed", f"nations: {players} seats, each null (random) or a different one of "
                                           f"{', '.join(known)}")
    rows = []
    for i, s in enumerate(seats):
        kind = s.get("kind", "human")
        if kind not in ("human", "bot"):
            raise ServerError("malformed", f"seat {i}: kind is human or bot")
        bot_kind = s.get("bot_kind") or (DEFAULT_BOT if kind == "bot" else None)
        if kind == "bot" and bot_kind not in BOT_KINDS:
            raise ServerError("malformed", f"seat {i}: bot kind is {one_of(BOT_KINDS)}")
        strength = s.get("bot_strength")
        if strength is not None and (type(strength) is not int or strength not in STRENGTHS):
            raise ServerError("malformed", f"seat {i}: bot strength is {one_of(tuple(map(str, STRENGTHS)))}")
        rows.append(Seat(i, kind, bot_kind if kind == "bot" else None, strength if kind == "bot" else None,
                         str(s.get("name") or "")[:80], secrets.token_urlsafe(18), None))
    return rows


def check_bot_kind(bot_kind: str) -> None:
    if bot_kind not in BOT_KINDS:
        raise ServerError("malformed", f"bot kind is {one_of(BOT_KINDS)}")


def action_json(action: Any, version: Any) -> str:
    """An action message's action as stored (its JSON), once it is well formed: an object with
    an integer seat and a string type, plain JSON, at most MAX_ACTION bytes, and an integer
    version (the number of actions the client has seen)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str) \
            or not isinstance(action.get("seat"), int) or isinstance(action.get("seat"), bool):
        raise ServerError("malformed", "an action is an object with an integer 'seat' and a string 'type'")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ServerError("malformed", "'version' (the number of actions you have seen) is required")
    try:
        text = json.dumps(action)
    except (TypeError, ValueError):
        raise ServerError("malformed", "an action must be plain JSON") from None
    if len(text) > MAX_ACTION:
        raise ServerError("malformed", "action too large")
    return text
