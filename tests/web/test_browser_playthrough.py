"""Issue 15, "keep players in mind": a whole 4-player game of the reference ruleset
(reference-8: PRJ-36's money numbers, PRJ-55's Prestige goal, PRJ-69's card costs, PRJ-82's Treasure (TRS-2 as written); PRJ-77's and PRJ-79's numbers are 2 and 3 players') played in the browser by a person's choices against the
server's bots, to the end. Playwright drives Debian's chromium; every choice is a click on
the page's own buttons and forms or, for an option that names a place, on the map (issue 38:
the action bar has no button per place; tests/web/board_play.take_option), decided from what
the page shows (its options and the board), the way a new player would play the French:

* the Goods Year and the auctions: the first option offered (labour, the Market deck);
* a bid: $2, or all it may bid if that is less (a person keeps money for the card);
* the Play Year: play a card whenever the page offers one (PLY-1), else end the turn;
* a voyage: load Chests when offered, score them at a Haven, sail home to Europe with
  Chests aboard, otherwise toward a colony of its own, else end the voyage.

What it checks: the game ends with a result on the page, the record names reference-8 and
replays to the page's result, every click on a card's play button became a played card, and
in the first cycle's Play Year either a card was offered or the page said why not for the
cards in hand (the server's seed is secret, PRJ-1, so each run is another game: among
heuristic bots the French could pay for a card in cycle 1 in 91-95% of games).
"""
from __future__ import annotations

import json
import time
from collections import deque

import pytest

from pax_hispanica import api

from .board_play import take_option
from .helpers import wait_for
from .test_browser import open_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

RS = api.load_ruleset("reference")


def distances_to(goal: set[str]) -> dict[str, int]:
    """Moves from each zone to the nearest zone of `goal` (the board's adjacency)."""
    dist = {z: 0 for z in goal}
    todo = deque(goal)
    while todo:
        z = todo.popleft()
        for a in RS.adjacent[RS.zone_index[z]]:
            n = RS.zone_ids[a]
            if n not in dist:
                dist[n] = dist[z] + 1
                todo.append(n)
    return dist


def options(page) -> list[tuple[dict, str]]:
    """(action, element id) of every option of the action bar (not undo): its buttons, and the
    options that name a place, which are taken on the map (the bar's place list names them)."""
    out = []
    for b in page.query_selector_all("#decision button.act:not(.undo), #decision select.place-select option[data-action]"):
        raw = b.get_attribute("data-action")
        if raw:
            out.append((json.loads(raw), b.get_attribute("id")))
    return out


def person_choice(page, view: dict) -> str | None:
    """The CSS selector a person would click now, or None (nothing to decide)."""
    form = page.query_selector("#decision form.range-form")
    if form is not None:                                  # a sealed bid (AUC-3) or another amount
        field = form.query_selector("input[name=value]")
        lo, hi = int(field.get_attribute("min")), int(field.get_attribute("max"))
        field.fill(str(max(lo, min(2, hi))))
        return f"#{form.get_attribute('id')} button[type=submit]"
    opts = options(page)
    if not opts:
        return None
    by: dict[str, list[tuple[dict, str]]] = {}
    for a, bid in opts:
        by.setdefault(a["type"], []).append((a, bid))
    if "play" in by:                                      # PLY-1: a card it can pay for
        return f"#{by['play'][0][1]}"
    for kind in ("load_chests", "unload_haven", "unload"):
        if kind in by:
            return f"#{max(by[kind], key=lambda o: o[0].get('count', 0))[1]}"
    if "move" in by:
        me = view["players"][view["viewer"]]
        fleet = me["fleet"]
        if "chest" in (fleet.get("cargo") or []):
            goal = {"europe"} | set(me.get("havens") or [])
        else:
            goal = {c["zone"] for c in view["colonies"] if c["owner"] == me["seat"] and c["chests"] > 0}
        if goal and fleet["zone"] not in goal:
            dist = distances_to(goal)
            best = min(by["move"], key=lambda o: dist.get(o[0]["to"], 99))
            if dist.get(best[0]["to"], 99) < dist.get(fleet["zone"], 99):
                return f"#{best[1]}"
    for kind in ("end_voyage", "end_turn", "pass"):
        if kind in by:
            return f"#{by[kind][0][1]}"
    return f"#{opts[0][1]}"


