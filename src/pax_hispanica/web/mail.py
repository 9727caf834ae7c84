"""Mail the accounts send (password-reset links), behind one small interface.

    class MailSink(Protocol):
        async def enqueue_email(self, to: str, subject: str, body: str, kind: str) -> None

`AccountMail` is the implementation used until the notifications outbox (another part of
issue 16: a durable outbox table and an SMTP worker) is wired in: it stores each message as a
row of `account_mail` (sent_at NULL = not yet sent), in the same database as everything else,
so no mail is lost on a restart. Joining the two: give `create_app` the outbox's sink (any object
with `enqueue_email`), or let the outbox worker also read `account_mail` rows whose sent_at is
NULL and set it when sent. Nothing here opens a network connection.
"""
from __future__ import annotations

import time
from typing import Protocol

import sqlalchemy as sa

from . import accounts_db as adb
from .store import Storage


class MailSink(Protocol):
    async def enqueue_email(self, to: str, subject: str, body: str, kind: str) -> None: ...


class AccountMail:
    """Mail kept in the `account_mail` table for a sender to take."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def enqueue_email(self, to: str, subject: str, body: str, kind: str) -> None:
        async with self.storage.write() as conn:
            await conn.execute(adb.account_mail.insert().values(
                kind=kind, to_addr=to, subject=subject, body=body, created_at=time.time()))

    async def unsent(self, limit: int = 100) -> list[dict]:
        """Messages no sender has taken yet (oldest first)."""
        m = adb.account_mail
        async with self.storage.read() as conn:
            rows = (await conn.execute(sa.select(m).where(m.c.sent_at.is_(None)).order_by(m.c.id)
                                       .limit(limit))).mappings().all()
        return [dict(r) for r in rows]
