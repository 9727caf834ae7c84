"""The compiled engine's build (issue 13): pyproject.toml holds the project; this file only adds
the mypyc extensions when scripts/compile_engine.py asks for them.

    pip install -e .                        # the package itself (no extensions: PAXH_BUILD_EXTENSIONS unset)
    python scripts/compile_engine.py build  # the compiled engine, outside the source tree (scripts/setup.sh runs it)

compile_engine.py runs `setup.py build_ext --build-lib <folder>` with PAXH_BUILD_EXTENSIONS=1:
the modules of `compiled_modules()` (the same list as benchmarks/mypyc_build.py, which builds
them in place in a throwaway copy for measuring) with the project's mypy --strict settings, at
gcc -O3, with the environment's mypy (the compile extra has it). pax_hispanica/compiled_engine.py
loads them while they match the sources; `api.COMPILED` and `paxh --version` say which engine
is loaded.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"
PKG = SRC / "pax_hispanica"
# Kept as Python (none is on the hot path of a game):
#  - ruleset.py: its parameters are read through __getattr__ and self.__dict__ and declared in
#    an `if TYPE_CHECKING:` block of the class body, which mypyc refuses;
#  - schema.py, ruleset_schema.py, scenario_schema.py: the loaders' pydantic models (the
#    generated C refers to pydantic.main's module cache and does not compile);
#  - contexts.py: the decisions' saved contexts, TypedDicts (compiled, a TypedDict subclass
#    loses its bases' keys, which tests and docs read; at run time each is a plain dict).
LEFT_OUT = ("engine/ruleset.py", "engine/schema.py", "engine/ruleset_schema.py", "engine/scenario_schema.py",
            "engine/contexts.py")
MYPY_FLAGS = ["--strict", "--warn-unreachable", "--enable-error-code", "ignore-without-code",
              "--enable-error-code", "truthy-bool", "--python-version", "3.11"]


def compiled_modules() -> list[Path]:
    """The engine's modules and api.py, less LEFT_OUT."""
    found = sorted(PKG.glob("engine/*.py")) + sorted(PKG.glob("engine/years/*.py")) + [PKG / "api.py"]
    return [p for p in found if str(p.relative_to(PKG)) not in LEFT_OUT]


# pip runs this file twice: for the metadata alone (dist_info, egg_info), then for the build; only
# the build needs the extensions (mypycify type-checks and writes the C, about a minute of CPU).
METADATA_ONLY = {"dist_info", "egg_info"}


def _ext_modules() -> list[object]:
    if os.environ.get("PAXH_BUILD_EXTENSIONS", "") != "1":
        return []
    command = next((a for a in sys.argv[1:] if not a.startswith("-")), None)
    if command in METADATA_ONLY:
        return []
    from mypyc.build import mypycify          # mypy: the compile extra (pip install -e '.[compile]')
    # PAXH_MYPYC_DIR: where mypyc writes its C (scripts/compile_engine.py builds outside the tree)
    return list(mypycify([*MYPY_FLAGS, *(str(p.relative_to(ROOT)) for p in compiled_modules())], opt_level="3",
                         target_dir=os.environ.get("PAXH_MYPYC_DIR", "build")))


if __name__ == "__main__":
    from setuptools import setup
    setup(ext_modules=_ext_modules())
