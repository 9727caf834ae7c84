"""Pace and engagement statistics (sim/engagement.py, issue 15) against a small run whose
events this test counts itself, by replaying each game from its seeds."""
from __future__ import annotations

import statistics
from collections import Counter
from itertools import pairwise

import pytest

from pax_hispanica import api, sim
from pax_hispanica.bots import make_agent
from pax_hispanica.bots.base import stable_seed
from pax_hispanica.sim import engagement as eg
from pax_hispanica.sim.stats import report


def replay_by_hand(result: dict, players: int, params: dict) -> dict:
    """Play the game again with the runner's seeds, keeping every event and every view."""
    state = api.new_game(api.Config(players=players, params=params), seed=result["seed"])
    agents = [make_agent(b.split(":")[0], stable_seed("bot", result["seed"], s)) for s, b in enumerate(result["bots"])]
    events, forced, kinds, standings = [], 0, Counter(), []
    while not api.is_over(state):
        seat = api.acting(state)[0]
        legal = api.legal_actions(state, seat)
        forced += len(api.expand(legal)) == 1
        action = agents[seat].decide(api.view(state, seat, include_state=True), legal)
        kinds[action["type"]] += 1
        state, evs = api.apply(state, action)
        events += evs
        if any(e["type"] == "YearBegan" for e in evs):
            ps = api.view(state, None)["players"]
            standings.append([p["prestige"] + p["colony_prestige"] for p in ps])
    standings.append(api.result(state)["scores"])
    return {"events": Counter(e["type"] for e in events), "forced": forced, "kinds": kinds,
            "standings": standings, "money": api.result(state)["money"], "events_list": events}


def changes_by_hand(standings: list[list[int]]) -> int:
    leaders = []
    for s in standings:
        top = max(s)
        if s.count(top) == 1:
            leaders.append(s.index(top))
    return sum(1 for a, b in pairwise(leaders) if a != b)


def test_lead_changes_ignore_ties():
    assert eg.leader([3, 1, 3]) is None
    assert eg.lead_changes([[1, 0], [1, 1], [0, 2], [3, 0], [3, 0]]) == 2
    assert eg.lead_changes([[0, 0], [0, 0]]) == 0


def test_engagement_matches_a_hand_count():
    params = {"cycles": 3}
    # seed 2 (PRJ-36 numbers): lead changes of 0, 1 and 0, two battles, Havens in every game (checked below)
    results = sim.run(3, 3, "heuristic,random,heuristic", seed=2, params=params)
    hand = [replay_by_hand(r, 3, params) for r in results]
    for r, h in zip(results, hand):
        e = r["engagement"]
        assert e["forced"] == h["forced"]
        assert e["actions"] == dict(h["kinds"])
        assert e["events"] == dict(h["events"])
        assert e["lead_changes"] == changes_by_hand(h["standings"])
        assert e["money_end"] == h["money"]
        assert e["prestige_by_cycle"][-1] == r["scores"]
        assert len(e["prestige_by_cycle"]) == r["cycles"] == 3
        loads = Counter(ev["legality"] for ev in h["events_list"] if ev["type"] == "ChestsLoaded")
        assert e["loads_by_legality"] == dict(loads)
    s = report(results)["engagement"]
    n = len(results)
    decisions = sum(r["decisions"] for r in results)
    assert s["games"] == n
    assert s["forced"]["count"] == sum(h["forced"] for h in hand) and s["forced"]["of"] == decisions
    lc = [changes_by_hand(h["standings"]) for h in hand]
    assert s["lead_changes"]["mean"] == pytest.approx(statistics.fmean(lc))
    half = 1.959963984540054 * statistics.stdev(lc) / n ** 0.5
    assert s["lead_changes"]["ci95"] == pytest.approx([statistics.fmean(lc) - half, statistics.fmean(lc) + half], abs=1e-5)
    battles = [h["events"]["BattleResolved"] for h in hand]
    assert s["events"]["battles"]["mean"] == pytest.approx(statistics.fmean(battles))
    assert s["events"]["battles"]["games_with"]["count"] == sum(1 for b in battles if b)
    sacks = [h["events"]["ColonySacked"] for h in hand]
    assert s["events"]["sacks"]["mean"] == pytest.approx(statistics.fmean(sacks))
    assert s["events"]["Havens founded"]["mean"] == pytest.approx(statistics.fmean(h["events"]["HavenFounded"] for h in hand))
    money = [m for h in hand for m in h["money"]]
    assert s["money_unspent_end"]["mean"] == pytest.approx(statistics.fmean(money))
    assert s["cycles_per_game"]["mean"] == 3
    assert lc == [0, 1, 0] and sum(battles) > 0
    played = [len(c) for r in results for c in r["cards_played"]]
    assert s["cards_per_player"]["mean"] == pytest.approx(statistics.fmean(played))
    assert s["actions"]["bid"]["share_of_decisions"]["count"] == sum(h["kinds"]["bid"] for h in hand)
    # AUC-5: the cards won at auction, and of those games the ones where the card was played
    from pax_hispanica.sim.stats import card_base
    won = [{card_base(ev["card"]) for ev in h["events_list"] if ev["type"] == "AuctionWon"} for h in hand]
    played_in = [{card_base(c) for seat in r["cards_played"] for c in seat} for r in results]
    for r, h in zip(results, hand):
        assert r["engagement"]["cards_won"] == [ev["card"] for ev in h["events_list"] if ev["type"] == "AuctionWon"]
    assert any(won) and any(w - p for w, p in zip(won, played_in))     # some card won and never played
    for card, v in s["cards"].items():
        games = [i for i, w in enumerate(won) if card in w]
        assert v["games_won"]["count"] == len(games) and v["games_won"]["of"] == n, card
        assert v["played_when_won"]["count"] == sum(1 for i in games if card in played_in[i]), card
        assert v["played_when_won"]["of"] == len(games), card
    # the curve: cycle 1's leader mean is the mean of each game's best standing after cycle 1
    first = [max(r["engagement"]["prestige_by_cycle"][0]) for r in results]
    assert s["prestige_by_cycle"][0]["leader"]["mean"] == pytest.approx(statistics.fmean(first))


