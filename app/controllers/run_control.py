"""`RunControlMixin`: the `RunController`'s commands to the selected live run — stop, pause / resume, step,
breakpoints (kept per window, given to every live run and to runs started later), a human gate's answer.

Invariants: each command acts on the selected run only when it is live (a stored or finished run
ignores them); breakpoints are toggled together (all on, or all off when each had one) and drawn by
the canvas overlay; a refused human decision (nothing waits at that node) is said, never raised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.controllers.live_run import LiveRun


class RunControlMixin:
    selected: LiveRun | None
    runs: dict[str, LiveRun]
    breakpoints: set[str]
    scene: Any
    status_message: Any  # the controller's signals
    summary_changed: Any

    if TYPE_CHECKING:
        def live_runs(self) -> list[LiveRun]: ...
    # -- controlling the selected run ------------------------------------------------------------
    def stop(self) -> None:
        live = self.selected
        if live is not None and live.live and live.source is not None:
            live.source.cancel()
            self.status_message.emit(f"Stopping run {live.run_id[:8]}…")

    def toggle_pause(self) -> None:
        live = self.selected
        if live is None or not live.live or live.source is None:
            return
        if live.held:
            live.source.resume()
        else:
            live.source.pause()
        self.summary_changed.emit()

    def step(self) -> None:
        live = self.selected
        if live is not None and live.live and live.source is not None:
            live.source.step()
            self.summary_changed.emit()

    def toggle_breakpoints(self, node_ids: list[str]) -> None:
        """Set a breakpoint on each of `node_ids`, or clear them when all have one; live runs follow."""
        if not node_ids:
            self.status_message.emit("Select a node to toggle its breakpoint (F9)")
            return
        on = not all(node_id in self.breakpoints for node_id in node_ids)
        (self.breakpoints.update if on else self.breakpoints.difference_update)(node_ids)
        for live in self.live_runs():
            for node_id in node_ids:
                live.source.set_breakpoint(node_id, on)  # type: ignore[union-attr]
        self.scene.run.set_breakpoints(self.breakpoints)
        self.status_message.emit(f"Breakpoint {'set' if on else 'cleared'} on {', '.join(node_ids)}")

    def submit_human_decision(self, node_id: str, decision: str, edited: object = None, reason: str = "",
                              run_id: str | None = None) -> bool:
        """Answer the human gate waiting at `node_id` in the selected live run (the Human gate panel's intent),
        or in run `run_id` when given (a notification answered after another run was selected)."""
        live = self.runs.get(run_id) if run_id else self.selected
        if live is None or not live.live or live.source is None:
            self.status_message.emit("No live run is selected to answer")
            return False
        try:
            live.source.submit_human_decision(node_id, decision, edited, reason)
        except ValueError as exc:
            self.status_message.emit(str(exc))
            return False
        self.status_message.emit(f"{decision.capitalize()} sent to {node_id}")
        return True
