"""Lobby and profile pages with many accounts and finished games, on PostgreSQL (issue 16).

    PYTHONPATH=src .venv/bin/python benchmarks/accounts.py --database-url postgresql+psycopg://user@host/postgres
    (or PAXH_TEST_DATABASE_URL; `source scripts/services.sh` starts a throwaway PostgreSQL)

Makes a fresh database next to the given one (dropped at the end unless --keep), migrates it,
and fills it with COPY: --accounts accounts (default 10,000; one argon2 hash shared by all, so
filling takes seconds), --games finished games (default 50,000) of 2-5 seats each, every seat an
account's, each from a started table, rated (rating_games, rating_changes, ratings), plus
--open-tables public tables waiting for players (default 200). Then starts one server process
on loopback and times --requests sequential requests (default 200) of each page:

    lobby (anonymous)   GET /            (the open tables and this browser's games)
    lobby (logged in)   GET /            as the account with the most games
    profile             GET /u/<name>    rating, games played, recent results of that account
    account             GET /account     that account's games, to move / waiting / finished, a page
                                         (account_games.PAGE) of each list
    account, older      GET /account?finished=<cursor>   the next (keyset) page of its finished games

and prints p50 and p99 of each, and EXPLAIN (ANALYZE) of the statements behind these pages,
which name the indexes used. Bounded: the sizes are the arguments, nothing else grows.
"""
from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid
from datetime import UTC
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

PASSWORD = "benchmark password"


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def copy_rows(cur, table: str, cols: list[str], rows) -> None:
    with cur.copy(f"COPY {table} ({', '.join(cols)}) FROM STDIN") as cp:
        for r in rows:
            cp.write_row(r)


def fill(url: str, n_accounts: int, n_games: int, n_open: int, seed: int) -> dict:
    import psycopg
    from argon2 import PasswordHasher
    from openskill.models import PlackettLuce
    from sqlalchemy.engine import make_url

    from pax_hispanica import api

    rnd = random.Random(seed)
    pw = PasswordHasher().hash(PASSWORD)
    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    users = [secrets.token_urlsafe(18) for _ in range(n_accounts)]
    names = [f"player{i:05d}" for i in range(n_accounts)]
    now = time.time()
    model = PlackettLuce()
    ratings: dict[str, tuple[float, float]] = {}
    played: dict[str, int] = {}
    t0 = time.perf_counter()
    with psycopg.connect(dsn) as conn, conn.cursor() as cur:
        copy_rows(cur, "users", ["id", "name", "lang"], ((u, n, "en") for u, n in zip(users, names)))
        copy_rows(cur, "accounts", ["user_id", "user_name", "user_name_key", "password", "settings", "created_at"],
                  ((u, n, n, pw, '{"notify": {"email": true, "webhook": false}, "time_control": ""}', now)
                   for u, n in zip(users, names)))
        games, seats, tables, tseats, rgames, changes = [], [], [], [], [], []
        config_of = {p: json.dumps({"players": p, "nations": None, "ruleset": "reference", "options": {}})
                     for p in range(2, 6)}
        for i in range(n_games):
            p = rnd.randint(2, 5)
            gid, tid = secrets.token_hex(8), secrets.token_urlsafe(12)
            who = rnd.sample(range(n_accounts), p)
            ranking = rnd.sample(range(p), p)
            when = now - (n_games - i) * 60
            games.append((gid, config_of[p], str(rnd.getrandbits(128)), "online", "over", 100 + i % 400,
                          users[who[0]], secrets.token_urlsafe(18), secrets.token_urlsafe(18),
                          json.dumps({"winner": ranking[0], "ranking": ranking}), False,
                          time.strftime("%Y-%m-%d %H:%M:%S+00", time.gmtime(when)), api.RECORD_FORMAT))
            tables.append((tid, users[who[0]], True, p, "{}", "", "finished", gid, when, when + 3600))
            prior = [ratings.get(users[who[s]], (model.mu, model.sigma)) for s in ranking]
            new = model.rate([[model.rating(mu=m, sigma=sg)] for m, sg in prior], ranks=list(range(p)))
            for place, (s, before, team) in enumerate(zip(ranking, prior, new), start=1):
                u = users[who[s]]
                changes.append((gid, s, f"user:{u}", place, before[0], before[1], team[0].mu, team[0].sigma, when))
                ratings[u] = (team[0].mu, team[0].sigma)
                played[u] = played.get(u, 0) + 1
            for s in range(p):
                seats.append((gid, s, "human", None, None, names[who[s]], secrets.token_urlsafe(18), users[who[s]]))
                tseats.append((tid, s, "human", users[who[s]]))
            rgames.append((gid, True, "", when))
        copy_rows(cur, "games", ["id", "config", "seed", "mode", "status", "version", "host_user", "host_token",
                                 "spectator_token", "result", "bot_turn", "updated_at", "record_format"], games)
        copy_rows(cur, "seats", ["game_id", "seat", "kind", "bot_kind", "bot_strength", "name", "token", "user_id"],
                  seats)
        copy_rows(cur, "open_tables", ["id", "host_user", "public", "players", "params", "time_control", "status",
                                       "game_id", "created_at", "expires_at"], tables)
        copy_rows(cur, "table_seats", ["table_id", "seat", "kind", "user_id"], tseats)
        copy_rows(cur, "rating_games", ["game_id", "rated", "reason", "at"], rgames)
        copy_rows(cur, "rating_changes", ["game_id", "seat", "subject", "place", "mu_before", "sigma_before",
                                          "mu_after", "sigma_after", "at"], changes)
        copy_rows(cur, "ratings", ["subject", "mu", "sigma", "games", "updated_at"],
                  ((f"user:{u}", r[0], r[1], played[u], now) for u, r in ratings.items()))
        open_rows, open_seats = [], []
        for i in range(n_open):
            tid = secrets.token_urlsafe(12)
            host = rnd.randrange(n_accounts)
            open_rows.append((tid, users[host], True, rnd.randint(2, 5), "{}", rnd.choice(["", "live:10+10", "turn:24h"]),
                              "open", None, now - i, now + 3600))
            open_seats.append((tid, 0, "human", users[host]))
        copy_rows(cur, "open_tables", ["id", "host_user", "public", "players", "params", "time_control", "status",
                                       "game_id", "created_at", "expires_at"], open_rows)
        copy_rows(cur, "table_seats", ["table_id", "seat", "kind", "user_id"], open_seats)
        conn.commit()
        cur.execute("ANALYZE")
    per_user: dict[str, int] = {}
    for s in seats:
        per_user[s[7]] = per_user.get(s[7], 0) + 1
    busiest = max(per_user, key=per_user.get)
    return {"seconds": time.perf_counter() - t0, "seats": len(seats), "busiest": names[users.index(busiest)],
            "busiest_id": busiest, "busiest_games": per_user[busiest]}


