"""The heuristic bot's hand-set constants are options (bots/heuristic.py DEFAULTS, issue 17's
fourth round): given today's values it plays exactly as the bot without options; another value
changes its play; the tuned preset (data/tuned_heuristic.json) names only known options; ISMCTS
builds its root prior from the preset `prior_bot` names."""
from __future__ import annotations

import json
from importlib import resources

import pytest

from pax_hispanica import api
from pax_hispanica.bots import make_agent
from pax_hispanica.bots.heuristic import DEFAULTS, TUNED_FILE, preset
from pax_hispanica.sim.runner import make_specs, play_game


def _game(bot: str, seed: int = 7) -> dict:
    r = play_game(make_specs(4, 1, f"{bot},heuristic,heuristic,heuristic", seed, rotate=False)[0])
    assert r["error"] is None
    return r


def test_AUC_4_heuristic_with_every_default_written_out_plays_the_same_game():
    explicit = ":".join(["heuristic", *(f"{k}={v}" for k, v in DEFAULTS.items())])
    a, b = _game("heuristic"), _game(explicit)
    for k in ("winner", "scores", "ranking", "decisions", "decisions_by_seat", "cards_played"):
        assert a[k] == b[k], k


def test_AUC_4_a_play_threshold_above_every_card_keeps_the_bot_from_playing_cards():
    default = _game("heuristic")
    never = _game("heuristic:play_threshold=1000")
    assert default["cards_played"][0], "the default bot plays cards in this game"
    assert never["cards_played"][0] == []


def test_AUC_4_bid_share_scales_the_heuristic_s_bid():
    # the same auction decision, bid by bots that differ only in bid_share
    state = api.new_game(api.Config(players=4), seed=3)
    rnd = make_agent("heuristic", 1)
    for _ in range(2000):
        seat = api.acting(state)[0]
        legal = api.legal_actions(state, seat)
        if any(d.get("kind") == "range" and d["action"].get("type") == "bid" for d in legal):
            view = api.view(state, seat, include_state=True)
            bids = [make_agent("heuristic", 1, bid_share=s).decide(view, legal)["amount"] for s in (0.0, 0.6, 3.0)]
            if bids[0] != bids[2]:
                assert bids[0] <= bids[1] <= bids[2]
                assert bids[0] == min(int(d["min"]) for d in legal if d.get("kind") == "range")
                return
        state, _ = api.apply(state, rnd.decide(api.view(state, seat, include_state=True), legal))
    pytest.fail("no bid where bid_share mattered in 2000 decisions")


def test_the_tuned_preset_names_known_options_and_records_how_it_was_made():
    data = json.loads(resources.files("pax_hispanica").joinpath("data", TUNED_FILE).read_text())
    assert set(data["params"]) <= set(DEFAULTS)
    assert data["made_by"]["tune"] and data["made_by"]["validate"]
    assert preset("tuned") == data["params"]
    bot = make_agent("heuristic", 1, preset="tuned", bid_share=0.25)
    assert bot.params == {**DEFAULTS, **data["params"], "bid_share": 0.25}    # an option overrides the preset


def test_a_preset_with_an_unknown_option_is_refused(tmp_path):
    f = tmp_path / "p.json"
    f.write_text(json.dumps({"params": {"bid_sharez": 0.5}}))
    with pytest.raises(ValueError, match="bid_sharez"):
        preset(str(f))
    with pytest.raises(ValueError):
        make_agent("ismcts", 1, iterations=2, prior_bot=str(f))


def test_AUC_4_ismcts_builds_its_prior_from_the_tuned_preset():
    state = api.new_game(api.Config(players=4), seed=5)
    seat = api.acting(state)[0]
    legal = api.legal_actions(state, seat)
    while api.count_actions(legal) < 2:
        state, _ = api.apply(state, api.expand(legal)[0])
        seat = api.acting(state)[0]
        legal = api.legal_actions(state, seat)
    view = api.view(state, seat, include_state=True)
    tuned = make_agent("ismcts", 1, iterations=2, prior_bot="tuned")
    tuned.decide(view, legal)
    assert tuned._heuristic.params == {**DEFAULTS, **preset("tuned")}
    assert make_agent("ismcts", 1).prior_bot == "tuned"           # the tuned prior is the default
    plain = make_agent("ismcts", 1, iterations=2, prior_bot="default")
    plain.decide(view, legal)
    assert plain._heuristic.params == DEFAULTS
