"""A person's game on the game page built around the board (issue 38), in Chromium: every decision
taken by clicks (taps on a phone) on the map and the action bar only, the way a player would:

* an option that names a place: its card picked first when it is a card's (button.pick, or the
  phone's card list), then the place tapped on the map (at a point of it that is not covered),
  then, when the place holds several options, the one wanted in the menu under the map;
* any other option: its button, or on a phone, when the action bar has many, the list and Choose;
* an amount (a bid): typed, then Submit.

What it reads on the way, for tests/web/test_board_first.py and benchmarks/page_clicks.py: the
clicks or taps each decision took, by kind of decision; the most buttons the action bar showed at
once; whether the map and the decision were both in view (no scrolling); any button of the action
bar for an option that names a place; and, after each action, where the focus went.
"""
from __future__ import annotations

import json
import random
import time

from .helpers import wait_for

# the action types whose fields name a place of the map (web/present/board.PLACE_FIELDS, enslave, unload_haven)
PLACE_FIELDS = {"move": ("to",), "start_at_haven": ("zone",), "attack": ("target",), "load_chests": ("colony",),
                "unload": ("colony",), "labour": ("colony", "site"), "play": ("target",)}
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def names_a_place(action: dict) -> bool:
    if action.get("type") in ("enslave", "unload_haven"):
        return True
    return any(action.get(f) is not None for f in PLACE_FIELDS.get(action.get("type"), ()))


# the action bar as the page shows it now (None: nothing to decide)
READ = """() => {
  const d = document.querySelector('#decision');
  if (!d) return null;
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const vw = window.innerWidth, vh = window.innerHeight;
  const bar = document.getElementById('part-top').getBoundingClientRect();
  const inView = e => { const r = e.getBoundingClientRect();
    return r.bottom > Math.max(0, bar.top) && r.top < Math.min(vh, bar.bottom) && r.right > 0 && r.left < vw; };
  const widgets = [...d.querySelectorAll('.widget')].map(w => {
    const form = w.querySelector('form.range-form'), input = form && form.querySelector('input[name=value]');
    return {
      decision: w.dataset.decision,
      range: form ? {id: form.id, min: +input.min, max: +input.max} : null,
      buttons: [...w.querySelectorAll('.options button.act')].map(b => ({id: b.id, action: b.dataset.action, shown: shown(b)})),
      list: !!w.querySelector('form.opt-list') && shown(w.querySelector('form.opt-list')),
      places: [...w.querySelectorAll('select.place-select option[data-action]')].map(o => ({id: o.id, action: o.dataset.action})),
      picks: [...w.querySelectorAll('button.pick')].map(b => ({card: b.dataset.card, pressed: b.getAttribute('aria-pressed') === 'true', shown: shown(b)})),
    };
  });
  const buttons = [...document.querySelectorAll('#part-top button')].filter(b => shown(b) && inView(b));
  const placeButtons = [...document.querySelectorAll('#decision button[data-action]')].map(b => b.dataset.action);
  const map = document.querySelector('svg.map').getBoundingClientRect(), dr = d.getBoundingClientRect();
  return {widgets, buttons: buttons.length, placeButtons,
          mapInView: map.top >= 0 && map.bottom <= vh + 1 && map.left >= 0 && map.right <= vw + 1,
          decisionInView: dr.top >= 0 && dr.top < vh - 60 && dr.left >= 0 && dr.right <= vw + 1,
          scrolled: window.scrollY};
}"""

# a point of a place on the screen where a tap reaches it (not covered by the action bar, another
# place or a tip): the place is brought to the middle of its panel first, as a player pans to it
POINT = """(id) => {
  const el = document.querySelector('svg.map [data-options~="' + id + '"]');
  if (!el) return null;
  el.scrollIntoView({block: 'center', inline: 'center'});
  const group = el.closest('.zone-group');
  const reaches = t => { if (!t || !t.closest) return false;
    const p = t.closest('[data-place]');
    if (p) return p === el;
    return el.classList.contains('zone') && !!group && t.closest('.zone-group') === group; };
  const r = el.getBoundingClientRect();
  for (const fy of [.5, .3, .7, .15, .85, .4, .6]) for (const fx of [.5, .3, .7, .15, .85, .4, .6]) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) continue;
    if (reaches(document.elementFromPoint(x, y))) return [x, y];
  }
  return null;
}"""

