"""Notifications through a durable outbox: "your move" by email and webhook.

A message is a row of `outbox` (notify/schema.py), written when a seat's waiting period begins
(notify/clocks.py) and sent by a worker off the request path, so a move never waits for an SMTP
server, and a message survives a restart:

- **Claiming.** PostgreSQL: one transaction per message, `SELECT ... FOR UPDATE SKIP LOCKED`
  on the oldest due row, send, mark it `sent`, commit. Several servers' workers never take the
  same row; a server that dies mid-send rolls back and another sends it (so a crash between
  the SMTP server's "250 OK" and the commit can send that one message twice: exactly once
  between running servers, at least once across a crash). SQLite (one server): a conditional
  `UPDATE ... SET status = 'sending', lease_until = now + LEASE` claims the row (a row whose
  lease ran out, after a crash, is due again).
- **Retries.** A failed send is tried again after BACKOFF * 2**attempts seconds (capped at
  one hour), MAX_ATTEMPTS times, then kept as `dead` with its last error.
- **Batching.** One message per seat per waiting period (`dedupe` is unique:
  "email:<game>:<seat>:<period>"); a period begins when the seat is asked after having acted
  itself, so moves made for it by a timeout bot do not start new ones. A message whose seat
  has acted (or whose period ended) before it went out is `dropped`, not sent
  (PAXH_NOTIFY_DELAY holds messages back that long, so a player at the table gets none).
- **Unsubscribe.** Every email carries a signed link (and `List-Unsubscribe`,
  `List-Unsubscribe-Post: List-Unsubscribe=One-Click`, RFC 8058): /unsubscribe/<token>,
  token = payload.HMAC. A GET only shows a page with a button (a mail scanner that follows
  links unsubscribes nobody); the POST, the button's or the mail client's one click, does it.

Settings (environment): PAXH_SMTP_URL (smtp://[user:pass@]host:port, smtps://, ?starttls=1),
PAXH_MAIL_FROM, PAXH_PUBLIC_URL (the links' base), PAXH_NOTIFY_DELAY, PAXH_OUTBOX_POLL_SECONDS,
PAXH_OUTBOX_BACKOFF, PAXH_OUTBOX_WORKER=0 (no worker in this process).

`recipient_for(conn, game, seat)` is the one place that says where a seat's player is
reached: the seat's own contact row, else the account sitting there (its email and its
webhook, each if on in its settings).
"""
from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import http.client
import json
import logging
import re
import secrets
import smtplib
import ssl
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import sqlalchemy as sa

from pax_hispanica.web import settings
from pax_hispanica.web.db.schema import games
from pax_hispanica.web.db.store import Storage
from pax_hispanica.web.notify import schema as t
from pax_hispanica.web.present.i18n import Tr
import contextlib

log = logging.getLogger("pax_hispanica.web")


@dataclass
class Recipient:
    email: str | None
    webhook: str | None
    lang: str = "en"


async def recipient_for(conn: Any, game_id: str, seat: int) -> Recipient | None:
    """Where the player of `seat` hears of their move (None: nowhere), read on `conn` (the
    caller's transaction): the seat's own contact row if it has one (an unsubscribed email is
    no address), else the account that sits there, by email and by its webhook, as its
    settings say (accounts.DEFAULT_SETTINGS: email on, webhook off)."""
    c = t.seat_contacts.c
    row = (await conn.execute(sa.select(t.seat_contacts).where(sa.and_(c.game_id == game_id, c.seat == seat)))
           ).mappings().first()
    if row is not None:
        email = None if row["unsubscribed"] else row["email"]
        if not email and not row["webhook"]:
            return None
        return Recipient(email, row["webhook"], row["lang"])
    from pax_hispanica.web.accounts import schema as adb
    from pax_hispanica.web.db.schema import seats, users

    a = adb.accounts.c
    acct = (await conn.execute(
        sa.select(a.email, a.settings, users.c.lang)
        .select_from(seats.join(adb.accounts, adb.accounts.c.user_id == seats.c.user_id)
                     .join(users, users.c.id == seats.c.user_id))
        .where(sa.and_(seats.c.game_id == game_id, seats.c.seat == seat)))).mappings().first()
    if acct is None:
        return None
    settings = json.loads(acct["settings"] or "{}")
    notify = settings.get("notify") or {}
    email = acct["email"] if notify.get("email", True) else None
    webhook = (settings.get("webhook") or None) if notify.get("webhook", False) else None
    if not email and not webhook:
        return None
    return Recipient(email, webhook, acct["lang"] or "en")


