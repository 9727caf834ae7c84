"""Issue 38's leftovers: "since your last move" in turn-based games, replay captions that name
who acted, and a finished game replayed from one seat's (or a spectator's) point of view.

- The digest: a turn-based game's seat opens on everything since it last acted (the others'
  moves, what the engine did by itself, the changes of Year), built from the events that seat
  may see (a sealed bid is "has made a sealed choice", never its amount), in English and
  Catalan; it goes once the seat acts, a live game and a spectator have none, and its updates
  stay small (p50 <= 5 KB, like every update).
- The replay: every step's caption names its seat; ?seat=N shows that seat's hand and log only,
  and another seat's sealed bid as it saw it then; ?seat=spectator no hand at all."""
from __future__ import annotations

import json
import random
import re
import statistics

import pytest

from pax_hispanica import api
from pax_hispanica.web.play.model import LiveGame, Seat
from pax_hispanica.web.present import happened, page_context, replay, updates
from pax_hispanica.web.present.i18n import LANGS, Tr

from .conftest import Server
from .helpers import pump_until, wait_for
from .test_happened import corpus_games, live_at, page_for

pytestmark = pytest.mark.timeout(300)
TURN = {"pace": "turn", "move_seconds": 86400}
NAMES = ["Ana", "Bru"]


def finished_live(record: dict, gid: str) -> LiveGame:
    game = api.replay(record)
    seats = [Seat(i, "human", None, None, NAMES[i], f"t{i}", None) for i in range(record["config"]["players"])]
    return LiveGame(gid, record, 1, "online", "h", "s", None, seats, game.state, game.events)


def digest_html(html: str) -> str | None:
    m = re.search(r'<section class="panel happened digest" id="digest".*?</section>', html, re.S)
    return m.group(0) if m else None


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'").replace("&amp;", "&")


# --- the digest, from the engine's events -------------------------------------------------------

def digests(lang: str, tag: str):
    """(action count k, translator, seat, first, after, the seat's events, its digest) of seats 0
    and 1 at every 7th position of a corpus game from the 5th (happened.window, happened.digest)."""
    rec = corpus_games(1)[0]
    for k in range(5, len(rec["actions"]), 7):
        live = live_at(rec, k, gid=f"{tag}-{lang}-{k}")
        tr = page_context.translator(live, lang)
        for seat in (0, 1):
            first, after = happened.window(live, seat)
            seen = api.redact(live.events, seat)
            view = api.view(live.state, seat, include_state=False)
            yield k, tr, seat, first, after, seen, happened.digest(seen, seat, first, after, view, tr)


