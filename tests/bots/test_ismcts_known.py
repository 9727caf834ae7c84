"""ISMCTS given its own log (HID-2, AUC-2): its samples hold the hands the log tells, its
decision depends on nothing but its view and log, and the simulator hands it that log."""

from __future__ import annotations

import random

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.bots.ismcts import ISMCTSAgent
from pax_hispanica.sim import runner

from engine.test_determinize_known import _perturbed_known


def _positions(n=4, seed=3, years=("play", "auction", "sail"), per_year=2):
    """(game, seat) at positions of a random game with more than one legal action."""
    g = api.Game.new(api.Config(players=n), seed=seed)
    r = random.Random(seed)
    want = {y: per_year for y in years}
    out = []
    step = 0
    while not api.is_over(g.state) and any(want.values()):
        seat = api.acting(g.state)[0]
        legal = api.legal_actions(g.state, seat)
        v = api.view(g.state, seat)
        if step % 5 == 3 and want.get(v["year"]) and api.count_actions(legal) > 1 and any(g.state.hands):
            want[v["year"]] -= 1
            out.append((api.Game(g.record, g.state, list(g.events)), seat))
        g.act(api.nth_action(legal, r.randrange(api.count_actions(legal))))
        step += 1
    assert len(out) == per_year * len(years)
    return out


def test_HID_2_ismcts_samples_hold_the_hands_its_log_tells(monkeypatch):
    seen = []
    real = ISMCTSAgent._iterate

    def spy(self, state, *rest):
        seen.append([sorted(h) for h in state.hands])
        return real(self, state, *rest)

    monkeypatch.setattr(ISMCTSAgent, "_iterate", spy)
    for g, seat in _positions():
        st = g.state
        seen.clear()
        view = api.view(st, seat, include_state=True)
        make_agent("ismcts", 7, iterations=12).decide(view, api.legal_actions(st, seat),
                                                      log=api.redact(g.events, seat))
        assert len(seen) == 12
        assert all(h == [sorted(x) for x in st.hands] for h in seen)
        seen.clear()       # without the log the others' hands are guessed (the test can fail)
        make_agent("ismcts", 7, iterations=12).decide(view, api.legal_actions(st, seat))
        if any(st.hands[s] for s in range(st.n) if s != seat):
            assert any(h != [sorted(x) for x in st.hands] for h in seen)


def test_HID_1_ismcts_with_its_log_decides_the_same_whatever_others_unknown_secrets():
    for g, seat in _positions(seed=8):
        st, log = g.state, api.redact(g.events, seat)
        known = api.known_cards(api.view(st, seat), log)
        other = _perturbed_known(st, seat, known)
        runs = []
        for s in (st, other):
            bot = make_agent("ismcts", 3, iterations=25)
            action = bot.decide(api.view(s, seat, include_state=True), api.legal_actions(s, seat), log=log)
            runs.append((action, bot.explain()["alternatives"]))
        assert runs[0] == runs[1]


def test_HID_2_the_simulator_gives_ismcts_its_own_whole_log(monkeypatch):
    calls = []
    real = ISMCTSAgent.decide

    def spy(self, view, legal, log=None):
        calls.append((view, list(log) if log is not None else None))
        return real(self, view, legal, log=log)

    monkeypatch.setattr(ISMCTSAgent, "decide", spy)
    spec = runner.make_specs(3, 1, "ismcts:iterations=2,random,random", seed=4)[0]
    out = runner.play_game(spec)
    assert out["error"] is None and calls
    for view, log in calls:
        seat = view["viewer"]
        assert log is not None and all(seat in e["to"] for e in log if "to" in e)
        k = api.known_cards(view, log)                 # a complete log: every hand is known
        assert all(h["unknown"] == 0 for h in k["hands"])
        assert [len(h["known"]) for h in k["hands"]] == [p["hand_count"] for p in view["players"]]
        assert [e["seq"] for e in log] == sorted(e["seq"] for e in log)
