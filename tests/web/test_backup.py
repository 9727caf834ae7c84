"""Issue 37: `paxh db backup` and `paxh db restore`. Games (bot games, and people's games played
through the API), an account and an open table are stored; the database is backed up, restored
into an EMPTY database, and `paxh db check --list` finds every game identical (the same count,
the same chain fingerprints) and every table the same number of rows. SQLite (its online backup
API, and the logical export) and PostgreSQL (pg_dump/pg_restore, and the logical export it falls
back to without pg_dump), and across (PostgreSQL to SQLite, SQLite to PostgreSQL). A database
that is not empty is refused unless --force; a damaged or foreign backup is refused in a sentence."""
from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pax_hispanica.cli import app as cli_app
from pax_hispanica.web.db import backup as bk

from .conftest import PG_URL, NO_PG, fresh_pg_database
from .helpers import wait_for
from .test_accounts import _open_table, new_client, register
from .test_damaged import played_game

pytestmark = pytest.mark.timeout(300)
BOTS = [{"kind": "bot", "bot_kind": "heuristic"}, {"kind": "bot", "bot_kind": "random"}]


def cli(*args: str, env: dict | None = None):
    out = CliRunner().invoke(cli_app, list(args), env=env)
    assert out.exception is None or isinstance(out.exception, SystemExit), out.output
    return out


def populate(url: str) -> dict:
    """Two bot games played to the end, two people's games of six actions, an account, an open
    table. Returns what a restore must give back."""
    with new_client(url) as c:
        assert register(c, "alice").status_code == 303
        _open_table(c)
        games = [c.post("/api/games", json={"players": 2, "seats": BOTS}).json() for _ in range(2)]
        wait_for(lambda: all(c.get(f"/api/view/{g['spectator']}").json()["over"] for g in games), 150,
                 "the bot games to end")
    people = [played_game(url) for _ in range(2)]
    return {"tokens": [g["tokens"][0] for g in people] + [g["spectator"] for g in games]}


def listing(url: str) -> list[str]:
    out = cli("db", "check", "--database-url", url, "-q", "--list")
    assert out.exit_code == 0, out.output
    return sorted(line for line in out.output.splitlines() if line.startswith(("game ", "4 games checked")))


@pytest.fixture(scope="module")
def sqlite_source(tmp_path_factory) -> tuple[str, dict]:
    url = f"sqlite:///{tmp_path_factory.mktemp('source') / 'paxh.sqlite3'}"
    return url, populate(url)


@pytest.fixture(scope="module")
def postgres_source() -> tuple[str, dict]:
    if not PG_URL:
        pytest.skip(NO_PG)
    url = fresh_pg_database()
    return url, populate(url)


def empty_target(kind: str, tmp_path: Path) -> str:
    return fresh_pg_database() if kind == "postgres" else f"sqlite:///{tmp_path / 'restored' / 'paxh.sqlite3'}"


CASES = [   # (source, backup options, target, what the backup is)
    ("sqlite", [], "sqlite", "a SQLite file (SQLite's online backup API)"),
    ("sqlite", ["--logical"], "sqlite", "a logical export"),
    pytest.param("sqlite", [], "postgres", "a SQLite file", marks=pytest.mark.postgres),
    pytest.param("postgres", [], "postgres", "a pg_dump archive", marks=pytest.mark.postgres),
    pytest.param("postgres", ["no pg_dump"], "postgres", "a logical export", marks=pytest.mark.postgres),
    pytest.param("postgres", ["--logical"], "sqlite", "a logical export", marks=pytest.mark.postgres),
]


@pytest.mark.parametrize("source,options,target,kind", CASES)
def test_backup_restore_round_trip_gives_every_game_back(request, tmp_path, source, options, target, kind):
    url, made = request.getfixturevalue(f"{source}_source")
    before = listing(url)
    assert len([line for line in before if line.startswith("game ")]) == 4
    env = None
    if options == ["no pg_dump"]:      # no usable pg_dump: the logical export, said so
        (tmp_path / "bin").mkdir()
        env, options = {"PAXH_PG_BIN": str(tmp_path / "bin")}, []
    file = tmp_path / "backup.paxh"
    out = cli("db", "backup", str(file), "--database-url", url, *options, env=env)
    assert out.exit_code == 0, out.output
    assert kind in out.output and "backed up 4 games, 1 accounts, 1 open tables" in out.output, out.output
    if env:
        assert "no pg_dump found" in out.output

    dest = empty_target(target, tmp_path)
    out = cli("db", "restore", str(file), "--database-url", dest)
    assert out.exit_code == 0, out.output
    assert "restored 4 games, 1 accounts, 1 open tables" in out.output, out.output
    assert listing(dest) == before                      # every game: the same chain
    assert bk.contents(dest) == bk.contents(url)        # every table: the same number of rows

    # a database that is not empty is refused, and left as it was
    out = cli("db", "restore", str(file), "--database-url", dest)
    assert out.exit_code == 1 and "is not empty (it holds 4 games, 1 accounts, 1 open tables" in out.output
    assert "--force" in out.output and "Nothing was changed" in out.output
    assert listing(dest) == before
    out = cli("db", "restore", str(file), "--database-url", dest, "--force")
    assert out.exit_code == 0, out.output
    assert listing(dest) == before and bk.contents(dest) == bk.contents(url)

    # the restored database serves the same games to the same links
    with new_client(url) as a:
        views = [a.get(f"/api/view/{t}").json() for t in made["tokens"]]
    with new_client(dest) as b:
        assert [b.get(f"/api/view/{t}").json() for t in made["tokens"]] == views


