"""The bot kinds are listed once (pax_hispanica.bots.REGISTRY); the web game, the CLI and the
simulator take them from there."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from pax_hispanica import api, bots
from pax_hispanica.cli import app


def test_every_registered_kind_makes_a_bot_that_plays():
    g = api.Game.new(api.Config(players=2), 5)
    seat = api.acting(g.state)[0]
    for kind in bots.KINDS:
        agent = bots.make_agent(kind, 1, **bots.strength_options(kind, 1))
        action = agent.decide(api.view(g.state, seat, include_state=getattr(agent, "uses_information_state", False)), api.legal_actions(g.state, seat))
        api.apply(g.state, action)          # a legal action
    assert bots.DEFAULT_KIND in bots.KINDS and set(bots.KINDS) >= bots.SEARCH_KINDS


def test_an_unknown_kind_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match="known: " + ", ".join(bots.KINDS)):
        bots.make_agent("oracle", 1)


def test_the_simulator_and_the_web_read_the_registry(monkeypatch):
    from pax_hispanica.sim.runner import parse_bots
    from pax_hispanica.web import engine_port as seam

    assert seam.BOT_KINDS == bots.KINDS and seam.SEARCH_BOTS == bots.SEARCH_KINDS
    assert [b["kind"] for b in parse_bots(",".join(bots.KINDS), len(bots.KINDS))] == list(bots.KINDS)
    with pytest.raises(ValueError, match="unknown bot 'oracle'"):
        parse_bots("oracle", 2)
    monkeypatch.setitem(bots.REGISTRY, "twin", bots.BotKind("twin", "random_agent", "RandomAgent"))
    monkeypatch.setattr(bots, "KINDS", (*bots.KINDS, "twin"))
    assert type(bots.make_agent("twin", 1)).__name__ == "RandomAgent"


def test_the_cli_refuses_an_unknown_bot_kind():
    r = CliRunner().invoke(app, ["play", "--bot", "oracle"])
    assert r.exit_code == 2
    text = " ".join(r.output.replace("│", " ").split())       # rich boxes and wraps the error
    assert "'oracle' is not one of 'random', 'heuristic', 'ismcts'." in text, r.output
