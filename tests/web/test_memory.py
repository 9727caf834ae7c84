"""Issue 37 (M1): the render cache is bounded in bytes, and a game idle in memory keeps only its
record, state and seats (its bots and events come back when it is used again)."""
from __future__ import annotations

import asyncio
import time

import pytest

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.web.play.cache import LiveCache, trim_memory
from pax_hispanica.web.play.model import LiveGame, Seat
from pax_hispanica.web.present import updates
from pax_hispanica.web.present.render_cache import (
    DEFAULT_BYTES,
    RenderCache,
    entry_bytes,
    setting_bytes,
)

from .helpers import run_in_own_loop

pytestmark = pytest.mark.timeout(120)


def _entry(n: int) -> dict:
    return {"html": "x" * n, "_parts": {"a": "y" * n}, "_log": ["z" * n]}


def test_the_render_cache_holds_no_more_bytes_than_its_bound():
    cache = RenderCache(max_bytes=100_000)
    size = entry_bytes(_entry(10_000))
    assert 30_000 < size < 33_000
    for i in range(50):
        cache.put(("g", i), _entry(10_000))
        assert cache.bytes <= 100_000
    assert len(cache) == 100_000 // size
    # least recently used leave first: the newest are kept, and a read keeps an old one
    assert cache.get(("g", 49)) is not None and cache.get(("g", 0)) is None
    cache.get(("g", 47))
    cache.put(("g", 50), _entry(10_000))
    assert cache.get(("g", 47)) is not None and cache.get(("g", 48)) is None
    # an entry larger than the whole bound is not kept; replacing an entry counts it once
    cache.put(("g", "big"), _entry(50_000))
    assert cache.get(("g", "big")) is None and cache.bytes <= 100_000
    before = cache.bytes
    cache.put(("g", 50), _entry(10_000))
    assert cache.bytes == before
    # a game's entries go together
    cache.put(("h", 1), _entry(100))
    assert cache.forget("g") >= 1 and len(cache) == 1 and cache.bytes == entry_bytes(_entry(100))
    assert cache.stats()["max_bytes"] == 100_000


def test_the_bound_is_a_setting_and_a_bad_value_names_the_variable():
    assert setting_bytes({}) == DEFAULT_BYTES
    assert setting_bytes({"PAXH_RENDER_CACHE_BYTES": "1048576"}) == 1048576
    assert RenderCache(0).max_bytes == 0
    for bad in ("lots", "-1", "1.5"):
        with pytest.raises(ValueError, match="PAXH_RENDER_CACHE_BYTES"):
            setting_bytes({"PAXH_RENDER_CACHE_BYTES": bad})


def _played(players: int = 3, seed: int = 4, actions: int = 60) -> api.Game:
    game = api.Game.new(api.Config(players=players), seed)
    bots = [make_agent("heuristic", s) for s in range(players)]
    for _ in range(actions):
        if api.is_over(game.state):
            break
        seat = api.acting(game.state)[0]
        game.act(bots[seat].decide(api.view(game.state, seat), api.legal_actions(game.state, seat)))
    return game


def _live(game: api.Game, gid: str = "g1") -> LiveGame:
    seats = [Seat(s, "human", None, None, f"P{s}", f"t{s}", None) for s in range(len(game.state.nation))]
    return LiveGame(gid, dict(game.record, actions=list(game.record["actions"])), game.record["seed"], "online",
                    "h", "s", None, seats, game.state, list(game.events))


