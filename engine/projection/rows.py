"""The rows a `RunProjection` keeps: one per node, per span, per model / tool call, per human question.

Rows are plain mutable objects owned by the projection: they change only inside
`RunProjection.apply*`, in seq order, and a view reads them (never writes them). Each row names the
seq of the last event that changed it (`seq`), so a view can tell what is new since it last looked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TERMINAL_NODE_STATES = frozenset({"done", "failed", "skipped", "cancelled"})


@dataclass(slots=True)
class NodeRow:
    """One node of the run (a sub-graph's nodes are keyed "subgraph/inner"), over all its executions."""

    node_id: str
    title: str
    role: str
    state: str = "-"  # "-": not announced yet; then queued / running / waiting / done / failed / …
    attempt: int = 1
    round: int = 0
    detail: str = ""
    error: str = ""  # the last failure said of the node (a failed state's detail, a fatal error)
    executions: int = 0
    llm_calls: int = 0
    tool_calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    unpriced_calls: int = 0  # calls whose price the gateway did not know (their cost is not $0: unknown)
    started_ts: float | None = None
    ended_ts: float | None = None
    span_ids: list[str] = field(default_factory=list)  # its executions' spans, in order
    seq: int = 0

    @property
    def duration_s(self) -> float | None:
        if self.started_ts is None or self.ended_ts is None:
            return None
        return self.ended_ts - self.started_ts

    @property
    def tokens(self) -> int:
        return self.tokens_in + self.tokens_out


@dataclass(slots=True)
class SpanRow:
    """A span: the run, a node execution, or an LLM / tool call under it."""

    span_id: str
    kind: str  # "run" | "node" | "llm" | "tool"
    parent_id: str | None
    node_id: str | None
    name: str = ""
    status: str = ""
    start_ts: float | None = None
    end_ts: float | None = None
    tokens_in: int = 0  # its own usage (a node's calls are summed by `SpanTable.rolled_up`)
    tokens_out: int = 0
    cost_usd: float = 0.0
    attrs: dict[str, Any] = field(default_factory=dict)
    children: list[str] = field(default_factory=list)
    seq: int = 0


@dataclass(slots=True)
class CallRow:
    """One model or tool call, with the text streamed so far (deltas are kept as chunks, joined on read)."""

    span_id: str
    kind: str  # "llm" | "tool"
    node_id: str
    name: str  # the model or the tool
    started_seq: int
    started_ts: float
    request: Any = None  # the LLM request record, or the tool's arguments
    chunks: list[str] = field(default_factory=list)
    restarts: int = 0
    retries: list[dict[str, Any]] = field(default_factory=list)  # {"attempt", "error_type", "error", "delay_s"}
    finished: bool = False
    ended_ts: float | None = None
    content: str = ""  # the final reply (LLM) once finished
    result: Any = None  # the tool's result
    response: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    error_type: str | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    seq: int = 0

    @property
    def text(self) -> str:
        """What the call has said so far: its reply when finished, else the streamed deltas."""
        if self.finished and self.kind == "llm" and (self.content or not self.chunks):
            return self.content
        if len(self.chunks) > 1:
            self.chunks[:] = ["".join(self.chunks)]
        return self.chunks[0] if self.chunks else ""

    @property
    def priced(self) -> bool:
        """False when the gateway did not know the model's price: its cost is unknown, not zero."""
        return is_priced(self.cost_usd, self.tokens_in, self.tokens_out, self.response)


def is_priced(cost_usd: float, tokens_in: int, tokens_out: int, response: dict[str, Any]) -> bool:
    """Whether a finished call's cost is known: it cost something, used no tokens, or the gateway priced it
    (`response["priced"]`). An unpriced call costs "unknown", never $0."""
    return cost_usd > 0 or not (tokens_in or tokens_out) or bool(response.get("priced", True))


@dataclass(slots=True)
class HumanQuestion:
    """A human gate's question and, once given, its answer."""

    node_id: str
    seq: int
    ts: float
    prompt: str
    artifact: Any = None
    decision: str | None = None  # approve | reject | edit, once answered
    edited: Any = None
    by: str = ""
    reason: str = ""
    decided_seq: int | None = None

    @property
    def open(self) -> bool:
        return self.decision is None
