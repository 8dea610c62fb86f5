"""The span tree of `triadic show`: labels and nesting of a stored run's spans."""

from __future__ import annotations

import io

from rich.console import Console

from app.cli.span_tree import build_tree, span_label
from engine.store import SpanRecord


def _span(span_id: str, parent: str | None, kind: str, name: str, start: float, **attrs: object) -> SpanRecord:
    return SpanRecord("run-1", span_id, parent, kind, name, name if kind == "node" else None, start, start + 0.002,
                      "done", 0, 0, 0.0, dict(attrs))


def test_a_re_execution_says_its_round_and_nests_its_calls() -> None:
    first = _span("n1", "r", "node", "writer", 0.1, round=0)
    again = _span("n2", "r", "node", "writer", 0.3, round=1)
    assert "round" not in span_label(first).plain
    assert span_label(again).plain.startswith("node writer  round 1  [done]")
    spans = [_span("r", None, "run", "Demo", 0.0), first, again, _span("l2", "n2", "llm", "sim/x", 0.3)]
    console = Console(file=io.StringIO(), width=120)
    console.print(build_tree("run-1", spans))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert [line.strip("│├└─ ").split("  ")[0] for line in lines[1:]] == [
        "run Demo", "node writer", "node writer", "llm sim/x"]
    assert "round 1" in lines[3] and "llm sim/x" in lines[4] and lines[4].index("llm") > lines[3].index("node")


def test_a_retried_call_says_how_often_and_why() -> None:
    call = _span("l1", "n1", "llm", "sim/x", 0.2, retries=2, last_retry_error="RateLimitedError: slow down")
    assert "2 retries (RateLimitedError: slow down)" in span_label(call).plain
    assert "retr" not in span_label(_span("l2", "n1", "llm", "sim/x", 0.3)).plain
