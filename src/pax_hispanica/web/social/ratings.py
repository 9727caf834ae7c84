"""Ratings (issue 16, rule PRJ-35): openskill's Plackett-Luce model, free-for-all, 2-5 players.

Each rated subject has one rating (mu, sigma; openskill's defaults mu 25, sigma 25/3):
an account ("user:<users.id>"), or a bot kind ("bot:heuristic", "bot:random"; a search bot per
strength: "bot:ismcts:3"), so players see what a bot kind is worth. A rating is shown as its
ordinal, mu - 3 sigma (openskill's `ordinal()`: a conservative estimate that starts at 0).

Which games count (PRJ-35, docs/rules.md): a finished game made from a table (open table or
rematch: the server drew its seed, and the table recorded who sat where at the start), with no
variant, with at least one account, where no seat that a person started changed hands to a
bot. Every other finished table game is recorded as unrated with its reason; games made from
links alone are never rated.

A game is rated once: its row in `rating_games` (primary key) is written in the same
transaction as the new ratings, and on PostgreSQL that transaction first takes an advisory lock,
so two servers never rate at once (nor lose one another's update of a player's rating). Games
are rated in the order they finished, by the periodic sweep (tables.SWEEP_SECONDS) and before a
page shows ratings.

Two seats played by the same bot kind in one game are two players of that game, both starting
from the bot's rating; the bot's new rating is the mean of its seats' new mu and sigma.
"""
from __future__ import annotations

import json
import time
from collections import defaultdict
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce

from pax_hispanica.web.accounts import schema as adb
from pax_hispanica.web.db import schema as db
from pax_hispanica.web.db.store import Storage
from pax_hispanica.web.engine_port import SEARCH_BOTS
from pax_hispanica.web.social import schema as social_db

RATING_LOCK = 0x72617465   # "rate": pg_advisory_xact_lock key while rating


def model() -> PlackettLuce:
    return PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def bot_subject(kind: str | None, strength: int | None) -> str:
    return f"bot:{kind}:{strength or 2}" if kind in SEARCH_BOTS else f"bot:{kind}"


