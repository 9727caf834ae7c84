"""The web game: the FastAPI app, wired from its routers and services.

    run(host, port, database_url, data_dir)   # blocking; `paxh serve` calls this
    create_app(database_url) -> FastAPI        # for tests

The routes are each feature's (`*routes.py`, web/README.md); the game service is play/service.py.

Every connection sees only its own view (api.view / api.redact); every action
goes through play.service.Service.act (lock, version check, engine check, stored
before acknowledged). What a hostile client can send is refused before it
costs anything (http/security.py: body size, JSON depth, origin, CSRF, headers;
http/ratelimit.py: per-address limits); every refusal is the JSON envelope
{"error": {"code", "rule", "message"}} or a page in the user's language.
"""
from __future__ import annotations

import asyncio
import gc
import logging
import sys
from contextlib import asynccontextmanager
from pathlib import Path
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from sqlalchemy.engine import make_url

from pax_hispanica.web import settings, templating
from pax_hispanica.web.accounts import routes as account_routes
from pax_hispanica.web.accounts.service import (
    DEFAULT_PUBLIC_URL,
    Accounts,
    grant_bootstrap_admins,
)
from pax_hispanica.web.analysis_jobs import routes as analysis_routes
from pax_hispanica.web.db import schema as db
from pax_hispanica.web.http import errors, security
from pax_hispanica.web.http.ratelimit import RateLimits
from pax_hispanica.web.http.site import Site
from pax_hispanica.web.learn import routes as learn_routes
from pax_hispanica.web.play import api_routes
from pax_hispanica.web.play import page_routes as pages
from pax_hispanica.web.play import turn_based as play
from pax_hispanica.web.play import ws_routes as ws
from pax_hispanica.web.play.service import Service
from pax_hispanica.web.present import jinja_env
from pax_hispanica.web.social import admin_routes, ratings_routes, table_routes
from pax_hispanica.web.social.ratings import Ratings
from pax_hispanica.web.social.tables import Tables, sweep_forever

log = logging.getLogger("pax_hispanica.web")
HERE = Path(__file__).parent


def create_app(database_url: str | None = None, data_dir: str = "data", bot_delay: float | None = None,
               rate_limits: dict[str, str | None] | None = None, secret: str | None = None,
               api_docs: bool | None = None, mail: Any = None, public_url: str | None = None) -> FastAPI:
    """rate_limits: {"create": "30/minute", "act": "20/second"} overrides PAXH_RATE_* ("0" = off);
    secret: the CSRF key (PAXH_SECRET); api_docs: serve /api/docs (PAXH_API_DOCS=1; off by default,
    since Swagger UI loads its script from a CDN that the CSP refuses); mail: where account mail
    goes (mail.MailSink; default the notifications outbox, outbox.Outbox.enqueue_email); public_url:
    the base of every link in mail (PAXH_PUBLIC_URL, else http://127.0.0.1:8000; never a request's
    Host, issue 37 N1)."""
    url = database_url or settings.raw("PAXH_DATABASE_URL") or db.default_url(data_dir)
    db.migrate(url)
    grant_bootstrap_admins(url)   # PAXH_ADMINS: the first moderators' admin flag
    if bot_delay is None:
        bot_delay = settings.seconds("PAXH_BOT_DELAY")
    if api_docs is None:
        api_docs = settings.flag("PAXH_API_DOCS")
    svc = Service(url, bot_delay=bot_delay)
    tables, ratings = Tables(svc), Ratings(svc.storage)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await svc.start()
        sweeper = asyncio.create_task(sweep_forever(tables, ratings))   # expiry and ratings (issue 16)
        yield
        sweeper.cancel()
        await svc.close()

    app = FastAPI(title="Pax Hispanica", lifespan=lifespan, docs_url="/api/docs" if api_docs else None,
                  redoc_url=None)
    app.state.svc = svc
    # clocks, notifications, chat (play/turn_based.py, social/chat_routes.py); its outbox also sends the accounts' mail
    play_service = play.install(app, svc)
    analysis_routes.install(app, svc)     # finished games analysed in the background, and the Hint (issue 40, 38)
    app.state.rate_limits = limits = RateLimits(rate_limits, svc.storage)   # the accounts' limits: in the database
    public_url = (public_url or settings.raw("PAXH_PUBLIC_URL") or DEFAULT_PUBLIC_URL).rstrip("/")
    play_service.outbox.public_url = public_url
    play_service.rematch_of = tables.rematch_of   # another server's rematch, told to this one's pages
    accounts = Accounts(svc.storage, mail or play_service.outbox, outbox=play_service.outbox, public_url=public_url,
                        reset_limits=limits.items.get("reset_account"))
    templating.install(jinja_env.env)
    app.state.site = Site(svc, limits, security.Csrf(secret), Jinja2Templates(env=jinja_env.env),
                          accounts=accounts, tables=tables, ratings=ratings, play=play_service)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    # the last added runs first: headers on every answer, then the size limit, then the origin check
    app.add_middleware(security.OriginGuard)
    app.add_middleware(security.BodyLimit)
    app.add_middleware(security.SecurityHeaders)
    errors.install(app)
    for router in (pages.router, api_routes.router, ws.router, account_routes.router, table_routes.router,
                   ratings_routes.router, admin_routes.router, learn_routes.router):
        app.include_router(router)
    return app


