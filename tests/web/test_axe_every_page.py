"""axe-core on every page a player can reach (issue 38, "Everywhere"), in Chromium against one
real server, at 1280x800 and 390x844: no serious or critical violation.

The other browser tests run axe on the pages they drive (test_page_reading: lobby and its house
rules, a seat mid-game, a finished seat, the replay, the rules, at 1280x900 and 390x844, in
English; test_learn_browser: Learn to play; test_since_last_move: the digest and a seat's replay;
test_analysis_page: the analysis; test_online_seams: a finished game, the header's menu, the
links page; test_board_clicks, test_hint: a board with places, the Hint). This one adds every
other page and state, in English at both sizes: the spectator's page, the links page, the
hot-seat table, the analysis still queued, login, register, forgot and reset, the account page,
settings, a profile, ratings, a table waiting for players, the moderators' reports; and the main
pages again in Catalan at both sizes (lobby, a seat, the spectator, a finished seat, the replay,
the rules, Learn to play's lessons, the account page, a table, ratings)."""
from __future__ import annotations

import random
import re
import time

import pytest
import sqlalchemy as sa

from .helpers import open_table, register
from .play_fixtures import smtp  # noqa: F401 (fixture)
from .test_page_reading import axe_violations, drive, mid_game

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
PASSWORD = "a good password"
LIVE = ("seat", "watch", "hotseat", "finished", "seat-ca", "watch-ca", "finished-ca")   # wait for the socket


def _reset_link(smtp, address: str) -> str:    # noqa: F811
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for m in smtp.box.to(address):
            found = re.search(r"/reset/(\S+)", m.get_content())
            if found:
                return found.group(1)
        time.sleep(0.1)
    raise AssertionError("no reset mail")


def test_axe_finds_nothing_serious_on_every_page_at_both_sizes_in_english_and_catalan(
        server_factory, browser, tmp_path, smtp):  # noqa: F811
    url = f"sqlite:///{tmp_path / 'p.sqlite3'}"
    srv = server_factory(url, env={"PAXH_SMTP_URL": smtp.url, "PAXH_OUTBOX_POLL_SECONDS": "0.2",
                                   "PAXH_ANALYSIS_WORKERS": "0"})   # the analysis stays queued: its own test has it done
    base = srv.url
    started = time.monotonic()
    two = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bru"}]
    mid = srv.post("/api/games", {"players": 2, "seats": two})
    mid_tokens = [s["token"] for s in mid["seats"]]
    drive(srv, mid_tokens, random.Random(3), mid_game)
    end = srv.post("/api/games", {"players": 2, "seats": two, "params": {"cycles": 1}})   # one Year: quick to finish
    end_tokens = [s["token"] for s in end["seats"]]
    drive(srv, end_tokens, random.Random(4), lambda views: False)
    assert srv.get(f"/api/view/{end_tokens[0]}")["over"]
    hot = srv.post("/api/games", {"players": 2, "seats": two, "mode": "hotseat"})

    # ana: a moderator with an email address, who opens a public table; a chat message reported
    ctx = browser.new_context(viewport=SIZES["desktop"])
    page = ctx.new_page()
    register(page, base, "ana", PASSWORD, email="ana@example.org")
    table = open_table(page, base, 3, public=True)
    ctx.close()
    from pax_hispanica.web.accounts.service import set_admin_sync
    from pax_hispanica.web.social import schema as social_db
    assert set_admin_sync(url, "ana", True)
    mid_chat = srv.post(f"/api/chat/{mid_tokens[0]}", {"text": "rude words"})["id"]
    eng = sa.create_engine(url)
    with eng.begin() as conn:
        conn.execute(social_db.chat_reports.insert(), [{"game_id": mid["game"], "message_id": mid_chat,
                                                        "reporter_seat": 1, "reason": "rude", "text": "rude words",
                                                        "created": time.time()}])
    eng.dispose()
    # a password reset asked for, its link mailed
    ctx = browser.new_context(viewport=SIZES["desktop"])
    page = ctx.new_page()
    page.goto(f"{base}/forgot")
    page.fill("#who", "ana")
    page.click("#send-reset")
    page.wait_for_selector("#reset-sent")
    ctx.close()
    reset = _reset_link(smtp, "ana@example.org")

    anonymous = {"watch": f"/watch/{mid['spectator']}", "host": f"/host/{mid['host']}",
                 "hotseat": f"/play/{hot['host']}", "analysis-queued": f"/analysis/{end_tokens[0]}",
                 "login": "/login", "register": "/register", "forgot": "/forgot", "reset": f"/reset/{reset}",
                 "profile": "/u/ana", "ratings": "/ratings", "table": f"/tables/{table}"}
    member = {"account": "/account", "settings": "/account/settings", "admin-reports": "/admin/reports"}
    catalan = {"lobby-ca": "/", "seat-ca": f"/play/{mid_tokens[0]}", "watch-ca": f"/watch/{mid['spectator']}",
               "finished-ca": f"/play/{end_tokens[1]}", "replay-ca": f"/replay/{end['spectator']}?step=20",
               "rules-ca": "/rules", "learn-ca": "/learn", "table-ca": f"/tables/{table}",
               "ratings-ca": "/ratings"}
    member_ca = {"account-ca": "/account"}
    found: dict[str, list] = {}
    checked = 0
    for size_name, size in SIZES.items():
        phone = size_name == "phone"
        for who, pages in ((None, anonymous), ("ana", member)):
            ctx = browser.new_context(viewport=size, has_touch=phone, is_mobile=phone, bypass_csp=True)  # axe injected
            page = ctx.new_page()
            if who:
                page.goto(f"{base}/login")
                page.fill("#user_name", who)
                page.fill("#password", PASSWORD)
                page.click("#login")
                page.wait_for_url(f"{base}/account")
            # English first; then, in the same context, the main pages in Catalan (?lang=ca stays the
            # browser's, or the account's, language from then on)
            for name, path in [*pages.items(), *(catalan if who is None else member_ca).items()]:
                ca = name.endswith("-ca")
                sep = "&" if "?" in path else "?"
                answer = page.goto(f"{base}{path}{sep}lang={'ca' if ca else 'en'}")
                assert answer is not None and answer.status == 200, (name, size_name, answer and answer.status)
                page.wait_for_load_state("load")
                assert page.evaluate("document.documentElement.lang") == ("ca" if ca else "en"), (name, size_name)
                if name in LIVE:
                    page.wait_for_selector("#conn.on")
                if name == "admin-reports":
                    assert "rude words" in page.inner_text("main")
                bad = axe_violations(page)
                checked += 1
                if bad:
                    found[f"{name} {size_name}"] = bad
            if phone and who:    # axe itself at work on these pages: an image with no text is found
                page.evaluate("() => document.querySelector('main').append(document.createElement('img'))")
                assert "image-alt" in [v["id"] for v in axe_violations(page)]
            ctx.close()
    took = time.monotonic() - started
    print(f"\naxe on {checked} page states in {took:.0f} s")
    assert checked == 2 * (len(anonymous) + len(member) + len(catalan) + len(member_ca))
    assert not found, found