SIGNED = re.compile(r"[A-Za-z0-9_-]{1,300}\.[0-9a-f]{32}")   # what Signer.sign makes


async def save_seat_contact(storage: Storage, game_id: str, seat: int, values: dict[str, Any]) -> None:
    """Where this seat's player hears of their move (its `seat_contacts` row, made or replaced)."""
    c = t.seat_contacts.c
    async with storage.write() as conn:
        r = await conn.execute(t.seat_contacts.update().where(sa.and_(c.game_id == game_id, c.seat == seat))
                               .values(**values))
        if r.rowcount == 0:
            await conn.execute(t.seat_contacts.insert().values(game_id=game_id, seat=seat, **values))


async def saved_contact(storage: Storage, game_id: str, seat: int) -> dict[str, Any]:
    """What is saved for a seat: its own row ("source": "seat"), else its account's channels
    ("account"), else nothing (None)."""
    c = t.seat_contacts.c
    async with storage.read() as conn:
        row = (await conn.execute(sa.select(t.seat_contacts).where(sa.and_(
            c.game_id == game_id, c.seat == seat)))).mappings().first()
        if row is not None:
            return {"email": None if row["unsubscribed"] else row["email"], "webhook": row["webhook"],
                    "unsubscribed": bool(row["unsubscribed"]), "source": "seat"}
        rcpt = await recipient_for(conn, game_id, seat)
    return {"email": rcpt.email if rcpt else None, "webhook": rcpt.webhook if rcpt else None,
            "unsubscribed": False, "source": "account" if rcpt else None}


class Signer:
    """Signed tokens for one-click links (HMAC-SHA256 with PAXH_SECRET)."""

    def __init__(self, secret: str | None = None) -> None:
        secret = secret or settings.raw("PAXH_SECRET") or secrets.token_hex(32)
        self.key = hashlib.sha256(("paxh-unsubscribe:" + secret).encode()).digest()

    def sign(self, text: str) -> str:
        body = base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
        mac = hmac.new(self.key, body.encode(), hashlib.sha256).hexdigest()[:32]
        return f"{body}.{mac}"

    def open(self, token: str) -> str | None:
        """The signed text, or None for anything that is not a token this signer made: the
        shape is checked first (base64url body, 32 hex digits), so a token with other characters
        (`abc.%C3%A9`) is refused as unknown before any comparison (compare_digest raises
        TypeError on non-ASCII str)."""
        if not isinstance(token, str) or not SIGNED.fullmatch(token):
            return None
        body, _, mac = token.partition(".")
        good = hmac.new(self.key, body.encode(), hashlib.sha256).hexdigest()[:32]
        if not hmac.compare_digest(good.encode(), mac.encode()):
            return None
        try:
            return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode()
        except (ValueError, UnicodeDecodeError):
            return None


# ---------------------------------------------------------------- senders
class SendError(Exception):
    pass


def send_email(smtp_url: str, payload: dict[str, Any]) -> None:
    """Send one email through the SMTP server at smtp_url (blocking: run in a thread)."""
    u = urlsplit(smtp_url)
    if u.scheme not in ("smtp", "smtps"):
        raise SendError(f"PAXH_SMTP_URL: unknown scheme {u.scheme!r}")
    q = parse_qs(u.query)
    msg = EmailMessage()
    for k, v in payload["headers"].items():
        msg[k] = v
    msg.set_content(payload["text"])
    port = u.port or (465 if u.scheme == "smtps" else 25)
    cls = smtplib.SMTP_SSL if u.scheme == "smtps" else smtplib.SMTP
    with cls(u.hostname or "127.0.0.1", port, timeout=20) as s:
        if q.get("starttls", ["0"])[0] not in ("0", ""):
            s.starttls(context=ssl.create_default_context())
        if u.username:
            s.login(unquote(u.username), unquote(u.password or ""))
        s.send_message(msg)


