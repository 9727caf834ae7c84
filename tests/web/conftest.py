"""Fixtures for the web tests: databases (SQLite always, PostgreSQL when
scripts/services.sh started one), in-process apps, real server processes on
127.0.0.1, and a headless Debian chromium for Playwright."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

PG_URL = os.environ.get("PAXH_TEST_DATABASE_URL")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NO_PG = "PAXH_TEST_DATABASE_URL is unset: `source scripts/services.sh` starts a throwaway PostgreSQL"


# The tests play whole games from one address as fast as they can: no rate limits unless a
# test sets its own (create_app(rate_limits=...)). Also inherited by the server processes.
os.environ.setdefault("PAXH_RATE_CREATE", "0")
os.environ.setdefault("PAXH_RATE_ACT", "0")


def pytest_configure(config: pytest.Config) -> None:
    # Starlette's TestClient still runs on httpx and says so on every import.
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with `starlette.testclient`")


def fresh_pg_database() -> str:
    """A new, empty database on the test cluster; returns its SQLAlchemy URL."""
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(PG_URL)
    name = "paxh_" + uuid.uuid4().hex[:12]
    with psycopg.connect(base.set(drivername="postgresql").render_as_string(hide_password=False),
                         autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return base.set(database=name).render_as_string(hide_password=False)


@pytest.fixture(autouse=True, scope="session")
def _template_globals() -> None:
    """create_app puts the templates' globals on the Jinja environment (web/templating.py); tests
    that render a board or a page without an app need them too."""
    from pax_hispanica.web import templating
    from pax_hispanica.web.present import jinja_env
    templating.install(jinja_env.env)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'paxh.sqlite3'}"
    if not PG_URL:
        pytest.skip(NO_PG)
    return fresh_pg_database()


@pytest.fixture
def pg_url() -> str:
    if not PG_URL:
        pytest.skip(NO_PG)
    return fresh_pg_database()


@pytest.fixture
def client(database_url: str):
    from fastapi.testclient import TestClient

    from pax_hispanica.web.server import create_app

    with TestClient(create_app(database_url, bot_delay=0)) as c:
        yield c


def free_port() -> int:
    """A port free now (another process may take it before it is bound again: where the test
    starts the listener itself, prefer `listening_socket`)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening_socket(port: int | None = None, wait: float = 30.0) -> socket.socket:
    """A socket listening on 127.0.0.1:port (port None: one the kernel picks), inheritable by a
    child process. A given port (a server started again on it) is retried for `wait` seconds
    while the previous listener's socket is still being released."""
    deadline = time.monotonic() + wait
    while True:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port or 0))
        except OSError:
            s.close()
            if not port or time.monotonic() > deadline:
                raise
            time.sleep(0.1)
            continue
        s.listen(128)
        s.set_inheritable(True)
        return s


class Server:
    """`paxh serve` in a child process on 127.0.0.1 (killed and restarted at will).

    The port is bound here and the listening socket handed to the child (uvicorn's fd): a port
    chosen first and bound later by the child could be taken meanwhile by another process on a
    shared machine (the child would die, or /healthz would answer from someone else's server)."""

    def __init__(self, database_url: str, port: int | None = None, bot_delay: float = 0.02,
                 env: dict[str, str] | None = None) -> None:
        self.database_url = database_url
        self.env = env or {}
        self.sock = listening_socket(port)     # held from now on: the port is ours
        self.port = self.sock.getsockname()[1]
        self.bot_delay = bot_delay
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        if self.sock is None:                  # started again after a stop or kill: the same port
            self.sock = listening_socket(self.port)
        env = {**os.environ, "PAXH_BOT_DELAY": str(self.bot_delay), **self.env}
        fd = self.sock.fileno()
        code = ("from pax_hispanica.web.server import run; "
                f"run(host='127.0.0.1', port={self.port}, database_url={self.database_url!r}, fd={fd})")
        self.log = tempfile.NamedTemporaryFile("w+", prefix="paxh-server-", suffix=".log", delete=False)  # noqa: SIM115 -- the server writes to it while it runs
        try:
            self.proc = subprocess.Popen([sys.executable, "-c", code], env=env, pass_fds=(fd,),
                                         stdout=self.log, stderr=subprocess.STDOUT)
        finally:
            # the child has its copy; ours would keep the port accepting (and connections
            # hanging) after the child dies, where a test expects them refused
            self.sock.close()
            self.sock = None
        deadline = time.monotonic() + 90       # a cold start on a loaded 2-core machine
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("server died: " + Path(self.log.name).read_text(errors="replace")[-3000:])
            try:
                # the socket listens already: the request waits in its queue until the app is up
                with urllib.request.urlopen(self.url + "/healthz", timeout=5) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("server did not start: " + Path(self.log.name).read_text(errors="replace")[-3000:])

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def post(self, path: str, body: dict) -> dict:
        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path, timeout=30) as r:
            return json.loads(r.read())


@pytest.fixture
def server_factory():
    servers: list[Server] = []

    def make(database_url: str, **kw) -> Server:
        s = Server(database_url, **kw)
        servers.append(s)
        return s.start()

    yield make
    for s in servers:
        s.stop()


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: `source scripts/services.sh` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
