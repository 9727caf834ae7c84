"""The engine is pure (DESIGN.md; docs/api.md, "Tests"): no I/O, no clock, no global random in
src/pax_hispanica/engine. Rulesets are read by pax_hispanica.rulesets, outside it, and engine
functions are given the loaded Ruleset or a resolver (issue 13, "Loaders").

Two proofs: a scan of the engine's source (no import of a module that does I/O, reads a clock
or draws global random numbers; no open(), print() or input(); no import of the layers above
it), and a game played through the api, with every way of opening a file, reading the clock or
drawing from `random` patched to fail once the rulesets it uses are loaded."""

from __future__ import annotations

import ast
import builtins
import importlib
import io
import os
import pathlib
import pkgutil
import random
import shutil
import time
import types
from contextlib import contextmanager

import pytest

import pax_hispanica
from pax_hispanica import api
from pax_hispanica.rulesets import DATA

ENGINE = pathlib.Path(pax_hispanica.__file__).resolve().parent / "engine"   # the sources (__init__.py is never compiled)

# modules that do I/O (files, processes, network, terminal), read a clock, or hold global random state
BANNED = frozenset({
    "io", "os", "pathlib", "tomllib", "time", "random", "socket", "sys", "shutil", "subprocess", "tempfile",
    "glob", "fnmatch", "datetime", "calendar", "urllib", "http", "ssl", "select", "selectors", "asyncio",
    "threading", "multiprocessing", "concurrent", "signal", "sqlite3", "dbm", "shelve", "pickle", "marshal",
    "secrets", "uuid", "logging", "importlib", "builtins", "ctypes", "mmap", "fcntl", "tarfile", "zipfile",
    "gzip", "bz2", "lzma", "csv", "configparser", "webbrowser", "platform", "getpass", "locale",
})
BANNED_CALLS = frozenset({"open", "print", "input", "breakpoint", "exec", "eval", "compile", "__import__"})
BANNED_NAMES = frozenset({"__file__", "__builtins__"})


