"""Issue 37, N8: a randomly damaged SQLite file. `paxh db check` runs SQLite's own check first,
so a damaged file gives exit 1 and a sentence saying so, never a traceback and never
"0 damaged". The damage is seeded and bounded: whole pages overwritten with random bytes or
zeros, runs of random bytes past the header, the schema page, the file cut short."""
from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pax_hispanica.cli import app as cli_app

from .test_damaged import played_game

pytestmark = pytest.mark.timeout(180)
PAGE = 4096


def sqlite_says(path: Path) -> bool:
    """True when SQLite's own integrity_check finds the file sound (the test's independent look)."""
    try:
        conn = sqlite3.connect(path)
        try:
            return conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        finally:
            conn.close()
    except sqlite3.Error:
        return False


def pages(data: bytearray) -> int:
    return len(data) // PAGE


def overwrite_pages(data: bytearray, rng: random.Random) -> bytearray:
    for p in rng.sample(range(1, pages(data)), k=min(3, pages(data) - 1)):   # never page 0 (the header)
        data[p * PAGE:(p + 1) * PAGE] = rng.randbytes(PAGE)
    return data


def zero_pages(data: bytearray, rng: random.Random) -> bytearray:
    for p in rng.sample(range(1, pages(data)), k=min(2, pages(data) - 1)):
        data[p * PAGE:(p + 1) * PAGE] = bytes(PAGE)
    return data


def random_bytes(data: bytearray, rng: random.Random) -> bytearray:
    for _ in range(40):
        at = rng.randrange(100, len(data) - 64)        # past SQLite's 100-byte header
        data[at:at + 64] = rng.randbytes(64)
    return data


def schema_page(data: bytearray, rng: random.Random) -> bytearray:
    data[100:PAGE] = rng.randbytes(PAGE - 100)         # sqlite_schema's page, header kept
    return data


def truncate(data: bytearray, rng: random.Random) -> bytearray:
    return data[:rng.randrange(PAGE, len(data) - PAGE)]


def not_a_database(data: bytearray, rng: random.Random) -> bytearray:
    data[:PAGE] = rng.randbytes(PAGE)                  # the header too
    return data


DAMAGE = [overwrite_pages, zero_pages, random_bytes, schema_page, truncate, not_a_database]
SEEDS = [1, 2, 3]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A real SQLite file of stored games (three played through the app), checkpointed into the
    one file (no -wal beside it), as a server leaves it after a clean stop."""
    folder = tmp_path_factory.mktemp("pristine")
    url = f"sqlite:///{folder / 'paxh.sqlite3'}"
    for _ in range(3):
        played_game(url)
    conn = sqlite3.connect(folder / "paxh.sqlite3")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    assert sqlite_says(folder / "paxh.sqlite3")
    return folder / "paxh.sqlite3"


def test_the_sound_file_checks_out(pristine, tmp_path):
    shutil.copy(pristine, tmp_path / "paxh.sqlite3")
    out = CliRunner().invoke(cli_app, ["db", "check", "--data-dir", str(tmp_path), "-q"])
    assert out.exit_code == 0 and "3 games checked, 0 damaged" in out.output, out.output


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("damage", DAMAGE, ids=[d.__name__ for d in DAMAGE])
def test_a_damaged_file_is_exit_1_and_a_sentence(pristine, tmp_path, damage, seed):
    rng = random.Random(f"{damage.__name__}-{seed}")
    target = tmp_path / "paxh.sqlite3"
    target.write_bytes(bytes(damage(bytearray(pristine.read_bytes()), rng)))
    sound = sqlite_says(target)
    for quick in ([], ["--quick"]):
        out = CliRunner().invoke(cli_app, ["db", "check", "--data-dir", str(tmp_path), "-q", *quick])
        # never a crash: the only exception is the command's own exit
        assert out.exception is None or isinstance(out.exception, SystemExit), out.output
        assert "Traceback" not in out.output
        if sound:     # SQLite sees nothing wrong: the damage missed every used byte; then the games say
            assert out.exit_code in (0, 1), out.output
            continue
        assert out.exit_code == 1, out.output
        assert "0 damaged" not in out.output, out.output
        assert f"the SQLite file {target} is damaged: " in out.output, out.output
        assert "Restore it from a backup" in out.output
    assert target.read_bytes() == bytes(damage(bytearray(pristine.read_bytes()),
                                               random.Random(f"{damage.__name__}-{seed}"))), \
        "the check changed the file"


def test_sqlite_itself_sees_most_of_the_damage(pristine, tmp_path):
    """The damage above is real damage: SQLite's own check fails on nearly every trial (so the
    test above is not passing on files that are sound)."""
    failed = 0
    for damage in DAMAGE:
        for seed in SEEDS:
            target = tmp_path / f"{damage.__name__}-{seed}.sqlite3"
            target.write_bytes(bytes(damage(bytearray(pristine.read_bytes()), random.Random(f"{damage.__name__}-{seed}"))))
            failed += not sqlite_says(target)
    assert failed >= len(DAMAGE) * len(SEEDS) - 2, failed


def test_the_command_itself_says_it_in_a_sentence(pristine, tmp_path):
    """The installed command, as an operator runs it: exit 1, one sentence on stderr, no traceback."""
    import subprocess
    import sys

    target = tmp_path / "paxh.sqlite3"
    target.write_bytes(bytes(overwrite_pages(bytearray(pristine.read_bytes()), random.Random(7))))
    r = subprocess.run([sys.executable, "-c", "from pax_hispanica.cli import main; main()", "db", "check",
                        "--data-dir", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "0 damaged" not in r.stdout + r.stderr
    assert r.stderr.strip().startswith(f"paxh db check: the SQLite file {target} is damaged: "), r.stderr