def _internal_allowed() -> bool:
    """PAXH_WEBHOOK_PRIVATE=1: webhooks may reach internal addresses (tests, a private deployment)."""
    return settings.flag("PAXH_WEBHOOK_PRIVATE")


def _internal(ip: str) -> bool:
    """Whether an address is loopback, private, link-local or otherwise not on the internet."""
    import ipaddress
    return not ipaddress.ip_address(ip.split("%", 1)[0]).is_global


async def check_webhook(url: str) -> None:
    """Refuse, when it is saved, a webhook the sender would never call (issue 37, U1: a webhook to
    127.0.0.1 was "Saved." and then every message to it dropped): not http(s) (ServerError
    `bad_webhook`), or a host that is, or resolves now to, a loopback, private, link-local or
    reserved address (`internal_webhook`; PAXH_WEBHOOK_PRIVATE=1 allows those). A name that does
    not resolve within 2 s is let through: the sender checks again at every message."""
    import ipaddress
    import socket

    from pax_hispanica.web.play.model import ServerError
    u = urlsplit(url)
    try:
        port = u.port or (443 if u.scheme == "https" else 80)
    except ValueError:
        port = -1
    if u.scheme not in ("http", "https") or not u.hostname or port <= 0 or any(ch.isspace() for ch in url):
        raise ServerError("bad_webhook", "a webhook is an http:// or https:// URL")
    if _internal_allowed():
        return
    internal = ServerError("internal_webhook", "the server never calls this address: it is loopback, private "
                           "or link-local; give one on the internet")
    host = u.hostname
    try:
        ips = [str(ipaddress.ip_address(host.split("%", 1)[0]))]
    except ValueError:
        if host.rstrip(".").lower().endswith(("localhost", ".local", ".internal", ".localdomain")):
            raise internal from None
        try:
            infos = await asyncio.wait_for(asyncio.get_running_loop().getaddrinfo(
                host, port, type=socket.SOCK_STREAM), 2.0)
        except (TimeoutError, OSError, UnicodeError, ValueError):
            return
        ips = [str(i[4][0]) for i in infos]
    if any(_internal(ip) for ip in ips):
        raise internal


def resolve_public(host: str, port: int) -> list[str]:
    """The addresses a webhook's host resolves to, resolved once, every one of them checked: any
    internal address (loopback, private, link-local, ...) refuses the webhook (SendError) unless
    PAXH_WEBHOOK_PRIVATE=1. The connection then goes to one of these very addresses (pinned), so a
    name whose next answer is 127.0.0.1 (DNS rebinding) is never asked again."""
    import socket
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        raise SendError(f"webhook host {host!r}: {e}") from None
    ips = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not ips:
        raise SendError(f"webhook host {host!r} has no address")
    if not _internal_allowed() and any(_internal(ip) for ip in ips):
        raise SendError(f"webhook host {host!r} is an internal address (PAXH_WEBHOOK_PRIVATE=1 allows it)")
    return ips


def _pinned_socket(ips: list[str], port: int, timeout: float | None) -> Any:
    """A TCP connection to the first of the checked addresses that answers (nothing is sent)."""
    import socket
    last: OSError | None = None
    for ip in ips:
        try:
            sock = socket.create_connection((ip, port), timeout=timeout)
        except OSError as e:
            last = e
            continue
        if not _internal_allowed() and _internal(str(sock.getpeername()[0])):   # belt and braces
            sock.close()
            raise SendError(f"webhook connected to an internal address {ip}")
        return sock
    raise SendError(f"webhook: no connection ({last})")


