#!/usr/bin/env python3
"""Build, check or remove the compiled engine (issue 13; src/pax_hispanica/compiled_engine.py).

    .venv/bin/python scripts/compile_engine.py build     # compile if the build is missing or stale
    .venv/bin/python scripts/compile_engine.py status    # which engine `import pax_hispanica` loads, and why
    .venv/bin/python scripts/compile_engine.py clean     # remove the build: the pure engine again

`build` compiles the engine's modules and api.py with mypyc (from mypy, in the compile extra), with
the project's `mypy --strict` settings at gcc -O3 (setup.py's list and flags), into
`<venv>/paxh-compiled/` ($PAXH_COMPILED_DIR), outside the source tree, and writes the manifest
that pax_hispanica checks at import: the SHA-256 of every engine source, so a build is used only
for exactly the sources it was made from. About a minute of CPU on these machines; nothing is
done when the build is current (`--force` builds anyway). scripts/setup.sh runs it (scripts/start.sh
has it run in the background, niced, and serves the pure engine meanwhile).

One build at a time: `build` holds an exclusive lock on `<folder>.lock` (which holds its pid) while
it works; another `build` waits for it and then finds the build current, or with `--no-wait`
leaves at once (exit 3). `status` says when a build is running. The new build is made in a
temporary folder beside the old one, its manifest written there last, and put in place by
renaming the folder: a process never sees a half-built engine.

Exit status: 0 built or current (status: the compiled engine loads), 1 it does not, 2 the build
failed (no C compiler, a mypyc error: the pure engine stays in use), 3 another build is running
(`build --no-wait`).
"""

from __future__ import annotations

import argparse
import datetime
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = (ROOT / "src" / "pax_hispanica").resolve()
sys.path.insert(0, str(ROOT / "src"))
from pax_hispanica import compiled_engine as ce  # noqa: E402  (imports no engine module)


def _modules(lib: Path, suffix: str) -> dict[str, str]:
    """{module name: path relative to the build} of the extensions setup.py built into `lib`."""
    out: dict[str, str] = {}
    for so in sorted(lib.rglob(f"*{suffix}")):
        rel = so.relative_to(lib).as_posix()
        parts = rel[: -len(suffix)].split("/")
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = rel
    return out


def _lock_file(folder: Path) -> Path:
    return folder.with_name(folder.name + ".lock")


def running_build(folder: Path) -> str | None:
    """The pid (as the lock file has it) of a build of `folder` running now, else None."""
    lock = _lock_file(folder)
    try:
        with open(lock, "r+", encoding="utf-8") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return f.read().strip() or "?"
            return None
    except FileNotFoundError:
        return None


def build(folder: Path, force: bool, wait: bool = True) -> int:
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(_lock_file(folder), "a+", encoding="utf-8") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            lock.seek(0)
            print(f"compiled engine: another build is running (pid {lock.read().strip() or '?'}); "
                  "it is left to finish", file=sys.stderr)
            return 3
        lock.seek(0)
        lock.truncate()
        lock.write(f"{os.getpid()}\n")
        lock.flush()
        return _build(folder, force)      # the lock goes with the file's closing


def _build(folder: Path, force: bool) -> int:
    status, _ = ce.check(folder, PACKAGE, environ={})
    if status.compiled and not force:
        print(f"compiled engine: up to date ({status.reason})")
        return 0
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not compiler:
        print("compiled engine: no C compiler (cc/gcc) found; the pure-Python engine stays in use", file=sys.stderr)
        return 2
    digests = ce.source_digests(PACKAGE)
    work = Path(tempfile.mkdtemp(prefix=folder.name + ".building-", dir=folder.parent))
    started = time.monotonic()
    print(f"compiled engine: building with mypyc into {folder} (about a minute; the log: {work / 'build.log'}) ...",
          flush=True)
    env = dict(os.environ, PAXH_BUILD_EXTENSIONS="1", PAXH_MYPYC_DIR=str(work / "c"))
    env.pop("PAXH_PURE", None)
    with open(work / "build.log", "w", encoding="utf-8") as log:
        done = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--build-lib", str(work / "lib"),
                               "--build-temp", str(work / "temp")], cwd=ROOT, env=env, stdout=log,
                              stderr=subprocess.STDOUT)
    if done.returncode != 0:
        tail = (work / "build.log").read_text(encoding="utf-8", errors="replace").splitlines()[-30:]
        print("\n".join(tail), file=sys.stderr)
        print(f"compiled engine: the build failed (log: {work / 'build.log'}); the pure-Python engine stays in use",
              file=sys.stderr)
        return 2
    if ce.source_digests(PACKAGE) != digests:
        shutil.rmtree(work, ignore_errors=True)
        print("compiled engine: the sources changed during the build; run it again", file=sys.stderr)
        return 2
    modules = _modules(work / "lib", ce.ext_suffix())
    if "pax_hispanica.engine.core" not in modules:
        print(f"compiled engine: the build made no engine (log: {work / 'build.log'})", file=sys.stderr)
        return 2
    manifest = {"format": ce.FORMAT, "package": str(PACKAGE), "ext_suffix": ce.ext_suffix(),
                "python": sys.version.split()[0], "built": datetime.datetime.now(datetime.UTC)
                .strftime("%Y-%m-%d %H:%M UTC"), "sources": digests, "modules": modules}
    # the manifest last, in the build's own folder, which then takes the place of the old one:
    # `folder` is either the old build, none (between the renames: the pure engine), or the new one, whole
    (work / "lib" / ce.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    old = folder.with_name(folder.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if folder.exists():
        folder.rename(old)
    (work / "lib").rename(folder)
    shutil.rmtree(old, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    print(f"compiled engine: {len(modules)} extension(s) built in {time.monotonic() - started:.0f} s")
    return 0


def status(folder: Path) -> int:
    # the environment this process was started with: importing pax_hispanica sets PAXH_PURE=1
    # when it loads the pure engine (for its workers), which says nothing of the build
    environ = {k: v for k, v in os.environ.items() if k != "PAXH_PURE"}
    if ce.PURE_AT_START is not None:
        environ["PAXH_PURE"] = ce.PURE_AT_START
    st, _ = ce.check(folder, PACKAGE, environ=environ)
    building = None if st.compiled or st.reason == "PAXH_PURE=1" else running_build(folder)
    print(("compiled engine (mypyc): " if st.compiled else "pure-Python engine: ") + st.reason
          + (f" (a build is running now, pid {building}: the next start loads it)" if building else ""))
    return 0 if st.compiled else 1


def clean(folder: Path) -> int:
    if folder.exists():
        shutil.rmtree(folder)
        print(f"removed {folder}")
    else:
        print(f"nothing to remove ({folder} does not exist)")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("command", choices=("build", "status", "clean"))
    ap.add_argument("--force", action="store_true", help="build even when the build is current")
    ap.add_argument("--no-wait", action="store_true",
                    help="build: leave at once (exit 3) when another build is running, instead of waiting for it")
    ap.add_argument("--dir", type=Path, default=None,
                    help="the build's folder (default: $PAXH_COMPILED_DIR, else <venv>/paxh-compiled)")
    a = ap.parse_args(argv)
    folder = (a.dir or ce.default_dir()).resolve()
    if a.command == "build":
        return build(folder, a.force, wait=not a.no_wait)
    return status(folder) if a.command == "status" else clean(folder)


if __name__ == "__main__":
    sys.exit(main())
