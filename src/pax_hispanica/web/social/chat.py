"""A game's chat, kept with the game (`chat_messages`, `chat_mutes`, `chat_reports`).

- Text only: control characters are dropped, at most MAX_LEN characters (PAXH_CHAT_MAX_LEN,
  default 300), at most RATE per seat of a game (PAXH_RATE_CHAT, default "5 per 10 seconds").
  The rate is counted in the database, not in a server's memory: the message is stored only if
  the seat's messages of the last window (index ix_chat_rate) are fewer, in the same
  transaction, which on PostgreSQL first takes an advisory lock of (game, seat); so the limit
  holds however many servers share the database. It is stored as typed and always put on the
  page as text (`textContent`), never as HTML.
- Who reads it: the players (seat links, the host's page); spectators unless the table's
  `chat` is "players"; bots never (it is not in any view, and no bot has a connection).
- Only seated players write. A player can mute another (for themselves, kept per game).
- The host can end the table's chat (`chat` = "off": nothing more can be written; what was
  said stays).
- A player can report a message; reports keep the text as it was for a moderator (an account
  with the admin flag, `accounts.is_admin`: `paxh admin grant NAME`, or PAXH_ADMINS at start):
  the page /admin/reports, and GET /api/admin/chat-reports.
- The server writes lines of its own (kind "system", e.g. a timeout citing PRJ-34), stored as a
  key and fields and said in each reader's language.
"""
from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from limits import parse

from pax_hispanica.web import settings
from pax_hispanica.web.notify import schema as t
from pax_hispanica.web.play.model import LiveGame, Rights, ServerError
from pax_hispanica.web.present.i18n import Tr
from pax_hispanica.web.social import schema as social_db

if TYPE_CHECKING:
    from pax_hispanica.web.notify.clocks import Clocks
    from pax_hispanica.web.play.service import Service

CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
HISTORY = 200


def clean(text: Any, max_len: int) -> str:
    if not isinstance(text, str):
        raise ServerError("malformed", "a chat message is text")
    text = " ".join(CONTROL.sub(" ", text).split())
    if not text:
        raise ServerError("malformed", "an empty chat message")
    if len(text) > max_len:
        raise ServerError("too_long", f"a chat message is at most {max_len} characters", status=413)
    ret: str = text
    return ret