def test_engagement_is_the_same_with_two_workers():
    one = sim.run(3, 4, "heuristic,random", seed=9, params={"cycles": 2})
    two = sim.run(3, 4, "heuristic,random", seed=9, params={"cycles": 2}, workers=2)
    assert [r["engagement"] for r in one] == [r["engagement"] for r in two]


def test_report_html_has_the_engagement_section(tmp_path):
    from pax_hispanica.sim import output
    results = sim.run(3, 2, "heuristic,random", seed=1, params={"cycles": 2})
    summary = report(results)
    written = output.write_all(results, summary, tmp_path)
    text = written["report"].read_text()
    assert "Pace and engagement" in text and "lead changes per game" in text
    assert (tmp_path / "prestige_curve.png").exists() and (tmp_path / "events.png").exists()
    assert "interactive.html" in text and "Prestige at the end of each cycle" in written["interactive"].read_text()


def test_cards_never_played_are_listed():
    results = sim.run(3, 2, "random", seed=3, params={"cycles": 1})
    names = eg.card_names(api)
    s = report(results, names)["engagement"]
    assert set(s["cards"]) == set(names)
    from pax_hispanica.sim.stats import card_base
    played = {card_base(c) for r in results for seat in r["cards_played"] for c in seat}
    never = sorted(set(names) - played)
    assert never and s["cards_rarely_played"] == never      # 2 games: a card is in 1 or 2 of them, or in none
    assert all(s["cards"][c]["games_with"]["count"] == 0 for c in never)


def first_cycle_by_hand(result: dict, players: int, params: dict) -> tuple[list[int], list[bool]]:
    """Cards each seat played in cycle 1, and whether cycle 1 ever offered it a `play`."""
    state = api.new_game(api.Config(players=players, params=params, nations=result["nations"]), seed=result["seed"])
    agents = [make_agent(b.split(":")[0], stable_seed("bot", result["seed"], s)) for s, b in enumerate(result["bots"])]
    played, could = [0] * players, [False] * players
    while not api.is_over(state) and api.view(state, None)["cycle"] == 1:
        seat = api.acting(state)[0]
        legal = api.legal_actions(state, seat)
        could[seat] |= any(a["type"] == "play" for a in api.expand(legal))
        state, evs = api.apply(state, agents[seat].decide(api.view(state, seat, include_state=True), legal))
        for e in evs:
            if e["type"] == "CardPlayed" and api.view(state, None)["cycle"] == 1:
                played[e["seat"]] += 1
    return played, could


