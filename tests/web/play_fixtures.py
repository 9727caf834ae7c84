"""Real receivers for the notification tests: an SMTP server (aiosmtpd, in this process, on a
free loopback port) and an HTTP server taking webhook POSTs. Both are started and stopped by
the test (no service outside the suite)."""
from __future__ import annotations

import email
import json
import socket
import threading
import time
from email import policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


class Mailbox:
    """Every message the SMTP server accepted: (time received, parsed message)."""

    def __init__(self, delay: float = 0.0) -> None:
        self.messages: list[tuple[float, email.message.EmailMessage]] = []
        self.lock = threading.Lock()
        self.delay = delay

    async def handle_DATA(self, server, session, envelope):  # (aiosmtpd's name)
        import asyncio
        if self.delay:
            await asyncio.sleep(self.delay)
        msg = email.message_from_bytes(envelope.content, policy=policy.default)
        with self.lock:
            self.messages.append((time.time(), msg))
        return "250 OK"

    def to(self, address: str) -> list:
        with self.lock:
            return [m for _, m in self.messages if m["To"] == address]

    def keys(self) -> list[tuple[str, str, str]]:
        """(game, seat, period) of each message received, repeats kept."""
        with self.lock:
            return [(m["X-Paxh-Game"], m["X-Paxh-Seat"], m["X-Paxh-Period"]) for _, m in self.messages]


class Smtp:
    """aiosmtpd's Controller on 127.0.0.1:port; start() may come later than the port's choice
    (a server that is down first, then comes up)."""

    def __init__(self, port: int | None = None, delay: float = 0.0) -> None:
        # the port is held (bound, not listening: a connection is refused, as with no server)
        # until start(), so no other process takes it while the servers already point at it
        self.hold = socket.socket()
        self.hold.bind(("127.0.0.1", port or 0))
        self.port = self.hold.getsockname()[1]
        self.box = Mailbox(delay)
        self.controller = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> Smtp:
        from aiosmtpd.controller import Controller
        self.hold.close()
        self.controller = Controller(self.box, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def stop(self) -> None:
        self.hold.close()
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


class Hooks:
    """An HTTP server on 127.0.0.1 that records every JSON POST (a webhook receiver)."""

    def __init__(self) -> None:
        self.bodies: list[dict] = []
        hooks = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # http.server's name
                n = int(self.headers.get("Content-Length", "0"))
                hooks.bodies.append(json.loads(self.rfile.read(n)))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *a):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)    # bound at once: no port race
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def smtp():
    s = Smtp().start()
    yield s
    s.stop()


@pytest.fixture
def smtp_later():
    """An SMTP server whose port is chosen now and which the test starts when it wants."""
    s = Smtp(delay=0.02)
    yield s
    s.stop()


@pytest.fixture
def hooks():
    h = Hooks()
    yield h
    h.stop()
