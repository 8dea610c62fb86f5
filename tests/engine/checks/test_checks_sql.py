"""The SQL check: really read-only, self-healing error messages, row cap, timeout, expectations."""

from __future__ import annotations

import hashlib
import sqlite3
from importlib import resources
from pathlib import Path

import pytest

from engine.checks import run_check
from engine.checks.sql_check import parse_sql_spec

SHOP = Path(str(resources.files("resources.examples.data"))) / "shop.sqlite"


def _digest() -> str:
    return hashlib.sha256(SHOP.read_bytes()).hexdigest()


@pytest.mark.asyncio
async def test_select_approves_and_expect_judges_rows() -> None:
    ran = await run_check("sql", "db=shop.sqlite", "SELECT name FROM customers LIMIT 5", timeout_s=5)
    assert ran.decision == "approve" and "5 rows" in ran.reasons[0]
    expect = ("db=shop.sqlite; expect=row_count == 5 and columns == ['category', 'n'] "
              "and sum(r[1] for r in rows) == 25")
    query = "```sql\nSELECT category, COUNT(*) AS n FROM products GROUP BY category ORDER BY category;\n```"
    good = await run_check("sql", expect, query, timeout_s=5)
    assert good.decision == "approve", good.reasons
    wrong = await run_check("sql", "db=shop.sqlite; expect=row_count == 3", "SELECT 1", timeout_s=5)
    assert wrong.decision == "revise" and "1 rows" in wrong.reasons[-1]


@pytest.mark.asyncio
@pytest.mark.parametrize("query", [
    "INSERT INTO customers (name, email, city, country, signup_date) VALUES ('x','x','x','x','x')",
    "DROP TABLE orders",
    "UPDATE products SET price_cents = 0",
    "DELETE FROM order_items",
    "PRAGMA query_only = OFF",
    "ATTACH DATABASE '/tmp/evil.sqlite' AS evil",
    "CREATE TABLE t (x)",
])
async def test_writes_are_refused_and_the_file_is_unchanged(query: str) -> None:
    before = _digest()
    verdict = await run_check("sql", "db=shop.sqlite", query, timeout_s=5)
    assert verdict.decision == "revise"
    assert "read-only" in verdict.reasons[0] or "SQLite error" in verdict.reasons[0]
    assert _digest() == before


@pytest.mark.asyncio
async def test_sqlite_errors_help_the_author_heal() -> None:
    column = await run_check("sql", "db=shop.sqlite", "SELECT price FROM products", timeout_s=5)
    assert column.decision == "revise" and "no such column: price" in column.reasons[0]
    assert "products(id, name, category, price_cents, stock)" in column.reasons[1]
    syntax = await run_check("sql", "db=shop.sqlite", "SELEC * FROM orders", timeout_s=5)
    assert syntax.decision == "revise" and "syntax error" in syntax.reasons[0]
    two = await run_check("sql", "db=shop.sqlite", "SELECT 1; SELECT 2", timeout_s=5)
    assert two.decision == "revise"


@pytest.mark.asyncio
async def test_row_cap_and_timeout() -> None:
    capped = await run_check("sql", "db=shop.sqlite; max_rows=10; expect=row_count == 10",
                             "SELECT * FROM order_items", timeout_s=5)
    assert capped.decision == "approve" and "cut off at 10" in capped.reasons[-1]
    endless = ("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
               "SELECT count(*) FROM n")
    slow = await run_check("sql", "db=shop.sqlite", endless, timeout_s=0.5)
    assert slow.decision == "revise" and "did not finish within 0.5 s" in slow.reasons[0]


@pytest.mark.asyncio
async def test_bad_specs_reject(tmp_path: Path) -> None:
    assert (await run_check("sql", "expect=True", "SELECT 1", timeout_s=5)).decision == "reject"
    missing = await run_check("sql", "db=nope.sqlite", "SELECT 1", timeout_s=5)
    assert missing.decision == "reject" and "not found" in missing.reasons[0]
    assert (await run_check("sql", "db=shop.sqlite; rows=3", "SELECT 1", timeout_s=5)).decision == "reject"
    db = tmp_path / "local.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.execute("INSERT INTO t VALUES (42)")
    local = await run_check("sql", "db=local.sqlite; expect=rows == [[42]]", "SELECT x FROM t",
                            timeout_s=5, workdir=str(tmp_path))
    assert local.decision == "approve"


def test_spec_parsing_keeps_semicolons_in_expect() -> None:
    spec = parse_sql_spec("db=a.sqlite\nmax_rows=5; expect=rows[0][0] == 'a;b'")
    assert spec == {"db": "a.sqlite", "max_rows": "5", "expect": "rows[0][0] == 'a;b'"}