# seconds a thread holds the GIL before another may take it (the interpreter's default: 0.005)
SWITCH_INTERVAL = 0.001


def run(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None, data_dir: str = "data",
        fd: int | None = None, forwarded_allow_ips: str | None = None) -> None:
    """Serve the web game (blocking). fd: a listening socket's file descriptor to serve on
    instead of binding host:port (the tests bind it first, so no other process can take the
    port between its choice and the server's start). forwarded_allow_ips: the reverse proxies
    whose X-Forwarded-For/-Proto are believed (PAXH_FORWARDED_ALLOW_IPS; default nobody:
    security.trusted_proxies)."""
    import uvicorn

    from pax_hispanica.web.settings import SettingsError, load
    try:   # every PAXH_* setting checked before anything starts (settings.py)
        load()
    except SettingsError as e:
        raise SystemExit(f"paxh serve: {e}") from None
    try:
        trusted = security.trusted_proxies(forwarded_allow_ips if forwarded_allow_ips is not None
                                           else settings.raw("PAXH_FORWARDED_ALLOW_IPS"))
    except ValueError as e:
        raise SystemExit(str(e)) from None

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    # the bots' moves think in threads (bot_seats.py); while one runs, the event loop waits for
    # the GIL up to the switch interval (5 ms by default) each time it wakes, as it does at every
    # PostgreSQL reply: a shorter one hands it back sooner (issue 37, P1)
    sys.setswitchinterval(SWITCH_INTERVAL)
    url = database_url or settings.raw("PAXH_DATABASE_URL") or db.default_url(data_dir)
    public_url = settings.raw("PAXH_PUBLIC_URL")
    if not public_url:   # links in mail never come from a request's Host (issue 37, N1)
        shown_host = "127.0.0.1" if host in ("", "0.0.0.0", "::") else (f"[{host}]" if ":" in host else host)
        public_url = f"http://{shown_host}:{port}"
        log.warning("PAXH_PUBLIC_URL is not set: links in mail (password resets, your move) point at %s; "
                    "set it to the address players use", public_url)
    app = create_app(url, data_dir=data_dir, public_url=public_url)
    shown = make_url(url).render_as_string(hide_password=True)
    log.info("Pax Hispanica at http://%s:%s (database %s)", host, port, shown)
    # Engine states are many small objects: collect young garbage less often, and never
    # re-scan what start-up built (fewer long pauses under load).
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    # uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise: a client on this host
    # (or behind a proxy that passes the header on) could then be any address it likes and pass
    # every per-address limit (issue 37, N4). Only the proxies the operator names are believed.
    if trusted:
        log.info("X-Forwarded-For and X-Forwarded-Proto are believed from %s", trusted)
    uvicorn.run(app, host=host, port=port, fd=fd, log_level="warning", ws_max_size=64 * 1024,
                proxy_headers=bool(trusted), forwarded_allow_ips=trusted or "")


if __name__ == "__main__":  # python -m pax_hispanica.web.server [port]
    import sys

    run(port=int(sys.argv[1]) if len(sys.argv) > 1 else 8000)
