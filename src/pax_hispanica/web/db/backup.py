"""`paxh db backup FILE` and `paxh db restore FILE` (issue 37): a copy of the whole database,
games, accounts, open tables, ratings, chat and all, taken while servers run, and put back
into an empty database.

Three kinds of backup file, told apart by their first bytes when restoring:

- **SQLite file** (a SQLite database): what `backup` writes for a SQLite database, through
  SQLite's online backup API (`sqlite3.Connection.backup`): a consistent copy while servers go on
  writing, checked with `PRAGMA integrity_check` and left as one self-contained file (journal
  mode DELETE, no -wal beside it). It can be opened with `sqlite3` or served by `paxh serve
  --database-url sqlite:///FILE` as it is.
- **pg_dump archive** (`PGDMP`, pg_dump's custom format): what `backup` writes for PostgreSQL
  when a `pg_dump` at least as new as the server is on the PATH; restored with `pg_restore`.
- **Logical export** (`paxh-backup-1`, gzip'd JSON lines): every row of every table (each game
  as its record: its row, its seats and its actions with their chain hashes; the accounts,
  tables, ratings, chat, outbox) with the schema revision. What `backup --logical` writes, and
  what `backup` writes for PostgreSQL when no usable pg_dump is found. It restores into SQLite
  or PostgreSQL alike (so it also moves a server from one to the other), as does a SQLite file.

`restore` refuses a database that holds any row unless `force` (then everything in it is
replaced), and never half-restores: the rows go in one transaction (pg_restore:
`--single-transaction`).
"""
from __future__ import annotations

import base64
import datetime as dt
import gzip
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from pax_hispanica.web import settings
from pax_hispanica.web.db import schema as db
from pax_hispanica.web.db.check import sqlite_file_problem

LOGICAL_FORMAT = "paxh-backup-1"
SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"
GZIP_MAGIC = b"\x1f\x8b"
CHUNK = 500
SKIP_TABLES = {"alembic_version"}       # the revision travels in the header, and is migrated to


