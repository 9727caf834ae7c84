"""People's moves go ahead of the bots' (issue 37, P1: web/play/people_first.py)."""
from __future__ import annotations

import asyncio
import contextlib
import time

from pax_hispanica.web.play.model import Rights, ServerError
from pax_hispanica.web.play.people_first import PeopleFirst

from .helpers import first_legal, run_in_own_loop


def test_a_bot_moves_at_once_when_no_person_is_acting():
    async def main() -> float:
        gate = PeopleFirst()
        t0 = time.monotonic()
        await gate.before_bot_move()
        return time.monotonic() - t0

    assert run_in_own_loop(main()) < 0.05


def test_a_bot_waits_for_the_people_acting_and_goes_when_they_are_done():
    async def main() -> tuple[bool, bool, int]:
        gate = PeopleFirst()
        gate.WAIT_SECONDS = 10.0
        with gate.person_acting():
            with gate.person_acting():
                bot = asyncio.ensure_future(gate.before_bot_move())
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.05)
            still_waiting = not bot.done()      # one person is still acting
        await asyncio.wait_for(bot, 1.0)
        return still_waiting, bot.done(), gate.in_flight

    assert run_in_own_loop(main()) == (True, True, 0)


def test_a_bot_never_waits_longer_than_the_cap():
    async def main() -> float:
        gate = PeopleFirst()
        gate.WAIT_SECONDS = 0.1
        with gate.person_acting():
            t0 = time.monotonic()
            await gate.before_bot_move()
            return time.monotonic() - t0

    assert 0.09 <= run_in_own_loop(main()) < 1.0


def test_a_person_s_action_holds_the_bots_and_a_bot_s_does_not(database_url):
    """Service.act: a person's action is under way in the gate while it runs (its database
    round trip included), a bot's action is not; a refused action leaves the gate clear."""
    from pax_hispanica.web.db import schema
    from pax_hispanica.web.play.service import Service

    from pax_hispanica.web.engine_port import api

    def legal_now(live):
        seat = api.acting(live.state)[0]
        return seat, first_legal(api.legal_actions(live.state, seat))

    async def main() -> list[int]:
        url = database_url
        schema.migrate(url)
        svc = Service(url, bot_delay=0.0, bot_processes=0)
        seen: list[int] = []
        store = svc.storage.store_action

        async def store_and_look(*a, **k):
            seen.append(svc.people_first.in_flight)
            return await store(*a, **k)

        svc.storage.store_action = store_and_look
        await svc.start()
        try:
            live = await svc.create_game(2, [{"kind": "human"}, {"kind": "human"}], seed=5)
            for _ in range(2):
                seat, action = legal_now(live)
                await svc.act(Rights(live.id, "seat", frozenset([seat])), action, live.version)
            seat, action = legal_now(live)
            with contextlib.suppress(ServerError):     # stale: refused before its store
                await svc.act(Rights(live.id, "seat", frozenset([seat])), action, live.version - 1)
            seen.append(svc.people_first.in_flight)
            inner = svc._act

            async def look(*a):
                seen.append(svc.people_first.in_flight)
                return await inner(*a)

            svc._act = look
            # the store refuses it ("a person plays this seat now"): it got as far as the store
            with contextlib.suppress(ServerError):
                await svc.act(Rights(live.id, "bot", frozenset([seat])), action, live.version)
        finally:
            await svc.close()
        return seen

    # two people's stores in the gate; clear after a refused one; a bot's act and its store not in it
    assert run_in_own_loop(main()) == [1, 1, 0, 0, 0]


def test_the_bots_of_a_game_wait_while_a_person_acts_and_move_after(database_url):
    from pax_hispanica.web.db import schema
    from pax_hispanica.web.play.service import Service

    async def main() -> tuple[int, int]:
        url = database_url
        schema.migrate(url)
        svc = Service(url, bot_delay=0.0, bot_processes=0)
        svc.people_first.WAIT_SECONDS = 30.0
        await svc.start()
        try:
            with svc.people_first.person_acting():      # a person's action that takes its time
                live = await svc.create_game(2, [{"kind": "bot", "bot_kind": "random"}] * 2, seed=3)
                await asyncio.sleep(0.5)
                held = live.version
            deadline = time.monotonic() + 10
            while live.version < 5 and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            return held, live.version
        finally:
            await svc.close()

    held, after = run_in_own_loop(main())
    assert held == 0 and after >= 5