def _module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(ENGINE.parent.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolved(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute name a `from ... import` names (relative imports resolved against `module`)."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def offences(source: str, module: str = "pax_hispanica.engine.x", is_package: bool = False) -> list[str]:
    """What in `source` breaks the engine's purity, one line each ("<line>: <what>")."""
    out = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [_resolved(node, module, is_package)]
            if node.module is None and node.level:            # from .. import x: x may be a module
                names = [f"{names[0]}.{a.name}" for a in node.names]
        for name in names:
            root = name.split(".")[0]
            if root in BANNED:
                out.append(f"{node.lineno}: imports {name}")
            elif root == "pax_hispanica" and not (name + ".").startswith("pax_hispanica.engine."):
                out.append(f"{node.lineno}: imports {name}, a layer above the engine")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in BANNED_CALLS:
            out.append(f"{node.lineno}: calls {node.func.id}()")
        if isinstance(node, ast.Name) and node.id in BANNED_NAMES:
            out.append(f"{node.lineno}: reads {node.id}")
    return out


def _engine_files() -> list[pathlib.Path]:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 25 and ENGINE / "ruleset.py" in files and ENGINE / "years" / "sail.py" in files
    return files


def test_the_purity_scan_finds_what_it_is_for():
    """The scan itself: each kind of offence is found (else the test below could not fail)."""
    bad = {"import os": "imports os", "import time as clock": "imports time", "from pathlib import Path": "pathlib",
           "from os import path": "imports os", "import tomllib": "tomllib", "import random": "random",
           "import socket": "socket", "import io": "imports io", "from urllib.request import urlopen": "urllib",
           "x = open('f')": "calls open()", "print(1)": "calls print()", "p = __file__": "reads __file__",
           "from pax_hispanica import rulesets": "a layer above", "from .. import api": "a layer above",
           "from ..rulesets import load_ruleset": "a layer above", "from pax_hispanica.web import db": "a layer above",
           "def f():\n    import os\n    return os.getcwd()": "imports os"}
    for source, words in bad.items():
        found = offences(source)
        assert len(found) == 1 and words in found[0], (source, found)
    good = ("import hashlib", "from . import years", "from .ruleset import Ruleset", "from ..rng import below",
            "import json", "from pydantic import ValidationError", "x = f.open", "from pax_hispanica.engine import core")
    for source in good:
        assert offences(source, "pax_hispanica.engine.years.sail") == [], source


@pytest.mark.parametrize("path", _engine_files(), ids=lambda p: str(p.relative_to(ENGINE)))
def test_no_engine_module_does_io_reads_a_clock_or_draws_global_random(path):
    module = _module_name(path)
    assert offences(path.read_text(), module, path.name == "__init__.py") == []


def test_no_loaded_engine_module_holds_a_module_that_does_io():
    """Every engine module, imported: none holds (under any name) a module of the banned ones."""
    from pax_hispanica import engine
    names = [m.name for m in pkgutil.walk_packages(engine.__path__, "pax_hispanica.engine.")]
    assert len(names) > 25 and "pax_hispanica.engine.ruleset" in names
    for name in names:
        mod = importlib.import_module(name)
        held = [f"{k} = {v.__name__}" for k, v in vars(mod).items()
                if isinstance(v, types.ModuleType) and v.__name__.split(".")[0] in BANNED]
        assert held == [], name
        assert not hasattr(mod, "load_ruleset") and not hasattr(mod, "DATA"), name


# ---- a game with no file, clock or random to reach -------------------------------------------------

class Touched(Exception):
    """The engine (or anything the api called) opened a file, read the clock or drew global random."""


@contextmanager
def nothing_to_touch():
    """Every way to open or look up a file, read the clock or draw from `random`, failing."""
    touched: list[str] = []

    def trap(what: str):
        def refuse(*args, **kwargs):
            touched.append(what)
            raise Touched(what)
        return refuse

    targets = [(builtins, "open"), (io, "open"), (io, "open_code"), (os, "open"), (os, "stat"), (os, "lstat"),
               (os, "listdir"), (os, "scandir"), (os, "urandom"), (os, "getcwd"),
               (pathlib.Path, "open"), (pathlib.Path, "read_text"), (pathlib.Path, "read_bytes"),
               (pathlib.Path, "exists"), (pathlib.Path, "resolve"),
               (time, "time"), (time, "time_ns"), (time, "monotonic"), (time, "perf_counter"),
               (time, "process_time"), (time, "localtime"), (time, "gmtime"),
               (random, "random"), (random, "randrange"), (random, "randint"), (random, "getrandbits"),
               (random, "choice"), (random, "shuffle"), (random, "sample"), (random, "seed")]
    saved = [(obj, name, getattr(obj, name)) for obj, name in targets]
    try:
        for obj, name, _ in saved:
            setattr(obj, name, trap(f"{getattr(obj, '__name__', obj)}.{name}"))
        yield touched
    finally:
        for obj, name, value in saved:
            setattr(obj, name, value)


def _pick(options: list, k: int) -> dict:
    return options[(k * 2654435761) % len(options)]      # a fixed choice: no random module here


def _play(st, turns: int) -> tuple[api.State, list]:
    """Plays `turns` actions (or to the end), asking every question of the api on the way."""
    events: list = []
    for k in range(turns):
        if api.is_over(st):
            break
        seat = api.acting(st)[0]
        v = api.view(st, seat, include_state=True)
        assert api.unavailable(v, seat) == api.unavailable(st, seat)
        api.battle_previews(v, seat)
        api.decision(st, seat)
        known = api.known_cards(api.view(st, seat), api.redact(events, seat))
        if k % 7 == 0:
            sample = api.determinize(v, k, known)
            assert api.determinizer(v, known)(k).to_dict() == sample.to_dict()
        st, evs = api.apply(st, _pick(api.expand(api.legal_actions(st, seat)), k))
        events += evs
        if k % 25 == 0:
            assert api.restore(api.snapshot(st)).to_dict() == st.to_dict()
    return st, events


def test_a_game_is_played_replayed_and_restored_without_files_clock_or_random(tmp_path):
    """Once its rulesets are loaded (api.load_ruleset: the only reader of files), a game is set up,
    played, viewed, sampled, saved, restored, replayed and verified with every file, clock and
    random source patched to fail; and a scenario and a variant game too. The trap works: a
    ruleset not yet loaded cannot be read inside it."""
    variant = {"start_money": 12}
    api.load_ruleset("reference")
    api.load_ruleset("reference", variant)
    other = tmp_path / "other"
    shutil.copytree(DATA / "reference", other)
    scn = {"config": {"players": 3}, "seed": 4, "position": {"year": "sail", "players": [{"money": 9}]},
           "actions": []}
    with nothing_to_touch() as touched:
        g = api.Game.new(api.Config(players=3), 11)
        for a in range(60):
            if api.is_over(g.state):
                break
            seat = api.acting(g.state)[0]
            g.act(_pick(api.expand(api.legal_actions(g.state, seat)), a))
        _play(g.state, 120)
        assert api.replay(g.record).state.to_dict() == g.state.to_dict()
        assert api.verify_record(g.record) == []
        vg = api.Game.new(api.Config(players=4, params=variant), 3)
        _play(vg.state, 40)
        assert api.replay(vg.record).state.rs.params["start_money"] == 12
        sg = api.from_scenario(scn)
        _play(sg.state, 40)
        assert api.parameters("reference", variant)["start_money"]["value"] == 12
        assert api.board_layout("reference") and api.card_catalogue("reference")
        assert touched == []
        with pytest.raises(Touched):
            api.load_ruleset(str(other))                  # not loaded yet: reading it is refused
    assert touched
    assert api.load_ruleset(str(other)).version == api.load_ruleset("reference").version


# ---- the split: the engine builds from parsed tables, pax_hispanica.rulesets reads them ---------

def test_the_engine_builds_a_ruleset_from_parsed_tables_and_leaves_them_as_given():
    """engine.ruleset.build_ruleset takes the files' tables (no path, nothing read): the same
    ruleset as the loader's, and the tables unchanged (the loader's cache never sees a change)."""
    import copy

    from pax_hispanica import rulesets
    from pax_hispanica.engine.ruleset import FILE_NAMES, build_ruleset, variant
    files = rulesets.read_files(DATA / "reference")
    assert sorted(files) == sorted(FILE_NAMES)
    before = copy.deepcopy(files)
    with nothing_to_touch() as touched:
        built = build_ruleset("reference", files)
        changed = variant(built, {"start_money": 12})
    assert touched == [] and files == before
    loaded = rulesets.load_ruleset("reference")
    assert built is not loaded and vars(built) == vars(loaded)
    assert vars(changed) == vars(rulesets.load_ruleset("reference", {"start_money": 12}))
    assert built.params["start_money"] != 12 and changed.params["start_money"] == 12


def test_a_table_the_builder_is_not_given_is_named_as_a_missing_file():
    from pax_hispanica import rulesets
    from pax_hispanica.engine.ruleset import FILE_NAMES, RulesetError, build_ruleset
    files = rulesets.read_files(DATA / "reference")
    for fname in FILE_NAMES:
        with pytest.raises(RulesetError) as e:
            build_ruleset("mine", {k: v for k, v in files.items() if k != fname})
        assert str(e.value) == f"{fname}: file missing from ruleset mine"


def test_the_loader_reads_a_folder_once_and_a_variant_once_per_parameters(tmp_path):
    """pax_hispanica.rulesets caches by folder and (folder, parameters): a name or path of one
    folder is one Ruleset, a variant is one Ruleset per parameters, and neither is read again."""
    from pax_hispanica import rulesets
    folder = tmp_path / "mine"
    shutil.copytree(DATA / "reference", folder)
    first = rulesets.load_ruleset(str(folder))
    reference = rulesets.load_ruleset("reference")   # loaded here: after 64 other names (a long
    with nothing_to_touch() as touched:              # run in one process) the cache may have dropped it
        assert rulesets.load_ruleset(str(folder)) is first
        assert rulesets.load_ruleset("reference") is reference
    assert touched == []
    assert rulesets.load_ruleset(str(folder / ".." / "mine")) is first
    v = rulesets.load_ruleset(str(folder), {"start_money": 12, "cycles": 3})
    assert v is rulesets.load_ruleset(str(folder), {"cycles": 3, "start_money": 12}) and v is not first
    assert v.name == first.name == "mine" and first.start_money != 12 and v.start_money == 12
