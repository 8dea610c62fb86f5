"""Live progress of a run in the terminal, one reporter per output mode.

- `LiveReporter` (stdout is a TTY): a compact node table redrawn in place (rich `Live`), refreshed
  from the event loop at most ~10 times a second — never from a background thread, so the board is
  only read while no event is being applied;
- `PlainReporter` (pipes, CI): one appended line per meaningful event (node state, LLM call with
  tokens and cost, plan, verdict, budget stop, error, human gate);
- `JsonReporter` (--json): one JSON object per event (`Event.to_record()`), nothing else on stdout;
- `QuietReporter` (--quiet): nothing while running.
Every reporter has `on_event`, `pause`/`resume` (around a terminal prompt) and `close`.
"""

from __future__ import annotations

import json
import sys
import time
from typing import IO

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from app.cli import fmt
from app.cli.board import RunBoard
from engine import events as ev

_STATE_STYLE = {"running": "bold cyan", "waiting": "yellow", "done": "green", "failed": "bold red",
                "skipped": "dim", "cancelled": "magenta", "queued": "blue"}


class QuietReporter:
    def __init__(self, board: RunBoard) -> None:
        self.board = board

    def on_event(self, event: ev.Event) -> None:
        """Nothing is shown while the run goes."""

    def pause(self) -> None:
        """Nothing to pause."""

    def resume(self) -> None:
        """Nothing to resume."""

    def close(self) -> None:
        """Nothing to close."""


class JsonReporter(QuietReporter):
    def __init__(self, board: RunBoard, out: IO[str] | None = None) -> None:
        super().__init__(board)
        self._out = out

    def on_event(self, event: ev.Event) -> None:
        out = self._out or sys.stdout
        out.write(json.dumps(event.to_record(), ensure_ascii=False, default=str) + "\n")
        out.flush()


class PlainReporter(QuietReporter):
    def __init__(self, board: RunBoard, *, stream: bool = False, out: IO[str] | None = None) -> None:
        super().__init__(board)
        self._stream, self._out = stream, out
        self._mid_line = False

    def _write(self, text: str) -> None:
        out = self._out or sys.stdout
        out.write(text)
        out.flush()

    def _line(self, event: ev.Event, text: str) -> None:
        if self._mid_line:
            self._write("\n")
            self._mid_line = False
        self._write(f"[{event.ts:7.2f}s] {text}\n")

    def on_event(self, event: ev.Event) -> None:
        text = plain_line(self.board, event)
        if text is not None:
            self._line(event, text)
        elif self._stream and isinstance(event, ev.LLMTokenDelta) and event.span_id == self.board.stream_span:
            self._write(event.text)
            self._mid_line = not event.text.endswith("\n")


def plain_line(board: RunBoard, e: ev.Event) -> str | None:
    """The one line a plain reporter prints for an event, or None for events it does not show."""
    if isinstance(e, ev.RunStarted):
        return f"run {e.run_id} started: {e.workflow_name}"
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
        node = board.open_calls.get(e.span_id or "")
        who = f"{board.row(node).title} ({node}) " if node else ""
        return f"{who}llm stream broke: retried from the start (attempt {e.attempt})"
    if isinstance(e, ev.LLMCallRetrying):
        node = board.open_calls.get(e.span_id or "")
        who = f"{board.row(node).title} ({node}) " if node else ""
        return f"{who}llm {e.error_type}: {fmt.one_line(e.error)} — attempt {e.attempt} in {e.delay_s:.2g} s"
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
        return f"budget {e.budget} exceeded{where}: {e.actual:g} > limit {e.limit:g}"
    if isinstance(e, ev.ErrorRaised):
        where = f"{e.node_id}: " if e.node_id else ""
        return f"{where}{e.error_type}: {e.message}" + (" (recovering)" if e.recoverable else "")
    if isinstance(e, ev.HumanDecisionRequested):
        return f"{board.row(e.node_id).title} ({e.node_id}) asks: {fmt.one_line(e.prompt)}"
    if isinstance(e, ev.HumanDecisionMade):
        why = f": {fmt.one_line(e.reason)}" if e.reason else ""
        return f"{board.row(e.node_id).title} ({e.node_id}) human decision: {e.decision} by {e.by}{why}"
    if isinstance(e, ev.LogMessage) and e.level != "debug":
        who = f"{board.row(e.node_id).title} ({e.node_id}) " if e.node_id else ""
        return f"{who}{e.level}: {e.message}" if e.level != "info" else f"{who}{e.message}"
    if isinstance(e, ev.RunFinished):
        return f"run {e.status}" + (f": {e.reason}" if e.reason else "")
    return None


def _tool_result(result: object) -> str:
    """A tool's result in one line; a check's verdict as its decision and score (its reasons follow in
    the verdict line)."""
    if isinstance(result, dict) and "decision" in result and "score" in result:
        return f"{result['decision']} {fmt.one_line(result['score'], 12)}"
    return fmt.one_line(result, 80)


class LiveReporter(QuietReporter):
    def __init__(self, board: RunBoard, *, stream: bool = False, console: Console | None = None) -> None:
        super().__init__(board)
        self._stream = stream
        self._console = console or Console()
        self._live = Live(console=self._console, auto_refresh=False, transient=False)
        self._last = 0.0
        self._paused = False
        self._live.start()

    def on_event(self, event: ev.Event) -> None:
        if self._paused:  # a question is on the terminal; the table is redrawn on resume
            return
        now = time.monotonic()
        if now - self._last >= 0.1 or isinstance(event, ev.RunFinished):
            self._last = now
            self._live.update(live_view(self.board, stream=self._stream), refresh=True)

    def pause(self) -> None:
        if not self._paused:
            self._paused = True
            self._live.update(live_view(self.board, stream=False), refresh=True)
            self._live.stop()

    def resume(self) -> None:
        if self._paused:
            self._paused = False
            self._live = Live(live_view(self.board, stream=self._stream), console=self._console,
                              auto_refresh=False, transient=False)
            self._live.start(refresh=True)

    def close(self) -> None:
        if not self._paused:
            self._live.update(live_view(self.board, stream=False), refresh=True)
            self._live.stop()
        self._paused = True


def live_view(board: RunBoard, *, stream: bool) -> RenderableType:
    table = Table(title=f"{board.workflow_name} — {board.status} — {fmt.duration(board.elapsed_s)}  "
                        f"tokens {fmt.tokens(board.tokens_in, board.tokens_out)}  {fmt.cost(board.cost_usd)}",
                  title_justify="left", expand=False, pad_edge=False)
    for column in ("node", "role", "state", "runs", "round", "calls", "tools", "tokens in/out", "cost"):
        table.add_column(column, no_wrap=True)
    for row in board.rows.values():
        style = _STATE_STYLE.get(row.state, "")
        table.add_row(f"{row.title} ({row.node_id})", row.role, Text(row.state, style=style),
                      str(row.executions), str(row.round), str(row.llm_calls), str(row.tool_calls),
                      fmt.tokens(row.tokens_in, row.tokens_out), fmt.cost(row.cost_usd))
    if not (stream and board.stream_span):
        return table
    tail = "\n".join(board.stream_text.splitlines()[-6:])
    return Group(table, Panel(tail, title=f"streaming: {board.stream_node()}", title_align="left"))
