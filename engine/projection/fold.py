"""How each kind of event changes a `RunProjection`: one function per kind, `HANDLERS` by event class.

Invariant: a handler changes only the projection it is given and notes what it changed in its
`changes`; handlers run in seq order (`RunProjection.apply`). Qt-free.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import events as ev
from engine.budget import kind_now, reason_now
from engine.projection.rows import TERMINAL_NODE_STATES, CallRow, HumanQuestion, NodeRow, SpanRow, is_priced
from engine.projection.spans import run_span_id

if TYPE_CHECKING:
    from engine.projection.run_projection import RunProjection


def _node(p: RunProjection, node_id: str, seq: int) -> NodeRow:
    row = p.row(node_id)
    row.seq = seq
    p.changes.nodes.add(node_id)
    return row


def _fold_span(p: RunProjection, span_id: str, fold: Callable[[Any], SpanRow | None], e: ev.Event) -> SpanRow | None:
    """Fold `e` into the span table (`fold` is a `SpanTable` step) and note the span as added (first seen)
    or changed."""
    known = span_id in p.span_table.spans
    span = fold(e)
    if span is not None:
        if known:
            p.changes.spans_changed.add(span_id)
        else:
            p.changes.spans_added.append(span_id)
    return span


def _started(p: RunProjection, e: ev.RunStarted) -> None:
    p.run_id, p.status = e.run_id, "running"
    p.workflow_id, p.workflow_hash = e.workflow_id, e.workflow_hash
    p.workflow_name = e.workflow_name or p.workflow_name
    p.inputs, p.settings = dict(e.inputs), dict(e.settings)
    p.replay_of, p.fork_of = e.replay_of, e.fork_of
    p.deadline_clock = p.deadline_clock.started(e.ts)
    _fold_span(p, run_span_id(e), p.span_table.run_started, e)
    p.changes.run = True


def _planned(p: RunProjection, e: ev.RunPlanned) -> None:
    for node_id, title, role in e.nodes:
        row = _node(p, node_id, e.seq)
        row.title, row.role = title or row.title, role or row.role
        if row.state == "-":
            row.state = "queued"


def _finished(p: RunProjection, e: ev.RunFinished) -> None:
    p.status, p.reason, p.outputs = e.status, reason_now(e.reason), dict(e.outputs)  # older runs' words too
    p.tokens_in, p.tokens_out, p.cost_usd = e.tokens_in, e.tokens_out, e.cost_usd
    p.duration_s = e.duration_s
    p.hold = None
    span = p.span_table.run_finished(e)
    p.changes.spans_changed.add(span.span_id)
    p.changes.run = True


def _node_state(p: RunProjection, e: ev.NodeStateChanged) -> None:
    row = _node(p, e.node_id, e.seq)
    resumed = row.state in ("running", "waiting")  # back from a human question, not a new execution
    row.state, row.attempt, row.round, row.detail = e.state, e.attempt, e.round, e.detail
    if e.state == "running" and not resumed:
        row.executions += 1
        if row.started_ts is None:
            row.started_ts = e.ts
    if e.state in TERMINAL_NODE_STATES:
        row.ended_ts = e.ts
    if e.state == "failed" and e.detail:
        row.error = e.detail
    if e.span_id is not None:
        new = e.span_id not in p.span_table.spans
        if _fold_span(p, e.span_id, p.span_table.node_state, e) is not None and new:
            row.span_ids.append(e.span_id)


def _output(p: RunProjection, e: ev.NodeOutput) -> None:
    p.artifacts[e.seq] = e
    p.changes.flows.append((e.node_id, e.port))


def _plan(p: RunProjection, e: ev.PlanEmitted) -> None:
    p.plans.append(e)
    _node(p, e.node_id, e.seq)


def _llm_started(p: RunProjection, e: ev.LLMCallStarted) -> None:
    if e.span_id is None:
        return
    p.calls[e.span_id] = CallRow(e.span_id, "llm", e.node_id, e.model, e.seq, e.ts, e.request, seq=e.seq)
    p.changes.calls_added.append(e.span_id)
    p.open_calls[e.span_id] = e.node_id
    if p.stream_span is None:
        p.stream_span = e.span_id
    _fold_span(p, e.span_id, p.span_table.call_started, e)
    _node(p, e.node_id, e.seq)


def _llm_delta(p: RunProjection, e: ev.LLMTokenDelta) -> None:
    call = p.calls.get(e.span_id) if e.span_id is not None else None
    if call is not None:
        call.chunks.append(e.text)
        call.seq = e.seq
        p.changes.calls_changed.add(call.span_id)


def _llm_restart(p: RunProjection, e: ev.LLMStreamRestarted) -> None:
    call = p.calls.get(e.span_id) if e.span_id is not None else None
    if call is not None:
        call.chunks.clear()  # the broken attempt's text is void
        call.restarts += 1
        call.seq = e.seq
        p.changes.calls_changed.add(call.span_id)


def _llm_retry(p: RunProjection, e: ev.LLMCallRetrying) -> None:
    call = p.calls.get(e.span_id) if e.span_id is not None else None
    if call is not None:
        call.retries.append({"attempt": e.attempt, "error_type": e.error_type, "error": e.error,
                             "delay_s": e.delay_s})
        call.seq = e.seq
        p.changes.calls_changed.add(call.span_id)
    if e.span_id is not None:
        _fold_span(p, e.span_id, p.span_table.call_retrying, e)


def _llm_finished(p: RunProjection, e: ev.LLMCallFinished) -> None:
    row = _node(p, e.node_id, e.seq)
    row.llm_calls += 1
    priced = is_priced(e.cost_usd, e.tokens_in, e.tokens_out, e.response)
    for usage in (row, *_enclosing(p, e.node_id)):  # a sub-graph node's row sums its nodes' usage
        usage.tokens_in += e.tokens_in
        usage.tokens_out += e.tokens_out
        usage.cost_usd += e.cost_usd
        if not priced:
            usage.unpriced_calls += 1
    p.tokens_in += e.tokens_in
    p.tokens_out += e.tokens_out
    p.cost_usd += e.cost_usd
    p.usage.add(e.ts, e.model, e.tokens_in, e.tokens_out, e.cost_usd, priced)
    p.changes.usage = p.changes.run = True
    if e.span_id is None:
        return
    call = _finish_call(p, e.span_id, "llm", e.model, e)
    call.content, call.response, call.error, call.error_type = e.content, dict(e.response), e.error, e.error_type
    call.tokens_in, call.tokens_out, call.cost_usd, call.latency_s = e.tokens_in, e.tokens_out, e.cost_usd, e.latency_s
    p.open_calls.pop(e.span_id, None)
    if e.span_id == p.stream_span:
        p.stream_span = next(iter(p.open_calls), None)


def _finish_call(p: RunProjection, span_id: str, kind: str, name: str,
                 e: ev.LLMCallFinished | ev.ToolCallFinished) -> CallRow:
    """The call `e` ends (made here when its start was not seen), marked finished; its span folded."""
    call = p.calls.get(span_id)
    if call is None:
        call = p.calls[span_id] = CallRow(span_id, kind, e.node_id, name, e.seq, e.ts)
        p.changes.calls_added.append(span_id)
    else:
        p.changes.calls_changed.add(span_id)
    call.finished, call.ended_ts, call.seq = True, e.ts, e.seq
    _fold_span(p, span_id, p.span_table.call_finished, e)
    return call


def _enclosing(p: RunProjection, node_id: str) -> list[NodeRow]:
    """The rows of the sub-graph nodes `node_id` runs inside ("a/b/c" → the rows of "a" and "a/b")."""
    if "/" not in node_id:
        return []
    parts = node_id.split("/")
    keys = ("/".join(parts[:i]) for i in range(1, len(parts)))
    found = [p.nodes[key] for key in keys if key in p.nodes]
    p.changes.nodes.update(r.node_id for r in found)
    return found


def _tool_started(p: RunProjection, e: ev.ToolCallStarted) -> None:
    if e.span_id is None:
        return
    p.tool_arguments[e.span_id] = e.arguments
    p.calls[e.span_id] = CallRow(e.span_id, "tool", e.node_id, e.tool, e.seq, e.ts, e.arguments, seq=e.seq)
    p.changes.calls_added.append(e.span_id)
    _fold_span(p, e.span_id, p.span_table.call_started, e)


def _tool_finished(p: RunProjection, e: ev.ToolCallFinished) -> None:
    _node(p, e.node_id, e.seq).tool_calls += 1
    p.last_tool_arguments = p.tool_arguments.pop(e.span_id or "", {})
    if e.span_id is None:
        return
    call = _finish_call(p, e.span_id, "tool", e.tool, e)
    call.result, call.error, call.latency_s = e.result, e.error, e.latency_s


def _memory_read(p: RunProjection, e: ev.MemoryRead) -> None:
    p.memory_reads.append(e)
    p.changes.memory = True


def _memory_write(p: RunProjection, e: ev.MemoryWritten) -> None:
    p.memory_writes.append(e)
    if e.admitted:
        p.memory[(e.memory, e.scope, e.key)] = e
    p.changes.memory = True


def _verdict(p: RunProjection, e: ev.VerdictIssued) -> None:
    p.verdicts.append(e)
    _node(p, e.node_id, e.seq)
    p.changes.verdicts = True


def _budget(p: RunProjection, e: ev.BudgetUpdated) -> None:
    p.budget = e
    p.changes.run = p.changes.usage = True


def _budget_hit(p: RunProjection, e: ev.BudgetExceeded) -> None:
    p.budget_hit = e
    where = f" at {e.node_id}" if e.node_id else ""
    p.problems.append(f"budget {kind_now(e.budget)} exceeded{where}: {e.actual:g} > limit {e.limit:g}")
    p.changes.run = p.changes.problems = True


def _paused(p: RunProjection, e: ev.RunPaused) -> None:
    p.hold = e
    p.deadline_clock = p.deadline_clock.holding(e.ts)
    p.changes.run = True


def _resumed(p: RunProjection, e: ev.RunResumed) -> None:
    p.hold = None
    clock = p.deadline_clock  # a step lets one node through: the run holds on (a free run, from its step)
    p.deadline_clock = clock.holding(e.ts) if e.mode == "step" else clock.going_on(e.ts)
    p.changes.run = True


def _human_requested(p: RunProjection, e: ev.HumanDecisionRequested) -> None:
    p.questions.append(HumanQuestion(e.node_id, e.seq, e.ts, e.prompt, e.artifact))
    _node(p, e.node_id, e.seq)
    p.changes.human = True


def _human_decided(p: RunProjection, e: ev.HumanDecisionMade) -> None:
    for q in reversed(p.questions):
        if q.node_id == e.node_id and q.open:
            q.decision, q.edited, q.by, q.reason, q.decided_seq = e.decision, e.edited, e.by, e.reason, e.seq
            break
    else:  # a decision with no question asked (a policy deciding before the gate asked)
        p.questions.append(HumanQuestion(e.node_id, e.seq, e.ts, "", None, e.decision, e.edited, e.by,
                                            e.reason, e.seq))
    _node(p, e.node_id, e.seq)
    p.changes.human = True


def _error(p: RunProjection, e: ev.ErrorRaised) -> None:
    p.errors.append(e)
    if not e.recoverable:
        where = f"{e.node_id}: " if e.node_id else ""
        p.problems.append(f"{where}{e.error_type}: {e.message}")
        if e.node_id:
            _node(p, e.node_id, e.seq).error = f"{e.error_type}: {e.message}"
        p.changes.problems = True


def _log(p: RunProjection, e: ev.LogMessage) -> None:
    p.logs.append(e)


def _diverged(p: RunProjection, e: ev.ReplayDiverged) -> None:
    went = "ran live from here" if e.action == "live" else "replay stopped"
    p.problems.append(f"{e.node_id}: replay diverged ({went}): {e.detail}")
    p.changes.problems = True


def _contracts(p: RunProjection, e: ev.ContractsChecked) -> None:
    p.contracts = e
    p.changes.contracts = True


HANDLERS: dict[type[ev.Event], Any] = {
    ev.RunStarted: _started,
    ev.RunPlanned: _planned,
    ev.RunFinished: _finished,
    ev.NodeStateChanged: _node_state,
    ev.NodeOutput: _output,
    ev.PlanEmitted: _plan,
    ev.LLMCallStarted: _llm_started,
    ev.LLMTokenDelta: _llm_delta,
    ev.LLMStreamRestarted: _llm_restart,
    ev.LLMCallRetrying: _llm_retry,
    ev.LLMCallFinished: _llm_finished,
    ev.ToolCallStarted: _tool_started,
    ev.ToolCallFinished: _tool_finished,
    ev.MemoryRead: _memory_read,
    ev.MemoryWritten: _memory_write,
    ev.VerdictIssued: _verdict,
    ev.BudgetUpdated: _budget,
    ev.BudgetExceeded: _budget_hit,
    ev.RunPaused: _paused,
    ev.RunResumed: _resumed,
    ev.HumanDecisionRequested: _human_requested,
    ev.HumanDecisionMade: _human_decided,
    ev.ErrorRaised: _error,
    ev.LogMessage: _log,
    ev.ReplayDiverged: _diverged,
    ev.ContractsChecked: _contracts,
}
