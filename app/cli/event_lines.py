"""The one line `triadic run` shows for an event (or None for events it does not show), shared by the
plain reporter (every line) and the live reporter (lines above its table).

Invariant: reads the `RunBoard` as it is after the event was applied (names, open calls, the arguments
of the tool call that just ended); never changes it.
"""

from __future__ import annotations

from collections.abc import Callable

from app.cli import fmt
from app.cli.board import RunBoard
from engine import events as ev
from engine.budget import kind_now, reason_now


def plain_line(board: RunBoard, e: ev.Event) -> str | None:
    """The one line a plain reporter prints for an event, or None for events it does not show."""
    if isinstance(e, ev.RunStarted):
        lineage = (f" (replay of {e.replay_of[:12]})" if e.replay_of else
                   f" (fork of {e.fork_of[:12]} at seq {e.fork_at_seq})" if e.fork_of else "")
        return f"run {e.run_id} started: {e.workflow_name}{lineage}"
    if isinstance(e, ev.ReplayDiverged):
        went = "ran live from here" if e.action == "live" else "replay stopped"
        return f"{e.node_id} replay diverged ({went}): {fmt.one_line(e.detail)}"
    if isinstance(e, ev.NodeStateChanged) and e.state != "queued":  # every node is queued at start
        row = board.row(e.node_id)
        extra = "".join([f" attempt {e.attempt}" if e.attempt > 1 else "",
                         f" round {e.round}" if e.round else "", f" — {e.detail}" if e.detail else ""])
        return f"{row.title} ({e.node_id}) {e.state}{extra}"
    if isinstance(e, ev.LLMCallFinished):
        result = f"error {e.error_type}: {e.error}" if e.error else (
            f"{fmt.tokens(e.tokens_in, e.tokens_out)} tok {fmt.cost(e.cost_usd)} {fmt.duration(e.latency_s)}")
        return f"{board.row(e.node_id).title} ({e.node_id}) llm {e.model}: {result}"
    if isinstance(e, ev.LLMStreamRestarted):
        return f"{_call_owner(board, e.span_id)}llm stream broke: retried from the start (attempt {e.attempt})"
    if isinstance(e, ev.LLMCallRetrying):
        return f"{_call_owner(board, e.span_id)}llm {e.error_type}: {fmt.one_line(e.error)} — attempt {e.attempt} in {e.delay_s:.2g} s"
    if isinstance(e, ev.ToolCallFinished):
        arguments = ", ".join(f"{k}={fmt.one_line(v, 40)}" for k, v in board.last_tool_arguments.items())
        result = f"error: {fmt.one_line(e.error)}" if e.error else _tool_result(e.result)
        return (f"{board.row(e.node_id).title} ({e.node_id}) tool {e.tool}({fmt.one_line(arguments, 80)}) → "
                f"{result} {fmt.duration(e.latency_s)}")
    if isinstance(e, ev.MemoryWritten):
        where = f"memory {e.memory}[{e.key}] ({e.scope})"
        what = f"written: {fmt.one_line(e.value, 80)}" if e.admitted else f"write refused: {fmt.one_line(e.reason)}"
        return f"{board.row(e.node_id).title} ({e.node_id}) {where} {what}"
    if isinstance(e, ev.MemoryRead):
        found = fmt.one_line(e.value, 80) if e.value is not None else "nothing stored"
        return f"{board.row(e.node_id).title} ({e.node_id}) memory {e.memory}[{e.key}] ({e.scope}) read: {found}"
    if isinstance(e, ev.PlanEmitted):
        return f"{board.row(e.node_id).title} ({e.node_id}) planned {len(e.tasks)} task(s)" + (
            f" (replan {e.replan})" if e.replan else "")
    if isinstance(e, ev.VerdictIssued):
        reason = f": {fmt.one_line(e.reasons[0])}" if e.reasons else ""
        return (f"{board.row(e.node_id).title} ({e.node_id}) verdict on {e.subject_node_id}: "
                f"{e.decision} score {e.score:.2f} round {e.round}{reason}")
    if isinstance(e, ev.BudgetExceeded):
        where = f" at {e.node_id}" if e.node_id else ""
        return f"budget {kind_now(e.budget)} exceeded{where}: {e.actual:g} > limit {e.limit:g}"
    if isinstance(e, ev.ErrorRaised):
        where = f"{board.row(e.node_id).title} ({e.node_id}) " if e.node_id else ""
        return f"{where}{e.error_type}: {e.message}" + (" (recovering)" if e.recoverable else "")
    if isinstance(e, ev.HumanDecisionRequested):
        return f"{board.row(e.node_id).title} ({e.node_id}) asks: {fmt.one_line(e.prompt)}"
    if isinstance(e, ev.HumanDecisionMade):
        why = f": {fmt.one_line(e.reason)}" if e.reason else ""
        return f"{board.row(e.node_id).title} ({e.node_id}) human decision: {e.decision} by {e.by}{why}"
    if isinstance(e, ev.LogMessage) and e.level != "debug":
        who = f"{board.row(e.node_id).title} ({e.node_id}) " if e.node_id else ""
        return f"{who}{e.level}: {e.message}" if e.level != "info" else f"{who}{e.message}"
    if isinstance(e, ev.RunPaused | ev.RunResumed):
        return hold_line(e, lambda node: f"{board.row(node).title} ({node})")
    if isinstance(e, ev.ContractsChecked):
        kept = len(e.results) - e.violated
        return f"contracts: {kept} of {len(e.results)} hold" + (f", {e.violated} violated" if e.violated else "")
    if isinstance(e, ev.RunFinished):
        return f"run {e.status}" + (f": {reason_now(e.reason)}" if e.reason else "")
    return None


def hold_line(e: ev.RunPaused | ev.RunResumed, name: Callable[[str], str] = str) -> str:
    """A pause, breakpoint, step or resume in words; `name` shows a node id ("Title (id)" with a board)."""
    node = name(e.node_id) if e.node_id else "a node"
    if isinstance(e, ev.RunPaused):
        return f"run paused at the breakpoint before {node}" if e.reason == "breakpoint" else "run paused by the user"
    if e.mode == "step":
        return f"run stepped: {node} starts, then the run holds again"
    return "run resumed"


def _call_owner(board: RunBoard, span_id: str | None) -> str:
    """"Title (node) " of the node whose model call `span_id` is, or "" when the call is not known."""
    node = board.open_calls.get(span_id or "")
    return f"{board.row(node).title} ({node}) " if node else ""


def _tool_result(result: object) -> str:
    """A tool's result in one line; a check's verdict as its decision and score (its reasons follow in
    the verdict line)."""
    if isinstance(result, dict) and "decision" in result and "score" in result:
        return f"{result['decision']} {fmt.one_line(result['score'], 12)}"
    return fmt.one_line(result, 80)
