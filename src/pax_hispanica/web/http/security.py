"""What a hostile client can send, refused early and cheaply (issue 12).

Pure ASGI middlewares (no request object, nothing read into memory that we
will refuse anyway) and small checks the routes share:

    BodyLimit         request bodies over MAX_BODY -> 413 too_large (Content-Length, then while streaming)
    SecurityHeaders   CSP without inline script, frame-ancestors/X-Frame-Options, nosniff,
                      Referrer-Policy no-referrer, Cache-Control no-store on pages with tokens
    OriginGuard       a state-changing request or WebSocket from another site -> 403 cross_origin
    parse_json        JSON within MAX_DEPTH nesting and MAX_DIGITS per number, else ServerError(malformed)
    csrf_token/csrf_ok  the lobby form's token, an HMAC of the user id with the server secret

Every refusal is the API's envelope {"error": {"code", "rule", "message"}}.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from pax_hispanica.web import settings
from pax_hispanica.web.play.model import ServerError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 64 * 1024      # bytes of a request body or a WebSocket message; the largest real one is ~1 KB
MAX_DEPTH = 32            # JSON nesting; a real action is 3 deep
MAX_DIGITS = 30           # digits in one JSON number; every real number has a few

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def error_body(code: str, message: str, rule: str | None = None, **extra: Any) -> bytes:
    return json.dumps({"error": {"code": code, "rule": rule, "message": message, **extra}}).encode()


async def send_json(send: Send, status: int, body: bytes, headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *headers]})
    await send({"type": "http.response.body", "body": body})


def header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", ()):
        if k == name:
            ret: str = v.decode("latin-1")
            return ret
    return None


# ---------------------------------------------------------------- body size
class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuse request bodies over `limit` bytes with 413 before they are read:
    at once from Content-Length, else (chunked, or a Content-Length that lies
    low) as soon as the streamed body passes the limit. The app never holds
    more than `limit` bytes of one body."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = header(scope, b"content-length")
        if length is not None:
            if not length.strip().isdigit():
                return await send_json(send, 400, error_body("malformed", "Content-Length is not a number"),
                                       [(b"connection", b"close")])
            if len(length.strip()) > 18 or int(length) > self.limit:
                return await self._refuse(send)
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return msg

        async def tracking_send(msg: Message) -> None:
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        await send_json(send, 413, error_body("too_large", f"request bodies are at most {self.limit} bytes"),
                        [(b"connection", b"close")])


# ---------------------------------------------------------------- JSON
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET_OR_NUMBER = re.compile(r"[\[\]{}]|\d+")


def check_json_shape(text: str, max_depth: int = MAX_DEPTH, max_digits: int = MAX_DIGITS) -> None:
    """Refuse deep nesting and long numbers before json.loads sees them (its
    recursion would raise RecursionError; a 5000-digit int costs quadratic time
    and then ValueError). One regex pass over the text with strings removed."""
    depth = 0
    for m in _BRACKET_OR_NUMBER.finditer(_STRING.sub('""', text)):
        tok = m.group()
        if tok in "[{":
            depth += 1
            if depth > max_depth:
                raise ServerError("malformed", f"JSON nested more than {max_depth} deep")
        elif tok in "]}":
            depth -= 1
        elif len(tok) > max_digits:
            raise ServerError("malformed", f"a JSON number with more than {max_digits} digits")


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(raw: bytes | str, what: str = "the body") -> Any:
    """JSON from a client, or ServerError(malformed): at most MAX_BODY bytes,
    MAX_DEPTH deep, MAX_DIGITS per number, no NaN/Infinity."""
    if len(raw) > MAX_BODY:
        raise ServerError("too_large", f"{what} is over {MAX_BODY} bytes", status=413)
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise ServerError("malformed", f"{what} is not UTF-8 text") from None
    check_json_shape(text)
    try:
        return json.loads(text, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        raise ServerError("malformed", f"{what} is not JSON") from None


# ---------------------------------------------------------------- origin
def _host_port(netloc: str, scheme: str) -> str:
    netloc = netloc.strip().lower()
    default = {"http": ":80", "https": ":443", "ws": ":80", "wss": ":443"}.get(scheme, "")
    return netloc[: -len(default)] if default and netloc.endswith(default) else netloc


def foreign_origin(scope: Scope, allowed: frozenset[str] = frozenset()) -> str | None:
    """The other site a request comes from, or None when it is ours or unknown.

    A browser sends Origin on every cross-site POST and WebSocket handshake (and
    Referer when it omits Origin); it must name this Host. A request with
    neither (curl, a program, the test client) is not a browser acting for
    someone else, so the JSON API stays open to it. `allowed` lists further
    origins (scheme://host[:port]) for a proxy that rewrites Host."""
    source = header(scope, b"origin")
    if source is None:
        source = header(scope, b"referer")
        if source is None:
            return None
    source = source.strip()
    if source.lower().rstrip("/") in allowed:
        return None
    if source == "null":   # sandboxed frames, file: pages, some redirects
        # ...and our own pages under Referrer-Policy no-referrer (a game page: its URL holds a
        # token), whose forms (Rematch, the header's Log out) a browser posts with "Origin: null";
        # its Sec-Fetch-Site, which no page can set, tells those apart
        if (header(scope, b"sec-fetch-site") or "").strip().lower() == "same-origin":
            return None
        return source
    parts = urlsplit(source)
    host = header(scope, b"host") or ""
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return source
    if _host_port(parts.netloc, parts.scheme) != _host_port(host, parts.scheme):
        return source
    return None


def allowed_origins() -> frozenset[str]:
    raw = settings.raw("PAXH_ALLOWED_ORIGINS")
    return frozenset(o.strip().lower().rstrip("/") for o in raw.split(",") if o.strip())


class OriginGuard:
    """403 cross_origin for a state-changing HTTP request or a WebSocket from
    another site. The lobby form (POST /games) is left to its route, which
    answers with the lobby page in the user's language (and also checks the
    form's CSRF token)."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str] | None = None,
                 page_paths: frozenset[str] = frozenset({"/games"})) -> None:
        self.app, self.page_paths = app, page_paths
        self.allowed = allowed_origins() if allowed is None else allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http" and scope["method"] in UNSAFE_METHODS and scope["path"] not in self.page_paths:
            source = foreign_origin(scope, self.allowed)
            if source is not None:
                return await send_json(send, 403, error_body(
                    "cross_origin", "requests from another site are refused (Origin/Referer must match Host)"))
        elif kind == "websocket":
            source = foreign_origin(scope, self.allowed)
            if source is not None:
                msg = await receive()
                if msg["type"] != "websocket.connect":
                    return
                # accept, so the client sees why, then close with 4403 (like HTTP 403)
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.send", "text": json.dumps({
                    "type": "error", "id": None, "code": "cross_origin", "rule": None,
                    "message": "connections from another site are refused (Origin must match Host)"})})
                await send({"type": "websocket.close", "code": 4403})
                return
        await self.app(scope, receive, send)


# ---------------------------------------------------------------- CSRF
class Csrf:
    """The lobby form's token: HMAC-SHA256(secret, user id). It proves the form
    was loaded by this browser from this server, so another site cannot post
    it (the user id is in an HttpOnly cookie no other site can read or set).
    The secret is PAXH_SECRET (give every server the same one), else random per
    process: then a form loaded before a restart is refused once, and shown
    again with a fresh token."""

    def __init__(self, secret: str | None = None) -> None:
        secret = secret or settings.raw("PAXH_SECRET") or secrets.token_hex(32)
        self.key = hashlib.sha256(("paxh-csrf:" + secret).encode()).digest()

    def token(self, user_id: str) -> str:
        return hmac.new(self.key, user_id.encode(), hashlib.sha256).hexdigest()[:32]

    def ok(self, user_id: str, token: object) -> bool:
        return isinstance(token, str) and hmac.compare_digest(self.token(user_id), token)

    def tag(self, text: str) -> str:
        """A tag only this server's secret makes (the known-browser cookie, accounts/routes.py)."""
        return hmac.new(self.key, b"tag:" + text.encode(), hashlib.sha256).hexdigest()[:32]


# ---------------------------------------------------------------- headers
# every path but these public, token-free ones is sent with Cache-Control: no-store
CACHEABLE_PREFIXES = ("/static/", "/rules", "/healthz", "/favicon.ico", "/openapi.json")

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",             # no inline script, no eval: templates hold none
    "style-src 'self'",              # no inline style either: colours are SVG attributes
    "img-src 'self' data:",
    "connect-src 'self'",            # the page's own WebSocket (CSP3: 'self' covers ws:/wss: to this host)
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


# Pages whose own URL holds no token. With no-referrer a browser sends "Origin: null" when a
# form on the page is posted, and the lobby form's origin check needs the real one; same-origin
# still sends nothing to any other site.
SAME_ORIGIN_REFERRER = frozenset({"/", "/games"})
# the same for the account and table pages' forms (issue 16), by prefix
SAME_ORIGIN_PREFIXES = ("/login", "/register", "/logout", "/forgot", "/reset/", "/account", "/tables", "/u/")


class SecurityHeaders:
    """Headers on every HTTP response. Referrer-Policy no-referrer because the
    secret tokens are in URLs (same-origin on the lobby, whose URL holds none);
    no-store on every page and API answer that can hold one (all but static
    files, the rules, health and the schema)."""

    def __init__(self, app: ASGIApp, csp: str = CSP) -> None:
        self.app = app
        self.common = [(b"content-security-policy", csp.encode()), (b"x-frame-options", b"DENY"),
                       (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                       (b"cross-origin-opener-policy", b"same-origin"),
                       (b"permissions-policy", b"camera=(), microphone=(), geolocation=()")]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope["path"]
        no_store = not any(path == p or path.startswith(p) for p in CACHEABLE_PREFIXES)

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                names = {k.lower() for k, _ in msg.get("headers", ())}
                extra = [h for h in self.common if h[0] not in names]
                if path in SAME_ORIGIN_REFERRER or path.startswith(SAME_ORIGIN_PREFIXES):
                    extra = [(k, b"same-origin" if k == b"referrer-policy" else v) for k, v in extra]
                if no_store:
                    extra = [h for h in extra if h[0] != b"cache-control"]
                    msg["headers"] = [h for h in msg.get("headers", ()) if h[0].lower() != b"cache-control"]
                    extra.append((b"cache-control", b"no-store"))
                msg["headers"] = [*msg.get("headers", ()), *extra]
            await send(msg)

        await self.app(scope, receive, with_headers)


# ---------------------------------------------------------------------- proxies (issue 37, N4)
def trusted_proxies(value: str | None) -> str:
    """PAXH_FORWARDED_ALLOW_IPS: the addresses (or networks) whose X-Forwarded-For and
    X-Forwarded-Proto are believed, comma-separated, as uvicorn's `forwarded_allow_ips` takes
    them; "" (the default) believes nobody, so a client's own header never changes the address
    the rate limits count. "*" believes everyone (only behind a proxy that is the sole way in).
    Raises ValueError with a sentence naming the variable for anything else."""
    import ipaddress

    out = []
    for part in (value or "").split(","):
        part = part.strip()
        if not part:
            continue
        if part != "*":
            try:
                ipaddress.ip_network(part, strict=False)
            except ValueError:
                raise ValueError(f"PAXH_FORWARDED_ALLOW_IPS: {part!r} is not an IP address or network "
                                 "(give the reverse proxy's addresses, comma-separated, or leave it empty)") from None
        out.append(part)
    return ",".join(out)