@pytest.mark.parametrize("lang", LANGS)
def test_the_digest_says_every_move_of_the_others_since_the_seat_last_acted(lang):
    """Each of the others' moves since the seat's last action is a line, in the events' own words
    (tr.event of the events the seat may see), grouped under the Years that began; the seat's own
    moves are not in it, and a seat that has not acted is told everything since the start."""
    checked = 0
    for k, tr, seat, first, after, seen, d in digests(lang, "digest"):
        others = [e for e in seen if (e.get("seq") or 0) >= after and e["type"] not in happened.DIGEST_SKIP
                  and e["type"] not in happened.AUTOMATIC]
        if not others:
            continue
        assert d is not None
        lines = [i for g in d["groups"] for i in g["items"]]
        assert len(lines) == min(d["lines"], happened.DIGEST_LINES)
        for e in others[-happened.DIGEST_LINES // 2:]:
            assert tr.event(e).rstrip(".") in lines, (k, seat, e)
        mine = [e for e in seen if first <= (e.get("seq") or 0) < after and e.get("seat") == seat
                and e["type"] not in happened.AUTOMATIC and e["type"] not in happened.DIGEST_SKIP]
        for e in mine:      # its own move is not news to it (unless the same words say another's)
            if not any(tr.event(o) == tr.event(e) for o in others):
                assert tr.event(e).rstrip(".") not in lines
        years = [e for e in seen if (e.get("seq") or 0) >= first and e["type"] == "YearBegan"]
        titles = [g["title"] for g in d["groups"] if g["title"]]
        if years and not d["earlier"]:
            assert tr("sum_year", year=tr.word(years[-1]["year"]), cycle=years[-1]["cycle"]) in titles
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("lang,goods", [("en", "Goods drawn: "), ("ca", "Mercaderies de l’any: ")])
def test_every_digest_line_starts_with_a_capital(lang, goods):
    """The automatic steps' words follow "Goods Year: " in the live summary; the digest puts each
    on a line of its own, which starts with a capital ("Goods drawn: ...", not "goods drawn")."""
    lines, summed = [], []
    for _k, tr, _seat, first, _after, seen, d in digests(lang, "digest-caps"):
        lines += [i for g in d["groups"] for i in g["items"]] if d else []
        summed += [i for g in happened.summary(seen, first, None, tr) for i in g["items"]]
    assert [line for line in lines if line[:1].islower()] == []
    assert any(line.startswith(goods) for line in lines), lines
    # the live game's summary still reads as one sentence per Year: "Goods Year: goods drawn: ..."
    assert any(i.startswith(goods.lower()) for i in summed), summed


def test_a_long_digest_keeps_the_latest_lines_and_counts_the_others():
    rec = corpus_games(1)[0]
    live = live_at(rec, len(rec["actions"]) - 1, gid="digest-long")
    tr = page_context.translator(live, "en")
    seen = api.redact(live.events, None)
    d = happened.digest(seen, 0, 1, 1, None, tr)          # a seat that never acted: since the start
    assert d is not None and d["lines"] > happened.DIGEST_LINES
    lines = [i for g in d["groups"] for i in g["items"]]
    assert len(lines) == happened.DIGEST_LINES and d["earlier"] == d["lines"] - happened.DIGEST_LINES
    last = next(e for e in reversed(seen) if e["type"] not in happened.DIGEST_SKIP
                and e["type"] not in ("EarningsPaid", "DeckRefilled", "YearBegan"))
    assert any(tr.event(last).rstrip(".") in line or line in tr.event(last) for line in lines[-4:]), (last, lines[-4:])
    assert tr.n("digest_earlier", 1) == "1 earlier line not shown"
    assert Tr("ca").n("digest_earlier", 3) == "3 línies anteriors no es mostren"


def test_a_turn_based_games_updates_stay_small_with_the_digest():
    """The digest is part of "happened": it is resent when the others move, so a turn-based
    game's updates are measured too (issue 38: p50 <= 5 KB)."""
    sizes = []
    for n, rec in enumerate(corpus_games(3)):
        last = None
        for k in range(len(rec["actions"]) + 1):
            full = updates.html_update(live_at(rec, k, gid=f"digest-bytes-{n}"), 1, None, "seat", "en", digest=True)
            if last is not None:
                sizes.append(len(json.dumps(updates.html_message(full, last)).encode()))
            last = full
    sizes.sort()
    assert statistics.median(sizes) <= 5000, statistics.median(sizes)


# --- the digest on the page ---------------------------------------------------------------------

def _game(client, table: dict | None) -> dict:
    body = {"players": 2, "seats": [{"kind": "human", "name": n} for n in NAMES], "nations": ["spanish", "english"]}
    if table is not None:
        body["table"] = table
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def _view(client, token: str) -> dict:
    return client.get(f"/api/view/{token}").json()


def _act(client, token: str, v: dict, action: dict) -> None:
    r = client.post(f"/api/act/{token}", json={"version": v["version"], "action": action})
    assert r.status_code == 200, r.text


def _to_second_bid(client, g: dict) -> tuple[int, dict, int]:
    """An auction is opened and one seat seals its bid: the other must bid. Returns the seat
    that must bid, its view, and the sealed bid of the other."""
    tokens = [s["token"] for s in g["seats"]]
    for _ in range(40):
        views = [_view(client, t) for t in tokens]
        bidders = [i for i, v in enumerate(views) if any(d["kind"] == "range" for d in v["legal"])]
        if len(bidders) == 1:
            sealed = [e for e in views[1 - bidders[0]]["events"] if e["type"] == "ChoiceSealed"]
            if sealed:
                return bidders[0], views[bidders[0]], sealed[-1]["value"]
        if bidders:
            i = bidders[0]
            d = next(d for d in views[i]["legal"] if d["kind"] == "range")
            _act(client, tokens[i], views[i], {**d["action"], d.get("field", "amount"): d["max"]})
            continue
        i = next(i for i, v in enumerate(views) if v["legal"])
        opts = [o for d in views[i]["legal"] for o in d.get("options", []) if o["type"] != "undo"]
        _act(client, tokens[i], views[i], next((o for o in opts if o["type"] == "initiate" and not o.get("buried")), opts[0]))
    raise AssertionError("no second bid")


@pytest.mark.parametrize("lang", LANGS)
def test_a_turn_based_seat_opens_on_the_others_moves_and_not_their_secrets(client, lang):
    g = _game(client, TURN)
    me, v1, secret = _to_second_bid(client, g)
    them = 1 - me
    mine, theirs = g["seats"][me]["token"], g["seats"][them]["token"]
    tr = Tr(lang, [Tr(lang).nation(n) + f" ({NAMES[i]})" for i, n in enumerate(["spanish", "english"])])
    page = client.get(f"/play/{mine}?lang={lang}").text
    dg = digest_html(page)
    assert dg is not None, "no digest"
    words = text(dg)
    assert tr("digest_heading") in words and tr("res_ok") in words
    sealed = tr.event({"type": "ChoiceCommitted", "decision": "bid", "seat": them}).rstrip(".")
    assert sealed in words, words
    # the other's bid itself is its own: neither its sealed line nor a reveal is in this digest
    assert tr.event({"type": "ChoiceSealed", "decision": "bid", "seat": them, "value": secret}).rstrip(".") not in words
    assert not [e for e in v1["events"] if e["type"] == "ChoicesRevealed"]
    assert tr.event({"type": "ChoicesRevealed", "decision": "bid", "choices": []}).split(":")[0] not in words
    # who opened the auction, and the Goods Year before it, in the page's language
    started = next(e for e in v1["events"] if e["type"] == "AuctionStarted")
    if started["initiator"] == them:       # the others' moves, and everything since the start (it never acted)
        assert tr.event(started).rstrip(".") in words
        assert tr("sum_year", year=tr.word("goods"), cycle=1) in words
    else:                                   # its own auction is not news to it, nor what came before
        assert tr.event(started).rstrip(".") not in words
        assert tr("sum_year", year=tr.word("goods"), cycle=1) not in words
    if lang == "ca":
        assert "Des de la teva darrera jugada" in words and "ha fet una tria secreta" in words
    # a spectator of the same game is shown no digest; the seat that acted last has nothing new
    assert digest_html(client.get(f"/watch/{g['spectator']}?lang={lang}").text) is None
    assert digest_html(client.get(f"/play/{theirs}?lang={lang}").text) is None
    # once it acts, its digest goes (the reveal was its own action's)
    d = next(d for d in v1["legal"] if d["kind"] == "range")
    _act(client, mine, v1, {**d["action"], d.get("field", "amount"): d["min"]})
    dg2 = digest_html(client.get(f"/play/{mine}?lang={lang}").text)
    key = re.search(r'id="dismiss-(d\d+)"', dg).group(1)
    assert dg2 is None or re.search(r'id="dismiss-(d\d+)"', dg2).group(1) != key


def test_a_live_game_has_no_digest(client):
    g = _game(client, None)
    me, _v1, _secret = _to_second_bid(client, g)
    assert digest_html(client.get(f"/play/{g['seats'][me]['token']}").text) is None
    t = _game(client, TURN)
    me, _v1, _secret = _to_second_bid(client, t)
    assert digest_html(client.get(f"/play/{t['seats'][me]['token']}").text) is not None
# --- the replay --------------------------------------------------------------------------------

def _steps(live: LiveGame) -> list[tuple[int, dict, list, bool]]:
    """(step, action, its events, whether a sealed choice is revealed in it)."""
    starts = happened.action_starts(live)
    out = []
    for k, a in enumerate(live.record["actions"]):
        lo, hi = starts[k], starts[k + 1] if k + 1 < len(starts) else 10 ** 9
        evs = [e for e in live.events if lo <= e["seq"] < hi]
        out.append((k + 1, a, evs, any(e["type"] == "ChoicesRevealed" for e in evs)))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_replay_caption_names_who_acted(lang):
    rec = corpus_games(1)[0]
    live = finished_live(rec, f"replay-captions-{lang}")
    tr = page_context.translator(live, lang)
    for step, a, _evs, _rev in _steps(live)[::3]:
        ctx = replay.replay_context(live, step, lang)
        assert ctx["action"].startswith(tr.seat(a["seat"])), (step, ctx["action"])
        assert ctx["action"] != tr.action(a)
    bid = next((s, a) for s, a, _e, _r in _steps(live) if a["type"] == "bid")
    caption = replay.replay_context(live, bid[0], lang)["action"]
    assert caption == tr.deed(bid[1])
    assert caption == ("Spanish (Ana) bid ${}".format(bid[1]["amount"]) if lang == "en"
                       else "Espanya (Ana) va oferir {} $".format(bid[1]["amount"]))


def test_a_replay_from_one_seat_shows_what_that_seat_saw():
    rec = corpus_games(1)[0]
    live = finished_live(rec, "replay-pov")
    tr = page_context.translator(live, "en")
    steps = _steps(live)
    # another seat's sealed bid, not revealed in its step: Ana's point of view hides its amount
    step, a, _evs, _rev = next(x for x in steps if x[1]["type"] == "bid" and x[1]["seat"] == 1 and not x[3])
    other = replay.replay_context(live, step, "en", 0)
    own = replay.replay_context(live, step, "en", 1)
    every = replay.replay_context(live, step, "en", None)
    spectator = replay.replay_context(live, step, "en", replay.SPECTATOR)
    assert other["action"] == "English (Bru) has made a sealed choice", other["action"]
    assert spectator["action"] == other["action"]
    assert own["action"] == every["action"] == f"English (Bru) bid ${a['amount']}"
    # hands: the seat's own only; a spectator none; every hand when nobody is chosen
    assert [h["name"] for h in other["hands"]] == ["Spanish (Ana)"]
    assert [h["name"] for h in own["hands"]] == ["English (Bru)"]
    assert spectator["hands"] == [] and len(every["hands"]) == 2
    # the log: what the seat was told (api.redact), so no line addressed to the other seat
    game = api.replay(rec, upto=step)
    for pov, ctx in ((0, other), (1, own)):
        told = {e["seq"] for e in api.redact(game.events, pov)}
        assert {e["seq"] for e in ctx["log"]} == told
        hidden = [e for e in game.events if "to" in e and pov not in e["to"]]
        assert hidden and not told & {e["seq"] for e in hidden}
    assert {e["seq"] for e in every["log"]} == {e["seq"] for e in game.events}
    # the choice of point of view, as ?seat= says it
    assert (other["pov"], own["pov"], every["pov"], spectator["pov"]) == ("0", "1", "", "spectator")
    assert [p["q"] for p in every["povs"]] == ["", "spectator", "0", "1"]
    assert replay.point_of_view("1", live) == 1 and replay.point_of_view("spectator", live) == replay.SPECTATOR
    assert replay.point_of_view("7", live) is None and replay.point_of_view("x", live) is None
    # the step after the reveal: the bids are known to all, and every caption says the bid
    rev = next(x for x in steps if x[0] > step and x[3])
    assert replay.replay_context(live, rev[0], "en", 0)["action"] == tr.deed(rev[1])


# --- the replay page, and the digest in a browser -----------------------------------------------

@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("since")
    s = Server(f"sqlite:///{tmp / 's.sqlite3'}").start()
    yield s
    s.stop()


def _random_to_the_end(srv: Server, tokens: list[str], rng: random.Random) -> int:
    for _ in range(3000):
        views = [srv.get(f"/api/view/{t}") for t in tokens]
        if views[0]["over"]:
            return views[0]["version"]
        seat = next(i for i, v in enumerate(views) if v["legal"])
        acts = [a for a in api.expand(views[seat]["legal"]) if a["type"] != "undo"]
        srv.post(f"/api/act/{tokens[seat]}", {"version": views[seat]["version"], "action": rng.choice(acts)})
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def finished(srv):
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human", "name": n} for n in NAMES],
                                "nations": ["spanish", "english"]})
    tokens = [s["token"] for s in g["seats"]]
    return g, tokens, _random_to_the_end(srv, tokens, random.Random(5))


