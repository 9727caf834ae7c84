"""Ratings (PRJ-35): a small series of finished table games, rated by the server, gives exactly
the numbers openskill's Plackett-Luce model gives for the same series by hand; unrated games
(a variant, a seat a bot took over, a game from links) change nothing. SQLite and PostgreSQL."""
from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from openskill.models import PlackettLuce

from pax_hispanica.web.db import schema as db
from pax_hispanica.web.social import schema as social_db

from .test_accounts import new_client

_FINISHED = iter(range(1, 100))


def _finish(url: str, gid: str, ranking: list[int]) -> None:
    """Mark a game over with this ranking (first to last), as the engine's result would say, a
    minute after the game finished before (games are rated in the order they finished)."""
    eng = sa.create_engine(url)
    when = datetime(2026, 12, 1, 10, 0, tzinfo=UTC) + timedelta(minutes=next(_FINISHED))
    with eng.begin() as conn:
        conn.execute(db.games.update().where(db.games.c.id == gid).values(
            status="over", result=json.dumps({"winner": ranking[0], "ranking": ranking}), updated_at=when))
    eng.dispose()


def _rating(url: str, subject: str):
    eng = sa.create_engine(url)
    with eng.connect() as conn:
        row = conn.execute(sa.select(social_db.ratings).where(social_db.ratings.c.subject == subject)).first()
    eng.dispose()
    return row


def test_PRJ_35_rating_series_matches_openskill_and_unrated_games_change_nothing(database_url):
    with new_client(database_url) as c:
        site = c.app.state.site
        call = c.portal.call
        A, B, C = (call(site.accounts.register, n, "password12") for n in ("ana", "bru", "cai"))

        def table(seats: list[dict], params: dict | None = None) -> str:
            tid = call(site.tables.create, seats[0].get("user_id") or A, len(seats), False, params or {}, "",
                       [{"seat": i, **s} for i, s in enumerate(seats)])
            return call(site.tables.get, tid)["game_id"]

        H = {"kind": "human"}
        bot = {"kind": "bot", "bot_kind": "heuristic"}
        series = []   # (game, [subject per seat], ranking)
        g1 = table([{**H, "user_id": A}, {**H, "user_id": B}, {**H, "user_id": C}])
        series.append((g1, [A, B, C], [1, 0, 2]))
        g2 = table([{**H, "user_id": A}, {**H, "user_id": B}, bot])
        series.append((g2, [A, B, "bot:heuristic"], [2, 0, 1]))
        g3 = table([{**H, "user_id": C}, {**H, "user_id": A}])
        series.append((g3, [C, A], [0, 1]))
        g4 = table([{**H, "user_id": B}, {**H, "user_id": C}], params={"cycles": 3})   # a variant: unrated
        g5 = table([{**H, "user_id": A}, {**H, "user_id": B}])                         # B leaves: unrated
        from pax_hispanica.web.play.model import Rights
        call(site.svc.seat_to_bot, Rights(g5, "host"), 1, "random")
        link = call(site.svc.create_game, 2, [H, H]).id                                # from links: never
        for gid, _subjects, ranking in series:
            _finish(database_url, gid, ranking)
        _finish(database_url, g4, [0, 1])
        _finish(database_url, g5, [1, 0])
        _finish(database_url, link, [0, 1])
        assert call(site.ratings.rate_pending) == 5
        assert call(site.ratings.rate_pending) == 0            # each game once

        # the same series by hand, with the library
        model = PlackettLuce()
        by_hand: dict[str, object] = {}
        for _gid, subjects, ranking in series:
            names = [subjects[s] for s in ranking]
            teams = [[by_hand.get(n) or model.rating()] for n in names]
            new = model.rate(teams, ranks=list(range(len(names))))
            for n, team in zip(names, new):
                by_hand[n] = team[0]
        for uid in (A, B, C):
            row = _rating(database_url, f"user:{uid}")
            assert row.mu == pytest.approx(by_hand[uid].mu, abs=1e-9)
            assert row.sigma == pytest.approx(by_hand[uid].sigma, abs=1e-9)
        bot_row = _rating(database_url, "bot:heuristic")
        assert bot_row.mu == pytest.approx(by_hand["bot:heuristic"].mu, abs=1e-9) and bot_row.games == 1
        assert _rating(database_url, f"user:{A}").games == 3 and _rating(database_url, f"user:{C}").games == 2
        # by hand: the bot won its only game; B won, then came last behind A
        assert by_hand["bot:heuristic"].mu > 25 and by_hand[B].mu < 25

        status = {g: call(site.ratings.game_status, g) for g in (g1, g4, g5)}
        assert status[g1]["rated"] and [x["place"] for x in status[g1]["changes"]] == [1, 2, 3]
        assert status[g4] == {"rated": False, "reason": "variant", "changes": []}
        assert status[g5] == {"rated": False, "reason": "bot_took_over", "changes": []}
        assert call(site.ratings.game_status, link) is None

        # the pages show them
        page = c.get("/ratings").text
        assert "Heuristic" in page or "heuristic" in page
        assert ">ana<" in page and ">bru<" in page
        prof = c.get("/u/bru").text
        expected = by_hand[B].mu - 3 * by_hand[B].sigma
        assert f"{expected:.1f}" in prof and 'id="played">3<' not in prof
        played = call(site.ratings.record, B)
        assert played["played"] == 4 and [r["place"] for r in played["recent"]][:1]   # g1, g2, g4, g5 (all over)
        assert "unrated" in prof