class _PinnedHTTP(http.client.HTTPConnection):
    """HTTP to a checked address; the Host header still names the URL's host."""

    def __init__(self, host: str, port: int, ips: list[str], timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.ips = ips

    def connect(self) -> None:
        self.sock = _pinned_socket(self.ips, self.port, self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to a checked address: the TLS hello (SNI) and the certificate check name the URL's
    host, and the hello is only sent once the address the socket reached is a checked one."""

    def __init__(self, host: str, port: int, ips: list[str], timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.ips = ips

    def connect(self) -> None:
        sock = _pinned_socket(self.ips, self.port, self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]  # http.client's own context


def post_webhook(url: str, body: dict[str, Any], timeout: float = 10.0) -> None:
    """POST the JSON body to url (blocking: run in a thread); any answer but 2xx fails, and a
    redirect is not followed (a public URL answering 302 to an internal one would otherwise make
    the server call its own network). A URL on an internal address (loopback, private networks,
    link-local) is refused unless PAXH_WEBHOOK_PRIVATE=1, so a player cannot make the server call
    its own network: the name is resolved once, every address it gave is checked, and the
    connection goes to a checked address (issue 37, N9: before, a second resolution for the
    connection could land on 127.0.0.1, and a TLS hello was sent there before the check)."""
    u = urlsplit(url)
    if u.scheme not in ("http", "https") or not u.hostname:
        raise SendError("webhooks are http(s) URLs")
    try:
        port = u.port or (443 if u.scheme == "https" else 80)
    except ValueError:
        raise SendError("webhook: a bad port") from None
    ips = resolve_public(u.hostname, port)
    cls = _PinnedHTTPS if u.scheme == "https" else _PinnedHTTP
    conn = cls(u.hostname, port, ips, timeout)
    path = (u.path or "/") + (f"?{u.query}" if u.query else "")
    try:
        conn.request("POST", path, body=json.dumps(body).encode(),
                     headers={"Content-Type": "application/json", "User-Agent": "pax-hispanica"})
        r = conn.getresponse()
        r.read(65536)
        if 300 <= r.status < 400:
            raise SendError(f"webhook answered {r.status} (redirects are not followed)")
        if not 200 <= r.status < 300:
            raise SendError(f"webhook answered {r.status}")
    except (OSError, http.client.HTTPException) as e:
        raise SendError(f"webhook: {type(e).__name__}: {e}") from None
    finally:
        conn.close()


# ---------------------------------------------------------------- the outbox
class Outbox:
    MAX_ATTEMPTS = 8
    LEASE_SECONDS = 120.0

    def __init__(self, storage: Storage, signer: Signer | None = None) -> None:
        self.storage = storage
        self.signer = signer or Signer()
        self.smtp_url = settings.raw("PAXH_SMTP_URL")
        self.mail_from = settings.raw("PAXH_MAIL_FROM", "Pax Hispanica <noreply@localhost>")
        self.public_url = settings.raw("PAXH_PUBLIC_URL", "http://127.0.0.1:8000").rstrip("/")
        self.delay = settings.seconds("PAXH_NOTIFY_DELAY")
        self.poll = settings.seconds("PAXH_OUTBOX_POLL_SECONDS", minimum=0.05)
        self.backoff = settings.seconds("PAXH_OUTBOX_BACKOFF")
        self.worker_on = settings.flag("PAXH_OUTBOX_WORKER")
        self.wake = asyncio.Event()
        self.jobs: dict[str, Any] = {}   # channel -> async fn(payload) -> settled status ("sent", "dropped")
        self.sent_count = 0
        self.closing = False

    # ------------------------------------------------------------ writing
    def unsubscribe_url(self, game_id: str, seat: int) -> str:
        return f"{self.public_url}/unsubscribe/{self.signer.sign(f'u1:{game_id}:{seat}')}"

    def render(self, rcpt: Recipient, game_id: str, seat: int, nation: str, token: str, decision: str | None,
               deadline: float | None, period: int) -> list[tuple[str, dict[str, Any]]]:
        """The messages for one waiting period: (channel, payload) per channel the player has."""
        link = f"{self.public_url}/play/{token}"
        out: list[tuple[str, dict[str, Any]]] = []
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(deadline)) if deadline else None
        if rcpt.email and self.smtp_url:   # no mail server: no email is queued to fail (U1)
            tr = Tr(rcpt.lang)
            unsub = self.unsubscribe_url(game_id, seat)
            lines = [tr("mail_your_move", nation=nation), "", link, ""]
            if when:
                lines += [tr("mail_deadline", when=when), ""]
            lines += ["--", tr("mail_unsubscribe"), unsub]
            out.append(("email", {
                "headers": {"From": self.mail_from, "To": rcpt.email,
                            "Subject": tr("mail_subject", game=game_id),
                            "Message-ID": make_msgid(domain="paxh.local"),
                            "X-Paxh-Game": game_id, "X-Paxh-Seat": str(seat), "X-Paxh-Period": str(period),
                            "List-Unsubscribe": f"<{unsub}>",
                            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
                "text": "\n".join(lines)}))
        if rcpt.webhook:
            out.append(("webhook", {"url": rcpt.webhook, "body": {
                "type": "your_move", "game": game_id, "seat": seat, "nation": nation, "decision": decision,
                "url": link, "deadline": deadline, "period": period}}))
        return out

    async def enqueue(self, conn: Any, game_id: str, seat: int, period: int, messages: list[tuple[str, dict[str, Any]]]) -> int:
        """Write the messages in the caller's transaction; a period's message exists once."""
        now = time.time()
        n = 0
        for channel, payload in messages:
            dedupe = f"{channel}:{game_id}:{seat}:{period}"
            exists = (await conn.execute(sa.select(t.outbox.c.id).where(t.outbox.c.dedupe == dedupe))).first()
            if exists:
                continue
            await conn.execute(t.outbox.insert().values(
                channel=channel, dedupe=dedupe, game_id=game_id, seat=seat, period=period,
                payload=json.dumps(payload), status="pending", attempts=0, next_attempt=now + self.delay,
                created=now))
            n += 1
        return n   # the caller wakes the worker (`wake.set()`) once its transaction has committed

    async def tell_rematch(self, game_id: str, seats: list[int], table_path: str, by: str,
                           note: tuple[str, str] | None = None) -> int:
        """A rematch of a finished game was asked for (issue 38): each of `seats` (the other
        players) hears of it as their notification settings say (`recipient_for`: email,
        webhook, an unsubscribed seat nowhere); once per seat and game (`dedupe`). note: the
        pub/sub message that tells the other servers' pages (PostgreSQL), sent on commit."""
        link = f"{self.public_url}{table_path}"
        n = 0
        async with self.storage.write() as conn:
            if note is not None:
                await conn.execute(sa.text("SELECT pg_notify(:c, :p)"), {"c": note[0], "p": note[1]})
            for seat in seats:
                rcpt = await recipient_for(conn, game_id, seat)
                if rcpt is None:
                    continue
                out: list[tuple[str, dict[str, Any]]] = []
                if rcpt.email and self.smtp_url:
                    tr = Tr(rcpt.lang)
                    unsub = self.unsubscribe_url(game_id, seat)
                    out.append(("email", {
                        "headers": {"From": self.mail_from, "To": rcpt.email,
                                    "Subject": tr("mail_rematch_subject", game=game_id),
                                    "Message-ID": make_msgid(domain="paxh.local"),
                                    "X-Paxh-Game": game_id, "X-Paxh-Seat": str(seat), "X-Paxh-Kind": "rematch",
                                    "List-Unsubscribe": f"<{unsub}>",
                                    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
                        "text": "\n".join([tr("mail_rematch", name=by), "", link, "", "--",
                                           tr("mail_unsubscribe"), unsub])}))
                if rcpt.webhook:
                    out.append(("webhook", {"url": rcpt.webhook, "body": {
                        "type": "rematch", "game": game_id, "seat": seat, "by": by, "url": link}}))
                for channel, payload in out:
                    dedupe = f"rematch:{channel}:{game_id}:{seat}"
                    if (await conn.execute(sa.select(t.outbox.c.id).where(t.outbox.c.dedupe == dedupe))).first():
                        continue
                    now = time.time()
                    await conn.execute(t.outbox.insert().values(
                        channel=channel, dedupe=dedupe, game_id=game_id, seat=seat, period=None,
                        payload=json.dumps(payload), status="pending", attempts=0, next_attempt=now, created=now))
                    n += 1
        if n:
            self.wake.set()
        return n

    async def enqueue_email(self, to: str, subject: str, body: str, kind: str) -> None:
        """An account's mail (a password-reset link: mail.MailSink), sent by the same worker,
        with the same retries, as the turn notifications; it belongs to no game or period."""
        payload = {"headers": {"From": self.mail_from, "To": to, "Subject": subject,
                               "Message-ID": make_msgid(domain="paxh.local"), "X-Paxh-Kind": kind},
                   "text": body}
        now = time.time()
        async with self.storage.write() as conn:
            await conn.execute(t.outbox.insert().values(
                channel="email", dedupe=f"mail:{kind}:{secrets.token_hex(16)}", game_id=None, seat=None,
                period=None, payload=json.dumps(payload), status="pending", attempts=0, next_attempt=now,
                created=now))
        self.wake.set()

    async def enqueue_job(self, channel: str, payload: dict[str, Any], delay: float = 0.0) -> None:
        """A job for the worker (`self.jobs[channel]`, e.g. "reset": accounts.Accounts.process_reset),
        due after `delay` seconds. A request that must do the same work whatever it is asked (a
        lost password: whether the name exists must not show in the answer's time) writes
        this one row and leaves the rest to the worker."""
        now = time.time()
        async with self.storage.write() as conn:
            await conn.execute(t.outbox.insert().values(
                channel=channel, dedupe=f"{channel}:{secrets.token_hex(16)}", game_id=None, seat=None,
                period=None, payload=json.dumps(payload), status="pending", attempts=0,
                next_attempt=now + delay, created=now))
        self.wake.set()

    # ------------------------------------------------------------ the worker
    async def run_forever(self) -> None:
        if not self.worker_on:
            return
        while not self.closing:
            try:
                while await self.deliver_one():
                    pass
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox worker failed")
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.poll)

    async def deliver_one(self) -> bool:
        """Claim, send and settle the oldest due message; False when none is due. A server that
        stops (the worker cancelled) mid-send first finishes that message and settles it, within
        the send's own timeouts: left claimed, a SQLite row would wait out its lease after the
        restart, and a PostgreSQL one, rolled back after the SMTP server took it, would go twice."""
        job = asyncio.ensure_future(self._deliver_pg() if self.storage.pg else self._deliver_sqlite())
        try:
            return await asyncio.shield(job)
        except asyncio.CancelledError:
            try:
                await job
            except Exception:
                log.exception("outbox: the message in flight at the stop failed")
            raise

    def _due(self, now: float) -> Any:
        o = t.outbox.c
        return sa.or_(sa.and_(o.status == "pending", o.next_attempt <= now),
                      sa.and_(o.status == "sending", o.lease_until < now))

    async def _deliver_pg(self) -> bool:
        now = time.time()
        async with self.storage.engine.begin() as conn:
            row = (await conn.execute(sa.select(t.outbox).where(self._due(now)).order_by(t.outbox.c.next_attempt)
                                      .limit(1).with_for_update(skip_locked=True))).mappings().first()
            if row is None:
                return False
            await conn.execute(t.outbox.update().where(t.outbox.c.id == row["id"])
                               .values(**await self._attempt(conn, row)))
        return True

    async def _deliver_sqlite(self) -> bool:
        now = time.time()
        o = t.outbox.c
        async with self.storage.write() as conn:
            row = (await conn.execute(sa.select(t.outbox).where(self._due(now)).order_by(o.next_attempt)
                                      .limit(1))).mappings().first()
            if row is None:
                return False
            r = await conn.execute(t.outbox.update().where(sa.and_(o.id == row["id"], o.status == row["status"],
                                                                     o.attempts == row["attempts"]))
                                   .values(status="sending", lease_until=now + self.LEASE_SECONDS))
            if r.rowcount != 1:
                return True
        async with self.storage.read() as conn:
            values = await self._attempt(conn, row)
        async with self.storage.write() as conn:
            await conn.execute(t.outbox.update().where(o.id == row["id"]).values(**values))
        return True

    async def _still_waiting(self, conn: Any, row: Any) -> bool:
        if row["game_id"] is None or row["period"] is None:
            return True
        c = t.clocks.c
        period = (await conn.execute(sa.select(c.period).where(sa.and_(c.game_id == row["game_id"],
                                                                        c.seat == row["seat"])))).scalar()
        ret: bool = period == row["period"]
        return ret

    async def _attempt(self, conn: Any, row: Any) -> dict[str, Any]:
        """Send one claimed message; the column values that settle it."""
        if row["channel"] in self.jobs or row["channel"] not in ("email", "webhook"):
            return await self._job(row)
        if not await self._still_waiting(conn, row):
            return {"status": "dropped", "lease_until": None}
        payload = json.loads(row["payload"])
        try:
            if row["channel"] == "email":
                if not self.smtp_url:
                    raise SendError("PAXH_SMTP_URL is not set")
                await asyncio.to_thread(send_email, self.smtp_url, payload)
            else:
                await asyncio.to_thread(post_webhook, payload["url"], payload["body"])
        except Exception as e:  # the server is down, refused, timed out: try again later
            attempts = row["attempts"] + 1
            dead = attempts >= self.MAX_ATTEMPTS
            log.warning("outbox message %s (%s) failed (attempt %d): %s", row["id"], row["channel"], attempts, e)
            return {"status": "dead" if dead else "pending", "attempts": attempts, "lease_until": None,
                    "last_error": f"{type(e).__name__}: {e}"[:500],
                    "next_attempt": time.time() + min(3600.0, self.backoff * 2 ** (attempts - 1))}
        self.sent_count += 1
        return {"status": "sent", "attempts": row["attempts"] + 1, "sent": time.time(), "lease_until": None}

    async def _job(self, row: Any) -> dict[str, Any]:
        """Run one job row (enqueue_job); its payload is emptied once done (a lost password's
        typed name is kept no longer than needed)."""
        run = self.jobs.get(row["channel"])
        attempts = row["attempts"] + 1
        if run is None:
            if attempts >= self.MAX_ATTEMPTS:   # no server on this database runs this kind of job
                return {"status": "dead", "attempts": attempts, "lease_until": None, "payload": "{}",
                        "last_error": f"no handler for {row['channel']!r}"}
            return {"status": "pending", "attempts": attempts, "lease_until": None,
                    "next_attempt": time.time() + min(3600.0, self.backoff * 2 ** (attempts - 1))}
        try:
            status = await run(json.loads(row["payload"]))
        except Exception as e:
            dead = attempts >= self.MAX_ATTEMPTS
            log.warning("outbox job %s (%s) failed (attempt %d): %s", row["id"], row["channel"], attempts, e)
            return {"status": "dead" if dead else "pending", "attempts": attempts, "lease_until": None,
                    "last_error": f"{type(e).__name__}: {e}"[:500],
                    **({"payload": "{}"} if dead else {}),
                    "next_attempt": time.time() + min(3600.0, self.backoff * 2 ** (attempts - 1))}
        return {"status": status, "attempts": attempts, "sent": time.time(), "lease_until": None, "payload": "{}"}

    # ------------------------------------------------------------ unsubscribe
    def unsubscribe_target(self, token: str) -> tuple[str, int] | None:
        """(game, seat) a signed unsubscribe link stands for; None: forged, edited or not one."""
        text = self.signer.open(token)
        if text is None or not text.startswith("u1:"):
            return None
        try:
            _, gid, seat_s = text.split(":")
            seat = int(seat_s)
        except ValueError:
            return None
        return gid, seat

    async def unsubscribe(self, token: str) -> tuple[str, int] | None:
        """No more email for the link's seat of its game (what RFC 8058's one-click POST does).
        A seat reached at its account's address (no contact row of its own) gets a row that says
        so, so `recipient_for` stops there too."""
        target = self.unsubscribe_target(token)
        if target is None:
            return None
        gid, seat = target
        c = t.seat_contacts.c
        try:
            async with self.storage.write() as conn:
                r = await conn.execute(t.seat_contacts.update().where(sa.and_(c.game_id == gid, c.seat == seat))
                                       .values(unsubscribed=True))
                if r.rowcount == 0:
                    if (await conn.execute(sa.select(games.c.id).where(games.c.id == gid))).first() is None:
                        return None
                    await conn.execute(t.seat_contacts.insert().values(
                        game_id=gid, seat=seat, email=None, webhook=None, unsubscribed=True))
        except sa.exc.IntegrityError:   # the same link, clicked twice at once: the other click made the row
            pass
        return gid, seat