def test_a_person_plays_the_french_to_the_end_of_a_4_player_game_against_bots(server_factory, browser, tmp_path):
    srv = server_factory(f"sqlite:///{tmp_path / 'paxh.sqlite3'}", bot_delay=0.0)
    g = srv.post("/api/games", {"players": 4, "nations": ["spanish", "english", "french", "dutch"], "seats": [
        {"kind": "bot", "bot_kind": "heuristic"}, {"kind": "bot", "bot_kind": "heuristic"},
        {"kind": "human", "name": "Ana"}, {"kind": "bot", "bot_kind": "random"}]})
    token = g["seats"][2]["token"]
    page = open_page(browser, f"{srv.url}/play/{token}")
    offered_in_cycle_1, why_not, play_clicks = False, set(), 0
    clicks, landed, deadline = 0, 0, time.time() + 360
    while time.time() < deadline and not page.query_selector("#result"):
        version = page.get_attribute("#board", "data-version")
        answer = srv.get(f"/api/view/{token}")
        if answer.get("over"):
            break
        view = answer["view"]
        opts = options(page)
        if view.get("cycle") == 1 and view.get("year") == "play" and answer.get("legal") and opts:
            if any(a["type"] == "play" for a, _id in opts):
                offered_in_cycle_1 = True
            elif view["players"][2].get("hand"):
                # no card it can pay for: the page says why not, card by card (docs/api.md, "Why not?")
                why_not.update(page.eval_on_selector_all("#decision .why-not li", "els => els.map(e => e.dataset.code)"))
                assert why_not, "a card in hand cannot be played in cycle 1 and the page does not say why"
        target = person_choice(page, view) if answer.get("legal") else None
        button = page.query_selector(target) if target is not None else None
        if button is None:
            page.wait_for_timeout(50)
            continue
        # what this very element does, read from it: the panel may be redrawn between reading
        # the options and the click, so a play is counted only by the option taken
        raw = button.get_attribute("data-action")
        from playwright.sync_api import Error
        try:
            take_option(page, target[1:])
        except (Error, AssertionError):                   # the panel was redrawn under the click
            continue
        clicks += 1
        wait_for(lambda version=version: page.get_attribute("#board", "data-version") != version
                 or page.query_selector("#error:not([hidden])") or page.query_selector("#result"),
                 what="the click to land")
        error = page.query_selector("#error:not([hidden])")
        assert error is None or "stale_version" in page.inner_text("#error"), page.inner_text("#error")
        landed += error is None
        if error is None and raw and json.loads(raw).get("type") == "play":
            play_clicks += 1                              # a play the server took (not refused as stale)
    page.wait_for_selector("#result", timeout=30000)
    record = srv.get(f"/api/record/{token}")
    assert record["ruleset_version"] == "reference-8"
    game = api.replay(record)
    assert api.is_over(game.state)
    # the person's every decision of the whole game came from a click on the page (a game that
    # ends early by Prestige is shorter, so the count is the record's, not a fixed number)
    mine = [a for a in record["actions"] if a.get("seat") == 2]
    assert len(mine) >= 2 * game.state.cycle and landed == len(mine), (landed, len(mine), clicks)
    played = [e for e in game.events if e["type"] == "CardPlayed" and e["seat"] == 2]
    # every click on a card's play button became a played card (a click lost to a redraw is not counted)
    assert len(played) == play_clicks, (len(played), play_clicks)
    result = api.result(game.state)
    assert str(result["scores"][2]) in page.inner_text("#result")
    print(f"{clicks} clicks; the French played {len(played)} cards; a card offered in cycle 1: "
          f"{offered_in_cycle_1}; why not: {sorted(why_not)}; result {result}")
