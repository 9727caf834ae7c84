"""The compiled engine (issue 13): the engine's modules and api.py compiled by mypyc, loaded
instead of the Python sources only while they are exactly the sources it was built from.

`scripts/compile_engine.py build` (run by scripts/setup.sh) compiles them into a folder outside
the source tree, `<venv>/paxh-compiled/` (or $PAXH_COMPILED_DIR), and writes a manifest there:
the SHA-256 of every Python file of the engine and of api.py, the package folder they were read
from, the interpreter's extension suffix, and where each compiled module lies. When this package
is imported, `activate()` reads the manifest and puts a finder first on `sys.meta_path` that
loads those modules from the compiled folder, but only when

  - PAXH_PURE is not set to 1 (the pure engine on demand: mutation testing, coverage, checks),
  - the manifest names this very package folder (a copy of the sources elsewhere stays pure),
  - it was built for this interpreter (the same extension suffix), and
  - every engine source file is byte for byte the one compiled (no file changed, added or
    removed since the build).

Otherwise nothing is changed and the pure-Python engine loads: a stale build is never run, so
an edit to a rule takes effect at once, pure, until the next build. The compiled and the pure
engine play the same games: the test suite runs on the one installed, and tests/engine and
tests/rules run again on the pure one (scripts/test.sh). `STATUS` says which was chosen and
why; `api.COMPILED` and `paxh --version` report it.

Nothing here is engine code: it only chooses which files implement the engine, once, at import.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parent
MANIFEST = "manifest.json"
FORMAT = 1


def default_dir() -> Path:
    """Where the compiled engine lives: $PAXH_COMPILED_DIR, else `paxh-compiled` in the
    environment's prefix (the virtual environment the package is installed in)."""
    given = os.environ.get("PAXH_COMPILED_DIR")
    return Path(given) if given else Path(sys.prefix) / "paxh-compiled"


def source_files(package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """Every file a build depends on: the engine's Python files (the compiled ones and the few
    left out, whose types the compiled ones were checked against) and api.py."""
    return sorted([*package_dir.glob("engine/*.py"), *package_dir.glob("engine/years/*.py"),
                   package_dir / "api.py"])


def source_digests(package_dir: Path = PACKAGE_DIR) -> dict[str, str]:
    """{path relative to the package: SHA-256 of its bytes} over source_files()."""
    return {p.relative_to(package_dir).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in source_files(package_dir)}


def ext_suffix() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX") or "")


@dataclass(frozen=True)
class Status:
    """Which engine this process loads, and why."""
    compiled: bool
    reason: str
    folder: Path | None = None


def check(folder: Path | None = None, package_dir: Path = PACKAGE_DIR,
          environ: Any = os.environ) -> tuple[Status, dict[str, Path]]:
    """Whether the compiled engine in `folder` may be loaded for the sources in `package_dir`:
    its Status, and {module name: extension file} when it may (else {})."""
    if environ.get("PAXH_PURE", "") == "1":
        return Status(False, "PAXH_PURE=1"), {}
    folder = default_dir() if folder is None else folder
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Status(False, "not built (bash scripts/setup.sh, or python scripts/compile_engine.py build)"), {}
    except (OSError, ValueError) as e:
        return Status(False, f"unreadable manifest {folder / MANIFEST}: {e}"), {}
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        return Status(False, f"manifest {folder / MANIFEST} of another format"), {}
    if manifest.get("package") != str(package_dir):
        return Status(False, f"built from other sources ({manifest.get('package')})"), {}
    if manifest.get("ext_suffix") != ext_suffix():
        return Status(False, f"built for another interpreter ({manifest.get('ext_suffix')})"), {}
    if manifest.get("sources") != source_digests(package_dir):
        return Status(False, "stale: the engine's sources changed since the build "
                             "(python scripts/compile_engine.py build)"), {}
    modules = manifest.get("modules")
    if not isinstance(modules, dict) or "pax_hispanica.engine.core" not in modules:
        return Status(False, f"manifest {folder / MANIFEST} lists no engine"), {}
    found = {str(name): folder / str(rel) for name, rel in modules.items()}
    missing = [str(p) for p in found.values() if not p.is_file()]
    if missing:
        return Status(False, f"incomplete build: {missing[0]} is missing"), {}
    return Status(True, f"built {manifest.get('built', '?')} in {folder}", folder), found


class _Finder:
    """A meta path finder (importlib.abc.MetaPathFinder's protocol, without importing that module's
    dependencies at every start) for the compiled modules, and nothing else: every other import
    goes on as usual."""

    def __init__(self, modules: dict[str, Path], package_dir: Path) -> None:
        self.modules = modules
        self.package_dir = package_dir
        self.packages = {name for name, so in modules.items() if so.name.startswith("__init__.")}

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        so = self.modules.get(fullname)
        if so is None:
            # a module of a compiled package left out of the build (ruleset.py, ...): from its
            # source folder by name, whatever the package's __path__ (mypyc may initialise a
            # compiled package itself, without this finder, leaving __path__ its compiled folder)
            parent, _, name = fullname.rpartition(".")
            if parent not in self.packages:
                return None
            module = self.package_dir.joinpath(*parent.split(".")[1:], name + ".py")
            return importlib.util.spec_from_file_location(fullname, module) if module.is_file() else None
        if fullname not in self.packages:
            return importlib.util.spec_from_file_location(fullname, so)
        folder = str(self.package_dir.joinpath(*fullname.split(".")[1:]))
        return importlib.util.spec_from_file_location(fullname, so, loader=_PackageLoader(fullname, str(so), folder),
                                                      submodule_search_locations=[folder])


class _PackageLoader(importlib.machinery.ExtensionFileLoader):
    """A compiled package's loader: mypyc's module init sets `__path__` to the compiled folder;
    it is set back to the source folder, where every module of the package is (the sources a
    tool walks with pkgutil), as the import system had it. (A package mypyc initialises itself,
    as engine.years is when core imports it, keeps the compiled folder: find_spec finds its
    left-out modules by name.)"""

    def __init__(self, name: str, path: str, source: str) -> None:
        super().__init__(name, path)
        self.source = source

    def exec_module(self, module: ModuleType) -> None:
        super().exec_module(module)
        module.__path__ = [self.source]


STATUS = Status(False, "not checked")
# PAXH_PURE as this process found it, before activate() set it for its workers: a tool that
# reports what a fresh process would load (compile_engine.py status) checks with this one
PURE_AT_START = os.environ.get("PAXH_PURE")


def activate() -> Status:
    """Load the compiled engine from now on if check() allows it (once; pax_hispanica/__init__.py
    calls it before any engine module is imported). Returns and keeps the Status."""
    global STATUS
    if STATUS.reason != "not checked":
        return STATUS
    status, modules = check()
    if status.compiled and any(name in sys.modules for name in modules):
        status = Status(False, "an engine module was imported before the compiled engine was checked")
    elif status.compiled:
        sys.meta_path.insert(0, _Finder(modules, PACKAGE_DIR))
    if not status.compiled:
        # the processes this one starts (bot and analysis workers) run the engine it runs: a
        # compiled build that lands meanwhile (setup.sh --build-in-background) must not give a
        # worker the compiled classes while this process pickles pure ones to it
        os.environ["PAXH_PURE"] = "1"
    STATUS = status
    return status
