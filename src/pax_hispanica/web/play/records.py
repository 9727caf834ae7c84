"""Records: a game rebuilt from its stored record, checked link by link (play/integrity.py).

`load` replays a game from the database; `catch_up` applies the actions other servers stored
since; a record that does not check out marks the game damaged: one log line,
`games.status = 'damaged'` with the reason (the rows are left as they are), out of memory
for good, and every request for it is answered `damaged_game`."""
from __future__ import annotations

import asyncio
import json
import logging

from pax_hispanica.web.db.store import Storage
from pax_hispanica.web.engine_port import api
from pax_hispanica.web.play import integrity
from pax_hispanica.web.play.cache import LiveCache
from pax_hispanica.web.play.integrity import Damage
from pax_hispanica.web.play.model import LiveGame, ServerError, damage_error

log = logging.getLogger("pax_hispanica.web")


class Records:
    def __init__(self, storage: Storage, cache: LiveCache) -> None:
        self.storage, self.cache = storage, cache

    async def load(self, gid: str) -> LiveGame:
        """Replay a game from the database, checking its hash chain (integrity.check)."""
        g, seat_rows, rows = await self.storage.record_rows(gid)
        try:
            chain = await asyncio.to_thread(integrity.check, gid, g["version"], g["config"], g["seed"],
                                            g["ruleset_version"], rows, g["record_format"])
        except Damage as d:
            raise await self.mark_damaged(gid, d) from None
        if chain.fill or g["status"] == "damaged":
            await self._after_check(gid, chain, g["status"])
        game = chain.game
        record = {"format": api.RECORD_FORMAT, "ruleset_version": g["ruleset_version"],
                  "config": json.loads(g["config"]), "seed": int(g["seed"]),
                  "actions": list(game.record["actions"])}
        return LiveGame(gid, record, int(g["seed"]), g["mode"], g["host_token"], g["spectator_token"],
                        g["host_user"], seat_rows, game.state, list(game.events), chain=chain.head,
                        hashed=chain.hashed or bool(chain.fill))

    async def _after_check(self, gid: str, chain: integrity.Chain, status: str) -> None:
        """A record that checks out: store the hashes of actions from before the chain existed
        (migration 0004), and un-mark a game marked damaged that checks out again (its rows were
        repaired, or the engine that disagreed was replaced)."""
        undamage = None
        if status == "damaged":
            undamage = "over" if api.is_over(chain.game.state) else "active"
        await self.storage.fill_hashes(gid, list(chain.fill), undamage)
        if undamage is not None:
            log.warning("game %s: its record checks out again; no longer marked damaged", gid)

    async def mark_damaged(self, gid: str, damage: Damage) -> ServerError:
        """Record and report a damaged game: one log line, `games.status = 'damaged'` with the
        reason (the rows themselves are left as they are), and out of memory for good."""
        text = str(damage)
        if self.cache.damaged.get(gid) != text:
            log.error("game %s is damaged at %s", gid, text)
        self.cache.damaged[gid] = text
        live = self.cache.live.pop(gid, None)
        if live is not None and live.bot_task is not None and live.bot_task is not asyncio.current_task():
            live.bot_task.cancel()
        try:
            await self.storage.mark_damaged(gid, text)
        except Exception:  # the report must not hide the damage
            log.exception("could not mark game %s damaged", gid)
        return damage_error(text)

    async def catch_up(self, live: LiveGame) -> int:
        """Apply actions stored by other servers since our cache was built, checking each link of
        the chain; returns how many. Also refreshes the seats. A bad one marks the game damaged
        (ServerError) and leaves the cache as it was."""
        live.seats, rows = await self.storage.rows_since(live.id, live.version)
        if not rows:
            return 0
        chain = integrity.Chain(live.id, api.Game(dict(live.record, actions=list(live.record["actions"])),
                                                  live.state, []), live.chain, hashed=live.hashed)
        try:
            steps = [chain.step(n, text, h) for n, text, h in rows]
        except Damage as d:
            raise await self.mark_damaged(live.id, d) from None
        for action, evs in steps:
            live.record["actions"].append(action)
            live.events.extend(evs)
        live.state, live.chain, live.hashed = chain.game.state, chain.head, chain.hashed
        return len(rows)

    async def check_counts(self, live: LiveGame) -> None:
        """After a lost store with nothing new to catch up: is `games.version` still the number
        of stored actions? (If not, no store can ever succeed: the game is damaged, not busy.)"""
        counts = await self.storage.counts(live.id)
        if counts is None:
            return  # still moving: not stuck, so not this kind of damage
        version, count, status, damage = counts
        if version != count:
            raise await self.mark_damaged(live.id, Damage(min(version, count),
                                                          f"games.version is {version} but {count} actions are stored"))
        if status == "damaged":  # another server found it damaged
            raise await self.mark_damaged(live.id, Damage(None, damage or "marked damaged by another server"))
