"""Mail the accounts send (password-reset links), behind one small interface.

    class MailSink(Protocol):
        async def enqueue_email(self, to: str, subject: str, body: str, kind: str) -> None

The server's sink is the notifications outbox (outbox.Outbox.enqueue_email): the message is a
row of the durable `outbox` table, sent by the same worker, with the same retries and the same
exactly-once claim across servers, as the turn notifications. `create_app(mail=...)` takes
another sink (a test's, or a mail service's).
"""
from __future__ import annotations

from typing import Protocol


class MailSink(Protocol):
    async def enqueue_email(self, to: str, subject: str, body: str, kind: str) -> None: ...
