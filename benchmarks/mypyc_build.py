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

Left out (kept as Python; none is on the hot path of a game):
  - ruleset.py: the Ruleset dataclass reads its parameters through __getattr__ and
    self.__dict__, and declares them in an `if TYPE_CHECKING:` block in the class body,
    which mypyc refuses ("Unsupported statement in class body");
  - schema.py, ruleset_schema.py, scenario_schema.py: the pydantic models of the loaders
    (mypyc's generated C refers to `pydantic.main`'s module cache and does not compile);
  - contexts.py: the decisions' saved contexts, TypedDicts (compiled, a TypedDict subclass
    loses its bases' keys, which tests read; at run time each is a plain dict anyway).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PKG = SRC / "pax_hispanica"
LEFT_OUT = ("engine/ruleset.py", "engine/schema.py", "engine/ruleset_schema.py", "engine/scenario_schema.py",
            "engine/contexts.py")


def modules() -> list[str]:
    found = sorted(PKG.glob("engine/*.py")) + sorted(PKG.glob("engine/years/*.py")) + [PKG / "api.py"]
    return [str(p.relative_to(SRC)) for p in found if str(p.relative_to(PKG)) not in LEFT_OUT]


def clean() -> int:
    gone = [p for p in [*PKG.rglob("*.so"), *SRC.glob("*__mypyc*.so")]]
    for p in gone:
        p.unlink()
    print(f"removed {len(gone)} extension(s)")
    return 0


def build() -> int:
    mypyc = Path(sys.executable).with_name("mypyc")
    cmd = [str(mypyc), "--strict", "--warn-unreachable", "--enable-error-code", "ignore-without-code",
           "--enable-error-code", "truthy-bool", "--python-version", "3.11", *modules()]
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
