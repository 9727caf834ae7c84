"""A newcomer taking Learn to play by clicks (tests/web/test_learn_browser.py): at each of the
learner's decisions, the choice a sensible first-time player makes, taken on the page the way a
person takes it (a place on the map, a button, a bid typed in), never by calling the server."""
from __future__ import annotations

import json
import time
from collections import deque

from pax_hispanica import api

from .helpers import wait_for

RS = api.load_ruleset("reference")


def _europe_distance() -> dict[str, int]:
    """Moves from each zone to Europe, over the map's adjacency."""
    adj: dict[str, set[str]] = {}
    for i, z in enumerate(RS.zone_ids):            # the ruleset's adjacency: zone index -> neighbours
        for j in RS.adjacent[i]:
            adj.setdefault(z, set()).add(RS.zone_ids[j])
            adj.setdefault(RS.zone_ids[j], set()).add(z)
    dist = {"europe": 0}
    todo = deque(["europe"])
    while todo:
        z = todo.popleft()
        for w in adj.get(z, ()):
            if w not in dist:
                dist[w] = dist[z] + 1
                todo.append(w)
    return dist


def options(page) -> list[dict]:
    """Every option the decision offers now: its action and the element that carries it."""
    return page.evaluate("""() => [...document.querySelectorAll('#decision [data-action], #decision option[data-action]')]
        .map(e => ({action: JSON.parse(e.dataset.action), id: e.id || '', tag: e.tagName.toLowerCase()}))""")


def pick(opts: list[dict], bid_max: int | None, state: dict) -> dict | str | None:
    """The newcomer's choice among `opts` (or "bid"), following the coach's advice."""
    acts = [o["action"] for o in opts]
    types = {a["type"] for a in acts}
    if bid_max is not None:
        return "bid"
    if "labour" in types:                  # employ a Citizen (the coach: a Slave may die or revolt)
        employ = [a for a in acts if a.get("source") == "employ"]
        return (employ or [a for a in acts if a["type"] == "labour"])[0]
    if "initiate" in types:                # open an auction of the Market's face-up card
        return next(a for a in acts if a["type"] == "initiate" and a.get("deck") == "market" and not a.get("buried"))
    if "support" in types:
        return next(a for a in acts if a["type"] == "support")
    if "play" in types or "end_turn" in types:
        if not state.get("played"):        # a card that gives Prestige, once
            prestige = [a for a in acts if a["type"] == "play" and str(a.get("card", "")).startswith("titulo_nobleza")]
            if prestige:
                state["played"] = True
                return prestige[0]
        return next((a for a in acts if a["type"] == "end_turn"), acts[0])
    if "sell" in types or "discard" in types:
        return next(a for a in acts if a["type"] in ("sell", "discard"))
    if types & {"move", "load_chests", "end_voyage", "attack", "unload"}:
        loads = [a for a in acts if a["type"] == "load_chests"]
        if loads:
            return max(loads, key=lambda a: a.get("count", 0))
        moves = [a for a in acts if a["type"] == "move"]
        if not state.get("loaded") and any(a["to"] == "jamaica" for a in moves):
            state["loaded"] = True          # Port Royal's Chests first (free: they are the learner's own)
            return next(a for a in moves if a["to"] == "jamaica")
        if moves:
            dist = state.setdefault("dist", _europe_distance())
            return min(moves, key=lambda a: dist.get(a["to"], 99))
        return next((a for a in acts if a["type"] == "end_voyage"), acts[0])
    return acts[0] if acts else None


def take(page, opts: list[dict], action: dict) -> None:
    """Take `action` by clicks: its button; or its place on the map (and the place's menu when
    the place offers several); or, for an option of a list with no place drawn, the list."""
    want = json.dumps(action, sort_keys=True)
    mine = [o for o in opts if json.dumps(o["action"], sort_keys=True) == want]
    assert mine, (action, opts)
    for o in mine:                        # a button in sight (a phone shows only a few)
        if o["tag"] == "button" and o["id"] and page.locator(f"#decision [id='{o['id']}']").first.is_visible():
            page.locator(f"#decision [id='{o['id']}']").first.click(timeout=3000)
            return
    for o in mine:                        # a button out of sight: the list that names it
        named = f"option[value='{o['id']}'], option[data-for='{o['id']}']"
        listed = page.locator(f"#decision select:has(option[value='{o['id']}']), "
                              f"#decision select:has(option[data-for='{o['id']}'])")
        if o["tag"] == "button" and o["id"] and listed.count():
            label = listed.first.locator(named).first.inner_text().strip()
            listed.first.select_option(label=label)
            listed.first.locator("xpath=ancestor::form").locator("button[type=submit]").click(timeout=3000)
            return
    o = next((o for o in mine if o["tag"] == "option"), mine[0])
    place = page.locator(f"svg.map [data-place][data-options~='{o['id']}']")
    if o["id"] and place.count():
        place.first.click(timeout=3000)
        menu = page.locator("#place-menu:not([hidden]) button.act")
        try:
            menu.first.wait_for(timeout=700)
        except Exception:
            return                        # one option at that place: the click took it
        labels = page.eval_on_selector_all("#place-menu button.act", "bs => bs.map(b => b.dataset.action)")
        i = next(i for i, text in enumerate(labels) if json.dumps(json.loads(text), sort_keys=True) == want)
        menu.nth(i).click(timeout=3000)
        return
    select = page.locator(f"#decision select:has(option[id='{o['id']}'])")
    select.select_option(value=o["id"])
    select.locator("xpath=ancestor::form").locator("button[type=submit]").click(timeout=3000)


def play_lesson(page, timeout: float = 120) -> int:
    """Play the open lesson to its end by clicks; returns the number of decisions taken."""
    state: dict = {}
    taken = 0
    deadline = time.time() + timeout
    while time.time() < deadline:
        if page.query_selector("#learn-done"):
            return taken
        if page.get_attribute("#board", "aria-busy") == "true":
            page.wait_for_timeout(50)
            continue
        version = page.get_attribute("#board", "data-version")
        bid = page.query_selector("#decision form.range-form")
        opts = options(page)
        if not bid and not opts:
            page.wait_for_timeout(50)
            continue
        bid_max = int(bid.query_selector("input[name=value]").get_attribute("max") or 0) if bid else None
        choice = pick(opts, bid_max, state)
        if choice == "bid":
            page.fill("#decision form.range-form input[name=value]", str(min(bid_max or 0, 2)))
            page.click("#decision form.range-form button[type=submit]")
        else:
            take(page, opts, choice)
        taken += 1
        wait_for(lambda version=version: page.get_attribute("#board", "data-version") != version
                 or page.query_selector("#error:not([hidden])") or page.query_selector("#learn-done"),
                 what="the move to land")
        error = page.query_selector("#error:not([hidden])")
        assert error is None, page.inner_text("#error")
    raise AssertionError("the lesson did not end in time")
