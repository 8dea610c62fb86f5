"""Live progress of a run in the terminal, one reporter per output mode.

- `LiveReporter` (stdout is a TTY): a compact node table redrawn in place (rich `Live`), refreshed
  from the event loop at most ~10 times a second — never from a background thread, so the board is
  only read while no event is being applied — with the plain reporter's lines scrolling above it
  (except the running / done of nodes, which the table shows); the table goes when the run ends,
  as the summary shows it in full;
- `PlainReporter` (pipes, CI): one appended line per meaningful event (node state, LLM call with
  tokens and cost, plan, verdict, budget stop, error, human gate);
- `JsonReporter` (--json): one JSON object per event (`Event.to_record()`), nothing else on stdout;
- `QuietReporter` (--quiet): nothing while running.
Every reporter has `on_event`, `pause`/`resume` (around a terminal prompt) and `close`.
"""

from __future__ import annotations

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
from app.cli.event_lines import plain_line
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
        out.write(fmt.json_line(event.to_record()) + "\n")
        out.flush()


class PlainReporter(QuietReporter):
    def __init__(self, board: RunBoard, *, stream: bool = False, out: IO[str] | None = None) -> None:
        super().__init__(board)
        self._stream, self._out = stream, out
        self._mid_line = False

    def _write(self, text: str) -> None:
        out = self._out or sys.stdout
        out.write(fmt.safe(text))
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


class LiveReporter(QuietReporter):
    def __init__(self, board: RunBoard, *, stream: bool = False, console: Console | None = None) -> None:
        super().__init__(board)
        self._stream = stream
        self._console = console or Console()
        self._live = self._new_live()
        self._last = 0.0
        self._paused = False
        self._held: list[Text] = []  # lines of events while a question is on the terminal
        self._live.start()

    def _new_live(self) -> Live:
        return Live(live_view(self.board, stream=self._stream), console=self._console, auto_refresh=False,
                    transient=True)

    def on_event(self, event: ev.Event) -> None:
        line = plain_line(self.board, event)
        if line is not None and not (isinstance(event, ev.NodeStateChanged) and event.state in _IN_TABLE):
            text = Text(f"[{event.ts:7.2f}s] {fmt.safe(line)}")
            if self._paused:
                self._held.append(text)
            else:
                self._console.print(text)  # above the live table
        if self._paused:  # a question is on the terminal; the table is redrawn on resume
            return
        now = time.monotonic()
        if now - self._last >= 0.1 or isinstance(event, ev.RunFinished):
            self._last = now
            self._live.update(live_view(self.board, stream=self._stream), refresh=True)

    def pause(self) -> None:
        if not self._paused:
            self._paused = True
            self._live.stop()

    def resume(self) -> None:
        if self._paused:
            self._paused = False
            for text in self._held:
                self._console.print(text)
            self._held.clear()
            self._live = self._new_live()
            self._live.start(refresh=True)

    def close(self) -> None:
        if not self._paused:
            self._live.stop()
        for text in self._held:
            self._console.print(text)
        self._held.clear()
        self._paused = True


_IN_TABLE = ("queued", "running", "done")  # node states the live table shows (not printed as lines)


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