def test_PLY_1_cards_in_the_first_cycle_match_a_hand_count():
    """Issue 15: "every nation can afford to play cards in its first cycle". The runner's
    first-cycle facts (cards played in cycle 1, a `play` offered in cycle 1) match a count
    by replaying, and the summary's shares by nation and by seat are those counts."""
    params = {"cycles": 2}
    results = sim.run(4, 6, "heuristic,random,heuristic,random", seed=5, params=params, nations="shuffle")
    hand = [first_cycle_by_hand(r, 4, params) for r in results]
    for r, (played, could) in zip(results, hand):
        assert r["engagement"]["first_cycle"] == {"played": played, "could_play": could}
    assert any(sum(p) for p, _c in hand) and not all(all(c) for _p, c in hand)   # the test can fail
    s = report(results)["engagement"]["first_cycle_cards"]
    by_nation: dict[str, list[int]] = {}
    for r, (played, could) in zip(results, hand):
        for seat, nation in enumerate(r["nations"]):
            c = by_nation.setdefault(nation, [0, 0, 0])
            c[0] += 1
            c[1] += played[seat] > 0
            c[2] += could[seat]
    assert set(s["by_nation"]) == set(by_nation)
    for nation, (n, p, c) in by_nation.items():
        assert (s["by_nation"][nation]["played"]["count"], s["by_nation"][nation]["played"]["of"]) == (p, n)
        assert s["by_nation"][nation]["could_play"]["count"] == c
    assert [s["by_seat"][str(k)]["played"]["of"] for k in range(4)] == [6] * 4


def test_PRJ_38_the_report_shows_the_variant_rule_and_loadings_by_rule(tmp_path):
    """A run with plunder_loading = sack_or_own says so in report.html, and counts the
    loadings that followed the variant (ChestsLoaded citing PRJ-38) apart from TRS-2's sacks."""
    from pax_hispanica.sim import output
    params = {"plunder_loading": "sack_or_own"}
    results = sim.run(3, 6, "heuristic", seed=1, params=params, nations=["french", "english", "dutch"])
    s = report(results)
    by_rule = s["engagement"]["loads_by_rule"]
    assert by_rule["PRJ-38"]["games_with"]["count"] > 0
    counted = sum(r["engagement"]["loads_by_rule"].get("PRJ-38", 0) for r in results)
    assert by_rule["PRJ-38"]["mean"] == pytest.approx(counted / len(results))
    text = output.write_all(results, s, tmp_path, {"params": params})["report"].read_text()
    assert "Variant rules" in text and "PRJ-38" in text and "loading under PRJ-38" in text
    # TRS-2 as written (reference-3's rule, an option since PRJ-58 made sack_or_own the reference)
    as_written = sim.run(3, 6, "heuristic", seed=1, params={"plunder_loading": "sack"},
                         nations=["french", "english", "dutch"])
    assert all("PRJ-38" not in r["engagement"]["loads_by_rule"] for r in as_written)
    default = sim.run(3, 6, "heuristic", seed=1, nations=["french", "english", "dutch"])
    assert all("PRJ-38" not in r["engagement"]["loads_by_rule"] for r in default)   # reference-8: TRS-2 (PRJ-82)
    assert "Variant rules" not in output.render_html(report(default), {}, {})
    seven = sim.run(3, 6, "heuristic", seed=1, params={"house_rules": "reference-7"},     # PRJ-58's rule,
                    nations=["french", "english", "dutch"])                              # a house rule (PRJ-83)
    assert sum(r["engagement"]["loads_by_rule"].get("PRJ-38", 0) for r in seven) > 0


def test_CYC_2_ended_early_counts_only_games_that_reached_the_goal_before_the_last_cycle():
    # PRJ-55: with 3 cycles and a goal of 3 Prestige, seed 3 gives one game ended in cycle 2 and
    # three that reached the goal only in the last Sail Year, when the game ended anyway (two
    # before reference-8's numbers, PRJ-82/PRJ-85)
    params = {"prestige_to_win": 3, "cycles": 3}
    results = sim.run(2, 12, "heuristic,heuristic", seed=3, params=params)
    early = [r["engagement"]["ended_by"] == "prestige_goal" and r["cycles"] < 3 for r in results]
    reached = [r["engagement"]["ended_by"] == "prestige_goal" for r in results]
    assert [r["engagement"]["ended_early"] for r in results] == early
    assert sum(early) == 1 and sum(reached) == 4
    s = report(results)["engagement"]
    assert s["ended_by_prestige"]["count"] == 1 and s["ended_by_prestige"]["of"] == 12
    assert s["reached_prestige_goal"]["count"] == 4