FOCUS = """() => {
  const a = document.activeElement, d = document.querySelector('#decision');
  return {body: !a || a === document.body, decision: !!d, inDecision: !!d && d.contains(a),
          place: !!(a && a.closest && a.closest('svg.map [data-place]')), who: !!a && a.id === 'part-status',
          other: !!a && (a.id === 'reveal' || (a.matches && a.matches('#outcomes input.dismiss'))),
          what: a ? a.outerHTML.slice(0, 80) : ''};
}"""


def tap(page, phone: bool, x: float, y: float) -> None:
    if phone:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def click(page, phone: bool, selector: str) -> None:
    loc = page.locator(selector).first
    if phone:
        loc.tap(timeout=3000)
    else:
        loc.click(timeout=3000)


def take(page, phone: bool, bar: dict, rng: random.Random) -> tuple[str, dict, int] | None:
    """Choose one of the options the bar offers and take it by clicks: (the decision, the action,
    the clicks or taps it took), or None when the board changed under the hand."""
    offers = []
    for w in bar["widgets"]:
        if w["range"]:
            offers.append(("range", w, None))
        offers += [("button", w, b) for b in w["buttons"]]
        offers += [("place", w, p) for p in w["places"]]
    if not offers:
        return None
    places = [o for o in offers if o[0] == "place"]
    # the map first, most of the time: the point of the page
    how, w, opt = rng.choice(places) if places and rng.random() < 0.7 else rng.choice(offers)
    if how == "range":
        r = w["range"]
        value = rng.randint(r["min"], min(r["max"], r["min"] + 3))
        taps = 1
        if value != r["min"]:
            page.fill(f"#{r['id']} input[name=value]", str(value))
            taps += 1
        click(page, phone, f"#{r['id']} button[type=submit]")
        return w["decision"], {"type": "amount", "value": value}, taps
    action = json.loads(opt["action"])
    if how == "button":
        if w["list"] and not next(b for b in w["buttons"] if b["id"] == opt["id"])["shown"]:
            form = f'.widget[data-decision="{w["decision"]}"] form.opt-list'
            i = page.eval_on_selector(f"{form} select", "(s, id) => [...s.options].findIndex(o => o.dataset.for === id)", opt["id"])
            page.select_option(f"{form} select", index=i)
            click(page, phone, f"{form} button[type=submit]")
            return w["decision"], action, 3          # open the list, choose, Choose
        click(page, phone, f"#{opt['id']}")
        return w["decision"], action, 1
    return w["decision"], action, take_place(page, phone, opt["id"])


def take_place(page, phone: bool, option_id: str) -> int:
    """Take the place option `option_id` (an <option> of the bar's place list, whose id the map's
    place names): its card picked first when it is a card's, the place tapped on the map, then the
    option in the place's menu when it holds several. The clicks or taps it took."""
    taps = 0
    # a card to pick first: the card its action plays, when the bar has that card's button
    opt = page.eval_on_selector(f"#{option_id}", """o => { const a = JSON.parse(o.dataset.action);
      const card = a.type === 'play' && a.target && document.querySelector('#decision button.pick[data-card="' + a.card + '"]') ? a.card : null;
      return {action: o.dataset.action, card: card}; }""")
    if opt["card"]:
        pick = page.locator(f'#decision button.pick[data-card="{opt["card"]}"]')
        if pick.get_attribute("aria-pressed") != "true":
            if pick.is_visible():
                click(page, phone, f'#decision button.pick[data-card="{opt["card"]}"]')
                taps += 1
            else:
                page.select_option("#decision select.pick-select", opt["card"])
                taps += 2
    page.wait_for_selector(f'svg.map [data-options~="{option_id}"]', timeout=3000)
    several = page.get_attribute(f'svg.map [data-options~="{option_id}"]', "data-options").split()
    point = page.evaluate(POINT, option_id)
    assert point is not None, f"no point of the map reaches the place of {opt['action']}"
    tap(page, phone, *point)
    taps += 1
    if len(several) > 1:                                   # the place's menu, under the map
        page.wait_for_selector("#place-menu:not([hidden]) button.act", timeout=3000)
        i = page.eval_on_selector_all("#place-menu button.act", "(bs, a) => bs.findIndex(b => b.dataset.action === a)",
                                      opt["action"])
        assert i >= 0, (opt, several)
        loc = page.locator("#place-menu button.act").nth(i)
        loc.tap(timeout=3000) if phone else loc.click(timeout=3000)
        taps += 1
    return taps