class BackupError(Exception):
    """A backup or restore that cannot be done; the message is a sentence for the operator.
    `code` is the exit status (1: refused or failed, 2: a bad argument)."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


# ---------------------------------------------------------------- helpers

def _shown(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """A libpq URL for pg_dump/pg_restore, and the environment carrying the password (never on
    the command line, where `ps` shows it)."""
    u = make_url(db.sync_url(url))
    env = dict(os.environ)
    if u.password:
        env["PGPASSWORD"] = str(u.password)
    return u.set(drivername="postgresql", password=None).render_as_string(hide_password=False), env


def _engine(url: str) -> sa.Engine:
    return sa.create_engine(db.sync_url(url), poolclass=sa.pool.NullPool)


def _revision(conn: sa.Connection) -> str | None:
    if not sa.inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()


def _reflect(conn: sa.Connection) -> sa.MetaData:
    md = sa.MetaData()
    md.reflect(conn)
    return md


def contents(url: str) -> dict[str, int]:
    """Rows per table of a database (alembic_version left out); {} when it has no tables or,
    for SQLite, no file."""
    u = make_url(db.sync_url(url))
    if u.get_backend_name() == "sqlite" and not (u.database and Path(u.database).is_file()):
        return {}
    engine = _engine(url)
    try:
        with engine.connect() as conn:
            md = _reflect(conn)
            return {t.name: conn.execute(sa.select(sa.func.count()).select_from(t)).scalar_one()
                    for t in md.sorted_tables if t.name not in SKIP_TABLES}
    except sa.exc.DBAPIError as e:
        raise BackupError(f"cannot read the database at {_shown(url)}: {_first_line(e)}") from None
    finally:
        engine.dispose()


def _first_line(e: BaseException) -> str:
    return " ".join(str(getattr(e, "orig", None) or e).split())[:300]


def describe(counts: dict[str, int]) -> str:
    """'12 games, 3 accounts, 2 open tables' (and how many other rows)."""
    named = [("games", "games"), ("accounts", "accounts"), ("open_tables", "open tables")]
    parts = [f"{counts.get(t, 0)} {w}" for t, w in named]
    other = sum(n for t, n in counts.items() if t not in dict(named))
    return ", ".join(parts) + (f" and {other} other rows" if other else "")


# ---------------------------------------------------------------- backup

def backup(url: str, dest: Path, logical: bool = False) -> str:
    """Write a backup of the database at `url` to `dest` (replaced atomically when it exists).
    Returns a sentence saying what was written. Raises BackupError."""
    dest = Path(dest)
    if dest.is_dir():
        raise BackupError(f"{dest} is a folder: give the backup file's name", 2)
    if not dest.parent.is_dir():
        raise BackupError(f"no folder {dest.parent} to write the backup into", 2)
    u = make_url(db.sync_url(url))
    if u.get_backend_name() == "sqlite" and not (u.database and Path(u.database).is_file()):
        raise BackupError(f"no database file at {u.database}", 2)
    counts = contents(url)
    if "games" not in counts:
        raise BackupError(f"the database at {_shown(url)} holds no Pax Hispanica tables: nothing to back up", 2)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        if logical and u.get_backend_name() == "sqlite":
            # one moment: the rows are read from a backup-API copy, not from a file being written
            snap = tmp.with_name(tmp.name + ".sqlite")
            try:
                _backup_sqlite(str(u.database), snap)
                how = _backup_logical(f"sqlite:///{snap}", tmp)
            finally:
                snap.unlink(missing_ok=True)
        elif logical:
            how = _backup_logical(url, tmp)
        elif u.get_backend_name() == "sqlite":
            how = _backup_sqlite(str(u.database), tmp)
        else:
            dumped, why = _backup_pg_dump(url, tmp)
            how = dumped if dumped is not None else _backup_logical(url, tmp) + f" ({why})"
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)
    return f"backed up {describe(counts)} from {_shown(url)} to {dest}: {how}"


def _backup_sqlite(path: str, tmp: Path) -> str:
    """SQLite's online backup API: pages copied in steps while other connections go on writing
    (a step that sees a change starts over), so the copy is one consistent moment."""
    problem = sqlite_file_problem(path, quick=True)
    if problem is not None:
        raise BackupError(f"the SQLite file {path} is damaged ({problem}): a backup would copy the "
                          f"damage. Run `paxh db check` on it; restore an earlier backup.")
    src = sqlite3.connect(f"file:{quote(str(Path(path).resolve()))}?mode=ro", uri=True, timeout=30)
    out = sqlite3.connect(tmp)
    try:
        src.backup(out, pages=256)
        out.execute("PRAGMA journal_mode=DELETE")      # one self-contained file, no -wal beside it
        ok = out.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        out.close()
        src.close()
    if not ok:
        raise BackupError(f"the copy of {path} does not pass SQLite's integrity_check: nothing was written")
    return "a SQLite file (SQLite's online backup API)"


def _pg_tool(name: str) -> str | None:
    """pg_dump or pg_restore: PAXH_PG_BIN's, the PATH's, or the newest Debian cluster's."""
    folder = settings.raw("PAXH_PG_BIN")
    if folder:
        return str(Path(folder) / name) if (Path(folder) / name).is_file() else None
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                      key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0)
    return str(versions[-1]) if versions else None


def _tool_major(tool: str) -> int | None:
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"(\d+)(?:\.\d+)?", out)
    return int(m.group(1)) if m else None