class Ratings:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.model = model()

    async def pending(self, conn: Any, limit: int) -> list[Any]:
        """Finished table games not yet looked at, in the order they finished."""
        t, g, rg = social_db.open_tables, db.games, social_db.rating_games
        q = (sa.select(t.c.id.label("table_id"), t.c.game_id, t.c.params, g.c.result, g.c.config)
             .select_from(t.join(g, g.c.id == t.c.game_id).outerjoin(rg, rg.c.game_id == t.c.game_id))
             .where(sa.and_(t.c.status == "started", g.c.status == "over", rg.c.game_id.is_(None)))
             .order_by(g.c.updated_at, g.c.id).limit(limit))
        return list((await conn.execute(q)).all())

    async def rate_pending(self, limit: int = 200) -> int:
        """Rate (or mark unrated) every finished table game not yet looked at; returns how many."""
        async with self.storage.read() as conn:   # the usual case, in one read: nothing to do
            if not await self.pending(conn, 1):
                return 0
        done = 0
        async with self.storage.write() as conn:
            if self.storage.pg:
                await conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": RATING_LOCK})
            for row in await self.pending(conn, limit):
                await self._rate_one(conn, row)
                done += 1
            if done:
                await conn.execute(social_db.open_tables.update().where(social_db.open_tables.c.game_id.in_(
                    sa.select(social_db.rating_games.c.game_id))).where(social_db.open_tables.c.status == "started")
                    .values(status="finished"))
        return done

    async def _rate_one(self, conn: Any, row: Any) -> None:
        now = time.time()
        gid = row.game_id
        first = (await conn.execute(sa.select(social_db.table_seats).where(social_db.table_seats.c.table_id == row.table_id)
                                    .order_by(social_db.table_seats.c.seat))).all()
        now_seats = {s.seat: s for s in await self.storage.seats(conn, gid)}
        params = json.loads(row.params or "{}") or json.loads(row.config).get("params") or {}
        reason = ""
        if params:
            reason = "variant"
        elif any(s.kind == "human" and now_seats[s.seat].kind != "human" for s in first):
            reason = "bot_took_over"
        elif not any(s.kind == "human" for s in first):
            reason = "no_account"
        result = json.loads(row.result or "{}")
        ranking = result.get("ranking") or []
        if not reason and sorted(ranking) != sorted(s.seat for s in first):
            reason = "no_result"
        await conn.execute(social_db.rating_games.insert().values(game_id=gid, rated=not reason, reason=reason, at=now))
        if reason:
            return
        subjects = {s.seat: (f"user:{s.user_id}" if s.kind == "human" else bot_subject(s.bot_kind, s.bot_strength))
                    for s in first}
        stored = {r.subject: r for r in (await conn.execute(sa.select(social_db.ratings).where(
            social_db.ratings.c.subject.in_(set(subjects.values()))))).all()}
        order = list(ranking)      # seats from first to last
        before = {}
        teams = []
        for seat in order:
            r = stored.get(subjects[seat])
            before[seat] = (r.mu, r.sigma) if r else (self.model.mu, self.model.sigma)
            teams.append([self.model.rating(mu=before[seat][0], sigma=before[seat][1])])
        new = self.model.rate(teams, ranks=list(range(len(order))))
        after: dict[str, list[tuple[float, float]]] = defaultdict(list)
        changes = []
        for place, (seat, team) in enumerate(zip(order, new), start=1):
            mu, sigma = team[0].mu, team[0].sigma
            after[subjects[seat]].append((mu, sigma))
            changes.append({"game_id": gid, "seat": seat, "subject": subjects[seat], "place": place,
                            "mu_before": before[seat][0], "sigma_before": before[seat][1], "mu_after": mu,
                            "sigma_after": sigma, "at": now})
        await conn.execute(social_db.rating_changes.insert(), changes)
        for subject, values in after.items():
            mu = sum(v[0] for v in values) / len(values)
            sigma = sum(v[1] for v in values) / len(values)
            if subject in stored:
                await conn.execute(social_db.ratings.update().where(social_db.ratings.c.subject == subject).values(
                    mu=mu, sigma=sigma, games=social_db.ratings.c.games + 1, updated_at=now))
            else:
                await conn.execute(social_db.ratings.insert().values(subject=subject, mu=mu, sigma=sigma, games=1,
                                                               updated_at=now))

    # ------------------------------------------------------------------ reading
    async def rating(self, subject: str) -> dict[str, Any]:
        async with self.storage.read() as conn:
            r = (await conn.execute(sa.select(social_db.ratings).where(social_db.ratings.c.subject == subject))).first()
        mu, sigma, games = (r.mu, r.sigma, r.games) if r else (self.model.mu, self.model.sigma, 0)
        return {"subject": subject, "mu": mu, "sigma": sigma, "games": games, "ordinal": ordinal(mu, sigma)}

    async def bots(self) -> list[dict[str, Any]]:
        async with self.storage.read() as conn:
            rows = (await conn.execute(sa.select(social_db.ratings).where(social_db.ratings.c.subject.like("bot:%")))).all()
        out = [{"subject": r.subject, "kind": r.subject.split(":")[1],
                "strength": int(r.subject.split(":")[2]) if r.subject.count(":") == 2 else None,
                "mu": r.mu, "sigma": r.sigma, "games": r.games, "ordinal": ordinal(r.mu, r.sigma)} for r in rows]
        return sorted(out, key=lambda x: -x["ordinal"])

    async def top(self, limit: int = 20) -> list[dict[str, Any]]:
        r, a = social_db.ratings, adb.accounts
        q = (sa.select(r.c.mu, r.c.sigma, r.c.games, a.c.user_name)
             .select_from(r.join(a, r.c.subject == sa.literal("user:") + a.c.user_id))
             .order_by((r.c.mu - 3 * r.c.sigma).desc()).limit(limit))
        async with self.storage.read() as conn:
            rows = (await conn.execute(q)).all()
        return [{"user_name": x.user_name, "mu": x.mu, "sigma": x.sigma, "games": x.games,
                 "ordinal": ordinal(x.mu, x.sigma)} for x in rows]

    async def game_status(self, gid: str) -> dict[str, Any] | None:
        """Whether a finished table game was rated (and why not), with its rating changes."""
        async with self.storage.read() as conn:
            row = (await conn.execute(sa.select(social_db.rating_games).where(social_db.rating_games.c.game_id == gid))).first()
            if row is None:
                return None
            changes = (await conn.execute(sa.select(social_db.rating_changes).where(social_db.rating_changes.c.game_id == gid)
                                          .order_by(social_db.rating_changes.c.place))).all()
        return {"rated": row.rated, "reason": row.reason,
                "changes": [{"seat": c.seat, "place": c.place, "subject": c.subject,
                             "delta": ordinal(c.mu_after, c.sigma_after) - ordinal(c.mu_before, c.sigma_before)}
                            for c in changes]}

    async def record(self, uid: str, recent: int = 10) -> dict[str, Any]:
        """Games played (finished) and the most recent results of a user: place, players, rating change."""
        g, s, rc = db.games, db.seats, social_db.rating_changes
        played = (sa.select(sa.func.count()).select_from(s.join(g, g.c.id == s.c.game_id))
                  .where(sa.and_(s.c.user_id == uid, g.c.status == "over")))
        q = (sa.select(g.c.id, g.c.updated_at, g.c.result, g.c.spectator_token, s.c.seat, rc.c.mu_before,
                       rc.c.sigma_before, rc.c.mu_after, rc.c.sigma_after)
             .select_from(s.join(g, g.c.id == s.c.game_id)
                          .outerjoin(rc, sa.and_(rc.c.game_id == s.c.game_id, rc.c.seat == s.c.seat)))
             .where(sa.and_(s.c.user_id == uid, g.c.status == "over"))
             .order_by(g.c.updated_at.desc()).limit(recent))
        async with self.storage.read() as conn:
            count = (await conn.execute(played)).scalar_one()
            rows = (await conn.execute(q)).all()
        results = []
        for r in rows:
            res = json.loads(r.result or "{}")
            ranking = res.get("ranking") or []
            results.append({"game": r.id, "at": r.updated_at, "replay": r.spectator_token,
                            "place": ranking.index(r.seat) + 1 if r.seat in ranking else None,
                            "players": len(ranking),
                            "delta": None if r.mu_before is None else
                            ordinal(r.mu_after, r.sigma_after) - ordinal(r.mu_before, r.sigma_before)})
        return {"played": count, "recent": results}