def take_option(page, option_id: str, phone: bool = False) -> int:
    """Take the bar's option whose element id is `option_id` by clicks, wherever the page offers
    it: its button, or its place on the map. The clicks it took."""
    if page.eval_on_selector(f"#{option_id}", "e => e.tagName") == "OPTION":
        return take_place(page, phone, option_id)
    click(page, phone, f"#{option_id}")
    return 1


def open_game(browser, srv, token: str, size: str):
    phone = size == "phone"
    ctx = browser.new_context(viewport=SIZES[size], has_touch=phone, is_mobile=phone, device_scale_factor=1)
    page = ctx.new_page()
    page.goto(f"{srv.url}/play/{token}")
    page.wait_for_selector("#conn.on")
    return ctx, page


def play(browser, srv, token: str, size: str, seed: int = 38, budget: float = 300) -> dict:
    """Play the seat of `token` to the end of its game by clicks; what was seen on the way."""
    from playwright.sync_api import Error

    phone = size == "phone"
    ctx, page = open_game(browser, srv, token, size)
    rng = random.Random(seed)
    out = {"clicks": {}, "max_buttons": 0, "place_buttons": [], "not_in_view": [], "focus": {}, "bad_focus": [],
           "landed": 0, "decisions": 0}
    deadline = time.time() + budget
    try:
        while time.time() < deadline and not page.query_selector("#result"):
            version = page.get_attribute("#board", "data-version")
            try:
                if not phone:
                    page.evaluate("() => window.scrollTo(0, 0)")
                bar = page.evaluate(READ)
                if bar is None or page.get_attribute("#board", "aria-busy") == "true":
                    page.wait_for_timeout(40)
                    continue
                out["max_buttons"] = max(out["max_buttons"], bar["buttons"])
                out["place_buttons"] += [a for a in bar["placeButtons"] if names_a_place(json.loads(a))]
                if not phone and not (bar["mapInView"] and bar["decisionInView"]):
                    out["not_in_view"].append(bar)
                taken = take(page, phone, bar, rng)
            except (Error, StopIteration):
                taken = None                  # the board was redrawn under the hand: read it again
            if taken is None:
                page.wait_for_timeout(40)
                continue
            decision, action, taps = taken
            out["decisions"] += 1
            wait_for(lambda version=version: page.get_attribute("#board", "data-version") != version
                     or page.query_selector("#error:not([hidden])"), what="the action to land")
            error = page.query_selector("#error:not([hidden])")
            if error is not None:
                assert page.get_attribute("#error", "data-code") == "stale_version", page.inner_text("#error")
                continue
            out["landed"] += 1
            out["clicks"].setdefault(decision, []).append(taps)
            # the focus, once the answer is in: on the next thing to decide, never on <body>
            wait_for(lambda: page.get_attribute("#board", "aria-busy") == "false", what="the answer")
            page.wait_for_timeout(60)
            f = page.evaluate(FOCUS)
            kind = action.get("type")
            ok = not f["body"] and ((f["inDecision"] or f["place"]) if f["decision"] else (f["who"] or f["other"]))
            out["focus"][kind] = out["focus"].get(kind, 0) + 1
            if not ok:
                out["bad_focus"].append((kind, f))
        page.wait_for_selector("#result", timeout=60000)
        out["result"] = page.inner_text("#result")
    finally:
        ctx.close()
    return out


def new_game(srv, cycles: int = 1, players: int = 3) -> dict:
    """A game of `cycles` cycles (PRJ-31's `cycles`), a person in seat 0 and bots in the others."""
    seats = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "bot_kind": "heuristic"}] * (players - 1)
    return srv.post("/api/games", {"players": players, "seats": seats, "params": {"cycles": cycles}})
