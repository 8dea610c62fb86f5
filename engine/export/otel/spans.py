"""A run as OpenTelemetry spans: `run_spans(projection, started_at=...)` → SDK `ReadableSpan`s.

One trace per run: the run is the root `invoke_workflow` span; each node execution an `invoke_agent`
span under it; each model call a `chat` span and each tool call an `execute_tool` span under the node
execution that made it (the projection's `SpanTable` gives the tree). A verdict is a
`gen_ai.evaluation.result` event on the execution of the node it judged.

Invariants: times are the recording's (`started_at` + each event's run time), never the export's;
trace and span ids are derived from the run and span ids (`ids.py`), so exporting twice yields the
same spans; a span that never ended ends with the run, status error "interrupted"; every string the
export carries (names, attribute values, event attributes) went through the `Scrubber`.
"""

from __future__ import annotations

from typing import Any

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import SpanContext, SpanKind, Status, StatusCode, TraceFlags

from engine.export.otel import attributes as at
from engine.export.otel import semconv as sc
from engine.export.otel.ids import span_id, trace_id
from engine.export.otel.secrets import Scrubber
from engine.projection import RunProjection, SpanRow

_SCOPE = InstrumentationScope("triadic", schema_url="https://opentelemetry.io/schemas/1.37.0")
_RESOURCE = Resource({"service.name": "triadic"})
_OK_RUN = {"succeeded", "running", "pending"}
_FAILED_NODE = {"failed", "interrupted"}
_NAMES = {"run": "invoke_workflow", "node": "invoke_agent", "llm": "chat", "tool": "execute_tool"}


def run_spans(p: RunProjection, *, started_at: float, include_content: bool = False,
              scrubber: Scrubber | None = None) -> list[ReadableSpan]:
    """The spans of the run `p` (a projection of all its events) that started at epoch `started_at`."""
    return _RunSpans(p, started_at, include_content, scrubber or Scrubber(())).build()


class _RunSpans:
    def __init__(self, p: RunProjection, started_at: float, include_content: bool, scrubber: Scrubber) -> None:
        self.p, self.started_at, self.content, self.scrub = p, started_at, include_content, scrubber
        self.trace = trace_id(p.run_id)
        table = p.span_table
        self.root = next((s for s in table.roots if table.spans[s].kind == "run"), None)
        self.run_end = max([p.elapsed_s, *(s.end_ts or 0.0 for s in table.spans.values())])
        self.evaluations = self._evaluations()

    def build(self) -> list[ReadableSpan]:
        return [self._span(row) for row in self.p.span_table.spans.values() if row.start_ts is not None]

    def _ns(self, ts: float) -> int:
        return round((self.started_at + ts) * 1e9)

    def _context(self, span: str) -> SpanContext:
        return SpanContext(self.trace, span_id(self.p.run_id, span), is_remote=False,
                           trace_flags=TraceFlags(TraceFlags.SAMPLED))

    def _span(self, row: SpanRow) -> ReadableSpan:
        parent = row.parent_id if row.parent_id in self.p.span_table.spans else None
        if parent is None and row.kind != "run" and self.root is not None:
            parent = self.root
        ended = row.end_ts is not None
        status = self._status(row, ended)
        label = self.p.nodes[row.node_id].title if row.kind == "node" and row.node_id in self.p.nodes else row.name
        events = [Event(sc.EVALUATION_EVENT, self._scrubbed(attrs), self._ns(ts))
                  for ts, attrs in self.evaluations.get(row.span_id, [])]
        return ReadableSpan(
            name=self.scrub.text(f"{_NAMES.get(row.kind, row.kind)} {label}".strip()),
            context=self._context(row.span_id),
            parent=self._context(parent) if parent is not None else None,
            resource=_RESOURCE, attributes=self._scrubbed(self._attributes(row)), events=events,
            kind=SpanKind.CLIENT if row.kind == "llm" else SpanKind.INTERNAL, status=status,
            start_time=self._ns(row.start_ts or 0.0), end_time=self._ns(row.end_ts if row.end_ts is not None else self.run_end),
            instrumentation_scope=_SCOPE,
        )

    def _attributes(self, row: SpanRow) -> dict[str, Any]:
        call = self.p.calls.get(row.span_id)
        if row.kind == "run":
            return at.run_attributes(self.p, row)
        if row.kind == "node":
            return at.node_attributes(self.p, row, self.p.span_table.rolled_up(row))
        if row.kind == "llm":
            return at.chat_attributes(row, call, self.content)
        return at.tool_attributes(row, call, self.content)

    def _status(self, row: SpanRow, ended: bool) -> Status:
        if not ended or row.status == "interrupted":
            return Status(StatusCode.ERROR, "interrupted: the span never ended")
        if row.kind == "run":
            failed = row.status not in _OK_RUN
            return Status(StatusCode.ERROR, self.scrub.text(self.p.reason or row.status)) if failed else Status()
        if row.kind == "node" and row.status in _FAILED_NODE:
            node = self.p.nodes.get(row.node_id or "")
            return Status(StatusCode.ERROR, self.scrub.text(node.error if node is not None else row.status))
        if row.kind in ("llm", "tool") and row.status == "error":
            call = self.p.calls.get(row.span_id)
            return Status(StatusCode.ERROR, self.scrub.text(call.error or "error" if call else "error"))
        return Status()

    def _evaluations(self) -> dict[str, list[tuple[float, dict[str, Any]]]]:
        """Each verdict as (time, attributes), keyed by the span it judged: the subject node's execution
        that started last before the verdict, else the judge's own execution, else the run."""
        found: dict[str, list[tuple[float, dict[str, Any]]]] = {}
        spans = self.p.span_table.spans
        for verdict in self.p.verdicts:
            subject = self.p.nodes.get(verdict.subject_node_id)
            candidates = [s for s in (subject.span_ids if subject else []) if s in spans
                          and (spans[s].start_ts or 0.0) <= verdict.ts]
            target = candidates[-1] if candidates else verdict.span_id if verdict.span_id in spans else self.root
            if target is not None:
                attrs = at.evaluation_attributes(self.p, verdict, self.content)
                found.setdefault(target, []).append((verdict.ts, attrs))
        return found

    def _scrubbed(self, attrs: dict[str, Any]) -> dict[str, Any]:
        text = self.scrub.text
        return {k: text(v) if isinstance(v, str) else [text(x) for x in v] if isinstance(v, list) else v
                for k, v in attrs.items()}