def test_html_updates_of_many_versions_stay_within_the_bound(monkeypatch):
    """Boards of a game at every version, for every seat and a spectator: the cache keeps what
    fits in its bytes, however many were rendered (it used to keep 2,000 whatever their size)."""
    monkeypatch.setattr(updates, "_cache", RenderCache(max_bytes=400_000))
    game = api.Game.new(api.Config(players=3), 8)
    bots = [make_agent("heuristic", s) for s in range(3)]
    live = _live(game)
    rendered = 0
    for _ in range(40):
        for viewer in (0, 1, 2, None):
            msg = updates.html_update(live, viewer, None, "seat" if viewer is not None else "spectator", "en")
            assert msg["html"]
            rendered += 1
            assert updates._cache.bytes <= 400_000
        seat = api.acting(live.state)[0]
        action = bots[seat].decide(api.view(live.state, seat), api.legal_actions(live.state, seat))
        live.state, evs = api.apply(live.state, action)
        live.record["actions"].append(action)
        live.events.extend(evs)
    assert updates._cache.evicted > 0 and len(updates._cache) < rendered
    # the newest board is still shared: the same object for the same way of seeing the game
    assert updates.html_update(live, 0, None, "seat", "en") is updates.html_update(live, 0, None, "seat", "en")


def test_a_compacted_game_replays_its_events_and_goes_on():
    game = _played()
    live = _live(game)
    live.agents[0] = ("heuristic", object())
    events = list(game.events)
    assert live.compact() == 2 and live.compacted and not live.agents
    assert live.compact() == 0                      # already compact
    assert live.events == events and not live.compacted
    # the action after a compaction: the record gets it first (games.Service.act), then its
    # events; they are not counted twice
    live.compact()
    seat = api.acting(live.state)[0]
    action = make_agent("heuristic", seat).decide(api.view(live.state, seat), api.legal_actions(live.state, seat))
    live.state, evs = api.apply(live.state, action)
    live.record["actions"].append(action)
    live.events.extend(evs)
    assert live.events == list(api.replay(live.record).events)


def test_the_sweep_compacts_idle_games_drops_their_boards_and_trims(monkeypatch):
    monkeypatch.setattr(updates, "_cache", RenderCache(max_bytes=10_000_000))
    game = _played()
    cache = LiveCache(lambda gid: None)  # type: ignore[arg-type,return-value]
    busy, idle = _live(game, "busy"), _live(game, "idle")
    for live in (busy, idle):
        cache.add(live)
        updates.html_update(live, 0, None, "seat", "en")
    now = time.monotonic()
    idle.touched = now - cache.COMPACT_SECONDS - 5
    busy.touched = now
    assert cache.sweep(now) == 0                    # nothing is dropped from memory yet
    assert idle.compacted and not busy.compacted and cache.compacted == 1
    assert {k[0] for k in updates._cache._entries} == {"busy"}
    # a game with a listener is never compacted
    busy.listeners.add(object())
    busy.touched = now - cache.COMPACT_SECONDS - 5
    cache.sweep(now)
    assert not busy.compacted
    # past IDLE_SECONDS the idle game leaves memory, and its boards with it
    idle.touched = now - cache.IDLE_SECONDS - 5
    updates.html_update(idle, 1, None, "seat", "en")
    assert cache.sweep(now) == 1 and "idle" not in cache.live
    assert not any(k[0] == "idle" for k in updates._cache._entries)
    assert trim_memory() in (True, False)


def test_a_compacted_game_in_the_server_plays_on(tmp_path):
    """Through the service: a bot game compacted between two moves finishes, and its stored
    record replays to the same state."""
    from pax_hispanica.web.db import schema as db
    from pax_hispanica.web.play.service import Service

    async def main() -> None:
        url = f"sqlite:///{tmp_path / 'm.sqlite3'}"
        db.migrate(url)
        svc = Service(url, bot_delay=0, bot_processes=0)
        await svc.start()
        try:
            live = await svc.create_game(3, [{"kind": "bot", "bot_kind": "heuristic"}] * 3)
            deadline = time.monotonic() + 60
            while not live.over and time.monotonic() < deadline:
                live.compact()                     # as a sweep may, between any two moves
                await asyncio.sleep(0.01)
            assert live.over
            assert live.events == list(api.replay(live.record).events)
            assert api.snapshot(api.replay(live.record).state) == api.snapshot(live.state)
        finally:
            await svc.close()

    run_in_own_loop(main())
