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
