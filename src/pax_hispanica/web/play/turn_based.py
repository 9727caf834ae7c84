"""Turn-based play, clocks, notifications and chat, wired to the game service.

`Play` follows the games through `Service.hooks` (play/service.py): a new game's table rules
(`created`), every stored action (`after_act`: clocks and notifications), another server's
clock or chat news (`notified`), and runs the two background loops: the clock sweeper
(notify/clocks.py) and the outbox worker (notify/outbox.py). `install(app, svc)` is the one line in
server.py, which hands the `Play` to `Site.play` for the routes. The routes are social/chat_routes.py
and notify/routes.py.
"""
from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from pax_hispanica.web.notify.clocks import Clocks, TableRules
from pax_hispanica.web.notify.outbox import Outbox
from pax_hispanica.web.play.model import ServerError
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.social.chat import Chat

if TYPE_CHECKING:
    from pax_hispanica.web.play.model import LiveGame, Rights
    from pax_hispanica.web.play.service import Service

log = logging.getLogger("pax_hispanica.web")
WEEK = 7 * 86400.0
# play.js's words in the page's language (templating.py gives them to play/templates/_play.html as play_text)
PAGE_TEXT = ("chat_mute", "chat_unmute", "chat_muted", "chat_report", "chat_reported", "chat_closed", "chat_hidden",
             "chat_too_long", "chat_too_fast", "clock_waiting", "clock_out", "rule", "you",
             "clock_left_this_year",
             # "Tell me when it is my move" (U1): a refusal's sentence, and what is saved
             "err_bad_webhook", "err_internal_webhook", "err_mail_off", "err_bad_email", "notify_failed",
             "notify_saved_now", "notify_saved_none", "notify_email_is", "notify_webhook_is")


class TableIn(BaseModel):
    """A table's rules, chosen at creation (`"table"` of POST /api/games, or the lobby form).

    pace "live": a chess clock when `base_seconds` is given (plus `increment_seconds` per
    decision); pace "turn": `move_seconds` for each move (default a day); pace "year":
    `year_seconds` for each seat's decisions of one Year (default three days, PRJ-39). After
    `timeouts_to_bot` timeouts in a row a bot takes the seat (PRJ-34). `chat`: "all" (spectators
    read it too), "players", or "off"."""
    model_config = ConfigDict(extra="forbid", strict=True)

    pace: str = Field("live", pattern="^(live|turn|year)$")
    base_seconds: float | int | None = Field(None, ge=1, le=WEEK)
    increment_seconds: float | int = Field(0, ge=0, le=3600)
    move_seconds: float | int | None = Field(None, ge=1, le=60 * 86400)
    timeouts_to_bot: int = Field(3, ge=1, le=100)
    chat: str = Field("all", pattern="^(all|players|off)$")
    year_seconds: float | int | None = Field(None, ge=1, le=60 * 86400)

    @model_validator(mode="after")
    def _turn_has_a_deadline(self) -> TableIn:
        if self.pace == "turn" and self.move_seconds is None:
            self.move_seconds = 86400
        if self.pace == "year" and self.year_seconds is None:
            self.year_seconds = 3 * 86400
        if self.pace != "live":
            self.base_seconds = None
        if self.pace != "turn":
            self.move_seconds = None
        if self.pace != "year":
            self.year_seconds = None
        return self


TIME_CONTROL = re.compile(r"(live):(\d{1,3})\+(\d{1,4})|(turn):(\d{1,4})h|(year):(\d{1,2})d")


def time_control_table(tc: str) -> dict[str, Any] | None:
    """An open table's time control (accounts.TIME_CONTROLS: "live:M+S" M minutes plus S
    seconds a decision, "turn:Hh" H hours a move, "year:Nd" N days a Year) as its game's table
    rules; "" (or anything else) is no clock."""
    m = TIME_CONTROL.fullmatch(tc or "")
    if m is None:
        return None
    if m.group(1):
        rules = {"pace": "live", "base_seconds": int(m.group(2)) * 60, "increment_seconds": int(m.group(3))}
    elif m.group(4):
        rules = {"pace": "turn", "move_seconds": int(m.group(5)) * 3600}
    else:
        rules = {"pace": "year", "year_seconds": int(m.group(7)) * 86400}
    return TableIn.model_validate(rules).model_dump()


def form_table(form: Any) -> dict[str, Any] | None:
    """The lobby form's pace fields -> a table (None: a live game with no clock)."""
    pace = str(form.get("pace", "live"))
    chat = str(form.get("chat", "all"))
    try:
        if pace == "clock":
            minutes = float(str(form.get("clock_minutes", "10")))
            inc = float(str(form.get("clock_increment", "10")))
            return TableIn.model_validate({"pace": "live", "base_seconds": minutes * 60, "increment_seconds": inc,
                                           "chat": chat}).model_dump()
        if pace == "turn":
            hours = float(str(form.get("turn_hours", "24")))
            return TableIn.model_validate({"pace": "turn", "move_seconds": hours * 3600, "chat": chat}).model_dump()
        if pace == "year":
            days = float(str(form.get("year_days", "3")))
            return TableIn.model_validate({"pace": "year", "year_seconds": days * 86400, "chat": chat}).model_dump()
    except ValueError as e:
        from pax_hispanica.web.play.model import ServerError
        raise ServerError("malformed", f"the time control: {e}") from None
    return None if chat == "all" else TableIn(chat=chat).model_dump()  # type: ignore[call-arg]  # pydantic fills the defaults


