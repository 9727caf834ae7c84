"""Clocks and deadlines, kept by the server in the database (`clocks`, `table_rules`).

A live game with a clock gives every seat `base_seconds`, and `increment_seconds` more after
each decision it makes (chess's Fischer clock); a turn-based game gives each move
`move_seconds`; a "days per Year" game (pace "year", PRJ-39) gives each seat `year_seconds`
for all its decisions of one Year (Goods, Auction, Play, Sail), spent only while it is asked,
and a full budget again when the next Year asks it (`clocks.year_key` says which Year the
seat's `remaining` belongs to). A seat's clock runs only while the seat is asked (`api.acting`), so a sealed
choice's clock runs for each chooser separately: a seat that has bid stops its own clock, the
others' keep running.

What is stored is a deadline (epoch seconds) per asked seat, written after each action by the
server that stored it (`after_act`, under the game's lock). Nothing ticks: one sweeper per
server (`sweep_forever`, every POLL_SECONDS) asks the database for deadlines that have passed
(index `ix_clocks_deadline`), claims each with a compare-and-set on the deadline (so with
several servers on one database one of them handles it), and applies the table's rule,
PRJ-34 (docs/rules.md):

- a bot (the default bot kind, seeded with a keyed hash of the game's secret, the seat and
  the version) plays that decision for the seat, through `Service.act` like any action, so it
  is in the record and a replay is exact; the chat shows a line citing PRJ-34;
- a live seat whose time ran out has only its increment for each later decision;
- after `timeouts_to_bot` timeouts in a row (the player's own move resets the count) the seat
  is handed to a bot, also with a PRJ-34 line.

The pages get `{"type": "clock", "now", "seats": [...]}` over the WebSocket and count down
from the deadline themselves. A clock therefore costs nothing while nobody is connected: no
timer per game, one indexed query per second per server.
"""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from pax_hispanica.web import settings
from pax_hispanica.web.engine_port import DEFAULT_BOT, api, fallback_bot, make_bot
from pax_hispanica.web.notify import schema as t
from pax_hispanica.web.notify.outbox import Outbox, recipient_for
from pax_hispanica.web.play.model import Rights, ServerError

if TYPE_CHECKING:
    from pax_hispanica.web.play.model import LiveGame
    from pax_hispanica.web.play.service import Service

log = logging.getLogger("pax_hispanica.web")
RULE = "PRJ-34"


@dataclass
class TableRules:
    pace: str = "live"                 # live | turn | year
    base_seconds: float | None = None  # live: the clock (None: no clock)
    increment_seconds: float = 0.0
    move_seconds: float | None = None  # turn: the time for each move
    timeouts_to_bot: int = 3
    chat: str = "all"                  # all | players | off
    year_seconds: float | None = None  # year: a seat's time for its decisions of one Year (PRJ-39)

    @property
    def timed(self) -> bool:
        return {"live": self.base_seconds, "turn": self.move_seconds, "year": self.year_seconds}.get(
            self.pace) is not None

    @property
    def budget(self) -> bool:
        """Whether a seat spends its own time (live and year) rather than having a fresh
        deadline for each move (turn)."""
        return self.pace in ("live", "year")

    @property
    def notifies(self) -> bool:
        """Turn-based paces, whose players are told of their move (live players are at the table)."""
        return self.pace in ("turn", "year")

    def as_dict(self) -> dict[str, Any]:
        return {"pace": self.pace, "base_seconds": self.base_seconds, "increment_seconds": self.increment_seconds,
                "move_seconds": self.move_seconds, "timeouts_to_bot": self.timeouts_to_bot, "chat": self.chat,
                "year_seconds": self.year_seconds}


def year_key(state: Any) -> str:
    """Which Year of the game is being played: "<cycle>:<year>" (PRJ-39)."""
    v = api.model_view(state, None)
    return f"{v['cycle']}:{getattr(v['year'], 'value', v['year'])}"[:16]


