"""Issue 13, fifth round: the engine compiled with mypyc, in place, for measuring (not installed).

    .venv/bin/python benchmarks/mypyc_build.py build      # src/pax_hispanica/**/*.so (about 1.5 min of CPU)
    .venv/bin/python benchmarks/mypyc_build.py clean      # remove them: the pure-Python engine again
    .venv/bin/python benchmarks/mypyc_build.py modules    # the modules it compiles, and those it leaves out

`build` runs mypyc (shipped inside mypy, `pip install mypy`) on the engine's modules and api.py
with the project's mypy --strict settings; the extensions land next to the sources
(src/pax_hispanica/engine/core.cpython-311-*.so, ...) plus one shared library in src/, and Python
imports them instead of the .py files as long as they are there. The build directory is
src/build/ (both are in .gitignore). Compare against a copy of the same sources without
the .so files (README, "Benchmarks", fifth round):

    mkdir /tmp/fc-pure && git archive HEAD src | tar -x -C /tmp/fc-pure
    .venv/bin/python benchmarks/fast_paths.py --old /tmp/fc-pure --rounds 3 --quick

The modules compiled, the ones left out (and why) and the mypy flags are setup.py's, the
compiled engine's (scripts/compile_engine.py, README "Installing"), so the two builds compile
the same thing; this one puts the .so files next to a copy's sources, which Python then loads
whatever the sources say: use it only in a throwaway copy.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PKG = SRC / "pax_hispanica"
_spec = importlib.util.spec_from_file_location("paxh_setup", ROOT / "setup.py")
assert _spec is not None and _spec.loader is not None
_setup = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_setup)           # setup.py calls setup() only when run as a script
LEFT_OUT: tuple[str, ...] = _setup.LEFT_OUT


def modules() -> list[str]:
    return [str(p.relative_to(SRC)) for p in _setup.compiled_modules()]


def clean() -> int:
    gone = [p for p in [*PKG.rglob("*.so"), *SRC.glob("*__mypyc*.so")]]
    for p in gone:
        p.unlink()
    print(f"removed {len(gone)} extension(s)")
    return 0


def build() -> int:
    mypyc = Path(sys.executable).with_name("mypyc")
    cmd = [str(mypyc), *_setup.MYPY_FLAGS, *modules()]
    return subprocess.run(cmd, cwd=SRC).returncode


def main(argv: list[str]) -> int:
    op = argv[0] if argv else "build"
    if op == "modules":
        print("\n".join(modules()))
        print("left out:", ", ".join(LEFT_OUT))
        return 0
    return {"build": build, "clean": clean}[op]()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
