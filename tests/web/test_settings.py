"""One settings object for every PAXH_* variable (issue 37): listed by `paxh serve --help` and
docs/web.md with defaults, and a bad value stops the start with a sentence naming the variable."""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pax_hispanica.web import settings

ROOT = Path(__file__).resolve().parents[2]

BAD = [   # (variable, a value the server cannot start with)
    ("PAXH_OUTBOX_BACKOFF", "soon"),
    ("PAXH_NOTIFY_DELAY", "-5"),
    ("PAXH_BOT_DELAY", "nan"),
    ("PAXH_MAX_LIVE_GAMES", "many"),
    ("PAXH_RENDER_CACHE_BYTES", "16MB"),
    ("PAXH_RATE_ACT", "lots"),
    ("PAXH_RATE_LOGIN", "10/fortnight"),
    ("PAXH_WS_RATE", "0"),
    ("PAXH_OUTBOX_WORKER", "maybe"),
    ("PAXH_SMTP_URL", "mail.example.org"),
    ("PAXH_PUBLIC_URL", "pax.example.org"),
    ("PAXH_DATABASE_URL", "not a url"),
    ("PAXH_FORWARDED_ALLOW_IPS", "the-proxy"),
    ("PAXH_ALLOWED_ORIGINS", "pax.example.org"),
    ("PAXH_ADMINS", "a b"),
    ("PAXH_API_MODULE", "os; rm"),
]


def test_the_defaults_load():
    s = settings.load({})
    assert s.rate_act == ["20 per 1 second"] and s.ws_rate == 10 and s.outbox_worker is True and s.smtp_url == ""


@pytest.mark.parametrize("name,value", BAD, ids=[b[0] for b in BAD])
def test_a_bad_value_is_a_sentence_naming_the_variable(name, value):
    with pytest.raises(settings.SettingsError) as e:
        settings.load({name: value})
    text = str(e.value)
    assert text.startswith(f"{name}: {value!r} ") and "default" in text and "Traceback" not in text


def test_every_paxh_variable_the_package_reads_is_listed():
    read = set()
    for path in (ROOT / "src" / "pax_hispanica").rglob("*.py"):
        read |= set(re.findall(r"PAXH_[A-Z0-9_]*[A-Z0-9]", path.read_text(encoding="utf-8")))
    for path in (ROOT / "scripts").glob("*.sh"):
        read |= set(re.findall(r"PAXH_[A-Z0-9_]*[A-Z0-9]", path.read_text(encoding="utf-8")))
    read.discard("PAXH_RATE")          # ratelimit.py's ENV table spells each one out too
    missing = read - set(settings.BY_NAME) - settings.TOOLS
    assert not missing, f"PAXH_ variables not in web/settings.py's VARIABLES: {sorted(missing)}"


