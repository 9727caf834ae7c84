"""Accounts: register, log in and out, sessions, a lost password reset by mail, settings, and
moving an anonymous browser's seats into an account (issue 16).

An account is a row of `users` (the same kind of row an anonymous browser has) plus a row of
`accounts` with its user name and argon2 password hash. A logged-in browser carries a session
cookie (`paxh_session`: a random token; the database keeps only its sha256, so a leaked table
opens nothing); the anonymous cookie (`paxh_user`) stays as it is, so logging out brings the
browser's anonymous games back. Every login makes a new session token (a session id that
someone planted before the login never becomes a logged-in session), and a password reset
ends every session of the account.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import secrets
import time
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from pax_hispanica.web import settings
from pax_hispanica.web.accounts import schema as adb
from pax_hispanica.web.db import schema as db
from pax_hispanica.web.db.store import Storage
from pax_hispanica.web.notify.mail import MailSink
from pax_hispanica.web.play.model import ServerError
from pax_hispanica.web.social import schema as social_db

SESSION_COOKIE = "paxh_session"
SESSION_SECONDS = 30 * 24 * 3600      # a session lasts 30 days from its login
RESET_SECONDS = 3600                  # a reset link works once, for one hour
RESET_JITTER = 1.0                    # a lost-password job runs within this many seconds, at random
DEFAULT_PUBLIC_URL = "http://127.0.0.1:8000"   # links in mail when PAXH_PUBLIC_URL is not set
log = logging.getLogger("pax_hispanica.web")
USER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,31}")
EMAIL = re.compile(r"[^@\s\x00-\x1f\x7f]{1,64}@[^@\s\x00-\x1f\x7f]{1,189}\.[^@\s\x00-\x1f\x7f]{1,60}")
MIN_PASSWORD, MAX_PASSWORD = 8, 256
# a table's time control: the table's game gets these clocks (play.time_control_table, PRJ-34, PRJ-39)
TIME_CONTROLS = ("", "live:10+10", "live:30+30", "turn:24h", "turn:72h", "year:1d", "year:3d")
CHANNELS = ("email", "webhook")
DEFAULT_SETTINGS: dict[str, Any] = {"notify": {"email": True, "webhook": False}, "time_control": "", "webhook": ""}
WEBHOOK = re.compile(r"https?://[^\s\x00-\x1f\x7f]{1,490}")   # the account's webhook (a JSON POST per move)


def admins() -> set[str]:
    """PAXH_ADMINS: the user names whose existing accounts get the admin flag when a server
    starts (the bootstrap of the first moderator; `paxh admin grant NAME` is the other way).
    Registering never gives the flag, and a name in PAXH_ADMINS that has no account is reserved:
    nobody registers it, in any letter case (issue 37, N5: whoever registered such a name
    first became a moderator)."""
    return {x.strip() for x in settings.raw("PAXH_ADMINS").split(",") if x.strip()}


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    """The accounts service. `mail` is where reset links go (mail.MailSink)."""

    def __init__(self, storage: Storage, mail: MailSink, hasher: PasswordHasher | None = None,
                 outbox: Any = None, public_url: str = DEFAULT_PUBLIC_URL,
                 reset_limits: list[Any] | None = None) -> None:
        """outbox: the worker that runs lost-password requests (outbox.Outbox; its job "reset" is
        `process_reset`); public_url: the base of every link in mail (PAXH_PUBLIC_URL, never a
        request's Host); reset_limits: `limits` items, reset mails queued per account."""
        self.storage = storage
        self.mail = mail
        self.outbox = outbox
        self.public_url = public_url.rstrip("/")
        self.reset_limits = list(reset_limits or [])
        if outbox is not None:
            outbox.jobs["reset"] = self.process_reset
        self.hasher = hasher or PasswordHasher()
        self._dummy = self.hasher.hash(secrets.token_hex(16))  # an unknown name costs a verify too

    # ------------------------------------------------------------------ passwords
    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, stored: str, password: str) -> bool:
        def check() -> bool:
            try:
                return self.hasher.verify(stored, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False
        return await asyncio.to_thread(check)

    @staticmethod
    def check_password(password: str) -> None:
        if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise ServerError("weak_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")

    # ------------------------------------------------------------------ accounts
    async def register(self, name: str, password: str, email: str = "", lang: str = "en") -> str:
        """A new account; returns its user id. Refuses a bad or taken name, a short password."""
        name, email = name.strip(), email.strip()
        if not USER_NAME.fullmatch(name):
            raise ServerError("bad_user_name", "a user name has 3 to 32 letters, digits, '.', '_' or '-'")
        self.check_password(password)
        if email and not EMAIL.fullmatch(email):
            raise ServerError("bad_email", "that is not an email address")
        if await self.by_name(name) is not None:
            raise ServerError("name_taken", "that user name is taken", status=409)
        if name.lower() in {n.lower() for n in admins()}:   # an admin name nobody has yet (N5)
            raise ServerError("name_reserved", "that user name is reserved on this server", status=409)
        hashed = await self._hash(password)
        uid = secrets.token_urlsafe(18)
        is_admin = False   # only `paxh admin grant` and PAXH_ADMINS at start, for an existing account
        try:
            async with self.storage.write() as conn:
                await conn.execute(db.users.insert().values(id=uid, name=name, lang=lang))
                await conn.execute(adb.accounts.insert().values(
                    user_id=uid, user_name=name, user_name_key=name.lower(), password=hashed,
                    email=email or None, settings=json.dumps(DEFAULT_SETTINGS), created_at=time.time(),
                    is_admin=is_admin))
        except sa.exc.IntegrityError:   # the same name registered a moment ago
            raise ServerError("name_taken", "that user name is taken", status=409) from None
        return uid

    async def by_name(self, name: str) -> dict[str, Any] | None:
        a = adb.accounts
        async with self.storage.read() as conn:
            row = (await conn.execute(sa.select(a).where(a.c.user_name_key == name.strip().lower()))).mappings().first()
        return dict(row) if row else None

    async def get(self, uid: str) -> dict[str, Any] | None:
        a = adb.accounts
        async with self.storage.read() as conn:
            row = (await conn.execute(sa.select(a).where(a.c.user_id == uid))).mappings().first()
        if not row:
            return None
        out = dict(row)
        out["settings"] = {**DEFAULT_SETTINGS, **json.loads(out["settings"] or "{}")}
        return out

    async def authenticate(self, name: str, password: str) -> str:
        """The user id of the account with this name and password, else ServerError(bad_login)
        (the same answer and about the same time for an unknown name)."""
        acct = await self.by_name(name) if USER_NAME.fullmatch(name.strip()) else None
        ok = await self._verify(acct["password"] if acct else self._dummy, password[:MAX_PASSWORD])
        if not (acct and ok):
            raise ServerError("bad_login", "wrong user name or password", status=401)
        if self.hasher.check_needs_rehash(acct["password"]):
            await self._set_password(acct["user_id"], password)
        ret: str = acct["user_id"]
        return ret

    async def _set_password(self, uid: str, password: str) -> None:
        hashed = await self._hash(password)
        async with self.storage.write() as conn:
            await conn.execute(adb.accounts.update().where(adb.accounts.c.user_id == uid).values(password=hashed))

    # ------------------------------------------------------------------ sessions
    async def new_session(self, uid: str) -> str:
        """A fresh session for `uid`; returns the cookie's value (only its hash is stored)."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        async with self.storage.write() as conn:
            await conn.execute(adb.account_sessions.insert().values(
                id=digest(token), user_id=uid, created_at=now, expires_at=now + SESSION_SECONDS))
        return token

    async def session_user(self, token: str | None) -> str | None:
        """The user id a session cookie stands for (None: no such session, or it ran out)."""
        if not token or len(token) > 100:
            return None
        s = adb.account_sessions
        async with self.storage.read() as conn:
            row = (await conn.execute(sa.select(s.c.user_id, s.c.expires_at).where(s.c.id == digest(token)))).first()
        if row is None or row.expires_at < time.time():
            return None
        ret: str | None = row.user_id
        return ret

    async def session_account(self, token: str | None) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """(users row, account with its settings) of a live session, in one statement; None when
        the cookie is no live session."""
        if not token or len(token) > 100:
            return None
        s, u, a = adb.account_sessions, db.users, adb.accounts
        q = (sa.select(u.c.id, u.c.name, u.c.lang, u.c.created_at, s.c.expires_at, *[c.label("a_" + c.name) for c in a.c])
             .select_from(s.join(u, u.c.id == s.c.user_id).join(a, a.c.user_id == s.c.user_id))
             .where(s.c.id == digest(token)))
        async with self.storage.read() as conn:
            row = (await conn.execute(q)).mappings().first()
        if row is None or row["expires_at"] < time.time():
            return None
        user = {k: row[k] for k in ("id", "name", "lang", "created_at")}
        acct = {c.name: row["a_" + c.name] for c in a.c}
        acct["settings"] = {**DEFAULT_SETTINGS, **json.loads(acct["settings"] or "{}")}
        return user, acct

    async def end_session(self, token: str | None) -> None:
        if token:
            async with self.storage.write() as conn:
                await conn.execute(adb.account_sessions.delete().where(adb.account_sessions.c.id == digest(token)))

    async def end_sessions(self, uid: str) -> None:
        async with self.storage.write() as conn:
            await conn.execute(adb.account_sessions.delete().where(adb.account_sessions.c.user_id == uid))

    # ------------------------------------------------------------------ lost password
    @staticmethod
    def reset_key(who: str) -> str | None:
        """What a lost-password request names, as counted by its per-name limit (None: it cannot
        be a name or an address, and nothing is done for it)."""
        who = who.strip()[:254]
        if not (USER_NAME.fullmatch(who) or EMAIL.fullmatch(who)):
            return None
        return who.lower()

    async def request_reset(self, who: str, lang: str = "en") -> None:
        """Ask for a one-time reset link for the account named `who` (or with that email). The
        request does the same work whatever `who` is (issue 37, N10): it queues one job row and
        returns; the outbox worker (`process_reset`), a random moment within RESET_JITTER
        seconds later, finds the account and, if it has an address and is under its limit,
        queues the mail. So neither the answer nor its time tells which names exist or have an
        address. Without an outbox (a test's), the job runs at once."""
        who = who.strip()[:254]
        if self.reset_key(who) is None:
            return
        payload = {"who": who, "lang": lang}
        if self.outbox is None:
            await self.process_reset(payload)
            return
        await self.outbox.enqueue_job("reset", payload, delay=secrets.randbelow(1000) / 1000 * RESET_JITTER)

    async def process_reset(self, payload: dict[str, Any]) -> str:
        """The worker's half of `request_reset`: "sent" when a mail was queued, else "dropped"
        (no such account, no address, or over the per-account limit PAXH_RATE_RESET_ACCOUNT,
        which drops silently: telling would show that the account exists)."""
        from pax_hispanica.web.present.i18n import LANGS, Tr

        a = adb.accounts
        who = str(payload.get("who", ""))[:254].strip()
        lang = str(payload.get("lang")) if payload.get("lang") in LANGS else "en"
        if self.reset_key(who) is None:
            return "dropped"
        async with self.storage.read() as conn:
            row = (await conn.execute(sa.select(a.c.user_id, a.c.user_name, a.c.email).where(
                sa.or_(a.c.user_name_key == who.lower(), a.c.email == who)).limit(1))).first()
        if row is None or not row.email:
            return "dropped"
        now = time.time()
        r = adb.password_resets
        async with self.storage.write() as conn:
            if self.storage.pg:   # two servers' workers count one account's links one at a time
                await conn.execute(sa.select(a.c.user_id).where(a.c.user_id == row.user_id).with_for_update())
            for item in self.reset_limits:   # links made in the last window (a link lives RESET_SECONDS)
                since = now - item.get_expiry() + RESET_SECONDS
                made = (await conn.execute(sa.select(sa.func.count()).select_from(r).where(
                    sa.and_(r.c.user_id == row.user_id, r.c.expires_at > since)))).scalar_one()
                if made >= item.amount:
                    log.info("a reset mail for account %s not queued: over its limit %s", row.user_id, item)
                    return "dropped"
            token = secrets.token_urlsafe(32)
            await conn.execute(r.insert().values(id=digest(token), user_id=row.user_id,
                                                 expires_at=now + RESET_SECONDS))
        tr = Tr(lang)
        link = f"{self.public_url}/reset/{token}"
        await self.mail.enqueue_email(row.email, tr("reset_mail_subject"),
                                      tr("reset_mail_body").format(name=row.user_name, link=link),
                                      "password_reset")
        return "sent"

    async def reset_valid(self, token: str) -> str | None:
        r = adb.password_resets
        if len(token) > 100:
            return None
        async with self.storage.read() as conn:
            row = (await conn.execute(sa.select(r).where(r.c.id == digest(token)))).first()
        if row is None or row.used or row.expires_at < time.time():
            return None
        ret: str | None = row.user_id
        return ret

    async def reset(self, token: str, password: str) -> str:
        """Set a new password through a reset link (once); every session of the account ends."""
        self.check_password(password)
        r = adb.password_resets
        async with self.storage.write() as conn:   # used once: the UPDATE that marks it wins
            res = await conn.execute(r.update().where(sa.and_(r.c.id == digest(token), r.c.used == sa.false(),
                                                              r.c.expires_at >= time.time())).values(used=True))
            if res.rowcount != 1:
                raise ServerError("bad_reset_link", "this reset link is used, too old or unknown", status=400)
            uid = (await conn.execute(sa.select(r.c.user_id).where(r.c.id == digest(token)))).scalar_one()
        await self._set_password(uid, password)
        await self.end_sessions(uid)
        ret: str = uid
        return ret

    # ------------------------------------------------------------------ settings
    async def save_settings(self, uid: str, lang: str | None, notify: dict[str, bool], time_control: str,
                            email: str | None, webhook: str | None = None) -> None:
        """webhook: the URL the account's "your move" JSON POSTs go to (None: keep the stored one)."""
        if time_control not in TIME_CONTROLS:
            raise ServerError("malformed", "unknown time control")
        email = (email or "").strip()
        if email and not EMAIL.fullmatch(email):
            raise ServerError("bad_email", "that is not an email address")
        if webhook is None:
            webhook = ((await self.get(uid)) or {}).get("settings", {}).get("webhook", "")
        webhook = (webhook or "").strip()
        if webhook and not WEBHOOK.fullmatch(webhook):
            raise ServerError("bad_webhook", "a webhook is an http:// or https:// URL")
        if webhook:   # one the sender would never call is refused now, not dropped later (U1)
            from pax_hispanica.web.notify.outbox import check_webhook
            await check_webhook(webhook)
        settings = {"notify": {c: bool(notify.get(c)) for c in CHANNELS}, "time_control": time_control,
                    "webhook": webhook}
        async with self.storage.write() as conn:
            await conn.execute(adb.accounts.update().where(adb.accounts.c.user_id == uid).values(
                settings=json.dumps(settings), email=email or None))
            if lang is not None:
                await conn.execute(db.users.update().where(db.users.c.id == uid).values(lang=lang))

    # ------------------------------------------------------------------ moderators
    async def set_admin(self, name: str, on: bool = True) -> bool:
        """Give (or take) the admin flag of the account named `name`; False: no such account."""
        a = adb.accounts
        async with self.storage.write() as conn:
            r = await conn.execute(a.update().where(a.c.user_name_key == name.strip().lower()).values(is_admin=on))
        ret: bool = r.rowcount == 1
        return ret

    # ------------------------------------------------------------------ anonymous seats
    async def anonymous_games(self, anon_uid: str) -> int:
        """How many games an anonymous browser's user plays or hosts."""
        g, s = db.games, db.seats
        async with self.storage.read() as conn:
            seated = (await conn.execute(sa.select(sa.func.count(sa.distinct(s.c.game_id)))
                                         .where(s.c.user_id == anon_uid))).scalar_one()
            hosted = (await conn.execute(sa.select(sa.func.count()).select_from(g)
                                         .where(g.c.host_user == anon_uid))).scalar_one()
        ret: int = max(seated, hosted)
        return ret

    async def claim(self, anon_uid: str, uid: str) -> int:
        """Move an anonymous browser's seats and hosted games into an account (seats of games the
        account already plays stay where they are: one person, one seat). Returns seats moved."""
        if anon_uid == uid or await self.get(anon_uid) is not None:   # never another account's
            return 0
        g, s = db.games, db.seats
        async with self.storage.write() as conn:
            mine = sa.select(s.c.game_id).where(s.c.user_id == uid)
            res = await conn.execute(s.update().where(sa.and_(s.c.user_id == anon_uid, ~s.c.game_id.in_(mine)))
                                     .values(user_id=uid))
            await conn.execute(g.update().where(g.c.host_user == anon_uid).values(host_user=uid))
            await conn.execute(social_db.table_seats.update().where(social_db.table_seats.c.user_id == anon_uid)
                               .values(user_id=uid))
        ret: int = res.rowcount
        return ret


# ---------------------------------------------------------------------- moderators, outside a server
def set_admin_sync(url: str, name: str, on: bool = True) -> bool:
    """`paxh admin grant|revoke NAME`: the admin flag of an account, with no server running (a
    plain transaction; a running server reads the flag with each request)."""
    from pax_hispanica.web.db.schema import migrate, sync_url
    migrate(url)
    a = adb.accounts
    eng = sa.create_engine(sync_url(url))
    try:
        with eng.begin() as conn:
            return conn.execute(a.update().where(a.c.user_name_key == name.strip().lower())
                                .values(is_admin=on)).rowcount == 1
    finally:
        eng.dispose()


def admin_names_sync(url: str) -> list[str]:
    from pax_hispanica.web.db.schema import migrate, sync_url
    migrate(url)
    a = adb.accounts
    eng = sa.create_engine(sync_url(url))
    try:
        with eng.connect() as conn:
            return list(conn.execute(sa.select(a.c.user_name).where(a.c.is_admin == sa.true())
                                     .order_by(a.c.user_name_key)).scalars())
    finally:
        eng.dispose()


def grant_bootstrap_admins(url: str) -> list[str]:
    """PAXH_ADMINS at a server's start: the existing accounts so named get the admin flag. A name
    without an account gets nothing (a warning is logged) and is reserved: registering it, in any
    letter case, is refused, so nobody can take a moderator's name before its owner does. Nothing
    is ever taken away here: a name removed from PAXH_ADMINS keeps its flag until `paxh admin revoke`."""
    names = sorted(admins())
    granted = [n for n in names if set_admin_sync(url, n, True)] if names else []
    for n in names:
        if n not in granted:
            log.warning("PAXH_ADMINS names %r, which no account has: nothing granted, and the name is "
                        "reserved (register the account with another name and run `paxh admin grant`, or "
                        "take the name out of PAXH_ADMINS, register it, then put it back)", n)
    return granted