def explain(url: str, uid: str) -> list[tuple[str, list[str]]]:
    """EXPLAIN ANALYZE of the statements behind the pages, compiled from the app's own code."""
    from datetime import datetime, timedelta

    import sqlalchemy as sa

    from pax_hispanica.web.accounts import game_lists as account_games
    from pax_hispanica.web.db import schema as db
    from pax_hispanica.web.social import schema as social_db

    older = (datetime.now(UTC) - timedelta(days=10), "f" * 16)   # a cursor into the past
    g, s, t, ts, rc = db.games, db.seats, social_db.open_tables, social_db.table_seats, social_db.rating_changes
    mine = sa.union(sa.select(g.c.id.label("gid")).where(g.c.host_user == uid),
                    sa.select(s.c.game_id.label("gid")).where(s.c.user_id == uid)).subquery()
    statements = {
        "lobby: open public tables": sa.select(t.c.id).where(sa.and_(
            t.c.status == "open", t.c.public == sa.true(), t.c.expires_at > time.time()))
        .order_by(t.c.created_at.desc()).limit(50),
        "lobby: their taken seats": sa.select(ts.c.table_id, sa.func.count()).where(ts.c.table_id.in_(
            sa.select(t.c.id).where(sa.and_(t.c.status == "open", t.c.public == sa.true()))
            .order_by(t.c.created_at.desc()).limit(50))).group_by(ts.c.table_id),
        "lobby/account: games of a user (store.games_of)": sa.select(g.c.id, s.c.seat).select_from(
            g.join(mine, mine.c.gid == g.c.id).outerjoin(s, sa.and_(s.c.game_id == g.c.id, s.c.user_id == uid)))
        .order_by(g.c.created_at.desc()).limit(100),
        "account: finished, first page (account_games.statement, keyset)":
            account_games.statement(uid, True, None, account_games.PAGE + 1),
        "account: finished, an older page (keyset cursor)":
            account_games.statement(uid, True, older, account_games.PAGE + 1),
        "account: games not over, to move / waiting (a scan of SCAN)":
            account_games.statement(uid, False, None, account_games.SCAN),
        "account: the page's own seats": sa.select(s.c.game_id, s.c.seat, s.c.token).where(sa.and_(
            s.c.user_id == uid, s.c.game_id.in_(sa.select(g.c.id).limit(20)))),
        "profile: games played": sa.select(sa.func.count()).select_from(s.join(g, g.c.id == s.c.game_id)).where(
            sa.and_(s.c.user_id == uid, g.c.status == "over")),
        "profile: recent results": sa.select(g.c.id, g.c.result, rc.c.mu_after).select_from(
            s.join(g, g.c.id == s.c.game_id).outerjoin(rc, sa.and_(rc.c.game_id == s.c.game_id,
                                                                   rc.c.seat == s.c.seat)))
        .where(sa.and_(s.c.user_id == uid, g.c.status == "over")).order_by(g.c.updated_at.desc()).limit(10),
        "ratings: pending games": sa.select(t.c.game_id).select_from(
            t.join(g, g.c.id == t.c.game_id).outerjoin(social_db.rating_games, social_db.rating_games.c.game_id == t.c.game_id))
        .where(sa.and_(t.c.status == "started", g.c.status == "over", social_db.rating_games.c.game_id.is_(None)))
        .limit(200),
    }
    eng = sa.create_engine(db.sync_url(url))
    out = []
    with eng.connect() as conn:
        for title, stmt in statements.items():
            sql = str(stmt.compile(eng, compile_kwargs={"literal_binds": True}))
            plan = [r[0] for r in conn.execute(sa.text("EXPLAIN (ANALYZE, COSTS OFF, TIMING ON) " + sql))]
            out.append((title, plan))
    eng.dispose()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--database-url", default=os.environ.get("PAXH_TEST_DATABASE_URL"))
    ap.add_argument("--accounts", type=int, default=10_000)
    ap.add_argument("--games", type=int, default=50_000)
    ap.add_argument("--open-tables", type=int, default=200)
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = ap.parse_args()
    if not args.database_url:
        sys.exit("give --database-url postgresql+psycopg://... (or set PAXH_TEST_DATABASE_URL)")
    import psycopg
    from sqlalchemy.engine import make_url

    from pax_hispanica.web.db import schema as db

    base = make_url(args.database_url)
    name = "paxh_bench_" + uuid.uuid4().hex[:8]
    admin = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = base.set(database=name).render_as_string(hide_password=False)
    proc = None
    try:
        db.migrate(url)
        info = fill(url, args.accounts, args.games, args.open_tables, args.seed)
        print(f"filled {args.accounts} accounts, {args.games} finished games ({info['seats']} seats), "
              f"{args.open_tables} open tables in {info['seconds']:.1f} s; the busiest account "
              f"{info['busiest']} has {info['busiest_games']} games")
        port = 8700 + random.randrange(200)
        env = {**os.environ, "PAXH_RATE_LOGIN": "0", "PAXH_RATE_LOGIN_NAME": "0", "PYTHONPATH": str(HERE.parent / "src")}
        log = tempfile.NamedTemporaryFile("w+", prefix="paxh-bench-", suffix=".log", delete=False)  # noqa: SIM115 -- the server writes to it while it runs
        code = f"from pax_hispanica.web.server import run; run(port={port}, database_url={url!r})"
        proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=log, stderr=subprocess.STDOUT)
        site = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                urllib.request.urlopen(site + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        anon = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        me = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        page = me.open(site + "/login").read().decode()
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)
        me.open(site + "/login", data=urllib.parse.urlencode(
            {"csrf": csrf, "user_name": info["busiest"], "password": PASSWORD, "next": "/account"}).encode())
        first = me.open(site + "/account").read().decode()
        older = re.search(r'<a href="(/account\?[^"#]+)[^"]*" id="older-finished"', first)
        assert older, "the busiest account's finished games fit on one page: no older page to time"
        pages = [("/healthz (reference: the machine's load)", anon, "/healthz"), ("lobby (anonymous)", anon, "/"), ("lobby (logged in)", me, "/"),
                 ("profile", anon, f"/u/{info['busiest']}"), ("account (first page of each list)", me, "/account"),
                 ("account, an older page of finished games", me, older.group(1).replace("&amp;", "&"))]
        print(f"\n{args.requests} sequential requests per page, one server process on loopback "
              f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores):")
        print("| page | p50 | p99 | bytes |\n|---|---|---|---|")
        for title, opener, path in pages:
            for _ in range(5):   # warm up
                opener.open(site + path).read()
            times, size = [], 0
            for _ in range(args.requests):
                t = time.perf_counter()
                body = opener.open(site + path).read()
                times.append((time.perf_counter() - t) * 1000)
                size = len(body)
            assert info["busiest"] in body.decode() or not title.startswith(("profile", "account")), title
            print(f"| {title} | {statistics.median(times):.1f} ms | {pct(times, 99):.1f} ms | {size} |")
        print()
        for title, plan in explain(url, info["busiest_id"]):
            print(f"-- {title}")
            for line in plan:
                if "Index" in line or "Seq Scan" in line or "Execution Time" in line or "Bitmap" in line:
                    print("   " + line.strip())
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
        if not args.keep:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