@pytest.mark.browser
def test_the_replay_page_chooses_a_seat_and_keeps_it_step_by_step(browser, srv, finished):
    g, tokens, total = finished
    page = page_for(browser, f"{srv.url}/replay/{g['spectator']}?step=5&lang=ca")
    assert page.inner_text("#replay-pov [aria-current]") == page.inner_text("#replay-pov a[data-pov='']")
    assert page.inner_text("#step-action").split(" ")[0] in ("Espanya", "Anglaterra")
    page.click("#replay-pov a[data-pov='1']")
    page.wait_for_url("**seat=1")
    assert "Anglaterra (Bru)" in page.inner_text("h1") and page.locator("#part-side h3").count() == 1
    page.keyboard.press("ArrowRight")
    pump_until(page, lambda: page.inner_text("#step") == "6", what="step 6")
    assert page.url.endswith("?step=6&seat=1")
    assert page.get_attribute("#replay-pov [aria-current]", "data-pov") == "1"
    assert page.locator("#part-side h3").count() == 1
    page.click(f"a[data-step='{total}']")
    pump_until(page, lambda: page.inner_text("#step") == str(total), what="the end")
    assert page.url.endswith(f"?step={total}&seat=1")
    page.click("#replay-pov a[data-pov='spectator']")
    page.wait_for_url("**seat=spectator")
    assert page.locator("#part-side h3").count() == 0 and "espectador" in page.inner_text("h1")
    assert page.js_errors == []
    # the finished game's page links a seat to the game as it saw it
    game = page_for(browser, f"{srv.url}/play/{tokens[0]}")
    assert game.get_attribute("#replay-mine", "href").endswith("?seat=0")