class Play:
    def __init__(self, svc: Service) -> None:
        self.svc = svc
        self.outbox = Outbox(svc.storage)
        self.clocks = Clocks(svc, self.outbox, self._say, self.push_clock)
        self.chat = Chat(svc, self.clocks, self._send_each)
        self._tasks: list[asyncio.Task[Any]] = []
        self.rematch_of: Callable[[str], Awaitable[str | None]] | None = None   # social.tables: a game's rematch table

    # ------------------------------------------------------------ hooks (games.Service)
    async def created(self, live: LiveGame, table: dict[str, Any] | None) -> None:
        if table:
            await self.clocks.setup(live, TableRules(**TableIn.model_validate(table).model_dump()))
        else:
            self.clocks._rules[live.id] = None   # no rules: no clock, chat for all (nothing to read later)

    async def after_act(self, live: LiveGame, action: dict[str, Any], before: Any, rights: Rights) -> None:
        await self.clocks.follow(live, action, before, rights)

    async def notified(self, live: LiveGame, what: str) -> None:
        if what == "rematch" and self.rematch_of is not None:   # another server made it
            tid = await self.rematch_of(live.id)
            if tid:
                await self._tell_rematch_here(live, tid, "")
            return
        if what == "clock":
            await self.push_clock(live, tell_others=False)
        elif what == "chat":
            self.clocks.forget(live.id)   # the host may have closed it
            await self.chat.push_full(live)

    def start(self) -> list[asyncio.Task[Any]]:
        self._tasks = [asyncio.create_task(self.clocks.sweep_forever()),
                       asyncio.create_task(self.outbox.run_forever())]
        return self._tasks

    async def close(self) -> None:
        self.outbox.closing = True

    # ------------------------------------------------------------ to the connections
    @staticmethod
    def conns(live: LiveGame) -> list[Any]:
        out = []
        for listener in list(live.listeners):
            conn = getattr(listener, "__self__", None)
            if conn is not None and hasattr(conn, "rights") and hasattr(conn, "send"):
                out.append(conn)
        return out

    async def _send_each(self, live: LiveGame, msg_for: Any) -> None:
        for conn in self.conns(live):
            try:
                msg = msg_for(conn)
                if msg is not None:
                    await conn.send(msg)
            except Exception:
                log.exception("sending to a connection failed")

    async def tell_rematch(self, gid: str, tid: str, by_user: str, by_name: str) -> None:
        """A player asked for a rematch of finished game `gid` (issue 38): its pages open here
        hear it now, other servers' by NOTIFY, and the other players as their notification
        settings say (the outbox: email, webhook)."""
        live = self.svc.live.get(gid)
        if live is not None:
            await self._tell_rematch_here(live, tid, by_name)
        try:
            live = live or await self.svc.get(gid)
        except ServerError:
            return
        others = [x.seat for x in live.seats if x.user_id and x.user_id != by_user]   # a bot may have taken over since
        await self.outbox.tell_rematch(gid, others, f"/tables/{tid}", by_name,
                                       note=self.svc.pubsub.message(gid, "rematch"))

    async def _tell_rematch_here(self, live: LiveGame, tid: str, by_name: str) -> None:
        def msg_for(conn: Any) -> dict[str, Any]:
            tr = Tr(conn.lang)
            text = tr("rematch_asked", name=by_name) if by_name else tr("rematch_ready")
            return {"type": "rematch", "url": f"/tables/{tid}", "text": text, "link": tr("rematch_open")}
        await self._send_each(live, msg_for)

    async def push_clock(self, live: LiveGame, tell_others: bool = True) -> None:
        if not live.listeners:
            return   # nobody is watching here: nothing to compute
        state = await self.clocks.state(live)
        if state is not None:
            await self._send_each(live, lambda conn: state)

    async def _say(self, live: LiveGame, key: str, rule: str | None, **fields: Any) -> None:
        await self.chat.system(live, key, rule, **fields)

    async def hello(self, conn: Any, live: LiveGame) -> None:
        """A page asks for what is not on the board: its clocks and chat."""
        await self.clocks.repair(live)
        state = await self.clocks.state(live)
        if state is not None:
            await conn.send(state)
        chat = await self.chat.state(live, conn.rights, conn.lang)
        if chat is not None:
            await conn.send(chat)


def install(app: Any, svc: Service) -> Play:
    """Follow svc's games (hooks) and serve the routes (social/chat_routes.py, notify/routes.py)."""
    from pax_hispanica.web.notify import routes as notify_routes
    from pax_hispanica.web.social import chat_routes

    play = Play(svc)
    svc.hooks.append(play)
    app.include_router(chat_routes.router)
    app.include_router(notify_routes.router)
    return play