def test_restore_refuses_what_it_cannot_restore(sqlite_source, tmp_path):
    url, _ = sqlite_source
    dest = f"sqlite:///{tmp_path / 'dest.sqlite3'}"
    out = cli("db", "restore", str(tmp_path / "nothing.paxh"), "--database-url", dest)
    assert out.exit_code == 2 and "no backup file at" in out.output
    (tmp_path / "junk.paxh").write_bytes(b"hello, world")
    out = cli("db", "restore", str(tmp_path / "junk.paxh"), "--database-url", dest)
    assert out.exit_code == 2 and "not a backup paxh knows" in out.output
    (tmp_path / "dump.paxh").write_bytes(b"PGDMP\x01\x0e\x00" + bytes(100))
    out = cli("db", "restore", str(tmp_path / "dump.paxh"), "--database-url", dest)
    assert out.exit_code == 2 and "restores only into PostgreSQL" in out.output
    # a logical export cut short: nothing restored, the target stays as it was (absent)
    full = tmp_path / "full.paxh"
    assert cli("db", "backup", str(full), "--database-url", url, "--logical").exit_code == 0
    text = gzip.decompress(full.read_bytes())
    (tmp_path / "cut.paxh").write_bytes(gzip.compress(text[:len(text) * 2 // 3]))
    out = cli("db", "restore", str(tmp_path / "cut.paxh"), "--database-url", dest)
    assert out.exit_code == 1 and "nothing was restored" in out.output, out.output
    assert not (tmp_path / "dest.sqlite3").exists()
    # a damaged SQLite backup
    sqlite_file = tmp_path / "file.paxh"
    assert cli("db", "backup", str(sqlite_file), "--database-url", url).exit_code == 0
    data = bytearray(sqlite_file.read_bytes())
    data[4096 * 2:4096 * 4] = bytes(4096 * 2)
    sqlite_file.write_bytes(bytes(data))
    out = cli("db", "restore", str(sqlite_file), "--database-url", dest)
    assert out.exit_code == 1 and "damaged SQLite file" in out.output and "nothing was restored" in out.output
    # backing up nothing
    out = cli("db", "backup", str(tmp_path / "x.paxh"), "--data-dir", str(tmp_path / "none"))
    assert out.exit_code == 2 and "no database file" in out.output
    shutil.rmtree(tmp_path / "none", ignore_errors=True)


@pytest.mark.parametrize("options", [[], ["--logical"]], ids=["native", "logical"])
def test_a_backup_taken_while_bots_play_is_one_moment(server_factory, database_url, tmp_path, options):
    """Backups are taken while a server plays bot games (SQLite's online backup API; pg_dump or
    the logical export's one REPEATABLE READ transaction): every game in every backup checks out
    (its actions, its chain and games.version agree), whatever moment it caught."""
    server = server_factory(database_url, bot_delay=0.1)
    games = [server.post("/api/games", {"players": 2, "seats": BOTS}) for _ in range(3)]
    wait_for(lambda: all(server.get(f"/api/view/{g['spectator']}")["version"] > 0 for g in games), 60,
             "the bots to move")
    assert not all(server.get(f"/api/view/{g['spectator']}")["over"] for g in games), "too late: nothing moves"
    kind = "postgres" if database_url.startswith("postgresql") else "sqlite"
    for i in range(2):
        file = tmp_path / f"live-{i}.paxh"
        out = cli("db", "backup", str(file), "--database-url", database_url, *options)
        assert out.exit_code == 0, out.output
        dest = empty_target(kind, tmp_path / f"r{i}")
        out = cli("db", "restore", str(file), "--database-url", dest)
        assert out.exit_code == 0, out.output
        out = cli("db", "check", "--database-url", dest, "-q")
        assert out.exit_code == 0 and "3 games checked, 0 damaged" in out.output, out.output
