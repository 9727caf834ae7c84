"""Make the PRJ-50 test fixtures with the engine that still had reference-2 (run once, on purpose).

    .venv/bin/python scripts/make_reference2_fixture.py [--commit fd3e781]

The commit (default: the parent of 8ca406f, which introduced reference-3) is extracted with
`git archive` into a temporary folder and this script runs again there (`--inner`), in a
subprocess whose PYTHONPATH is that old tree's src alone, so every byte below comes from the
old engine and the old web server:

* tests/engine/data/reference_2_game.json: the old reference ruleset's numbers (api.parameters,
  [setup.by_players]) and the sha256 of its cards, board and map; one 3-player game of
  heuristic bots (seed 2050),
  its record, and the sha256 of what the old engine made of it: every snapshot after each
  action (chained), the final snapshot, the full event log, and the final views of every seat
  and of a spectator (with and without the masked state);
* tests/web/data/reference_2_stored.json: the rows (games, seats, actions) of a 3-seat web
  game of three human seats as the old server stored them in SQLite, after 9 actions.

tests/engine/test_versions.py and tests/web/test_versions_web.py replay them with today's
engine and server (docs/rules.md PRJ-50).

The same for a later version, e.g. the last reference-7 (PRJ-82):

    .venv/bin/python scripts/make_reference2_fixture.py --commit 913fb8b --expect reference-7 \
        --engine-out tests/engine/data/reference_7_game.json --web-out tests/web/data/reference_7_stored.json
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_COMMIT = "fd3e781d8d6ea879eef81dd7b23d87f038207448"    # 8ca406f^ : the last reference-2
SEED = 2050
WEB_ACTIONS = 9


def sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def view_bytes(view: dict) -> str:
    return json.dumps(view, separators=(",", ":"), ensure_ascii=False, sort_keys=False)


def engine_game() -> dict:
    from pax_hispanica import api
    from pax_hispanica.bots import make_agent
    game = api.Game.new(api.Config(players=3), SEED)
    agents = [make_agent("heuristic", 1000 + s) for s in range(3)]
    chain = sha("start|" + sha(api.snapshot(game.state)))
    while not api.is_over(game.state):
        seat = api.acting(game.state)[0]
        action = agents[seat].decide(api.view(game.state, seat), api.legal_actions(game.state, seat))
        game.act(action)
        chain = sha(chain + "|" + json.dumps(action, sort_keys=True) + "|" + sha(api.snapshot(game.state)))
    st = game.state
    views = {}
    for seat in (None, 0, 1, 2):
        for full in (False, True):
            views[f"{seat}/{'state' if full else 'plain'}"] = sha(view_bytes(api.view(st, seat, include_state=full)))
    rs = api.load_ruleset()
    tables = {"parameters": api.parameters(), "by_players": {str(n): v for n, v in rs.params["by_players"].items()},
              "cards": sha(json.dumps(api.card_catalogue(), sort_keys=True)),
              "board": sha(json.dumps(api.board_layout(), sort_keys=True)),
              "map": sha(json.dumps([rs.zone_ids, rs.zone_names, [list(a) for a in rs.adjacent], rs.col_ids, rs.col_zone, rs.col_goods,
                                     rs.col_crown, rs.col_fort, rs.site_ids, rs.site_zone, rs.site_kind,
                                     rs.site_count, rs.site_cap, rs.nation_order, rs.nations, rs.market, rs.haven,
                                     rs.battle_cards], sort_keys=True))}
    return {"made_by": "scripts/make_reference2_fixture.py", "ruleset": tables, "record": game.record,
            "expect": {"ruleset_version": st.rs.version, "prestige_to_win": st.rs.prestige_to_win,
                       "actions": len(game.record["actions"]), "result": api.result(st),
                       "snapshot_chain": chain, "final_snapshot": sha(api.snapshot(st)),
                       "events": sha(json.dumps(game.events, separators=(",", ":"), sort_keys=True)),
                       "views": views}}


def web_game(tmp: Path) -> dict:
    import sqlalchemy as sa
    from fastapi.testclient import TestClient
    from pax_hispanica.web.db import schema as db
    from pax_hispanica.web.server import create_app

    def first_legal(legal: list) -> dict:
        for d in legal:
            if d["kind"] == "range":
                return {**d["action"], d["field"]: d["min"]}
            for o in d["options"]:
                if o.get("type") != "undo":
                    return o
        raise AssertionError(legal)

    url = f"sqlite:///{tmp / 'old.db'}"
    with TestClient(create_app(url, bot_delay=0)) as c:
        g = c.post("/api/games", json={"players": 3, "seats": [{"kind": "human"}, {"kind": "human"},
                                                              {"kind": "human"}]}).json()
        tokens = [s["token"] for s in g["seats"]]
        for _ in range(WEB_ACTIONS):
            views = [c.get(f"/api/view/{t}").json() for t in tokens]
            seat = next(i for i, v in enumerate(views) if v["legal"])
            r = c.post(f"/api/act/{tokens[seat]}", json={"version": views[seat]["version"],
                                                           "action": first_legal(views[seat]["legal"])})
            assert r.status_code == 200, r.text
        spectator = c.get(f"/api/view/{g['spectator']}").json()
    eng = sa.create_engine(db.sync_url(url))
    out: dict = {"made_by": "scripts/make_reference2_fixture.py", "game": g["game"],
                 "spectator_token": g["spectator"], "tokens": tokens,
                 "spectator_view_version": spectator["version"],
                 "spectator_ruleset_version": spectator.get("ruleset_version")}
    with eng.connect() as conn:
        for table in ("games", "seats", "actions"):
            t = db.metadata.tables[table]
            rows = conn.execute(sa.select(t).order_by(*t.primary_key.columns)).mappings().all()
            out[table] = [{k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in r.items()}
                          for r in rows]
    eng.dispose()
    return out


def inner(out_dir: Path) -> None:
    (out_dir / "engine.json").write_text(json.dumps(engine_game(), indent=1, ensure_ascii=False) + "\n")
    with tempfile.TemporaryDirectory() as tmp:
        (out_dir / "web.json").write_text(json.dumps(web_game(Path(tmp)), indent=1, ensure_ascii=False) + "\n")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--commit", default=DEFAULT_COMMIT)
    p.add_argument("--inner", type=Path)
    p.add_argument("--expect", default="reference-2", help="the version the commit's reference ruleset must be")
    p.add_argument("--engine-out", default="tests/engine/data/reference_2_game.json")
    p.add_argument("--web-out", default="tests/web/data/reference_2_stored.json")
    a = p.parse_args()
    if a.inner:
        inner(a.inner)
        return
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        old.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", a.commit, "src"], check=True,
                                 capture_output=True).stdout
        tar = Path(tmp) / "src.tar"
        tar.write_bytes(archive)
        with tarfile.open(tar) as tf:
            tf.extractall(old, filter="data")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["PYTHONPATH"] = str(old / "src")
        check = subprocess.run([sys.executable, "-c", "import pax_hispanica, pax_hispanica.api as a; "
                                "print(pax_hispanica.__file__, a.load_ruleset().version)"],
                               env=env, check=True, capture_output=True, text=True, cwd=tmp).stdout
        print("old engine:", check.strip())
        assert str(old) in check and a.expect in check.split(), check
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--inner", tmp], env=env, check=True,
                       cwd=tmp)
        engine_out = ROOT / a.engine_out
        web_out = ROOT / a.web_out
        engine_out.parent.mkdir(exist_ok=True)
        web_out.parent.mkdir(exist_ok=True)
        engine_out.write_text((Path(tmp) / "engine.json").read_text())
        web_out.write_text((Path(tmp) / "web.json").read_text())
        print("wrote", engine_out.relative_to(ROOT), web_out.relative_to(ROOT))


if __name__ == "__main__":
    main()
