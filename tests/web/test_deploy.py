"""Issue 37: the deployment in deploy/ works as docs/deploy.md says. nginx (Debian's package, run
as the current user from a temporary prefix on loopback ports) terminates TLS with a self-signed
certificate made here by openssl, and proxies HTTP and WebSockets to two `paxh serve` processes
on one PostgreSQL, through the site file deploy/nginx/render.sh renders from the template. A
2-seat game is played over HTTPS and WebSockets through the proxy; one server is killed
(SIGKILL) mid-game and the game is finished on the other, through the same proxy, with every
request answered. The systemd units pass `systemd-analyze verify` (or, without it, parse).

nginx missing: skipped here, but scripts/services.sh installs it and fails loudly when it cannot,
so CI never skips it (like chromium for the browser tests)."""
from __future__ import annotations

import configparser
import contextlib
import getpass
import http.client
import http.cookiejar
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from typer.testing import CliRunner

from pax_hispanica import api
from pax_hispanica.cli import app as cli_app
from pax_hispanica.web.accounts.service import SESSION_COOKIE

from .conftest import free_port
from .helpers import first_legal

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
NO_NGINX = "nginx is missing: `source scripts/services.sh` installs Debian's nginx"
# what deploy/systemd/paxh.env tells the servers about the proxy: nginx, on this host, connects
# from 127.0.0.2 (the site file's proxy_bind), the only address whose forwarded headers count
PROXY_ENV = {"PAXH_FORWARDED_ALLOW_IPS": "127.0.0.2", "PAXH_SECRET": "deploy-test-secret-" + "0" * 40,
             "PAXH_RATE_LOGIN": "3/minute"}

pytestmark = [pytest.mark.timeout(300)]


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost, as an operator's would be (PEM chain and key)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    return cert, key


def render_site(cert: Path, key: Path, https: int, http_port: int, backends: list[int]) -> str:
    env = {**os.environ, "PAXH_SERVER_NAME": "localhost", "PAXH_TLS_CERT": str(cert), "PAXH_TLS_KEY": str(key),
           "PAXH_HTTPS_LISTEN": f"127.0.0.1:{https}", "PAXH_HTTP_LISTEN": f"127.0.0.1:{http_port}",
           "PAXH_BACKENDS": " ".join(f"127.0.0.1:{p}" for p in backends)}
    return subprocess.run(["bash", str(DEPLOY / "nginx" / "render.sh")], env=env, check=True,
                          capture_output=True, text=True, timeout=60).stdout


