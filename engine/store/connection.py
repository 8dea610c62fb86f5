"""SQLAlchemy engines on one SQLite file, configured the way the trace store needs.

Invariants:
- a new database file is created readable by its owner only (0600; SQLite gives its -wal and -shm
  files the same mode): traces hold prompts and outputs;
- every connection runs with WAL, synchronous=NORMAL, foreign_keys=ON and a busy timeout;
- transactions are real SQLite transactions (pysqlite's implicit handling is turned off and BEGIN is
  emitted by us), so DDL in a migration and SAVEPOINTs are transactional;
- the write engine begins with BEGIN IMMEDIATE (takes the write lock up front: no read→write upgrade
  deadlock between the writer thread and `save_workflow`); the read engine begins deferred.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event

BUSY_TIMEOUT_MS = 10_000


def create_private(path: Path) -> None:
    """Create `path` empty with mode 0600 when it does not exist yet (an existing file is left as is)."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return
    except OSError as exc:
        from engine.store.records import StoreOpenError

        raise StoreOpenError(f"{path}: cannot create the trace database ({exc.strerror or exc}); "
                             "choose a writable place with --db or TRIADIC_DB") from exc
    os.close(fd)


def make_engine(path: Path, *, immediate: bool) -> Engine:
    engine = create_engine(
        f"sqlite:///{path}", connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine
