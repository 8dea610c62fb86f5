"""Bundled example data: the shop DB is deterministic and realistic, the Hanoi checker is right."""

from __future__ import annotations

import importlib
import sqlite3
import subprocess
import sys
from importlib import resources
from pathlib import Path

DATA = Path(str(resources.files("resources.examples.data")))


def test_shop_db_is_rebuilt_byte_identical(tmp_path: Path) -> None:
    for name in ("a", "b"):
        subprocess.run([sys.executable, str(DATA / "make_shop_db.py"), str(tmp_path / f"{name}.sqlite")],
                       check=True, capture_output=True)
    built = (tmp_path / "a.sqlite").read_bytes()
    assert built == (tmp_path / "b.sqlite").read_bytes() == (DATA / "shop.sqlite").read_bytes()
    assert (tmp_path / "shop_schema.txt").read_text() == (DATA / "shop_schema.txt").read_text()


def test_shop_db_has_a_few_hundred_consistent_rows() -> None:
    conn = sqlite3.connect(f"{(DATA / 'shop.sqlite').as_uri()}?mode=ro", uri=True)
    counts = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
              for t in ("customers", "products", "orders", "order_items")}
    assert 200 <= sum(counts.values()) <= 2000 and all(counts.values())
    orphans = conn.execute("SELECT COUNT(*) FROM order_items oi LEFT JOIN orders o ON o.id = oi.order_id "
                           "WHERE o.id IS NULL").fetchone()[0]
    assert orphans == 0
    schema_text = (DATA / "shop_schema.txt").read_text()
    assert all(t in schema_text for t in counts)


def test_hanoi_verdicts() -> None:
    hanoi = importlib.import_module("resources.examples.data.hanoi")
    optimal = [(0, 2), (0, 1), (2, 1), (0, 2), (1, 0), (1, 2), (0, 2)]
    assert hanoi.verdict("\n".join(f"{a + 1}->{b + 1}" for a, b in optimal), 3)["decision"] == "approve"
    assert hanoi.verdict([[a + 1, b + 1] for a, b in optimal], 3)["score"] == 1.0
    assert hanoi.verdict("move disk 1 from A to C", 1)["decision"] == "approve"
    empty = hanoi.verdict("2 3", 3)
    assert empty["decision"] == "revise" and "peg 2 is empty" in empty["reasons"][0]
    unreadable = hanoi.verdict("jump", 3)
    assert unreadable["decision"] == "revise" and "line 1" in unreadable["reasons"][0]