class Nginx:
    """nginx in the foreground from a temporary prefix: its own pid file, logs and temp folders,
    the rendered site file included in a minimal main config (Debian's nginx.conf does the same
    with sites-enabled/)."""

    def __init__(self, folder: Path, site: str) -> None:
        self.folder = folder
        (folder / "paxh.conf").write_text(site)
        user = f"user {getpass.getuser()};" if os.geteuid() == 0 else ""   # the workers too: the current user
        temp = " ".join(f"{k}_temp_path {folder / k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (folder / "nginx.conf").write_text(f"""
{user}
worker_processes 1;
daemon off;
pid {folder / 'nginx.pid'};
error_log {folder / 'error.log'} info;
events {{ worker_connections 256; }}
http {{
    log_format up '$remote_addr "$request" $status upstream=$upstream_addr';
    access_log {folder / 'access.log'} up;
    {temp}
    include {folder / 'paxh.conf'};
}}
""")
        self.args = [NGINX, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(folder / "nginx.conf")]
        self.proc: subprocess.Popen | None = None

    def check(self) -> None:
        r = subprocess.run([*self.args, "-t"], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr + self.log()

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)       # graceful: workers finish, then exit
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""


class Proxy:
    """A client of the game through nginx: https://localhost:<port>, trusting only the test's
    certificate (as a browser would trust the operator's)."""

    def __init__(self, port: int, cert: Path) -> None:
        self.base = f"https://localhost:{port}"
        self.port = port
        self.ctx = ssl.create_default_context(cafile=str(cert))

    def request(self, path: str, body: dict | None = None, headers: dict | None = None):
        req = urllib.request.Request(self.base + path, method="POST" if body is not None else "GET",
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json", **(headers or {})})
        return urllib.request.urlopen(req, timeout=30, context=self.ctx)

    def get(self, path: str) -> dict:
        with self.request(path) as r:
            return json.loads(r.read())

    def post(self, path: str, body: dict) -> dict:
        with self.request(path, body) as r:
            return json.loads(r.read())

    def socket(self, token: str):
        return connect(f"wss://localhost:{self.port}/ws/{token}?fmt=json", ssl=self.ctx, open_timeout=30,
                       close_timeout=2)


class Seat:
    """One player's WebSocket through the proxy; reconnects (through the proxy: to the server
    that is left) when its server dies."""

    def __init__(self, proxy: Proxy, token: str) -> None:
        self.proxy, self.token = proxy, token
        self.ws = None
        self.stack = contextlib.ExitStack()
        self.last: dict = {}
        self.reconnects = 0
        self.next_id = 0

    def open(self) -> None:
        self.ws = self.stack.enter_context(self.proxy.socket(self.token))
        self.last = self._next_update(0)

    def close(self) -> None:
        with contextlib.suppress(Exception):  # the connection is dead already
            self.stack.close()

    def reopen(self) -> None:
        self.close()
        self.reconnects += 1
        self.open()

    def _next_update(self, version: int, ack: int | None = None) -> dict:
        """Read until an update of at least `version` (and the ack `ack`, if given)."""
        acked = ack is None
        if acked and self.last.get("version", -1) >= version:
            return self.last
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            m = json.loads(self.ws.recv(timeout=30))
            if m["type"] == "update":
                self.last = m
            elif m["type"] == "ack" and m.get("id") == ack:
                acked = True
            elif m["type"] == "error" and m.get("id") == ack:
                raise RuntimeError(m)
            if acked and self.last.get("version", -1) >= version:
                return self.last
        raise AssertionError(f"no update {version} on {self.token[:6]}")

    def act(self) -> int:
        """Play the first legal action; returns the new version."""
        self.next_id += 1
        v = self.last
        self.ws.send(json.dumps({"type": "act", "id": self.next_id, "version": v["version"],
                                 "action": first_legal(v["legal"])}))
        return self._next_update(v["version"] + 1, ack=self.next_id)["version"]

    def catch_up(self, version: int) -> None:
        self._next_update(version)


def play(seats: list[Seat], actions: int | None) -> int:
    """Play `actions` actions (None: to the end) over the sockets; a socket whose server died is
    reopened through the proxy and the move made again. Returns the number of actions played."""
    played = 0
    while actions is None or played < actions:
        if seats[0].last.get("over"):
            return played
        acting = [s for s in seats if s.last.get("legal")]
        assert acting, [s.last.get("acting") for s in seats]
        seat = acting[0]
        try:
            version = seat.act()
            played += 1                  # acknowledged: stored in PostgreSQL
            for other in seats:
                if other is not seat:
                    other.catch_up(version)
        except (ConnectionClosed, OSError, TimeoutError):
            for s in seats:          # one of them was on the dead server: both come back through nginx
                if s.ws is None or s.ws.state.name != "OPEN" or s is seat:
                    s.reopen()
            newest = max(s.last["version"] for s in seats)
            for s in seats:
                s.catch_up(newest)
            continue
        except RuntimeError as e:    # refused (a stale version after a reconnect): look again
            if "stale_version" not in str(e):
                raise
            for s in seats:
                s.reopen()
            continue
    return played


def register_directly(server, name: str) -> bool:
    """Register an account straight at a server (no nginx), claiming to have come over https
    from elsewhere; True when its session cookie is Secure (the claim was believed)."""
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    browser.addheaders = [("X-Forwarded-Proto", "https"), ("X-Forwarded-For", "198.51.100.7")]
    form = browser.open(server.url + "/register", timeout=30).read().decode()
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', form).group(1)
    browser.open(server.url + "/register", data=urllib.parse.urlencode(
        {"csrf": csrf, "user_name": name, "password": "correct horse", "password2": "correct horse",
         "email": ""}).encode(), timeout=30).read()
    session = [c for c in jar if c.name == SESSION_COOKIE]
    assert session, [c.name for c in jar]
    return session[0].secure


@pytest.mark.postgres
def test_nginx_tls_two_servers_one_postgres_survive_a_killed_server(server_factory, pg_url, tmp_path):
    if NGINX is None:
        pytest.skip(NO_NGINX)
    started = time.monotonic()
    https, plain = free_port(), free_port()
    env = {**PROXY_ENV, "PAXH_PUBLIC_URL": f"https://localhost:{https}"}
    a = server_factory(pg_url, env=env)
    b = server_factory(pg_url, env=env)
    cert, key = make_certificate(tmp_path)
    site = render_site(cert, key, https, plain, [a.port, b.port])
    # the forwarded headers are set by nginx, never passed on from the client
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in site and "$proxy_add_x_forwarded_for" not in site
    nginx = Nginx(tmp_path, site)
    nginx.check()
    nginx.start()
    try:
        proxy = Proxy(https, cert)
        deadline = time.monotonic() + 30
        while True:
            try:
                assert proxy.get("/healthz")["ok"]
                break
            except (urllib.error.URLError, ConnectionError):
                assert nginx.proc.poll() is None, nginx.proc.stderr.read().decode() + nginx.log()
                assert time.monotonic() < deadline, "nginx did not come up: " + nginx.log()
                time.sleep(0.2)

        # TLS only for the server's name; plain HTTP only redirects; the app sees https
        with pytest.raises(urllib.error.URLError) as refused:   # no SNI (a bare address): no handshake
            urllib.request.urlopen(f"https://127.0.0.1:{https}/healthz", timeout=10,
                                   context=ssl._create_unverified_context())
        assert isinstance(refused.value.reason, ssl.SSLError), refused.value
        conn = http.client.HTTPConnection("127.0.0.1", plain, timeout=10)
        conn.request("GET", "/healthz", headers={"Host": f"localhost:{plain}"})
        r = conn.getresponse()
        assert r.status == 301 and r.getheader("Location", "").startswith("https://localhost"), r.status
        conn.close()
        with proxy.request("/") as page:
            assert page.headers["Strict-Transport-Security"].startswith("max-age=")
        # X-Forwarded-Proto is believed from nginx: the session cookie of an account made through
        # the proxy is Secure (the server itself speaks plain HTTP)
        jar = http.cookiejar.CookieJar()
        browser = urllib.request.build_opener(urllib.request.HTTPSHandler(context=proxy.ctx),
                                              urllib.request.HTTPCookieProcessor(jar))
        form = browser.open(proxy.base + "/register", timeout=30).read().decode()
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', form).group(1)
        browser.open(proxy.base + "/register", data=urllib.parse.urlencode(
            {"csrf": csrf, "user_name": "operator", "password": "correct horse", "password2": "correct horse",
             "email": ""}).encode(), timeout=30).read()
        session = [c for c in jar if c.name == SESSION_COOKIE]
        assert session and session[0].secure, [(c.name, c.secure) for c in jar]
        # ... and from nginx only: the same claim made straight to a server from this host
        # (127.0.0.1, not nginx's 127.0.0.2) is not believed
        assert not register_directly(a, "insider")
        # ... and X-Forwarded-For is nginx's, not the client's: four login attempts, each
        # claiming another address, all count against the one address nginx saw (3/minute here)
        refused = []
        for i in range(4):
            form = browser.open(proxy.base + "/login", timeout=30).read().decode()
            csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', form).group(1)
            req = urllib.request.Request(proxy.base + "/login", headers={"X-Forwarded-For": f"203.0.113.{i}"},
                                         data=urllib.parse.urlencode({"csrf": csrf, "user_name": f"nobody{i}",
                                                                      "password": "wrong horse"}).encode())
            try:
                browser.open(req, timeout=30).read()
                refused.append(None)
            except urllib.error.HTTPError as e:
                refused.append(e.code)
        assert refused[:3].count(429) == 0 and refused[3] == 429, refused
        # a forged Host never reaches the application
        with pytest.raises(urllib.error.HTTPError) as e:
            proxy.request("/healthz", headers={"Host": "evil.example"})
        assert e.value.code == 421      # Misdirected Request, from nginx's default server

        g = proxy.post("/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
        seats = [Seat(proxy, s["token"]) for s in g["seats"]]
        for s in seats:                 # one after the other: nginx sends them to A and B in turn
            s.open()
        assert play(seats, 12) == 12
        before = proxy.get(f"/api/view/{g['spectator']}")["version"]

        a.kill()                         # SIGKILL: no goodbye to nginx, the sockets on A just die
        killed = time.monotonic()
        rest = play(seats, None)
        assert rest > 0 and seats[0].last["over"], seats[0].last.get("acting")
        assert sum(s.reconnects for s in seats) >= 1, "no socket was on the killed server"
        for s in seats:
            s.close()
        # every request through the proxy is answered by the server that is left
        for _ in range(6):
            assert proxy.get("/healthz")["ok"]
        view = proxy.get(f"/api/view/{g['spectator']}")
        record = proxy.get(f"/api/record/{g['spectator']}")
        assert view["over"] and view["version"] == before + rest == len(record["actions"])
        assert api.result(api.replay(record).state) == view["result"]
        out = CliRunner().invoke(cli_app, ["db", "check", "--database-url", pg_url, "-q"])
        assert out.exit_code == 0 and "1 games checked, 0 damaged" in out.output, out.output
        upstreams = (tmp_path / "access.log").read_text()
        assert f"127.0.0.1:{a.port}" in upstreams and f"127.0.0.1:{b.port}" in upstreams
        print(f"deployment: {before} actions, A killed, {rest} more on B through nginx "
              f"({time.monotonic() - killed:.1f} s); the whole test {time.monotonic() - started:.1f} s")
    finally:
        nginx.stop()
    assert "[emerg]" not in nginx.log() and "[crit]" not in nginx.log(), nginx.log()


def test_systemd_units_verify(tmp_path):
    """The units load: `systemd-analyze verify` (the paths of this checkout put where the
    units say /opt/paxh), or, where systemd-analyze is missing, they parse as INI with the
    keys the docs rely on."""
    units = DEPLOY / "systemd"
    paxh = Path(sys.executable).parent / "paxh"
    for unit in ("paxh@.service", "paxh-backup.service", "paxh-backup.timer"):
        text = (units / unit).read_text().replace("/opt/paxh/.venv/bin/paxh", str(paxh))
        (tmp_path / unit).write_text(text)
        parsed = configparser.ConfigParser(strict=False, interpolation=None)
        parsed.optionxform = str
        parsed.read_string(text)
        assert "Unit" in parsed, unit
    service = configparser.ConfigParser(strict=False, interpolation=None)
    service.optionxform = str
    service.read_string((units / "paxh@.service").read_text())
    assert service["Service"]["ExecStart"].endswith("paxh serve --host 127.0.0.1 --port %i")
    assert service["Service"]["EnvironmentFile"] == "/etc/paxh/paxh.env"
    assert service["Install"]["WantedBy"] == "multi-user.target"
    env = dict(line.split("=", 1) for line in (units / "paxh.env").read_text().splitlines()
               if line.strip() and not line.startswith("#"))
    assert {"PAXH_DATABASE_URL", "PAXH_SECRET", "PAXH_PUBLIC_URL"} <= set(env)
    assert env["PAXH_DATABASE_URL"].startswith("postgresql+psycopg://")
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        return
    (tmp_path / "paxh@8001.service").symlink_to(tmp_path / "paxh@.service")
    for unit in ("paxh@8001.service", "paxh-backup.service", "paxh-backup.timer"):
        r = subprocess.run([analyze, "verify", "--man=no", str(tmp_path / unit)], capture_output=True,
                           text=True, timeout=120)
        problems = [line for line in (r.stdout + r.stderr).splitlines() if line.strip()]
        assert r.returncode == 0 and not problems, (unit, problems)
