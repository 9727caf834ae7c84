"""Installs (issue 39): the start command installs what the game needs and the test command
everything, both from pinned lock files; the package ships py.typed."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pins(name: str) -> dict[str, str]:
    lines = [line for line in (ROOT / "requirements" / f"{name}.txt").read_text().splitlines()
             if line and not line.startswith("#")]
    assert lines, name
    out = {}
    for line in lines:                  # pinned: every requirement is NAME==VERSION
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([^=\s]+)", line)
        assert m, (name, line)
        out[m[1].lower().replace("_", "-")] = m[2]
    return out


def test_the_start_command_sets_up_the_game_and_the_test_command_everything():
    assert "bash scripts/setup.sh game" in (ROOT / "scripts" / "start.sh").read_text()
    assert "bash scripts/setup.sh all" in (ROOT / "scripts" / "test.sh").read_text()
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    assert "game) lock=requirements/game.txt; extras=web,compile" in setup
    assert "all)  lock=requirements/all.txt;  extras=sim,web,compile,dev,docs,rl" in setup
    # the lock file, then the project with its extras; bytecode left to the background build only
    # when the start command serves at once (--build-in-background: pip's --no-compile)
    assert '.venv/bin/pip install -q $nocompile -r "$lock" -e ".[$extras]"' in setup
    assert 'if [ "$bg" = 1 ]; then nocompile=--no-compile; fi' in setup
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(extras) == {"sim", "web", "compile", "dev", "docs", "rl"}       # "all" installs every one


def test_the_game_lock_is_a_subset_of_the_full_one_at_the_same_versions():
    game, full = pins("game"), pins("all")
    assert {n: v for n, v in game.items() if full.get(n) != v} == {}
    for needed in ("fastapi", "uvicorn", "sqlalchemy", "greenlet", "mypy", "typer"):   # serve, and the engine's build
        assert needed in game, needed
    for not_needed in ("pytest", "mkdocs", "optuna", "open-spiel", "mutmut"):
        assert not_needed not in game, not_needed


def test_the_package_ships_py_typed():
    assert (ROOT / "src" / "pax_hispanica" / "py.typed").exists()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["pax_hispanica"]
    assert "py.typed" in data
