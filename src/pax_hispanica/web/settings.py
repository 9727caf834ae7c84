"""Every PAXH_* setting of the web server, in one place (issue 37): its name, default, kind and
meaning, checked together before `paxh serve` starts (`load`), listed by `paxh serve --help`
(`help_text`) and in docs/web.md ("Settings", `markdown_table`; a test keeps the two equal and
checks that every PAXH_ variable the package reads is here).

    settings = load()          # a Settings (pydantic), or SettingsError: "<variable>: ... (default ...)"

A bad value stops the start with a sentence naming the variable, instead of a traceback from the
module that reads it first (or, before, a silent fallback to the default). Every module of web/
reads its variable through `raw` (never os.environ itself: tests/web/test_settings.py), so this
table is the one list of them, and `load` is the check. A number or a flag is read through its
typed getter (`integer`, `seconds`, `number`, `flag`: parsed here, with bounds, a bad value a
SettingsError naming the variable and the text), never by int()/float() at the reading module.
Nothing here imports pydantic until `load` runs, so the terminal game's `paxh --help` stays light.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping

ON = {"1", "on", "true", "yes"}
OFF = {"0", "off", "false", "no", ""}


class SettingsError(ValueError):
    """A PAXH_* value the server cannot start with; the message names the variable."""


@dataclass(frozen=True)
class Var:
    name: str
    default: str          # as written in the environment ("" = unset)
    kind: str             # str, url, int, seconds, number, flag, rate, ips, origins, names, bytes, module
    help: str
    group: str


def _v(group: str, rows: list[tuple[str, str, str, str]]) -> list[Var]:
    return [Var(n, d, k, h, group) for n, d, k, h in rows]


VARIABLES: list[Var] = [
    *_v("server", [
        ("PAXH_DATABASE_URL", "", "url", "SQLAlchemy URL of the database (default: SQLite in --data-dir)"),
        ("PAXH_PUBLIC_URL", "", "url", "the base of every link in mail (default: http://--host:--port; set it on "
                                       "a public server; never taken from a request)"),
        ("PAXH_SECRET", "", "str", "the key of CSRF tokens, unsubscribe links and browser tags (default: drawn "
                                   "at start; give every server behind one address the same)"),
        ("PAXH_FORWARDED_ALLOW_IPS", "", "ips", "reverse proxies whose X-Forwarded-For/-Proto are believed "
                                                "(default: nobody)"),
        ("PAXH_ALLOWED_ORIGINS", "", "origins", "other origins allowed to post (a proxy that rewrites Host)"),
        ("PAXH_ADMINS", "", "names", "existing accounts made moderators at start (such names without an "
                                     "account are reserved)"),
        ("PAXH_API_DOCS", "0", "flag", "serve Swagger UI at /api/docs"),
        ("PAXH_API_MODULE", "", "module", "the rules engine module (default pax_hispanica.api; tests only)"),
    ]),
    *_v("games and bots", [
        ("PAXH_BOT_DELAY", "0.4", "seconds", "a bot's pause before it moves, so people can follow"),
        ("PAXH_BOT_PROCESSES", "1", "int", "worker processes for the searching bots"),
        ("PAXH_BOT_LEASE_SECONDS", "3", "seconds", "how long a server holds a bot seat's lease"),
        ("PAXH_BOT_POLL_SECONDS", "1", "seconds", "how often a server looks for bot seats to take over"),
        ("PAXH_IDLE_SECONDS", "600", "seconds", "an unused game leaves memory after this long"),
        ("PAXH_COMPACT_SECONDS", "60", "seconds", "how often idle games are swept from memory"),
        ("PAXH_MAX_LIVE_GAMES", "500", "int", "games kept in memory at most"),
        ("PAXH_RENDER_CACHE_BYTES", "16777216", "bytes", "the render cache's bound in bytes (0: off)"),
        ("PAXH_CLOCK_POLL_SECONDS", "1", "seconds", "how often the clock sweeper looks for deadlines"),
    ]),
    *_v("game analysis", [
        ("PAXH_ANALYSIS_WORKERS", "1", "int", "finished games this server analyses at once, each in a niced "
                                             "worker process (0: this server analyses none)"),
        ("PAXH_ANALYSIS_BUDGET", "200", "int", "the analysis bot's search iterations per decision (0: the tuned "
                                               "heuristic)"),
        ("PAXH_ANALYSIS_LEASE_SECONDS", "120", "seconds", "how long a server holds an analysis job it works on "
                                                          "(renewed while it runs; another server takes it after)"),
        ("PAXH_ANALYSIS_POLL_SECONDS", "5", "seconds", "how often a server looks for analysis jobs"),
        ("PAXH_HINT_BUDGET", "150", "int", "the search iterations of a Hint in unrated games (0: no Hint button)"),
    ]),
    *_v("limits", [
        ("PAXH_RATE_CREATE", "30/minute", "rate", "games created per address"),
        ("PAXH_RATE_ACT", "20/second", "rate", "actions per address"),
        ("PAXH_RATE_LOGIN", "10/minute;60/hour", "rate", "login attempts per address"),
        ("PAXH_RATE_LOGIN_NAME", "20/hour", "rate", "login attempts per user name"),
        ("PAXH_RATE_REGISTER", "5/minute;20/hour", "rate", "accounts registered per address"),
        ("PAXH_RATE_RESET", "5/hour", "rate", "reset mails asked per address"),
        ("PAXH_RATE_RESET_NAME", "3/hour", "rate", "reset mails asked per name or address typed"),
        ("PAXH_RATE_RESET_ACCOUNT", "3/hour;10/day", "rate", "reset mails queued per account"),
        ("PAXH_RATE_REPORT", "5/minute;30/day", "rate", "chat reports per account"),
        ("PAXH_RATE_CHAT", "5 per 10 seconds", "rate", "chat messages per seat of a game"),
        ("PAXH_CHAT_MAX_LEN", "300", "int", "a chat message's length at most"),
        ("PAXH_WS_RATE", "10", "number", "WebSocket messages a second per connection"),
        ("PAXH_WS_BURST", "30", "number", "WebSocket messages at once per connection"),
    ]),
    *_v("mail and webhooks", [
        ("PAXH_SMTP_URL", "", "url", "the mail server, smtp://host:port or smtp://user:pass@host:port, smtps://, ?starttls=1 "
                                     "(unset: email is off, and the pages say so)"),
        ("PAXH_MAIL_FROM", "Pax Hispanica <noreply@localhost>", "str", "the From of every email"),
        ("PAXH_NOTIFY_DELAY", "0", "seconds", "hold 'your move' messages back this long"),
        ("PAXH_OUTBOX_POLL_SECONDS", "1", "seconds", "how often the outbox worker looks for due messages"),
        ("PAXH_OUTBOX_BACKOFF", "5", "seconds", "the first retry's wait (doubled each time, at most an hour)"),
        ("PAXH_OUTBOX_WORKER", "1", "flag", "0: this server sends nothing (another one does)"),
        ("PAXH_WEBHOOK_PRIVATE", "0", "flag", "1: webhooks may reach internal addresses (tests, a private "
                                              "deployment)"),
    ]),
    *_v("engine", [
        ("PAXH_PURE", "0", "flag", "1: the pure-Python engine, not the compiled one"),
        ("PAXH_REQUIRE_COMPILED", "0", "flag", "1: refuse to start without the compiled engine"),
        ("PAXH_COMPILED_DIR", "", "str", "where the compiled engine is looked for"),
    ]),
]
BY_NAME = {v.name: v for v in VARIABLES}
# read by scripts, tests and build tools, never by a running server
TOOLS = {"PAXH_PG_DIR", "PAXH_PG_BIN", "PAXH_PG_STOP", "PAXH_TEST_DATABASE_URL", "PAXH_MYPYC_DIR",
         "PAXH_BUILD_EXTENSIONS", "PAXH_SCREENSHOTS", "PAXH_RULES_MD", "PAXH_MAIL",
         "PAXH_SETUP_BUILD"}



def raw(name: str, default: str = "") -> str:
    """The PAXH_* variable `name` as the environment has it, else `default` (as os.environ.get:
    each module keeps its own reading of the text). A name that is not in VARIABLES or TOOLS is
    refused, so a new variable cannot be read without being listed."""
    if name not in BY_NAME and name not in TOOLS:
        raise KeyError(f"{name} is not a setting of web/settings.py (VARIABLES or TOOLS)")
    return os.environ.get(name, default)


def _declared(name: str, kinds: tuple[str, ...], environ: Mapping[str, str] | None) -> tuple[Var, str, bool]:
    """The declaration of `name`, the text the environment gives it and whether that text is
    blank (unset or spaces: the default stands, as in `load`). A name not in VARIABLES, or one of
    another kind than the getter reads, is a mistake of the code, not of the environment."""
    v = BY_NAME.get(name)
    if v is None:
        raise KeyError(f"{name} is not a setting of web/settings.py (VARIABLES)")
    if v.kind not in kinds:
        raise TypeError(f"{name} is a setting of kind {v.kind}, not {' or '.join(kinds)}")
    text = (os.environ if environ is None else environ).get(name, "")
    return v, text, text.strip() == ""


def _bounded(v: Var, text: str, value: float, minimum: float | None, maximum: float | None) -> None:
    if minimum is not None and value < minimum:
        raise SettingsError(f"{v.name}: {text!r} is below the least allowed, {minimum:g} "
                            f"(default: {_default_text(v)}; {v.help})")
    if maximum is not None and value > maximum:
        raise SettingsError(f"{v.name}: {text!r} is above the most allowed, {maximum:g} "
                            f"(default: {_default_text(v)}; {v.help})")


def integer(name: str, default: int | None = None, *, minimum: int | None = 0, maximum: int | None = None,
            environ: Mapping[str, str] | None = None) -> int:
    """The whole-number setting `name` (kind int or bytes), parsed here once: its value in the
    environment (`environ`, default os.environ), else `default`, else the declared default.
    SettingsError, naming the variable and the bad text, when it is not a whole number or lies
    outside minimum..maximum (None: no bound on that side)."""
    v, text, blank = _declared(name, ("int", "bytes"), environ)
    if blank:
        return int(v.default) if default is None else default
    value: int = _check(v, text)
    _bounded(v, text, value, minimum, maximum)
    return value


def _real(kinds: tuple[str, ...], name: str, default: float | None, minimum: float | None,
          maximum: float | None, environ: Mapping[str, str] | None) -> float:
    v, text, blank = _declared(name, kinds, environ)
    if blank:
        return float(v.default) if default is None else default
    value: float = _check(v, text)
    _bounded(v, text, value, minimum, maximum)
    return value


def seconds(name: str, default: float | None = None, *, minimum: float | None = 0.0,
            maximum: float | None = None, environ: Mapping[str, str] | None = None) -> float:
    """The setting `name` of kind seconds, as `integer` does for whole numbers: a finite number
    of 0 or more within minimum..maximum, else SettingsError naming the variable and the text."""
    return _real(("seconds",), name, default, minimum, maximum, environ)


def number(name: str, default: float | None = None, *, minimum: float | None = None,
           maximum: float | None = None, environ: Mapping[str, str] | None = None) -> float:
    """The setting `name` of kind number (a finite number above 0), within minimum..maximum."""
    return _real(("number",), name, default, minimum, maximum, environ)


def flag(name: str, default: bool | None = None, *, environ: Mapping[str, str] | None = None) -> bool:
    """The on/off setting `name`: 1, on, true, yes or 0, off, false, no (any case); unset, the
    default; anything else is a SettingsError naming the variable."""
    v, text, blank = _declared(name, ("flag",), environ)
    if blank:
        return (v.default.strip().lower() in ON) if default is None else default
    value: bool = _check(v, text)
    return value


_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,31}")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def _default_text(v: Var) -> str:
    return v.default if v.default else "unset"


def _check(v: Var, raw: str) -> Any:
    """The value of `raw` for `v`, or SettingsError with a sentence naming the variable."""
    value = raw.strip()

    def bad(why: str) -> SettingsError:
        return SettingsError(f"{v.name}: {raw!r} {why} (default: {_default_text(v)}; {v.help})")

    if v.kind in ("int", "bytes"):
        if not re.fullmatch(r"\d{1,15}", value):
            raise bad("is not a whole number of 0 or more")
        return int(value)
    if v.kind in ("seconds", "number"):
        try:
            number = float(value)
        except ValueError:
            raise bad("is not a number") from None
        if not number == number or number < 0 or number == float("inf"):
            raise bad("must be 0 or more")
        if v.kind == "number" and number == 0:
            raise bad("must be above 0")
        return number
    if v.kind == "flag":
        if value.lower() not in ON | OFF:
            raise bad("is not one of 0, 1, on, off")
        return value.lower() in ON
    if v.kind == "rate":
        if value.lower() in {"", "0", "off", "none", "false"}:
            return None
        from limits import parse_many
        try:
            return [str(i) for i in parse_many(value)]
        except ValueError:
            raise bad('is not a rate such as "30/minute" or "5/second;100/hour" (0 or off: no limit)') from None
    if v.kind == "ips":
        from pax_hispanica.web.http.security import trusted_proxies
        try:
            return trusted_proxies(value)
        except ValueError:
            raise bad("is not a comma-separated list of IP addresses or networks") from None
    if v.kind == "origins":
        parts = [p.strip() for p in value.split(",") if p.strip()]
        if any(not re.fullmatch(r"https?://[^/\s]+", p) for p in parts):
            raise bad("is not a comma-separated list of origins such as https://pax.example.org")
        return parts
    if v.kind == "names":
        names = [p.strip() for p in value.split(",") if p.strip()]
        if any(not _NAME.fullmatch(n) for n in names):
            raise bad("is not a comma-separated list of user names")
        return names
    if v.kind == "module":
        if value and not _MODULE.fullmatch(value):
            raise bad("is not a module name")
        return value
    if v.kind == "url":
        if value and v.name == "PAXH_SMTP_URL" and not re.fullmatch(r"smtps?://[^\s]+", value):
            raise bad("is not an smtp:// or smtps:// URL")
        if value and v.name == "PAXH_PUBLIC_URL" and not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", value):
            raise bad("is not an http:// or https:// address with no query")
        if value and v.name == "PAXH_DATABASE_URL":
            from sqlalchemy.engine import make_url
            from sqlalchemy.exc import ArgumentError
            try:
                make_url(value)
            except ArgumentError:
                raise bad("is not a database URL such as sqlite:///data/paxh.sqlite3 or "
                          "postgresql+psycopg://user@host/db") from None
        return value
    if any(ord(ch) < 32 for ch in value):
        raise bad("holds a control character")
    return value


def load(environ: Mapping[str, str] | None = None) -> Any:
    """Every PAXH_* setting from `environ` (default os.environ), checked: a pydantic model with one
    field per variable (lower-case name without PAXH_). Raises SettingsError for the first bad
    value, naming its variable."""
    from pydantic import create_model

    env = os.environ if environ is None else environ
    values = {}
    for v in VARIABLES:
        raw = env.get(v.name)
        values[v.name[5:].lower()] = _check(v, v.default if raw is None or raw.strip() == "" else raw)
    model = create_model("Settings", **{k: (Any, ...) for k in values})  # type: ignore[call-overload]  # fields as keywords
    return model(**values)


def help_text() -> str:
    """The settings as `paxh serve --help` lists them."""
    out = ["Settings (environment; a bad value stops the start with a sentence naming it):"]
    for v in VARIABLES:
        out.append(f"{v.name} = {_default_text(v)}: {v.help}")
    return "\n\n".join(out)


def markdown_table() -> str:
    """The table of docs/web.md's "Settings" section."""
    rows = ["| variable | default | kind | what it does |", "|---|---|---|---|"]
    for v in VARIABLES:
        rows.append(f"| `{v.name}` | {('`' + v.default + '`') if v.default else 'unset'} | {v.kind} | "
                    f"{v.help.replace('|', '/')} |")
    return "\n".join(rows)
