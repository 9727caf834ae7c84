"""Property-based fuzz of the HTTP API from its own OpenAPI schema (schemathesis): a real
server on 127.0.0.1, every operation, 25 generated requests each (bodies that fit the schema
and bodies that do not), half of them with real tokens so the fuzz reaches past the token
check. No request may get a 5xx, and the server answers its health check afterwards.

About 30 s on the 2-core machine."""
from __future__ import annotations

import tempfile

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from .conftest import Server, free_port

pytestmark = pytest.mark.timeout(240)

TOKENS: dict[str, list[str]] = {}


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory):
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.sqlite3'}", port=free_port()).start()
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot_kind": "random"}]})
    TOKENS["real"] = [g["seats"][0]["token"], g["host"], g["spectator"]]
    yield srv
    srv.stop()


def _schema() -> dict:
    """The app's own schema (what /openapi.json serves), read at collection from a throwaway app.
    (schemathesis.pytest.from_fixture does not run under pytest 9.)"""
    from pax_hispanica.web.server import create_app

    with tempfile.TemporaryDirectory() as d:
        return create_app(f"sqlite:///{d}/schema.sqlite3", bot_delay=0).openapi()


schema = schemathesis.openapi.from_dict(_schema())


@schema.parametrize()
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_request_gets_a_server_error(case, fuzz_server):
    token = case.path_parameters.get("token") if case.path_parameters else None
    if token is not None and len(str(case.body)) % 2 == 0:   # reach past "unknown link" half the time
        case.path_parameters["token"] = TOKENS["real"][len(str(token)) % 3]
    response = case.call(base_url=fuzz_server.url, timeout=30)
    assert response.status_code < 500, (case.method, case.formatted_path, case.body, response.text[:500])
    assert "Traceback" not in response.text
    ctype = " ".join(response.headers.get("content-type") or [])      # schemathesis: header -> list of values
    if ctype.startswith("application/json") and response.status_code >= 400:
        error = response.json()["error"]
        assert error["code"] and error["message"], error


def test_the_server_survived_the_fuzz(fuzz_server):
    assert fuzz_server.get("/healthz") == {"ok": True}
    assert fuzz_server.proc.poll() is None
