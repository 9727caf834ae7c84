"""What the web game's services pass around: a refusal (`ServerError`), who is on the
other end of a request (`Rights`), a seat as stored (`Seat`), and a game in memory
(`LiveGame`: a cache of record, state and events, rebuilt by replay)."""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from pax_hispanica.web.engine_port import api


class ServerError(Exception):
    """A refused request; nothing changed. `code` is stable, `rule` may name a rule."""

    def __init__(self, code: str, message: str, rule: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.rule, self.status = code, message, rule, status

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "rule": self.rule, "message": self.message}


def damage_error(text: str) -> ServerError:
    """What every request for a damaged game is answered."""
    return ServerError("damaged_game", f"this game's record is damaged ({text}); it is kept as it is "
                       "for the server's operator to look at", status=409)


@dataclass
class Seat:
    seat: int
    kind: str  # human | bot
    bot_kind: str | None
    bot_strength: int | None
    name: str
    token: str
    user_id: str | None


@dataclass
class Rights:
    """Who is on the other end of a request."""

    game_id: str
    role: str  # seat | table (hot-seat: every human seat) | host | spectator | bot
    seats: frozenset[int] = frozenset()

    def may_act_for(self, seat: int) -> bool:
        return seat in self.seats


@dataclass(eq=False)
class LiveGame:
    id: str
    record: dict[str, Any]
    seed: int
    mode: str
    host_token: str
    spectator_token: str
    host_user: str | None
    seats: list[Seat]
    state: Any
    events: list[Any]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Any] = field(default_factory=set)
    agents: dict[int, Any] = field(default_factory=dict)
    bot_task: asyncio.Task[Any] | None = None
    touched: float = field(default_factory=time.monotonic)
    chain: str = ""  # head of the record's hash chain (play/integrity.py)
    hashed: bool = True  # some stored action has a hash: every later one must
    away: frozenset[int] = frozenset()  # human seats with no connection on any server for a while
    hint: bool | None = None  # the action bar offers the Hint (analysis_jobs/hint.py); None: not yet known
    _nations: list[str] | None = None

    def idle(self, now: float, after: float) -> bool:
        """Nobody watches, no bot works, nothing happened for `after` seconds."""
        return self.evictable() and now - self.touched > after

    def evictable(self) -> bool:
        """Nobody watches and no bot works: the game may leave memory (and be replayed later)."""
        return not self.listeners and (self.bot_task is None or self.bot_task.done()) and not self.lock.locked()

    @property
    def version(self) -> int:
        return len(self.record["actions"])

    @property
    def over(self) -> bool:
        return bool(api.is_over(self.state))

    def bot_turn(self, state: Any = None) -> bool:
        """Whether a bot must act in `state` (default: the current one)."""
        state = self.state if state is None else state
        return not api.is_over(state) and any(self.seats[s].kind == "bot" for s in api.acting(state))

    def bots_to_act(self) -> list[int]:
        """The bot seats that must act now."""
        return [s for s in api.acting(self.state) if self.seats[s].kind == "bot"]

    def human_seats(self) -> frozenset[int]:
        return frozenset(s.seat for s in self.seats if s.kind == "human")

    def nation(self, seat: int) -> str:
        """The seat's nation id (fixed for the whole game)."""
        if self._nations is None:
            self._nations = [str(p.get("nation", "")) for p in api.summary(self.state).get("players", [])]
        return self._nations[seat] if seat < len(self._nations) else ""

    def compact(self) -> int:
        """Keep less while the game is idle in memory (issue 37, M1; LiveCache.sweep): drop its
        bots (made again at the next bot move: a private bot's randomness is keyed by the game's
        action count, so nothing of it is lost) and its events (replayed from the record when next
        read, `events`). Returns how many things were dropped (0: already compact)."""
        dropped = len(self.agents)
        self.agents.clear()
        if self.__dict__.get("_events") is not None:
            self.__dict__["_events_upto"] = self.version
            self.__dict__["_events"] = None
            dropped += 1
        return dropped

    @property
    def compacted(self) -> bool:
        return self.__dict__.get("_events") is None


def _get_events(self: LiveGame) -> list[Any]:
    """The game's events: kept while the game is in use, replayed from its record (the first
    `_events_upto` actions: the record may already hold the action whose events are about to be
    added, games.Service.act, records.catch_up) after `compact` dropped them."""
    events = self.__dict__.get("_events")
    if events is None:
        upto = self.__dict__.get("_events_upto", self.version)
        events = self.__dict__["_events"] = list(api.replay(self.record, upto).events)
    return events


def _set_events(self: LiveGame, events: list[Any]) -> None:
    self.__dict__["_events"] = events


# `events` is a dataclass field (LiveGame(..., state, events, ...)) read through a property, so
# that a compacted game rebuilds its events on first use
LiveGame.events = property(_get_events, _set_events)  # type: ignore[assignment]
