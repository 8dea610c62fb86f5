"""SQL check: the subject is one SQL query, run against a read-only SQLite database.

Expression mini-syntax (parts separated by ";" or newlines, `expect=` last because it takes the
rest of the text):  `db=shop.sqlite; max_rows=200; expect=len(rows) > 0 and columns[0] == "name"`
- `db`: an absolute path, a path relative to the check's workdir, or a file bundled in
  resources/examples/data (required);
- `max_rows`: row cap (default 1000; more rows are cut off and said so);
- `expect`: optional Python expression over `rows` (list of lists), `columns`, `row_count` and
  `subject` (the query), evaluated in the sandbox like a "python" check. Without it, a query that
  runs approves.

Read-only three times over: the file is opened with a `mode=ro` URI, `PRAGMA query_only` is on,
and an authorizer refuses everything but reading (no INSERT/UPDATE/DROP/ATTACH/PRAGMA). The query runs
in a killable child process (`engine.checks.bounded`) with a memory cap (`SQL_MEMORY`) and the check's
timeout; inside it a progress handler aborts queries past the timeout and SQLite refuses strings or
blobs over `MAX_VALUE_BYTES` ("string or blob too big"). SQLite errors ask for a revision quoting SQLite's message
(and, for unknown tables/columns, the schema) so an author model can heal its query.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from importlib import resources
from pathlib import Path
from typing import Any

from engine.checks.bounded import call_bounded
from engine.checks.expression import evaluate, problem_verdict, verdict_from_value
from engine.checks.sandbox import SandboxLimits
from engine.checks.verdict import Verdict, approve, broken, revise

DEFAULT_MAX_ROWS = 1000
SQL_MEMORY = 512 << 20
MAX_VALUE_BYTES = 16 << 20
_READ_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
                 getattr(sqlite3, "SQLITE_RECURSIVE", 33)}


class SqlSpecError(ValueError):
    """The check's expression (not the subject) is malformed."""


def parse_sql_spec(expression: str) -> dict[str, str]:
    head, sep, expect = expression.partition("expect=")
    spec = {"expect": expect.strip()} if sep else {}
    for part in head.replace("\n", ";").split(";"):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        if not eq or key.strip() not in ("db", "max_rows"):
            raise SqlSpecError(f"unknown part {part.strip()!r} (expected db=..., max_rows=..., expect=...)")
        spec[key.strip()] = value.strip()
    if not spec.get("db"):
        raise SqlSpecError("missing db=<path to a SQLite file>")
    return spec


def resolve_db(db: str, workdir: str | None) -> Path:
    for candidate in (Path(db), Path(workdir or ".") / db,
                      Path(str(resources.files("resources.examples.data"))) / db):
        if candidate.is_file():
            return candidate.resolve()
    raise SqlSpecError(f"database file {db!r} not found (absolute, in the workdir or bundled)")


def _authorize(action: int, *_: object) -> int:
    return sqlite3.SQLITE_OK if action in _READ_ACTIONS else sqlite3.SQLITE_DENY


def schema_summary(path: Path) -> str:
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return "; ".join(f"{t}({', '.join(r[1] for r in conn.execute(f'PRAGMA table_info({t!r})'))})"
                         for t in tables)
    finally:
        conn.close()


def run_query(path: Path, query: str, *, max_rows: int, timeout_s: float
              ) -> tuple[list[str], list[list[Any]], bool]:
    """Columns, rows (at most max_rows) and whether rows were cut off. Raises sqlite3.Error."""
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=min(timeout_s, 5.0))
    try:
        conn.execute("PRAGMA query_only = ON")
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
        conn.set_authorizer(_authorize)
        deadline = time.monotonic() + timeout_s
        conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 1000)
        cursor = conn.execute(query)
        columns = [d[0] for d in cursor.description or ()]
        fetched = cursor.fetchmany(max_rows + 1)
        rows = [[v.hex() if isinstance(v, bytes) else v for v in row] for row in fetched[:max_rows]]
        return columns, rows, len(fetched) > max_rows
    finally:
        conn.close()


def query_record(path: str, query: str, max_rows: int, timeout_s: float) -> dict[str, Any]:
    """`run_query` as a JSON-able record, SQLite's error included (what the bounded child returns)."""
    try:
        columns, rows, cut = run_query(Path(path), query, max_rows=max_rows, timeout_s=timeout_s)
    except sqlite3.Error as exc:
        return {"sqlite_error": str(exc)}
    return {"columns": columns, "rows": rows, "cut": cut}


def strip_fences(query: str) -> str:
    text = query.strip()
    if text.startswith("```"):
        text = text.split("\n", 1)[1] if "\n" in text else ""
        text = text.rsplit("```", 1)[0]
    return text.strip()


async def check_sql(expression: str, subject: Any, *, timeout_s: float, workdir: str | None = None,
                    limits: SandboxLimits | None = None) -> Verdict:
    try:
        spec = parse_sql_spec(expression)
        path = resolve_db(spec["db"], workdir)
        max_rows = int(spec.get("max_rows", DEFAULT_MAX_ROWS))
    except (SqlSpecError, ValueError) as exc:
        return broken(f"bad sql check: {exc}")
    query = strip_fences(str(subject))
    if not query:
        return revise("the query is empty")
    status, record = await call_bounded("engine.checks.sql_check:query_record",
                                        {"path": str(path), "query": query, "max_rows": max_rows,
                                         "timeout_s": timeout_s}, timeout_s=timeout_s + 1.0, memory_bytes=SQL_MEMORY)
    if status == "timeout":
        return revise(f"the query did not finish within {timeout_s:g} s")
    if status != "ok":
        return revise(f"the query could not run: {record} (over the {SQL_MEMORY >> 20} MiB memory cap?)")
    if "sqlite_error" in record:
        message = str(record["sqlite_error"])
        if message == "interrupted":
            return revise(f"the query did not finish within {timeout_s:g} s")
        if message.startswith("not authorized"):
            return revise("only read-only queries are allowed (SELECT / WITH); "
                          f"SQLite refused this one: {message}")
        reasons = [f"SQLite error: {message}"]
        if "no such" in message:
            reasons.append(f"schema: {await asyncio.to_thread(schema_summary, path)}")
        return revise(*reasons)
    columns, rows, cut = record["columns"], record["rows"], record["cut"]
    note = f" (cut off at {max_rows})" if cut else ""
    if not spec.get("expect"):
        return approve(f"the query ran and returned {len(rows)} rows{note}")
    names = {"rows": rows, "columns": columns, "row_count": len(rows), "subject": query}
    status, value = await evaluate(spec["expect"], names, timeout_s=timeout_s, limits=limits)
    if status != "ok":
        return problem_verdict(status, value)
    verdict = verdict_from_value(value, spec["expect"])
    return Verdict(verdict.decision, verdict.score,
                   [*verdict.reasons, f"the query returned {len(rows)} rows{note}"], verdict.claims)
