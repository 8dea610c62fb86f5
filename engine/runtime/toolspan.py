"""One tool call's span in a run's trace: `ToolCallStarted` on entry, exactly one `ToolCallFinished` by exit.

Used as a context manager around the call (`NodeContext.tool_span`): the body records how the call
ended with `finish(result=..., error=...)`; whatever it did not record is recorded on the way out —
a cancel (the run's, or a budget's or deadline's) as the error "cancelled", an exception as
"<Type>: <message>" — and the exception goes on unchanged. So a finished run never shows a tool
call still running, and the roles that make such calls (tool nodes, executors' tools, verifiers'
checks) close them one way.

Invariant: at most one `ToolCallFinished` per span; the span never swallows an exception.
"""

from __future__ import annotations

import asyncio
import time
from types import TracebackType
from typing import TYPE_CHECKING, Any

from engine.events import ToolCallFinished, ToolCallStarted

if TYPE_CHECKING:
    from engine.runtime.hub import EventHub


class ToolSpan:
    """The span of one call of `tool` by node `node_id`, a child of the span `parent_id`."""

    def __init__(self, hub: EventHub, *, parent_id: str, node_id: str, tool: str,
                 arguments: dict[str, Any]) -> None:
        self.hub, self.parent_id, self.node_id, self.tool = hub, parent_id, node_id, tool
        self.arguments = arguments
        self.span_id = ""
        self.finished = False
        self._started = 0.0

    def __enter__(self) -> ToolSpan:
        self.span_id = self.hub.new_span("tool", self.parent_id)
        self.hub.emit(ToolCallStarted, span_id=self.span_id, parent_id=self.parent_id, node_id=self.node_id,
                      tool=self.tool, arguments=self.arguments)
        self._started = time.monotonic()
        return self

    def finish(self, *, result: Any = None, error: str | None = None) -> None:
        """Record how the call ended (once; a later call is ignored)."""
        if self.finished:
            return
        self.finished = True
        self.hub.emit(ToolCallFinished, span_id=self.span_id, parent_id=self.parent_id, node_id=self.node_id,
                      tool=self.tool, result=result, error=error, latency_s=time.monotonic() - self._started)

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self.finished:
            return
        if exc is None:
            self.finish()
        elif isinstance(exc, asyncio.CancelledError):
            self.finish(error="cancelled")
        else:
            self.finish(error=describe_error(exc))


def describe_error(exc: BaseException) -> str:
    """How a failed tool call's error reads in its span: "<Type>: <message>"."""
    return f"{type(exc).__name__}: {exc}"
