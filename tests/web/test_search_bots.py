"""Search bots think in a worker process (so a long search never holds the server's GIL), and
make exactly the moves the seat's own agent would make in the server's thread."""
from __future__ import annotations

import os
import time

import pytest

from pax_hispanica import api
from pax_hispanica.web import engine_port as seam

pytestmark = pytest.mark.timeout(180)


def test_a_fresh_search_bot_per_decision_plays_like_one_kept_for_the_whole_game():
    state = api.new_game(api.Config(players=3), seed=5)
    kept = seam.make_bot("ismcts", 77, 1)
    for _ in range(40):
        seat = api.acting(state)[0]
        view, legal = api.view(state, seat, include_state=True), api.legal_actions(state, seat)
        action = kept.decide(view, legal)
        assert seam.think("ismcts", 77, 1, view, legal) == action
        state, _ = api.apply(state, action)


def test_think_passes_the_seats_log_to_a_bot_that_reads_it(monkeypatch):
    from pax_hispanica.bots.ismcts import ISMCTSAgent
    got = []
    real = ISMCTSAgent.decide
    monkeypatch.setattr(ISMCTSAgent, "decide", lambda self, v, legal, log=None: got.append(log) or real(self, v, legal, log=log))
    g = api.Game.new(api.Config(players=3), seed=6)
    for _ in range(12):
        seat = api.acting(g.state)[0]
        view, legal = api.view(g.state, seat, include_state=True), api.legal_actions(g.state, seat)
        log = api.redact(g.events, seat)
        action = seam.think("ismcts", 78, 1, view, legal, log)
        assert got[-1] is log
        assert seam.make_bot("ismcts", 78, 1).decide(view, legal, log=log) == action
        g.act(action)


def test_ismcts_seats_play_through_the_worker_process(tmp_path):
    from fastapi.testclient import TestClient

    from pax_hispanica.web.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'bots.sqlite3'}", bot_delay=0)
    with TestClient(app) as client:
        svc = app.state.svc
        assert svc.bot_processes >= 1
        seats = [{"kind": "bot", "bot_kind": "ismcts", "bot_strength": 1}, {"kind": "bot", "bot_kind": "random"}]
        g = client.post("/api/games", json={"players": 2, "seats": seats}).json()  # the server draws the seed
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if svc.live[g["game"]].version >= 30:
                break
            time.sleep(0.1)
        live = svc.live[g["game"]]
        assert live.version >= 30, "the bots stopped"
        assert svc._bot_pool is not None
        workers = list(svc._bot_pool._processes.values())
        assert workers and os.getpid() not in {w.pid for w in workers}
        record, seed = dict(live.record), live.seed
    assert not any(w.is_alive() for w in workers)          # stopping the server stops its workers
    # the stored game replays to the same state, and the search seat's moves are its agent's
    actions = record["actions"]
    # the nations drawn for the game (none was chosen: random, from the secret) are in its config
    game = api.Game.new(api.Config(players=2, nations=record["config"]["nations"]), seed=seed)
    agent = seam.make_bot("ismcts", api.derived_seed(seed, "bot|0"), 1)  # the server's bot seed
    for action in actions[:30]:
        if action["seat"] == 0:        # the server gives ISMCTS its seat's own log (docs/bots.md)
            state = game.state
            assert agent.decide(api.view(state, 0, include_state=True), api.legal_actions(state, 0),
                                log=api.redact(game.events, 0)) == action
        game.act(action)
