"""`RunBoard`: the CLI's picture of one run, folded from the run's event stream.

Holds per-node state, attempts, rounds, LLM and tool calls, tokens, cost and timing, the verdicts, the
run totals and the text of the LLM call being streamed. Invariant: it changes only in `apply(event)`, in
stream order, and knows nothing about how it is displayed (progress and summary renderers read it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import events as ev

if TYPE_CHECKING:
    from engine.graph.model import Workflow
    from engine.runtime import RunPlan

_TERMINAL = {"done", "failed", "skipped", "cancelled"}


@dataclass(slots=True)
class NodeRow:
    node_id: str
    title: str
    role: str
    state: str = "-"
    attempt: int = 1
    round: int = 0
    detail: str = ""
    executions: int = 0
    llm_calls: int = 0
    tool_calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    started_ts: float | None = None
    ended_ts: float | None = None

    @property
    def duration_s(self) -> float | None:
        if self.started_ts is None or self.ended_ts is None:
            return None
        return self.ended_ts - self.started_ts


@dataclass(slots=True)
class RunBoard:
    rows: dict[str, NodeRow] = field(default_factory=dict)
    run_id: str = ""
    workflow_name: str = ""
    status: str = "pending"
    reason: str = ""
    outputs: dict[str, Any] = field(default_factory=dict)
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    elapsed_s: float = 0.0
    duration_s: float = 0.0
    verdicts: list[ev.VerdictIssued] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # error events and budget stops, as text
    open_calls: dict[str, str] = field(default_factory=dict)  # llm span id -> node id
    tool_arguments: dict[str, dict[str, Any]] = field(default_factory=dict)  # open tool span id -> arguments
    last_tool_arguments: dict[str, Any] = field(default_factory=dict)  # of the tool call that ended last
    stream_span: str | None = None
    stream_text: str = ""

    @classmethod
    def for_workflow(cls, workflow: Workflow, plan: RunPlan | None = None) -> RunBoard:
        """A board with a row per node; with the run's `plan`, the nodes of its sub-graphs too (right
        after their sub-graph node, titled "Sub-graph › Node", keyed as their events name them)."""
        board = cls(workflow_name=workflow.name)
        for node in workflow.nodes.values():
            board.rows[node.id] = NodeRow(node.id, node.title or node.id, node.role)
            if plan is not None and node.id in plan.subplans:
                board._add_subgraph(plan.subplans[node.id], f"{node.id}/", node.title or node.id)
        return board

    def _add_subgraph(self, plan: RunPlan, prefix: str, title: str) -> None:
        for nid in plan.order:
            node = plan.nodes[nid]
            key, name = prefix + nid, f"{title} › {node.title or nid}"
            self.rows[key] = NodeRow(key, name, node.role)
            if nid in plan.subplans:
                self._add_subgraph(plan.subplans[nid], f"{key}/", name)

    def row(self, node_id: str) -> NodeRow:
        if node_id not in self.rows:
            self.rows[node_id] = NodeRow(node_id, node_id, "?")
        return self.rows[node_id]

    def apply(self, event: ev.Event) -> None:
        self.elapsed_s = max(self.elapsed_s, event.ts)
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    # -- handlers ----------------------------------------------------------------------------
    def _started(self, e: ev.RunStarted) -> None:
        self.run_id, self.workflow_name, self.status = e.run_id, e.workflow_name or self.workflow_name, "running"

    def _finished(self, e: ev.RunFinished) -> None:
        self.status, self.reason, self.outputs = e.status, e.reason, dict(e.outputs)
        self.tokens_in, self.tokens_out, self.cost_usd = e.tokens_in, e.tokens_out, e.cost_usd
        self.duration_s = e.duration_s

    def _node_state(self, e: ev.NodeStateChanged) -> None:
        row = self.row(e.node_id)
        resumed = row.state in ("running", "waiting")  # back from a human question, not a new execution
        row.state, row.attempt, row.round, row.detail = e.state, e.attempt, e.round, e.detail
        if e.state == "running" and not resumed:
            row.executions += 1
            if row.started_ts is None:
                row.started_ts = e.ts
        if e.state in _TERMINAL:
            row.ended_ts = e.ts

    def _llm_started(self, e: ev.LLMCallStarted) -> None:
        if e.span_id:
            self.open_calls[e.span_id] = e.node_id
            if self.stream_span is None:
                self.stream_span, self.stream_text = e.span_id, ""

    def _llm_delta(self, e: ev.LLMTokenDelta) -> None:
        if e.span_id is not None and e.span_id == self.stream_span:
            self.stream_text += e.text

    def _llm_restart(self, e: ev.LLMStreamRestarted) -> None:
        if e.span_id is not None and e.span_id == self.stream_span:
            self.stream_text = ""  # the broken attempt's text is void

    def _llm_finished(self, e: ev.LLMCallFinished) -> None:
        row = self.row(e.node_id)
        row.llm_calls += 1
        for usage in (row, *self._enclosing(e.node_id)):  # a sub-graph node's row sums its nodes' usage
            usage.tokens_in += e.tokens_in
            usage.tokens_out += e.tokens_out
            usage.cost_usd += e.cost_usd
        self.tokens_in += e.tokens_in
        self.tokens_out += e.tokens_out
        self.cost_usd += e.cost_usd
        if e.span_id:
            self.open_calls.pop(e.span_id, None)
            if e.span_id == self.stream_span:
                self.stream_span = next(iter(self.open_calls), None)
                self.stream_text = ""

    def _enclosing(self, node_id: str) -> list[NodeRow]:
        """The rows of the sub-graph nodes `node_id` runs inside ("a/b/c" → the rows of "a" and "a/b")."""
        parts = node_id.split("/")
        keys = ("/".join(parts[:i]) for i in range(1, len(parts)))
        return [self.rows[key] for key in keys if key in self.rows]

    def _tool_started(self, e: ev.ToolCallStarted) -> None:
        if e.span_id:
            self.tool_arguments[e.span_id] = e.arguments

    def _tool_finished(self, e: ev.ToolCallFinished) -> None:
        self.row(e.node_id).tool_calls += 1
        self.last_tool_arguments = self.tool_arguments.pop(e.span_id or "", {})

    def _verdict(self, e: ev.VerdictIssued) -> None:
        self.verdicts.append(e)

    def _budget(self, e: ev.BudgetExceeded) -> None:
        where = f" at {e.node_id}" if e.node_id else ""
        self.problems.append(f"budget {e.budget} exceeded{where}: {e.actual:g} > limit {e.limit:g}")

    def _error(self, e: ev.ErrorRaised) -> None:
        if not e.recoverable:
            where = f"{e.node_id}: " if e.node_id else ""
            self.problems.append(f"{where}{e.error_type}: {e.message}")

    def stream_node(self) -> str | None:
        return self.open_calls.get(self.stream_span) if self.stream_span else None


_HANDLERS: dict[type[ev.Event], Any] = {
    ev.RunStarted: RunBoard._started,
    ev.RunFinished: RunBoard._finished,
    ev.NodeStateChanged: RunBoard._node_state,
    ev.LLMCallStarted: RunBoard._llm_started,
    ev.LLMTokenDelta: RunBoard._llm_delta,
    ev.LLMStreamRestarted: RunBoard._llm_restart,
    ev.LLMCallFinished: RunBoard._llm_finished,
    ev.ToolCallStarted: RunBoard._tool_started,
    ev.ToolCallFinished: RunBoard._tool_finished,
    ev.VerdictIssued: RunBoard._verdict,
    ev.BudgetExceeded: RunBoard._budget,
    ev.ErrorRaised: RunBoard._error,
}
