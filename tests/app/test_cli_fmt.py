"""Formatting helpers of the CLI."""

from __future__ import annotations

import datetime as dt

from app.cli import fmt


def test_duration_tokens_cost() -> None:
    assert [fmt.duration(x) for x in (None, 0.0123, 2.5, 125)] == ["-", "12 ms", "2.50 s", "2m05s"]
    assert fmt.tokens(1234, 56) == "1,234/56"
    assert [fmt.cost(x) for x in (0, 1e-9, 0.0000123, 0.05, 12.5)] == [
        "$0", "<$0.000001", "$0.000012", "$0.0500", "$12.50"]


def test_when_accepts_datetimes_epochs_and_iso_text() -> None:
    moment = dt.datetime(2026, 1, 2, 3, 4, 5)
    assert fmt.when(moment) == "2026-01-02 03:04:05"
    assert fmt.when(moment.isoformat()) == "2026-01-02 03:04:05"
    assert fmt.when(moment.timestamp()) == "2026-01-02 03:04:05"
    assert fmt.when(None) == "-" and fmt.when("not a time") == "not a time"


def test_text_and_one_line() -> None:
    assert fmt.text("plain") == "plain"
    assert fmt.text({"a": [1, 2]}) == '{\n  "a": [\n    1,\n    2\n  ]\n}'
    assert fmt.one_line("a\n  b   c") == "a b c"
    assert fmt.one_line("x" * 300, 10) == "x" * 9 + "…"
