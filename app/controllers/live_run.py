"""`LiveRun`: what the window keeps of one run it shows — a live run it started, or a stored run opened.

A live run has a `source` (the engine's `Run`, or anything shaped like it: `RunSource`) whose event
batches the `RunController` folds into `projection`; a stored run has no source and a projection
decoded off the GUI thread, plus the workflow version it ran with (`workflow`), shown read-only.

Invariants: `projection` is the one picture of the run (never folded twice); `source` is None exactly
when the run is read-only; the summary texts (`label`, `state_text`) are derived on demand from the
projection, never kept beside it.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine import events as ev
from engine.graph.model import Workflow
from engine.projection import RunProjection
from widgets.canvas.run_style import money, tokens_text


class RunSource(Protocol):
    """What the controller needs of a running run (`engine.runtime.run.Run` is one)."""

    run_id: str

    def event_batches(self) -> AsyncIterator[list[ev.Event]]: ...
    async def wait(self) -> Any: ...
    def cancel(self) -> None: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def step(self) -> None: ...
    def set_breakpoint(self, node_id: str, on: bool = True) -> None: ...
    def submit_human_decision(self, node_id: str, decision: Any, edited: Any = None, reason: str = "") -> None: ...


@dataclass(eq=False)
class LiveRun:
    run_id: str
    name: str  # the workflow's name, as the picker shows it
    projection: RunProjection
    source: RunSource | None = None
    workflow: Workflow | None = None  # the version a stored run ran with (read-only on the canvas)
    # the document's workflow when a live run started, held weakly: a run left in the picker must not keep
    # a document that File ▸ Open or New replaced alive (only its identity is asked: "the canvas changed")
    document_workflow: weakref.ref[Workflow] | None = None
    document_index: int = 0  # the document's undo index then: edits since are "the canvas changed"
    started_at: float = field(default_factory=time.monotonic)
    ended_at: float | None = None
    task: Any = None  # the asyncio task folding the stream
    questions_seen: int = 0  # human questions already announced
    recording_errors: list[str] = field(default_factory=list)
    last_status: str = "pending"
    stored_status: str = ""  # a stored run's status as the store says it (e.g. "interrupted": no RunFinished)
    prepared: dict[str, object] = field(default_factory=dict)  # per panel name: what `RunPanel.prepare` built

    @property
    def read_only(self) -> bool:
        return self.source is None

    @property
    def live(self) -> bool:
        return self.source is not None and self.ended_at is None

    @property
    def held(self) -> bool:
        """Whether the run holds now (paused, at a breakpoint, after a step)."""
        control = getattr(self.source, "control", None)
        if control is not None and self.live:
            return bool(control.paused)
        return self.projection.hold is not None and self.live

    def elapsed_s(self) -> float:
        if not self.live and self.projection.duration_s:
            return self.projection.duration_s  # the run's own clock, once it says how long it took
        if self.read_only:
            return self.projection.elapsed_s
        end = self.ended_at if self.ended_at is not None else time.monotonic()
        return max(0.0, end - self.started_at)

    def status(self) -> str:
        """running / paused / waiting / the final status (succeeded, failed, …)."""
        p = self.projection
        if self.live:
            if p.open_questions():
                return "waiting"
            return "paused" if self.held else "running"
        if p.status not in ("pending", "running"):
            return p.status
        return self.stored_status or "interrupted"  # the stream ended without saying how the run ended

    def cost_text(self) -> str:
        p = self.projection
        unpriced = any(row.unpriced_calls for row in p.nodes.values())
        return f"{money(p.cost_usd)}{' + price unknown' if unpriced else ''}"

    def label(self) -> str:
        """The picker's line: workflow, id, status, elapsed."""
        kind = "" if self.source is not None else "past · "
        return f"{kind}{self.name or 'run'} · {self.run_id[:8]} · {self.status()} · {clock(self.elapsed_s())}"

    def summary(self) -> str:
        """The toolbar / status-bar line: status, elapsed, tokens, cost."""
        p = self.projection
        return (f"{self.status()} · {clock(self.elapsed_s())} · {tokens_text(p.tokens_in + p.tokens_out)} · "
                f"{self.cost_text()}")


def clock(seconds: float) -> str:
    if seconds < 10:
        return f"{seconds:.1f} s"
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
