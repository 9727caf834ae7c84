"""Small helpers shared by the web tests."""
from __future__ import annotations

import asyncio
import concurrent.futures
import re
import time


def first_legal(legal: list) -> dict:
    """A legal action from descriptors (range -> its minimum; choice -> first option that is not undo)."""
    for d in legal:
        if d["kind"] == "range":
            return {**d["action"], d["field"]: d["min"]}
        for o in d["options"]:
            if o.get("type") != "undo":
                return o
    raise AssertionError(f"no action in {legal}")


def register(page, base: str, name: str, password: str = "a good password", email: str | None = None) -> None:
    """Register `name` (with an email address when one is given) on /register: the page lands on
    /account, logged in."""
    page.goto(f"{base}/register")
    page.fill("#user_name", name)
    page.fill("#password", password)
    page.fill("#password2", password)
    if email:
        page.fill("#email", email)
    page.click("#register")
    page.wait_for_url(f"{base}/account")


def open_table(page, base: str, players: int, public: bool = False, time_control: str | None = None) -> str:
    """Open a table for `players` from the lobby's form (as the logged-in user of `page`), public
    or not, with a time control when one is named: the page lands on the table, whose id is
    returned."""
    page.goto(base + "/")
    page.click("#new-table summary")
    page.select_option("#table-players", str(players))
    if public:
        page.check("#table-public")
    if time_control:
        page.select_option("#table-form select[name=time_control]", time_control)
    page.click("#open-table")
    page.wait_for_url(re.compile(r".*/tables/.*"))
    return page.url.rsplit("/", 1)[1]


def wait_for(cond, timeout: float = 20.0, what: str = "condition", pause=lambda: time.sleep(0.05)):
    """Poll `cond` until it gives something true (returned), or fail after `timeout` seconds."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = cond()
        if value:
            return value
        pause()
    raise AssertionError(f"timed out waiting for {what}")


def pump_until(page, cond, timeout: float = 20.0, what: str = "condition"):
    """wait_for, but waiting inside Playwright (page.wait_for_timeout), so that WebSocket route
    handlers run meanwhile (the sync API dispatches them only during its own calls)."""
    return wait_for(cond, timeout, what, pause=lambda: page.wait_for_timeout(50))


def run_in_own_loop(coro):
    """Run a coroutine to its end in a fresh event loop on a thread of its own: a test may run
    after a browser test whose Playwright page keeps an event loop running in this thread, where
    asyncio.run refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def seeded_game(database_url: str, seed: int, seats: list[dict]) -> dict:
    """A game with a fixed seed, stored in the database a test's server reads (which loads it on
    its first request): clients may not choose seeds (PRJ-1), so a test that needs a known
    position makes its game on the server's side. The answer has POST /api/games's shape."""
    from pax_hispanica.web.play.service import Service

    async def make() -> dict:
        svc = Service(database_url, bot_delay=0)
        try:
            return as_created(await svc.create_game(len(seats), seats, seed=seed))
        finally:
            await svc.storage.close()
    return run_in_own_loop(make())


def as_created(live) -> dict:
    """A game made on the server's side, in POST /api/games's answer's shape."""
    return {"game": live.id, "version": live.version, "host": live.host_token,
            "seats": [{"seat": s.seat, "kind": s.kind, "token": s.token} for s in live.seats]}