class Chat:
    def __init__(self, svc: Service, clocks: Clocks, push: Any) -> None:
        """push(live, msg_for): send msg_for(conn) (None: nothing) to each connection of the game."""
        self.svc, self.storage, self.clocks, self._push = svc, svc.storage, clocks, push
        self.max_len = settings.integer("PAXH_CHAT_MAX_LEN", minimum=1)
        rate = settings.raw("PAXH_RATE_CHAT", "5 per 10 seconds")
        self.rate = None if rate.strip().lower() in ("", "0", "off") else parse(rate)

    # ------------------------------------------------------------ settings
    async def setting(self, gid: str) -> str:
        rules = await self.clocks.rules(gid)
        return rules.chat if rules is not None else "all"

    @staticmethod
    def reader(rights: Rights) -> bool:
        return rights.role in ("seat", "table", "host", "spectator")

    async def may_read(self, rights: Rights, gid: str) -> bool:
        if rights.role == "spectator":
            return await self.setting(gid) == "all"
        return self.reader(rights)

    # ------------------------------------------------------------ reading
    async def mutes(self, gid: str, seat: int | None) -> set[int]:
        if seat is None:
            return set()
        c = social_db.chat_mutes.c
        async with self.storage.read() as conn:
            return set((await conn.execute(sa.select(c.muted).where(sa.and_(c.game_id == gid, c.seat == seat))))
                       .scalars().all())

    @staticmethod
    def item(live: LiveGame, row: Any, lang: str) -> dict[str, Any]:
        tr = Tr(lang)
        if row["kind"] == "system":
            data = json.loads(row["text"])
            key = data.pop("key")
            if "seat" in data:
                data["nation"] = tr.nation(live.nation(data["seat"]))
            text, author = tr(key, **data), ""
        else:
            text = row["text"]
            seat = row["seat"]
            name = live.seats[seat].name if seat is not None and seat < len(live.seats) else ""
            nation = tr.nation(live.nation(seat)) if seat is not None else ""
            author = f"{name} ({nation})" if name else nation
        return {"id": row["id"], "seat": row["seat"], "kind": row["kind"], "author": author, "text": text,
                "rule": row["rule"], "created": row["created"]}

    async def state(self, live: LiveGame, rights: Rights, lang: str) -> dict[str, Any] | None:
        """What this connection sees of the chat (None: nothing, a bot or a spectator kept out)."""
        setting = await self.setting(live.id)
        seat = next(iter(rights.seats)) if rights.role == "seat" else None
        see_players = rights.role != "spectator" or setting == "all"
        if not self.reader(rights):
            return None
        muted = await self.mutes(live.id, seat)
        c = social_db.chat_messages.c
        async with self.storage.read() as conn:
            rows = (await conn.execute(sa.select(social_db.chat_messages).where(c.game_id == live.id)
                                       .order_by(c.id.desc()).limit(HISTORY))).mappings().all()
        items = [self.item(live, r, lang) for r in reversed(rows)
                 if r["kind"] == "system" or (see_players and r["seat"] not in muted)]
        return {"type": "chat", "full": True, "items": items, "enabled": setting != "off",
                "may_write": rights.role == "seat" and setting != "off", "muted": sorted(muted),
                "may_end": setting != "off" and not live.over,     # the host's "End the table's chat"
                "hidden": not see_players}

    # ------------------------------------------------------------ writing
    async def _store(self, live: LiveGame, seat: int | None, kind: str, text: str, rule: str | None,
                     limited: bool = False) -> dict[str, Any]:
        """Store a line; `limited`: refuse it (rate_limited) when the seat has said RATE's amount
        in RATE's window already, counted in the database under the seat's lock."""
        async with self.storage.write() as conn:
            if limited and self.rate is not None:
                await self._check_rate(conn, live.id, seat)
            r = await conn.execute(social_db.chat_messages.insert().values(game_id=live.id, seat=seat, kind=kind, text=text,
                                                                   rule=rule, created=time.time()))
            mid = r.inserted_primary_key[0]
            await self._notify_servers(conn, live.id)
        return {"id": mid, "seat": seat, "kind": kind, "text": text, "rule": rule, "created": time.time()}

    async def _check_rate(self, conn: Any, gid: str, seat: int | None) -> None:
        assert self.rate is not None
        if self.storage.pg:   # one writer per (game, seat) at a time, across servers, until commit
            await conn.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": f"chat:{gid}:{seat}"})
        c = social_db.chat_messages.c
        since = time.time() - self.rate.get_expiry()
        said = (await conn.execute(sa.select(sa.func.count()).select_from(social_db.chat_messages).where(sa.and_(
            c.game_id == gid, c.seat == seat, c.created > since)))).scalar_one()
        if said >= self.rate.amount:
            raise ServerError("rate_limited", "too many chat messages; wait a little", status=429)

    async def _notify_servers(self, conn: Any, gid: str) -> None:
        note = self.svc.pubsub.message(gid, "chat")
        if note is not None:
            await conn.execute(sa.text("SELECT pg_notify(:c, :p)"), {"c": note[0], "p": note[1]})

    async def post(self, live: LiveGame, rights: Rights, text: Any) -> dict[str, Any]:
        if rights.role != "seat":
            raise ServerError("wrong_seat", "only a seated player writes in the chat", status=403)
        (seat,) = rights.seats
        if live.seats[seat].kind != "human":
            raise ServerError("wrong_seat", "a bot plays this seat now", status=403)
        if await self.setting(live.id) == "off":
            raise ServerError("chat_off", "this table's chat is closed", status=403)
        text = clean(text, self.max_len)
        row = await self._store(live, seat, "player", text, None, limited=True)
        await self._push_row(live, row)
        return row

    async def system(self, live: LiveGame, key: str, rule: str | None, **fields: Any) -> None:
        row = await self._store(live, None, "system", json.dumps({"key": key, **fields}), rule)
        await self._push_row(live, row)

    async def _push_row(self, live: LiveGame, row: dict[str, Any]) -> None:
        setting = await self.setting(live.id)
        mutes: dict[int, set[int]] = {}
        for s in live.seats:
            mutes[s.seat] = await self.mutes(live.id, s.seat) if row["kind"] == "player" else set()

        def for_conn(conn: Any) -> dict[str, Any] | None:
            rights = conn.rights
            if not self.reader(rights):
                return None
            if row["kind"] == "player":
                if rights.role == "spectator" and setting != "all":
                    return None
                seat = next(iter(rights.seats)) if rights.role == "seat" else None
                if seat is not None and row["seat"] in mutes.get(seat, ()):
                    return None
            return {"type": "chat", "add": [self.item(live, row, conn.lang)]}

        await self._push(live, for_conn)

    async def push_full(self, live: LiveGame) -> None:
        """Every connection gets the whole chat again (mutes, a closed chat, another server's lines)."""
        states: dict[tuple[Any, ...], dict[str, Any] | None] = {}

        async def prepare() -> None:
            for listener in list(live.listeners):
                conn = getattr(listener, "__self__", None)
                if conn is None or not hasattr(conn, "rights"):
                    continue
                key = (conn.rights.role, conn.rights.seats, conn.lang)
                if key not in states:
                    states[key] = await self.state(live, conn.rights, conn.lang)

        await prepare()
        await self._push(live, lambda conn: states.get((conn.rights.role, conn.rights.seats, conn.lang)))

    async def mute(self, live: LiveGame, rights: Rights, other: int, on: bool) -> None:
        if rights.role != "seat":
            raise ServerError("wrong_seat", "only a seated player mutes another", status=403)
        (seat,) = rights.seats
        if not 0 <= other < len(live.seats) or other == seat:
            raise ServerError("malformed", "no such other seat")
        c = social_db.chat_mutes.c
        async with self.storage.write() as conn:
            await conn.execute(social_db.chat_mutes.delete().where(sa.and_(c.game_id == live.id, c.seat == seat,
                                                                   c.muted == other)))
            if on:
                await conn.execute(social_db.chat_mutes.insert().values(game_id=live.id, seat=seat, muted=other))

    async def end(self, live: LiveGame) -> None:
        """The host closes the table's chat: refused (409, nothing changed) once the game is
        over (the page offers no such button then) or once the chat is closed already."""
        if live.over:
            raise ServerError("game_over", "the game is over: its table's chat is not ended any more", status=409)
        if await self.setting(live.id) == "off":
            raise ServerError("chat_off", "this table's chat is closed already", status=409)
        async with self.storage.write() as conn:
            c = t.table_rules.c
            r = await conn.execute(t.table_rules.update().where(c.game_id == live.id).values(chat="off"))
            if r.rowcount == 0:
                await conn.execute(t.table_rules.insert().values(game_id=live.id, pace="live", chat="off"))
            await self._notify_servers(conn, live.id)
        self.clocks.forget(live.id)
        await self.push_full(live)

    @staticmethod
    def _reporter_seat(rights: Rights) -> int | None:
        return next(iter(rights.seats)) if rights.role == "seat" else None

    async def check_report(self, live: LiveGame, rights: Rights, message_id: int) -> None:
        """The refusals a report meets before it is counted: not a player; a message this seat
        (or this host) has reported already (issue 37, N3: 26,248 reports in 20 s)."""
        if rights.role not in ("seat", "host", "table"):
            raise ServerError("wrong_seat", "only a player reports a message", status=403)
        c = social_db.chat_reports.c
        seat = self._reporter_seat(rights)
        async with self.storage.read() as conn:
            dup = (await conn.execute(sa.select(c.id).where(sa.and_(
                c.game_id == live.id, c.message_id == message_id,
                c.reporter_seat == seat if seat is not None else c.reporter_seat.is_(None))).limit(1))).first()
            found = (await conn.execute(sa.select(social_db.chat_messages.c.id).where(sa.and_(
                social_db.chat_messages.c.game_id == live.id, social_db.chat_messages.c.id == message_id,
                social_db.chat_messages.c.kind == "player")))).first()
        if found is None:
            raise ServerError("malformed", "no such message in this game")
        if dup is not None:
            raise ServerError("already_reported", "you have reported this message already", status=409)

    async def report(self, live: LiveGame, rights: Rights, message_id: int, reason: Any) -> None:
        if rights.role not in ("seat", "host", "table"):
            raise ServerError("wrong_seat", "only a player reports a message", status=403)
        reason = "" if reason is None else clean(reason, 300) if str(reason).strip() else ""
        c = social_db.chat_messages.c
        async with self.storage.write() as conn:
            row = (await conn.execute(sa.select(social_db.chat_messages).where(sa.and_(
                c.game_id == live.id, c.id == message_id, c.kind == "player")))).mappings().first()
            if row is None:
                raise ServerError("malformed", "no such message in this game")
            await conn.execute(social_db.chat_reports.insert().values(
                game_id=live.id, message_id=message_id, text=row["text"], reason=reason, created=time.time(),
                reporter_seat=next(iter(rights.seats)) if rights.role == "seat" else None))

    async def reports(self, limit: int = 200, before: int | None = None) -> list[dict[str, Any]]:
        """The newest `limit` reports, or those older than the report `before` (keyset pages:
        the moderators' page shows 50 at a time with an "Older" link, so a flood of reports
        never hides the older ones)."""
        c = social_db.chat_reports.c
        q = sa.select(social_db.chat_reports).order_by(c.id.desc()).limit(limit)
        if before is not None:
            q = q.where(c.id < before)
        async with self.storage.read() as conn:
            rows = (await conn.execute(q)).mappings().all()
        return [dict(r) for r in rows]