def _backup_pg_dump(url: str, tmp: Path) -> tuple[str | None, str]:
    """pg_dump's custom format: (what was written, ""), or (None, why not) when no pg_dump at
    least as new as the server is found (an older one cannot dump a newer server)."""
    tool = _pg_tool("pg_dump")
    if tool is None:
        return None, "no pg_dump found, so a logical export"
    engine = _engine(url)
    try:
        with engine.connect() as conn:
            server = int(conn.execute(sa.text("SHOW server_version_num")).scalar_one()) // 10000
    finally:
        engine.dispose()
    mine = _tool_major(tool)
    if mine is None or mine < server:
        return None, f"{tool} is version {mine}, older than the server's {server}, so a logical export"
    target, env = _libpq(url)
    r = subprocess.run([tool, "--format=custom", "--no-owner", "--no-privileges", "--file", str(tmp),
                        "--dbname", target], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise BackupError(f"pg_dump failed: {' '.join(r.stderr.split())[:500]}")
    return f"a pg_dump archive ({tool}, custom format; `paxh db restore` runs pg_restore)", ""


def _encode(v: Any) -> Any:
    if isinstance(v, dt.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(dt.UTC).replace(tzinfo=None)
        return {"$t": v.isoformat()}                       # UTC, as the servers write it
    if isinstance(v, dt.date):
        return {"$d": v.isoformat()}
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"$b": base64.b64encode(bytes(v)).decode()}
    if hasattr(v, "as_integer_ratio") and not isinstance(v, (int, float)):   # Decimal
        return float(v)
    return v


def _decode(v: Any, aware: bool) -> Any:
    if isinstance(v, dict):
        if "$t" in v:
            t = dt.datetime.fromisoformat(v["$t"])
            return t.replace(tzinfo=dt.UTC) if aware else t
        if "$d" in v:
            return dt.date.fromisoformat(v["$d"])
        if "$b" in v:
            return base64.b64decode(v["$b"])
    return v


def _backup_logical(url: str, tmp: Path) -> str:
    """Every table's rows, in one read transaction (REPEATABLE READ on PostgreSQL: one moment)."""
    engine = _engine(url)
    try:
        with engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                md = _reflect(conn)
                tables = [t for t in md.sorted_tables if t.name not in SKIP_TABLES]
                head = {"format": LOGICAL_FORMAT, "revision": _revision(conn), "source": conn.dialect.name,
                        "made": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                        "tables": [t.name for t in tables]}
                with gzip.open(tmp, "wt", encoding="utf-8") as f:
                    f.write(json.dumps(head) + "\n")
                    for t in tables:
                        cols = [c.name for c in t.columns]
                        f.write(json.dumps({"table": t.name, "columns": cols}) + "\n")
                        order = list(t.primary_key.columns) or list(t.columns)
                        result = conn.execution_options(stream_results=True, yield_per=CHUNK).execute(
                            sa.select(*t.columns).order_by(*order))
                        for row in result:
                            f.write(json.dumps([_encode(v) for v in row], ensure_ascii=False) + "\n")
    except sa.exc.DBAPIError as e:
        raise BackupError(f"reading {_shown(url)} failed: {_first_line(e)}") from None
    finally:
        engine.dispose()
    return "a logical export (every table's rows, gzip'd JSON lines, paxh-backup-1)"


# ---------------------------------------------------------------- restore

def kind_of(path: Path) -> str:
    """'sqlite', 'pg_dump' or 'logical' from a backup file's first bytes. Raises BackupError."""
    try:
        with open(path, "rb") as f:
            start = f.read(16)
    except OSError as e:
        raise BackupError(f"cannot read the backup {path}: {e.strerror or e}", 2) from None
    if start.startswith(SQLITE_MAGIC):
        return "sqlite"
    if start.startswith(PGDUMP_MAGIC):
        return "pg_dump"
    if start.startswith(GZIP_MAGIC):
        try:
            with gzip.open(path, "rt", encoding="utf-8") as f:
                head = json.loads(f.readline())
            if isinstance(head, dict) and head.get("format") == LOGICAL_FORMAT:
                return "logical"
        except (OSError, ValueError, EOFError):
            pass
    raise BackupError(f"{path} is not a backup paxh knows (a SQLite file, a pg_dump archive or a "
                      f"{LOGICAL_FORMAT} export)", 2)


def restore(url: str, src: Path, force: bool = False) -> str:
    """Put the backup `src` into the database at `url`. Refuses a database holding any row
    unless `force` (then everything in it is replaced). Returns a sentence. Raises BackupError."""
    src = Path(src)
    if not src.is_file():
        raise BackupError(f"no backup file at {src}", 2)
    kind = kind_of(src)
    target_pg = db.is_postgres(url)
    if kind == "pg_dump" and not target_pg:
        raise BackupError(f"{src} is a pg_dump archive: it restores only into PostgreSQL (for SQLite, "
                          f"make a logical backup: `paxh db backup --logical`)", 2)
    if kind == "sqlite":
        problem = sqlite_file_problem(src, quick=True)
        if problem is not None:
            raise BackupError(f"the backup {src} is a damaged SQLite file ({problem}): nothing was restored")
    u = make_url(db.sync_url(url))
    if not target_pg and u.database:
        Path(u.database).parent.mkdir(parents=True, exist_ok=True)
    there = contents(url)
    if any(there.values()) and not force:
        raise BackupError(f"the database at {_shown(url)} is not empty (it holds {describe(there)}): "
                          f"restoring would replace all of it. Restore into a new, empty database, or "
                          f"give --force to replace everything in it. Nothing was changed.")
    if kind == "sqlite" and not target_pg:
        how = _restore_sqlite_file(src, str(u.database))
    elif kind == "pg_dump":
        how = _restore_pg_dump(url, src)
    else:
        how = _restore_rows(url, src, kind)
    counts = contents(url)
    return (f"restored {describe(counts)} from {src} into {_shown(url)} ({how}); "
            f"`paxh db check --list` on both compares every game")


def _restore_sqlite_file(src: Path, target: str) -> str:
    """The backup API again, the other way: the target file becomes a page-for-page copy, in
    one step (the destination is written under one lock: all of it or nothing)."""
    source = sqlite3.connect(f"file:{quote(str(src.resolve()))}?mode=ro", uri=True, timeout=30)
    out = sqlite3.connect(target, timeout=30)
    try:
        source.backup(out)
        db.use_wal(out.cursor())
    finally:
        out.close()
        source.close()
    return "SQLite's backup API"


def _archive_tables(tool: str, src: Path) -> set[str]:
    r = subprocess.run([tool, "--list", str(src)], capture_output=True, text=True)
    if r.returncode != 0:
        raise BackupError(f"pg_restore cannot read {src}: {' '.join(r.stderr.split())[:300]}")
    return {m.group(1) for m in re.finditer(r"^\d+; \d+ \d+ TABLE \S+ (\S+) ", r.stdout, re.M)}


def _restore_pg_dump(url: str, src: Path) -> str:
    """pg_restore in one transaction, dropping the archive's tables first (--clean); a table of
    the target that the archive does not have (a newer schema) is dropped before."""
    tool = _pg_tool("pg_restore")
    if tool is None:
        raise BackupError(f"{src} is a pg_dump archive and no pg_restore was found (install "
                          f"postgresql-client, or set PAXH_PG_BIN)")
    archived = _archive_tables(tool, src)
    engine = _engine(url)
    try:
        with engine.begin() as conn:
            for name in set(sa.inspect(conn).get_table_names()) - archived:
                conn.execute(sa.text(f'DROP TABLE IF EXISTS "{name}" CASCADE'))
    finally:
        engine.dispose()
    target, env = _libpq(url)
    r = subprocess.run([tool, "--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction",
                        "--exit-on-error", "--dbname", target, str(src)], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise BackupError(f"pg_restore failed, nothing was restored: {' '.join(r.stderr.split())[:500]}")
    return f"pg_restore ({tool})"


def _migrate_to(url: str, revision: str, conn: sa.Connection | None = None) -> None:
    """Alembic up to the backup's revision (on `conn`, inside its transaction, when given)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    if conn is not None:
        cfg.attributes["connection"] = conn
    cfg.set_main_option("script_location", str(Path(db.__file__).parent.parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", db.sync_url(url).replace("%", "%%"))
    cfg.attributes["quiet"] = True
    try:
        command.upgrade(cfg, revision)
    except Exception as e:  # an unknown revision (a backup of a newer paxh), ...
        raise BackupError(f"cannot make the schema revision {revision} of the backup in {_shown(url)}: "
                          f"{' '.join(str(e).split())[:300]} (a backup made by a newer paxh?)") from None


def _rows_from_logical(src: Path) -> tuple[dict[str, Any], Iterator[tuple[str, list[str], list[list[Any]]]]]:
    f = gzip.open(src, "rt", encoding="utf-8")  # noqa: SIM115 -- the tables() generator below reads it, then closes it
    head = json.loads(f.readline())

    def tables() -> Iterator[tuple[str, list[str], list[list[Any]]]]:
        try:
            name: str | None = None
            cols: list[str] = []
            chunk: list[list[Any]] = []
            for line in f:
                item = json.loads(line)
                if isinstance(item, dict):
                    if name is not None:
                        yield name, cols, chunk
                    name, cols, chunk = item["table"], item["columns"], []
                else:
                    chunk.append(item)
                    if len(chunk) >= CHUNK:
                        yield name, cols, chunk  # type: ignore[misc]  # a row comes after its table's header
                        chunk = []
            if name is not None:
                yield name, cols, chunk
        finally:
            f.close()
    return head, tables()


def _rows_from_sqlite(src: Path) -> tuple[dict[str, Any], Iterator[tuple[str, list[str], list[list[Any]]]]]:
    engine = sa.create_engine(f"sqlite:///file:{quote(str(src.resolve()))}?mode=ro&uri=true",
                              poolclass=sa.pool.NullPool)
    conn = engine.connect()
    md = _reflect(conn)
    head = {"format": "sqlite", "revision": _revision(conn)}

    def tables() -> Iterator[tuple[str, list[str], list[list[Any]]]]:
        try:
            for t in md.sorted_tables:
                if t.name in SKIP_TABLES:
                    continue
                cols = [c.name for c in t.columns]
                yield t.name, cols, []
                result = conn.execution_options(yield_per=CHUNK).execute(sa.select(*t.columns))
                for part in result.partitions():
                    yield t.name, cols, [[_encode(v) for v in row] for row in part]
        finally:
            conn.close()
            engine.dispose()
    return head, tables()


def _insert(conn: sa.Connection, tables: Iterator[tuple[str, list[str], list[list[Any]]]],
            revision: str) -> int:
    aware = conn.dialect.name == "postgresql"
    md = _reflect(conn)
    rows = 0
    for name, cols, chunk in tables:
        if name not in md.tables:
            raise BackupError(f"the backup has a table {name!r} that schema revision {revision} "
                              f"does not: nothing was restored")
        t = md.tables[name]
        unknown = [c for c in cols if c not in t.columns]
        if unknown:
            raise BackupError(f"the backup's table {name} has columns {unknown} that schema "
                              f"revision {revision} does not: nothing was restored")
        if chunk:
            conn.execute(t.insert(), [{c: _decode(v, aware) for c, v in zip(cols, r)} for r in chunk])
            rows += len(chunk)
    if aware:     # serial ids (outbox, chat): the next one after the restored ones
        for t in md.sorted_tables:
            for c in t.primary_key.columns:
                seq = conn.execute(sa.text("SELECT pg_get_serial_sequence(:t, :c)"),
                                   {"t": f'"{t.name}"', "c": c.name}).scalar()
                if seq:
                    top = conn.execute(sa.select(sa.func.max(t.c[c.name]))).scalar()
                    conn.execute(sa.text("SELECT setval(:s, :v, :called)"),
                                 {"s": seq, "v": top if top is not None else 1, "called": top is not None})
    return rows


def _restore_rows(url: str, src: Path, kind: str) -> str:
    """A logical export (or a SQLite file, into PostgreSQL): the target is emptied, migrated to
    the backup's schema revision and every row inserted, all or nothing: on PostgreSQL in one
    transaction (its DDL is transactional), on SQLite into a new file beside the target that
    then replaces it. PostgreSQL's sequences are moved past the restored ids. A server started
    on the result migrates it on to its own revision."""
    try:
        head, tables = _rows_from_logical(src) if kind == "logical" else _rows_from_sqlite(src)
    except (OSError, ValueError, EOFError, sa.exc.DBAPIError) as e:
        raise BackupError(f"cannot read the backup {src}: {_first_line(e)}") from None
    revision = head.get("revision")
    if not revision:
        raise BackupError(f"the backup {src} names no schema revision: not a paxh database")
    target = None if db.is_postgres(url) else Path(make_url(db.sync_url(url)).database or "")
    work = url if target is None else f"sqlite:///{target.with_name(target.name + '.restoring')}"
    if target is not None:
        for x in ("", "-wal", "-shm", "-journal"):
            target.with_name(target.name + ".restoring" + x).unlink(missing_ok=True)
    engine = _engine(work)
    try:
        if target is None:
            with engine.begin() as conn:
                _reflect(conn).drop_all(conn)
                _migrate_to(url, revision, conn)
                rows = _insert(conn, tables, revision)
        else:
            _migrate_to(work, revision)
            with engine.begin() as conn:
                rows = _insert(conn, tables, revision)
    except (OSError, ValueError, EOFError) as e:
        raise BackupError(f"the backup {src} is cut short or damaged ({e}): nothing was restored") from None
    except sa.exc.DBAPIError as e:
        raise BackupError(f"restoring into {_shown(url)} failed, nothing was restored: {_first_line(e)}") from None
    finally:
        engine.dispose()
    if target is not None:
        for x in ("-wal", "-shm", "-journal"):
            target.with_name(target.name + x).unlink(missing_ok=True)
        os.replace(target.with_name(target.name + ".restoring"), target)
        conn2 = sqlite3.connect(target, timeout=30)
        try:
            db.use_wal(conn2.cursor())
        finally:
            conn2.close()
    what = "a logical export" if kind == "logical" else "a SQLite file"
    return f"{rows} rows of {what}, schema revision {revision}"