class Clocks:
    POLL_SECONDS = settings.seconds("PAXH_CLOCK_POLL_SECONDS", minimum=0.05)
    CLAIM_SECONDS = 30.0   # a claimed timeout another server may take over after this long

    def __init__(self, svc: Service, outbox: Outbox, say: Any, push: Any) -> None:
        """say(live, text_key, rule, **fields): a system line in the game's chat;
        push(live): send the clocks to the game's connections (here and on other servers)."""
        self.svc, self.storage, self.outbox = svc, svc.storage, outbox
        self._say, self._push = say, push
        self._rules: dict[str, TableRules | None] = {}
        self.timeouts_handled = 0

    # ------------------------------------------------------------ table rules
    async def rules(self, gid: str) -> TableRules | None:
        if gid not in self._rules:
            async with self.storage.read() as conn:
                row = (await conn.execute(sa.select(t.table_rules).where(t.table_rules.c.game_id == gid))
                       ).mappings().first()
            if len(self._rules) > 5000:
                self._rules.clear()
            self._rules[gid] = None if row is None else TableRules(**{k: row[k] for k in TableRules.__annotations__})
        return self._rules[gid]

    def forget(self, gid: str) -> None:
        self._rules.pop(gid, None)

    async def setup(self, live: LiveGame, rules: TableRules) -> None:
        """A new game's table rules and one clock per seat; the first decision's clocks start."""
        async with self.storage.write() as conn:
            await conn.execute(t.table_rules.insert().values(game_id=live.id, **rules.as_dict()))
            await conn.execute(t.clocks.insert(), [
                {"game_id": live.id, "seat": s.seat, "remaining": rules.base_seconds or 0.0, "timeouts": 0,
                 "notified": False} for s in live.seats])
        self._rules[live.id] = rules
        await self.follow(live, None, (), None)

    # ------------------------------------------------------------ after each action
    @staticmethod
    async def _rows(conn: Any, gid: str) -> dict[int, dict[str, Any]]:
        rows = (await conn.execute(sa.select(t.clocks).where(t.clocks.c.game_id == gid))).mappings().all()
        return {r["seat"]: dict(r) for r in rows}

    @staticmethod
    def _ask(r: dict[str, Any], now: float, rules: TableRules, year: str | None = None) -> None:
        r["asked_at"] = now
        if rules.pace == "year" and r.get("year_key") != year:   # a new Year: a full budget (PRJ-39)
            r["remaining"], r["year_key"] = rules.year_seconds or 0.0, year
        r["deadline"] = now + (r["remaining"] if rules.budget else (rules.move_seconds or 0.0))

    async def follow(self, live: LiveGame, action: dict[str, Any] | None, before: Any, rights: Rights | None) -> None:
        """The clocks after an action (None: the game's start, or a repair): charge the seat that
        acted, start the clocks of the seats now asked, stop the others'; a seat whose waiting
        period begins is notified (turn-based)."""
        rules = await self.rules(live.id)
        if rules is None or not rules.timed:
            return
        now = time.time()
        after = set() if live.over else set(api.acting(live.state))
        before = set(before)
        actor = action.get("seat") if action else None
        by_clock = rights is not None and rights.role == "clock"
        year = year_key(live.state) if rules.pace == "year" else None
        async with self.storage.write() as conn:
            rows = await self._rows(conn, live.id)
            changed: dict[int, dict[str, Any]] = {}
            if actor in rows:
                r = changed[actor] = dict(rows[actor])
                # PRJ-39: in a Year whose time has run out, the seat's later timeouts count once
                spent = rules.pace == "year" and r["remaining"] <= 0
                if r["asked_at"] is not None and rules.budget:
                    r["remaining"] = max(0.0, r["remaining"] - (now - r["asked_at"])) + (
                        rules.increment_seconds if rules.pace == "live" else 0.0)
                r["timeouts"] = (r["timeouts"] + (0 if spent else 1)) if by_clock else 0
                if actor in after:
                    self._ask(r, now, rules, year)
                else:
                    r["deadline"] = r["asked_at"] = None
                    if not by_clock:  # the player moved: their waiting period is over
                        r["period"], r["notified"] = None, False
            for s, r0 in rows.items():
                if s == actor:
                    continue
                human = s < len(live.seats) and live.seats[s].kind == "human"
                asked = s in after and human
                if asked and (r0["deadline"] is None or (action is not None and s not in before)):
                    r = changed[s] = dict(r0)
                    self._ask(r, now, rules, year)
                elif not asked and r0["deadline"] is not None:
                    r = changed[s] = dict(r0)
                    r["deadline"] = r["asked_at"] = None
            for s, r in changed.items():
                if r["deadline"] is not None and r["period"] is None:
                    r["period"], r["notified"] = live.version, False
                if rules.notifies and r["deadline"] is not None and not r["notified"]:
                    n = await self._notify(conn, live, s, r)
                    r["notified"] = n > 0 or r["notified"]
                await conn.execute(t.clocks.update().where(sa.and_(t.clocks.c.game_id == live.id,
                                                                   t.clocks.c.seat == s))
                                   .values(**{k: v for k, v in r.items() if k not in ("game_id", "seat")}))
            if changed:
                await self._notify_servers(conn, live.id)
        if changed:
            if any(r["notified"] for r in changed.values()):
                self.outbox.wake.set()   # committed: the worker finds the new rows now
            await self._push(live)

    async def _notify(self, conn: Any, live: LiveGame, seat: int, r: dict[str, Any]) -> int:
        rcpt = await recipient_for(conn, live.id, seat)
        if rcpt is None:
            return 0
        from pax_hispanica.web.present.i18n import Tr
        nation = Tr(rcpt.lang).nation(live.nation(seat))
        decision = (api.decision(live.state, seat) or {}).get("decision")
        msgs = self.outbox.render(rcpt, live.id, seat, nation, live.seats[seat].token, decision, r["deadline"],
                                  r["period"])
        return await self.outbox.enqueue(conn, live.id, seat, r["period"], msgs) or len(msgs)

    async def contact_changed(self, live: LiveGame, seat: int) -> None:
        """A seat gave an address while it is asked: tell it now (once per waiting period)."""
        rules = await self.rules(live.id)
        if rules is None or not rules.notifies:
            return
        async with self.storage.write() as conn:
            r = (await self._rows(conn, live.id)).get(seat)
            if r is None or r["deadline"] is None or r["notified"] or r["period"] is None:
                return
            if await self._notify(conn, live, seat, r):
                await conn.execute(t.clocks.update().where(sa.and_(t.clocks.c.game_id == live.id,
                                                                   t.clocks.c.seat == seat)).values(notified=True))
            else:
                return
        self.outbox.wake.set()

    async def _notify_servers(self, conn: Any, gid: str) -> None:
        note = self.svc.pubsub.message(gid, "clock")
        if note is not None:
            await conn.execute(sa.text("SELECT pg_notify(:c, :p)"), {"c": note[0], "p": note[1]})

    # ------------------------------------------------------------ what the pages show
    async def state(self, live: LiveGame) -> dict[str, Any] | None:
        rules = await self.rules(live.id)
        if rules is None or not rules.timed:
            return None
        async with self.storage.read() as conn:
            rows = await self._rows(conn, live.id)
        year = year_key(live.state) if rules.pace == "year" else None

        def left(r: dict[str, Any]) -> float:   # a seat not yet asked in this Year has its whole budget
            return (rules.year_seconds or 0.0) if year is not None and r.get("year_key") != year else r["remaining"]

        seats = [{"seat": s, "remaining": round(left(r), 3), "deadline": r["deadline"],
                  "timeouts": r["timeouts"]} for s, r in sorted(rows.items())]
        return {"type": "clock", "now": time.time(), "pace": rules.pace, "move_seconds": rules.move_seconds,
                "base_seconds": rules.base_seconds, "increment_seconds": rules.increment_seconds,
                "year_seconds": rules.year_seconds, "year": year, "seats": seats}

    async def repair(self, live: LiveGame) -> None:
        """An asked person's clock that is not running (a server died between storing an action
        and its clocks): start it now."""
        rules = await self.rules(live.id)
        if rules is None or not rules.timed or live.over:
            return
        async with self.storage.read() as conn:
            rows = await self._rows(conn, live.id)
        asked = {s for s in api.acting(live.state) if live.seats[s].kind == "human"}
        if any(rows.get(s, {}).get("deadline") is None for s in asked):
            async with live.lock:
                await self.follow(live, None, (), None)

    # ------------------------------------------------------------ the sweeper
    async def sweep_forever(self) -> None:
        while True:
            try:
                await self.sweep_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock sweep failed")
            await asyncio.sleep(self.POLL_SECONDS)

    async def sweep_once(self, now: float | None = None) -> int:
        """Handle every deadline that has passed; how many this server took."""
        now = time.time() if now is None else now
        c = t.clocks.c
        async with self.storage.read() as conn:
            due = (await conn.execute(sa.select(c.game_id, c.seat, c.deadline).where(c.deadline <= now)
                                      .order_by(c.deadline).limit(20))).all()
        taken = 0
        for gid, seat, deadline in due:
            async with self.storage.write() as conn:
                r = await conn.execute(t.clocks.update().where(sa.and_(c.game_id == gid, c.seat == seat,
                                                                       c.deadline == deadline))
                                       .values(deadline=now + self.CLAIM_SECONDS))
            if r.rowcount != 1:
                continue  # another server took it, or the seat moved meanwhile
            taken += 1
            try:
                await self.timeout(gid, seat, now + self.CLAIM_SECONDS)
            except Exception:
                log.exception("timeout of game %s seat %s failed", gid, seat)
        return taken

    async def _stop(self, gid: str, seat: int, claim: float | None, retry_in: float | None = None) -> None:
        """Stop the seat's clock (or try again in retry_in s), unless an action has set it
        since this server claimed it (the deadline is no longer the claim's)."""
        c = t.clocks.c
        where = [c.game_id == gid, c.seat == seat]
        if claim is not None:
            where.append(c.deadline == claim)
        async with self.storage.write() as conn:
            await conn.execute(t.clocks.update().where(sa.and_(*where))
                               .values(deadline=None if retry_in is None else time.time() + retry_in))

    async def timeout(self, gid: str, seat: int, claim: float | None = None) -> None:
        """PRJ-34: a bot plays the seat's decision; after repeated timeouts it takes the seat.
        claim: the deadline this server wrote when it took the timeout."""
        try:
            live = await self.svc.get(gid)
            async with live.lock:
                await self.svc.records.catch_up(live)
        except ServerError:
            await self._stop(gid, seat, claim)
            return
        rules = await self.rules(gid)
        if (rules is None or live.over or seat not in api.acting(live.state)
                or live.seats[seat].kind != "human"):
            await self._stop(gid, seat, claim)
            await self._push(live)
            return
        version = live.version
        view = api.view(live.state, seat)
        legal = api.legal_actions(live.state, seat)
        seed = api.derived_seed(live.seed, f"timeout|{seat}|{version}")
        rights = Rights(gid, "clock", frozenset([seat]))
        for agent in (make_bot(DEFAULT_BOT, seed), fallback_bot(seed)):
            try:
                action = await asyncio.to_thread(agent.decide, view, legal)
                await self.svc.act(rights, action, version)
                break
            except ServerError as e:
                if e.code in ("stale_version", "game_over", "wrong_seat", "damaged_game"):
                    # someone moved first: if that did not reset this clock, look again at once
                    await self._stop(gid, seat, claim, retry_in=0.0 if e.code == "stale_version" else None)
                    return
                log.warning("timeout move in game %s seat %s refused: %s", gid, seat, e.code)
            except Exception:
                log.exception("timeout bot in game %s seat %s failed", gid, seat)
        else:
            await self._stop(gid, seat, claim, retry_in=1.0)
            return
        self.timeouts_handled += 1
        async with self.storage.read() as conn:
            timeouts = (await self._rows(conn, gid)).get(seat, {}).get("timeouts", 0)
        await self._say(live, "chat_timeout_move", RULE, seat=seat)
        if timeouts >= rules.timeouts_to_bot and live.seats[seat].kind == "human":
            try:
                await self.svc.seat_to_bot(Rights(gid, "host"), seat, DEFAULT_BOT)
            except ServerError as e:
                log.warning("handing seat %s of game %s to a bot failed: %s", seat, gid, e.code)
                return
            await self._stop(gid, seat, None)
            await self._say(live, "chat_timeout_bot", RULE, seat=seat, count=timeouts)
            await self._push(live)
