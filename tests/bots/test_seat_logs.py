"""Every place that runs a bot reading its own log (ISMCTS, `uses_log`) passes it:
`decide(view, legal, log=api.redact(events, seat))` (docs/bots.md). bots.base.SeatLogs keeps
the logs for the corpus's bot games and the Gymnasium opponents (tests/rl/test_gym.py)."""
from __future__ import annotations

import random

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.bots.base import SeatLogs
from pax_hispanica.sim import corpus


class LogSpy:
    """Checks, at each decision, that its log is its own redacted log of the game so far."""
    uses_log = True
    uses_information_state = False

    def __init__(self, game, seat, seed):
        self.game, self.seat, self.rng, self.checked = game, seat, random.Random(seed), 0

    def decide(self, view, legal, log=None):
        assert log == api.redact(self.game.events, self.seat)
        self.checked += 1
        return api.nth_action(legal, self.rng.randrange(api.count_actions(legal)))


def test_HID_2_seat_logs_keep_only_the_log_readers_own_redacted_logs():
    game = api.Game.new(api.Config(players=3), seed=11)
    bots = [make_agent("random", 1), make_agent("ismcts", 2, iterations=2), make_agent("heuristic", 3)]
    logs = SeatLogs(api, bots, game.events)
    assert set(logs.logs) == {1} and logs
    for _ in range(40):
        seat = api.acting(game.state)[0]
        view = api.view(game.state, seat, include_state=True)
        logs.add(game.act(logs.decide(bots[seat], seat, view, api.legal_actions(game.state, seat))))
        assert logs.logs[1] == api.redact(game.events, 1)
    assert not SeatLogs(api, bots[:1], game.events)


def test_HID_2_the_corpus_bot_games_pass_each_ismcts_seat_its_log(monkeypatch):
    game = api.Game.new(api.Config(players=3), seed=5)
    spies = []

    def fake_make_agent(kind, seed, **options):
        if kind == "ismcts":
            spies.append(LogSpy(game, len(spies), seed))
            return spies[-1]
        return make_agent(kind, seed, **options)
    monkeypatch.setattr(corpus, "make_agent", fake_make_agent)
    corpus.play_out(game, ["ismcts", "ismcts", "ismcts"], seed=5)
    assert api.is_over(game.state)
    assert all(s.checked > 10 for s in spies) and len(spies) == 3