def _environment_reads(source: str) -> list[int]:
    """Lines of `source` that read the environment: os.environ.get / os.getenv / os.environ[...]
    (with any name: a helper's `name` may be a PAXH_ one), or os.environ handed on whole."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv") \
                and isinstance(node.value, ast.Name) and node.value.id == "os") or (isinstance(node, ast.ImportFrom) and node.module == "os" \
                and any(a.name in ("environ", "getenv") for a in node.names)):
            lines.append(node.lineno)
    return lines


# what may touch os.environ under web/, and why (none of them reads a PAXH_ variable)
ENVIRONMENT_HANDED_ON = {"db/backup.py": "pg_dump and pg_restore run with the server's environment plus PGPASSWORD"}


def test_no_module_of_web_reads_the_environment_but_settings():
    """Every PAXH_ variable is read through settings.raw, which refuses a name it does not list."""
    web = ROOT / "src" / "pax_hispanica" / "web"
    offences = {}
    for path in sorted(web.rglob("*.py")):
        rel = str(path.relative_to(web))
        if rel == "settings.py" or rel.startswith("migrations/"):
            continue
        source = path.read_text(encoding="utf-8")
        lines = _environment_reads(source)
        if rel in ENVIRONMENT_HANDED_ON:
            assert lines and "PAXH_" not in "".join(source.splitlines()[n - 1] for n in lines), rel
            continue
        if lines:
            offences[rel] = lines
    assert offences == {}, f"read PAXH_ variables through settings.raw: {offences}"
    assert _environment_reads('import os\nx = os.environ.get("PAXH_SECRET")\n') == [2]
    with pytest.raises(KeyError):
        settings.raw("PAXH_NOT_A_SETTING")


def test_docs_and_serve_help_list_every_setting_with_its_default():
    assert settings.markdown_table() in (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "pax_hispanica.cli", "serve", "--help"], capture_output=True,
                         text=True, timeout=60, env={**os.environ, "COLUMNS": "250", "TERM": "dumb"})
    assert out.returncode == 0, out.stderr
    for v in settings.VARIABLES:
        assert f"{v.name} = {v.default or 'unset'}:" in out.stdout, v.name


@pytest.mark.timeout(60)
def test_a_bad_value_stops_paxh_serve_before_it_starts(tmp_path):
    code = f"from pax_hispanica.web.server import run; run(port=0, database_url='sqlite:///{tmp_path}/x.sqlite3')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=40,
                         env={**os.environ, "PAXH_OUTBOX_BACKOFF": "soon"})
    assert out.returncode != 0
    assert out.stderr.strip().splitlines()[-1].startswith("paxh serve: PAXH_OUTBOX_BACKOFF: 'soon' is not a number")
    assert "Traceback" not in out.stderr


@pytest.mark.timeout(60)
def test_paxh_serve_checks_the_settings_before_any_module_reads_its_own(tmp_path):
    """PAXH_IDLE_SECONDS is read when web/play/cache.py is imported: `paxh serve` checks first."""
    out = subprocess.run([sys.executable, "-m", "pax_hispanica.cli", "serve", "--port", "0", "--data-dir",
                          str(tmp_path)], capture_output=True, text=True, timeout=40,
                         env={**os.environ, "PAXH_IDLE_SECONDS": "ten minutes"})
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr[-500:]
    assert "paxh serve: PAXH_IDLE_SECONDS: 'ten minutes' is not a number" in out.stderr


# ---------------------------------------------------------------- the typed getters
def test_a_getter_reads_the_environment_else_the_declared_default():
    assert settings.integer("PAXH_MAX_LIVE_GAMES", environ={}) == 500
    assert settings.integer("PAXH_MAX_LIVE_GAMES", environ={"PAXH_MAX_LIVE_GAMES": " 12 "}) == 12
    assert settings.integer("PAXH_MAX_LIVE_GAMES", 7, environ={"PAXH_MAX_LIVE_GAMES": "  "}) == 7
    assert settings.seconds("PAXH_BOT_DELAY", environ={}) == 0.4
    assert settings.seconds("PAXH_BOT_DELAY", environ={"PAXH_BOT_DELAY": "1.5"}) == 1.5
    assert settings.number("PAXH_WS_BURST", environ={}) == 30.0
    assert settings.flag("PAXH_OUTBOX_WORKER", environ={}) is True
    assert settings.flag("PAXH_API_DOCS", environ={}) is False
    assert settings.flag("PAXH_API_DOCS", environ={"PAXH_API_DOCS": "On"}) is True
    assert settings.flag("PAXH_OUTBOX_WORKER", environ={"PAXH_OUTBOX_WORKER": "off"}) is False


def test_a_getter_reads_os_environ_by_default(monkeypatch):
    monkeypatch.setenv("PAXH_HINT_BUDGET", "33")
    assert settings.integer("PAXH_HINT_BUDGET") == 33
    monkeypatch.setenv("PAXH_HINT_BUDGET", "lots")
    with pytest.raises(settings.SettingsError, match=r"^PAXH_HINT_BUDGET: 'lots' is not a whole number"):
        settings.integer("PAXH_HINT_BUDGET")


GETTER_BAD = [   # (getter, variable, text, what the sentence says after the text, keywords)
    (settings.integer, "PAXH_MAX_LIVE_GAMES", "many", "is not a whole number", {}),
    (settings.integer, "PAXH_MAX_LIVE_GAMES", "1.5", "is not a whole number", {}),
    (settings.integer, "PAXH_MAX_LIVE_GAMES", "-3", "is not a whole number", {}),
    (settings.integer, "PAXH_MAX_LIVE_GAMES", "0", "is below the least allowed, 1", {"minimum": 1}),
    (settings.integer, "PAXH_BOT_PROCESSES", "65", "is above the most allowed, 64", {"maximum": 64}),
    (settings.seconds, "PAXH_IDLE_SECONDS", "ten minutes", "is not a number", {}),
    (settings.seconds, "PAXH_IDLE_SECONDS", "-1", "must be 0 or more", {}),
    (settings.seconds, "PAXH_IDLE_SECONDS", "inf", "must be 0 or more", {}),
    (settings.seconds, "PAXH_CLOCK_POLL_SECONDS", "0.01", "is below the least allowed, 0.05", {"minimum": 0.05}),
    (settings.seconds, "PAXH_BOT_DELAY", "9", "is above the most allowed, 5", {"maximum": 5}),
    (settings.number, "PAXH_WS_RATE", "0", "must be above 0", {}),
    (settings.flag, "PAXH_WEBHOOK_PRIVATE", "maybe", "is not one of 0, 1, on, off", {}),
]


@pytest.mark.parametrize("getter,name,text,why,kw", GETTER_BAD, ids=[f"{b[1]}={b[2]}" for b in GETTER_BAD])
def test_a_getter_refuses_a_bad_value_with_a_sentence_naming_it(getter, name, text, why, kw):
    with pytest.raises(settings.SettingsError) as e:
        getter(name, environ={name: text}, **kw)
    message = str(e.value)
    assert message.startswith(f"{name}: {text!r} {why}"), message
    assert f"default: {settings.BY_NAME[name].default}" in message


def test_the_bounds_are_inclusive():
    assert settings.integer("PAXH_MAX_LIVE_GAMES", minimum=1, maximum=3, environ={"PAXH_MAX_LIVE_GAMES": "1"}) == 1
    assert settings.integer("PAXH_MAX_LIVE_GAMES", minimum=1, maximum=3, environ={"PAXH_MAX_LIVE_GAMES": "3"}) == 3
    assert settings.seconds("PAXH_IDLE_SECONDS", minimum=0.5, environ={"PAXH_IDLE_SECONDS": "0.5"}) == 0.5
    # a default is not checked against the bounds: only what the environment says
    assert settings.integer("PAXH_ANALYSIS_WORKERS", minimum=5, environ={}) == 1


def test_a_getter_refuses_a_name_it_does_not_list_or_of_another_kind():
    with pytest.raises(KeyError):
        settings.integer("PAXH_NOT_A_SETTING", environ={})
    with pytest.raises(KeyError):
        settings.flag("PAXH_PG_DIR", environ={})        # a tool's variable: raw only
    with pytest.raises(TypeError, match="PAXH_BOT_DELAY is a setting of kind seconds"):
        settings.integer("PAXH_BOT_DELAY", environ={})
    with pytest.raises(TypeError):
        settings.seconds("PAXH_WS_RATE", environ={})


def test_no_module_of_web_parses_a_number_or_flag_setting_by_hand():
    """int(settings.raw(...)), float(settings.raw(...)) or a comparison of settings.raw with a
    flag's words: each goes through the typed getters, which name the variable when it is bad."""
    web = ROOT / "src" / "pax_hispanica" / "web"
    typed = {v.name for v in settings.VARIABLES if v.kind in ("int", "bytes", "seconds", "number", "flag")}
    offences = []
    for path in sorted(web.rglob("*.py")):
        if path.name == "settings.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "raw" \
                    and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value in typed:
                offences.append(f"{path.relative_to(web)}:{node.lineno} {node.args[0].value}")
    assert offences == [], f"read these through settings.integer/seconds/number/flag: {offences}"