@pytest.mark.browser
def test_the_digest_stays_dismissed_through_updates_and_goes_when_the_seat_acts(browser, srv):
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human", "name": n} for n in NAMES],
                                "nations": ["spanish", "english"], "table": TURN})
    tokens = [s["token"] for s in g["seats"]]
    rng = random.Random(3)

    def who() -> int | None:
        views = [srv.get(f"/api/view/{t}") for t in tokens]
        return next((i for i, v in enumerate(views) if v["legal"]), None)

    def act(seat: int) -> None:
        v = srv.get(f"/api/view/{tokens[seat]}")
        acts = [a for a in api.expand(v["legal"]) if a["type"] != "undo"]
        srv.post(f"/api/act/{tokens[seat]}", {"version": v["version"], "action": rng.choice(acts)})

    # seat 0 in the middle of its moves, after seat 1 acted: seat 1's page has a digest, which
    # grows with seat 0's next move; once dismissed it stays so through that update
    acted1, since = False, 0
    for _ in range(600):
        s = who()
        if s is None:
            continue
        if s == 0 and acted1 and since:
            page = page_for(browser, f"{srv.url}/play/{tokens[1]}")
            page.wait_for_selector("#digest", state="visible")
            assert page.inner_text("#digest-h") == "Since your last move"
            lines = page.locator("#digest li").count()
            page.click("#digest label.ok")
            assert not page.is_visible("#digest")
            before = int(page.inner_text("#version"))
            act(0)
            pump_until(page, lambda p=page, v=before: int(p.inner_text("#version")) > v, what="the other's move shown")
            if page.locator("#digest li").count() > lines:      # the digest was sent again, longer
                assert not page.is_visible("#digest")
                break
            page.context.close()
            since += 1
            continue
        if s == 1:
            acted1, since = True, 0
        else:
            since += 1
        act(s)
    else:
        raise AssertionError("no move of seat 0 lengthened seat 1's digest")
    page.screenshot(path="/tmp/since-dismissed.png")
    assert page.js_errors == []
    # seat 1 acts: its digest goes (what follows its own move is not news to it)
    for _ in range(200):
        if who() == 1:
            break
        act(0)
    version = srv.get(f"/api/view/{tokens[1]}")["version"]
    act(1)
    pump_until(page, lambda: int(page.inner_text("#version")) > version, what="seat 1's move shown")
    if who() == 0:
        wait_for(lambda: page.locator("#digest").count() == 0, 5, "no digest")
    assert page.js_errors == []


