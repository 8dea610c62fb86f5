"""The span tree of a stored run (run → node executions → LLM / tool calls) as a rich `Tree`.

Invariants: spans whose parent is unknown hang under the root, so nothing stored is left out —
except placeholder spans that never started, have no children and belong to a node that has a
started span (the queued state of a node that then ran); a node that never ran keeps its span.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from rich.tree import Tree

from app.cli import fmt

if TYPE_CHECKING:
    from engine.store import SpanRecord


def span_label(span: SpanRecord) -> Text:
    start, end = span.start_ts, span.end_ts
    if start is None:
        timing = ["not started"]
    else:
        timing = [f"at {start:.3f}s", fmt.duration(end - start) if end is not None else "unfinished"]
    parts = [f"{span.kind} {span.name}", f"[{span.status}]", *timing]
    if span.attrs.get("round"):  # a re-execution after a judge's feedback
        parts.insert(1, f"round {span.attrs['round']}")
    retries = span.attrs.get("retries")
    if retries:
        parts.append(f"{retries} retr{'y' if retries == 1 else 'ies'} ({span.attrs.get('last_retry_error', '')})")
    if span.tokens_in or span.tokens_out:
        parts.append(f"tokens {fmt.tokens(span.tokens_in, span.tokens_out)}")
    if span.cost_usd:
        parts.append(fmt.cost(span.cost_usd))
    return Text("  ".join(parts))


def visible_spans(spans: Sequence[SpanRecord]) -> list[SpanRecord]:
    parents = {span.parent_id for span in spans}
    ran = {span.node_id for span in spans if span.start_ts is not None and span.node_id}
    return [span for span in spans
            if not (span.start_ts is None and span.span_id not in parents and span.node_id in ran)]


def build_tree(title: str, spans: Sequence[SpanRecord]) -> Tree:
    shown = visible_spans(spans)
    root = Tree(Text(title))
    known = {span.span_id for span in shown}
    children: dict[str | None, list[SpanRecord]] = defaultdict(list)
    for span in shown:
        parent = span.parent_id if span.parent_id in known else None
        children[parent].append(span)
    for group in children.values():
        group.sort(key=lambda s: (s.start_ts if s.start_ts is not None else float("inf")))

    def attach(branch: Tree, parent: str | None) -> None:
        for span in children.get(parent, []):
            attach(branch.add(span_label(span)), span.span_id)

    attach(root, None)
    return root
