"""The compiled engine (issue 13; docs/api.md, "The compiled engine"): which engine loads, and when.

api.COMPILED and `paxh --version` say which engine is loaded, checked against how Python
actually loaded the engine's modules, so they hold in both of scripts/test.sh's runs (the
suite on the compiled engine it builds, then tests/engine and tests/rules with PAXH_PURE=1).
compiled_engine.check() loads a build only for exactly the sources it was made from: each
way a build can be unusable is tried on a small package of its own.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pax_hispanica import __version__, api, cli, compiled_engine
from pax_hispanica.engine import contexts, core, ruleset

# setup.py's compiled modules, as module names (api.py and the engine less its left-outs)
COMPILED_MODULES = ["pax_hispanica.api", "pax_hispanica.engine.core", "pax_hispanica.engine.state",
                    "pax_hispanica.engine.flow", "pax_hispanica.engine.decisions", "pax_hispanica.engine.view",
                    "pax_hispanica.engine.fast_views", "pax_hispanica.engine.fast_determinizer",
                    "pax_hispanica.engine.years.auction"]
ROOT = Path(__file__).resolve().parents[2]


def _is_extension(module) -> bool:
    return isinstance(module.__spec__.loader, importlib.machinery.ExtensionFileLoader)


def test_api_COMPILED_says_whether_the_engine_was_loaded_from_extensions():
    loaded = [_is_extension(importlib.import_module(m)) for m in COMPILED_MODULES]
    assert type(api.COMPILED) is bool
    assert loaded == [api.COMPILED] * len(loaded)          # all compiled, or none
    assert not _is_extension(contexts) and not _is_extension(ruleset)   # left out of the build, always Python
    assert _is_extension(core) == api.COMPILED


def test_the_modules_left_out_load_from_the_sources_whichever_engine_runs():
    src = Path(compiled_engine.PACKAGE_DIR)
    assert Path(ruleset.__file__).resolve() == src / "engine" / "ruleset.py"
    assert Path(contexts.__file__).resolve() == src / "engine" / "contexts.py"


def test_scripts_test_sh_runs_the_suite_on_the_engine_it_asked_for():
    """scripts/test.sh builds the compiled engine and requires it (PAXH_REQUIRE_COMPILED=1), then
    runs tests/engine and tests/rules again with PAXH_PURE=1: each run is on the engine it says."""
    if os.environ.get("PAXH_REQUIRE_COMPILED") != "1":
        pytest.skip("not run by scripts/test.sh")
    want = os.environ.get("PAXH_PURE") != "1"
    assert api.COMPILED is want, compiled_engine.STATUS
    assert compiled_engine.STATUS.compiled is want


def test_paxh_version_names_the_version_and_the_engine_loaded():
    r = CliRunner().invoke(cli.app, ["--version"])
    assert r.exit_code == 0, r.output
    if api.COMPILED:
        assert r.output == f"paxh {__version__}, compiled engine (mypyc)\n"
    else:
        assert r.output == (f"paxh {__version__}, pure-Python engine "
                            f"(the compiled engine: {compiled_engine.STATUS.reason})\n")


# ---- check(): a build is loaded only for exactly its own sources ---------------------------------
@pytest.fixture
def package(tmp_path):
    """A package laid out as pax_hispanica's engine, and a 'build' of it as compile_engine.py
    writes one (the extension files are empty: check() only looks that they are there)."""
    pkg = tmp_path / "src" / "pax_hispanica"
    for rel in ("api.py", "engine/__init__.py", "engine/core.py", "engine/ruleset.py", "engine/years/__init__.py"):
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(f"# {rel}\n")
    built = tmp_path / "build"
    suffix = compiled_engine.ext_suffix()
    modules = {"pax_hispanica.api": f"pax_hispanica/api{suffix}",
               "pax_hispanica.engine": f"pax_hispanica/engine/__init__{suffix}",
               "pax_hispanica.engine.core": f"pax_hispanica/engine/core{suffix}",
               "pax_hispanica.engine.years": f"pax_hispanica/engine/years/__init__{suffix}",
               "abc123__mypyc": f"abc123__mypyc{suffix}"}
    for rel in modules.values():
        (built / rel).parent.mkdir(parents=True, exist_ok=True)
        (built / rel).write_bytes(b"")
    manifest = {"format": compiled_engine.FORMAT, "package": str(pkg), "ext_suffix": suffix, "built": "today",
                "sources": compiled_engine.source_digests(pkg), "modules": modules}
    (built / compiled_engine.MANIFEST).write_text(json.dumps(manifest))
    return pkg, built


def _manifest(built: Path, **changes) -> None:
    m = json.loads((built / compiled_engine.MANIFEST).read_text())
    m.update(changes)
    (built / compiled_engine.MANIFEST).write_text(json.dumps(m))


def test_a_build_of_exactly_these_sources_is_loaded(package):
    pkg, built = package
    status, modules = compiled_engine.check(built, pkg, environ={})
    assert status.compiled and status.folder == built and "today" in status.reason
    assert modules["pax_hispanica.engine.core"] == built / "pax_hispanica/engine/core" f"{compiled_engine.ext_suffix()}"
    assert set(modules) == {"pax_hispanica.api", "pax_hispanica.engine", "pax_hispanica.engine.core",
                            "pax_hispanica.engine.years", "abc123__mypyc"}


def test_PAXH_PURE_1_keeps_the_pure_engine(package):
    pkg, built = package
    status, modules = compiled_engine.check(built, pkg, environ={"PAXH_PURE": "1"})
    assert (status.compiled, status.reason, modules) == (False, "PAXH_PURE=1", {})


def test_no_build_keeps_the_pure_engine_and_says_how_to_build(package, tmp_path):
    pkg, _ = package
    status, modules = compiled_engine.check(tmp_path / "nowhere", pkg, environ={})
    assert not status.compiled and modules == {}
    assert status.reason.startswith("not built") and "compile_engine.py build" in status.reason


@pytest.mark.parametrize("edit", ["change", "add", "remove", "api"])
def test_a_build_of_other_sources_is_stale_and_never_loaded(package, edit):
    pkg, built = package
    if edit == "change":
        (pkg / "engine/core.py").write_text("# a rule changed\n")
    elif edit == "add":
        (pkg / "engine/years/new_step.py").write_text("# a new module\n")
    elif edit == "remove":
        (pkg / "engine/ruleset.py").unlink()          # a module left out of the build counts too
    else:
        (pkg / "api.py").write_text("# the seam changed\n")
    status, modules = compiled_engine.check(built, pkg, environ={})
    assert not status.compiled and modules == {}
    assert status.reason.startswith("stale") and "compile_engine.py build" in status.reason


def test_a_build_made_from_another_copy_of_the_sources_is_not_loaded(package, tmp_path):
    pkg, built = package
    other = tmp_path / "copy" / "pax_hispanica"
    shutil.copytree(pkg, other)                      # the same bytes, another folder (a benchmark's copy)
    status, _ = compiled_engine.check(built, other, environ={})
    assert not status.compiled and status.reason.startswith("built from other sources")


@pytest.mark.parametrize("change, reason", [
    ({"ext_suffix": ".cpython-310-x86_64-linux-gnu.so"}, "built for another interpreter"),
    ({"format": 99}, "of another format"),
    ({"modules": {}}, "lists no engine"),
])
def test_a_build_for_another_interpreter_or_format_is_not_loaded(package, change, reason):
    pkg, built = package
    _manifest(built, **change)
    status, _ = compiled_engine.check(built, pkg, environ={})
    assert not status.compiled and reason in status.reason


def test_an_incomplete_or_unreadable_build_is_not_loaded(package):
    pkg, built = package
    (built / f"pax_hispanica/engine/core{compiled_engine.ext_suffix()}").unlink()
    status, _ = compiled_engine.check(built, pkg, environ={})
    assert not status.compiled and status.reason.startswith("incomplete build")
    (built / compiled_engine.MANIFEST).write_text("{not json")
    status, _ = compiled_engine.check(built, pkg, environ={})
    assert not status.compiled and status.reason.startswith("unreadable manifest")


# ---- the real build, where scripts/setup.sh made one ---------------------------------------------
def _engine_in_a_fresh_process(**env: str) -> list[str]:
    code = ("from pax_hispanica import api, compiled_engine as c; "
            "print(api.COMPILED); print(c.STATUS.reason); print(api.core.__file__)")
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True,
                          text=True, check=True)
    return done.stdout.splitlines()


def test_the_build_loads_from_its_folder_PAXH_PURE_gives_the_sources_and_a_stale_one_is_refused(tmp_path):
    status, _ = compiled_engine.check(environ={})
    if not status.compiled:
        pytest.skip(f"no current build here: {status.reason}")
    assert status.folder is not None
    compiled, _, core_file = _engine_in_a_fresh_process(PAXH_PURE="0")
    assert compiled == "True" and Path(core_file).is_relative_to(status.folder)
    compiled, reason, core_file = _engine_in_a_fresh_process(PAXH_PURE="1")
    assert (compiled, reason) == ("False", "PAXH_PURE=1")
    assert Path(core_file) == compiled_engine.PACKAGE_DIR / "engine" / "core.py"
    # the same build, its manifest claiming one source was different: the sources are loaded
    stale = tmp_path / "stale"
    shutil.copytree(status.folder, stale)
    m = json.loads((stale / compiled_engine.MANIFEST).read_text())
    m["sources"]["engine/core.py"] = "0" * 64
    (stale / compiled_engine.MANIFEST).write_text(json.dumps(m))
    compiled, reason, core_file = _engine_in_a_fresh_process(PAXH_PURE="0", PAXH_COMPILED_DIR=str(stale))
    assert compiled == "False" and reason.startswith("stale")
    assert Path(core_file) == compiled_engine.PACKAGE_DIR / "engine" / "core.py"


def test_compile_engine_status_says_which_engine_loads():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "compile_engine.py"), "status"],
                          capture_output=True, text=True, env={**os.environ, "PAXH_PURE": "1"})
    assert done.returncode == 1 and done.stdout == "pure-Python engine: PAXH_PURE=1\n"


def test_a_process_on_the_pure_engine_starts_its_workers_on_it(tmp_path):
    """A build that lands while a server runs (setup.sh --build-in-background) is not loaded by
    the workers it starts: a process that chose the pure engine passes PAXH_PURE=1 on to them."""
    code = ("import os; from pax_hispanica import compiled_engine as c; "
            "print(c.STATUS.compiled); print(os.environ.get('PAXH_PURE'))")
    env = {k: v for k, v in os.environ.items() if k != "PAXH_PURE"}
    env["PAXH_COMPILED_DIR"] = str(tmp_path / "no-build-here")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["False", "1"]


def test_compile_engine_status_gives_the_build_s_reason_not_the_flag_its_own_import_set(tmp_path):
    """Importing pax_hispanica on the pure engine sets PAXH_PURE=1 for its workers; `status`
    still says why a fresh process would not load the build (here: none is built)."""
    env = {k: v for k, v in os.environ.items() if k != "PAXH_PURE"}
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "compile_engine.py"), "status",
                           "--dir", str(tmp_path / "no-build-here")], capture_output=True, text=True, env=env)
    assert done.returncode == 1 and done.stdout.startswith("pure-Python engine: not built"), done.stdout