def _digest_game(srv: Server, seed: int) -> list[str]:
    """A turn-based game where seat 1 has acted and seat 0 has moved since: seat 1 has a digest."""
    g = srv.post("/api/games", {"players": 2, "seats": [{"kind": "human", "name": n} for n in NAMES],
                                "nations": ["spanish", "english"], "table": TURN})
    tokens = [s["token"] for s in g["seats"]]
    rng = random.Random(seed)
    acted1, since = False, 0
    for _ in range(3000):
        views = [srv.get(f"/api/view/{t}") for t in tokens]
        s = next((i for i, v in enumerate(views) if v["legal"]), None)
        if s is None:
            continue
        if s == 1 and acted1 and since >= 3:
            return tokens
        acts = [a for a in api.expand(views[s]["legal"]) if a["type"] != "undo"]
        srv.post(f"/api/act/{tokens[s]}", {"version": views[s]["version"], "action": rng.choice(acts)})
        acted1, since = (True, 0) if s == 1 else (acted1, since + 1)
    raise AssertionError("seat 1 never had news")


@pytest.mark.browser
@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_axe_finds_nothing_serious_on_the_digest_and_a_seats_replay(browser, srv, finished, phone):
    from .test_page_reading import axe_violations, open_page

    g, _tokens, _total = finished
    tokens = _digest_game(srv, 11)
    found = {}
    for name, path in (("digest", f"/play/{tokens[1]}?lang=ca"), ("replay-seat", f"/replay/{g['spectator']}?step=30&seat=1"),
                       ("replay-spectator", f"/replay/{g['spectator']}?step=30&seat=spectator&lang=ca")):
        page = open_page(browser, f"{srv.url}{path}", phone=phone, bypass_csp=True)   # to inject axe
        if name == "digest":
            page.wait_for_selector("#digest", state="visible")
            if phone:       # read before the map: under the status line, above the map panel
                top = page.eval_on_selector("#digest", "e => e.getBoundingClientRect().top")
                assert top < page.eval_on_selector("#part-map", "e => e.getBoundingClientRect().top")
        bad = axe_violations(page)
        if bad:
            found[name] = bad
        page.context.close()
    assert not found, found
