"""`RunPanel`: what every dock that shows a run is, so one controller can drive them all alike.

A panel is given the run it shows as a `RunProjection` (`set_projection`; None: no run), then told
what changed, coalesced — at most one `apply_changes` per flush (~30 ms), never one call per event.
It reads the projection; it never changes it. The node filter (`set_node_filter`) follows the node
selected on the canvas. A panel says what the person picked through `node_selected(node_id)` and
`span_selected(span_id)` (intents: the controller selects the node on the canvas, opens the call).

Invariants: `set_projection` resets the panel to the projection as it is now (a panel may be given a
projection that already holds a whole stored run, or a playback's projection rebuilt at another seq);
`apply_changes` only ever follows `set_projection` with the same projection's changes since then.
A panel may build what it shows from a whole projection off the GUI thread (`prepare`, a static
function that never touches Qt: a stored run is prepared in the loop's executor); what it returned is
handed back with `use_prepared` just before `set_projection` of that same, unchanged projection, and
a panel uses it only when it still fits (else it builds as usual). A panel that can make the same from
what it shows of the whole run, cheaply, says so (`prepares_here`, `prepare_here`): a playback move back
is then made on the GUI thread with it shown.
`clock_running` (set before `set_projection`) says whether the run shown goes on now: False for a past
run and for playback's run at an earlier event — an open span's duration then ends at the projection's
last event, never at the wall clock. `run_time()` is the run's time now as every dock shows it (the
Timeline's "now", the Deadline gauge, the Trace's open spans): the last event's for a run standing still;
while live, the app's clock of the run (`run_clock`, set with `clock_running`: the toolbar's time), else
growing from the last event as the panel received it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from engine.projection import ProjectionChanges, RunProjection


class RunPanel(QWidget):
    node_selected = Signal(str)
    span_selected = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.projection: RunProjection | None = None
        self.node_filter: str | None = None
        self.prepared: object | None = None  # what `prepare` built for the next `set_projection`
        self.clock_running = True  # the run shown goes on now (a live run): its open spans' durations grow
        self._received = (0.0, time.monotonic())  # (the projection's last event time, when it was received)
        self._last_event: tuple[str, int] | None = None  # (run id, seq) of that event
        # the live run's time now as the app keeps it (its toolbar's: `LiveRun.elapsed_s`); None: the time
        # since the panel received the run's last event is added to that event's
        self.run_clock: Callable[[], float] | None = None

    @staticmethod
    def prepare(projection: RunProjection) -> object | None:
        """What this panel can build from `projection` off the GUI thread (called in a worker: no Qt);
        None: nothing (the default)."""
        return None

    def prepares_here(self) -> bool:
        """Whether `prepare_here` may answer for the run shown now (a cheap look; False: a move back needs
        the worker for this panel while it is shown)."""
        return False

    def prepare_here(self, projection: RunProjection) -> object | None:
        """What `prepare` builds from `projection` — the run shown, at an earlier moment — made here on the
        GUI thread from what the panel holds, in a few ms; None: it cannot (the worker builds it)."""
        return None

    def use_prepared(self, prepared: object | None) -> None:
        """Keep what `prepare` built for the next `set_projection` (which takes it, once)."""
        self.prepared = prepared

    def take_prepared(self) -> object | None:
        prepared, self.prepared = self.prepared, None
        return prepared

    def set_projection(self, projection: RunProjection | None) -> None:
        self.projection = projection
        self._note_received()
        self.rebuild()

    def apply_changes(self, changes: ProjectionChanges) -> None:
        """Show what `changes` says changed; the default rebuilds (panels override for incremental updates)."""
        self._note_received()
        if changes.reset:
            self.rebuild()
            return
        self.update_from(changes)

    def set_node_filter(self, node_id: str | None) -> None:
        if node_id != self.node_filter:
            self.node_filter = node_id
            self.rebuild()

    def run_time(self) -> float:
        """The run's time now: its last event's while stored, finished, not started or shown at a playback
        moment (`clock_running` False), growing with the clock while live."""
        p = self.projection
        last, at = self._received
        if p is None or p.finished or p.status == "pending" or not self.clock_running:
            return last
        if self.run_clock is not None:
            return max(last, self.run_clock())
        return last + (time.monotonic() - at)

    def _note_received(self) -> None:
        """Note when the run's last event came — once: a dock given the run again with nothing new (shown
        again, its tab raised) keeps counting from then, not from now."""
        p = self.projection
        last_event = (p.run_id, p.last_seq) if p is not None else None
        if last_event is not None and last_event == self._last_event:
            return
        self._last_event = last_event
        self._received = (p.elapsed_s if p is not None else 0.0, time.monotonic())

    # -- what a panel implements -----------------------------------------------------------------
    def rebuild(self) -> None:
        """Show `self.projection` (None: empty) from scratch, with the node filter applied."""
        raise NotImplementedError

    def update_from(self, changes: ProjectionChanges) -> None:
        """Show what changed since the last call; the default rebuilds."""
        self.rebuild()


def same_run(old: RunProjection | None, new: RunProjection | None) -> bool:
    """Whether `new` shows the same run as `old` (a playback rebuilt at another seq, or itself)."""
    if old is None or new is None:
        return old is new
    return old is new or (bool(new.run_id) and new.run_id == old.run_id)
