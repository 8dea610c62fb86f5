"""Drives the real main window through its event loop as a person would, and times what they see.

- `open_window` builds `MainWindow` (palette, inspector, problems, minimap and run docks) on a
  workflow, 1600×1000, shown, fitted, idle until every start-up timer has fired;
- input is sent as real events to the canvas viewport: wheel notches (`angleDelta` 120, the app's
  20 % step), trackpad scrolls (small `angleDelta` with a `pixelDelta`, in phases), middle-button
  pans, node drags (press, moves, release), the F key — spaced as a hand spaces them, with the
  loop running in between (`idle`), so the view's settle timer, the minimap's timer and
  validation fire when they would;
- a **frame** is the wall time from sending one input to the end of the paint it causes (the
  handling of the input, anything queued before the paint, and the paint of every dirty widget
  in the window), counting only the time the loop is busy (`FrameMeter` waits for the paint);
  work that runs in the gaps between inputs of one gesture and paints (a settle mid-gesture, a
  minimap redraw) is a frame too; once the gesture is over, the first paint is the
  **full-quality frame** and the longest busy period after it is reported as `after_max`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QApplication

from engine.graph.model import Workflow

BUSY_MS = 2.0  # a gap's busy period shorter than this is the loop idling, not work


@dataclass
class Gesture:
    frames: list[float] = field(default_factory=list)  # ms, one per input (and per mid-gesture paint)
    settle: list[float] = field(default_factory=list)  # ms, the first full-quality frame after each gesture
    after: list[float] = field(default_factory=list)  # ms, the longest busy period after each gesture


class FrameMeter(QObject):
    """Counts the paints of the canvas viewport (the frames a person sees)."""

    def __init__(self, target: QObject) -> None:
        super().__init__()
        self.paints = 0
        target.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


class WindowDriver:
    def __init__(self, window: object) -> None:
        self.window = window
        self.view = window.view  # type: ignore[attr-defined]
        self.viewport = self.view.viewport()
        self.meter = FrameMeter(self.viewport)
        self.app = QApplication.instance()
        self._mid_frames: list[float] = []

    # -- the loop ------------------------------------------------------------------------------
    def _pump_until_paint(self, painted_before: int, limit_ms: float = 400.0) -> float:
        """Busy time (ms) of the loop until the viewport has painted after `painted_before`."""
        busy = 0.0
        deadline = time.perf_counter() + limit_ms / 1000
        while self.meter.paints == painted_before and time.perf_counter() < deadline:
            started = time.perf_counter()
            self.app.processEvents()
            spent = (time.perf_counter() - started) * 1000
            busy += spent
            if self.meter.paints == painted_before and spent < 0.3:
                time.sleep(0.0003)
        return busy

    def idle(self, ms: float) -> list[tuple[float, bool]]:
        """Run the loop for `ms`: the busy periods (ms, painted) it had."""
        periods = []
        deadline = time.perf_counter() + ms / 1000
        while time.perf_counter() < deadline:
            before = self.meter.paints
            started = time.perf_counter()
            self.app.processEvents()
            spent = (time.perf_counter() - started) * 1000
            painted = self.meter.paints > before
            if spent >= BUSY_MS or painted:
                periods.append((spent, painted))
            if spent < BUSY_MS:
                time.sleep(0.0005)
        return periods

    def send(self, event: QEvent, target: QObject | None = None, paints: bool = True) -> float:
        """One input and the frame it causes (ms of busy loop from delivery to painted); `paints`
        False: an input that ends a gesture without changing the picture (its settle frame comes later)."""
        before = self.meter.paints
        started = time.perf_counter()
        QApplication.sendEvent(target or self.viewport, event)
        handled = (time.perf_counter() - started) * 1000
        return handled + (self._pump_until_paint(before) if paints else 0.0)

    def gap(self, ms: float, gesture: Gesture) -> None:
        """The pause between two inputs of one gesture: a paint in it is a frame the person sees."""
        for spent, painted in self.idle(ms):
            if painted or spent > 16:
                gesture.frames.append(spent)

    def rest(self, gesture: Gesture, ms: float = 900.0) -> None:
        """The gesture is over: time the first full-quality frame and the longest busy period after."""
        periods = self.idle(ms)
        painted = [spent for spent, did_paint in periods if did_paint]
        if painted:
            gesture.settle.append(painted[0])
        gesture.after.append(max((spent for spent, _ in periods), default=0.0))

    # -- inputs ----------------------------------------------------------------------------------
    def hover(self, pos: QPointF) -> None:
        event = QMouseEvent(QEvent.Type.MouseMove, pos, self.viewport.mapToGlobal(pos), Qt.MouseButton.NoButton,
                            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(self.viewport, event)

    def wheel(self, pos: QPointF, angle: int, pixels: int = 0,
              phase: Qt.ScrollPhase = Qt.ScrollPhase.NoScrollPhase) -> float:
        event = QWheelEvent(pos, self.viewport.mapToGlobal(pos), QPoint(0, pixels), QPoint(0, angle),
                            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, phase, False)
        return self.send(event, paints=angle != 0)

    def mouse(self, kind: QEvent.Type, pos: QPointF, button: Qt.MouseButton, paints: bool = True) -> float:
        held = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseButtonRelease else button
        event = QMouseEvent(kind, pos, self.viewport.mapToGlobal(pos), button, held, Qt.KeyboardModifier.NoModifier)
        return self.send(event, paints=paints)

    def key(self, key: Qt.Key, text: str = "") -> float:
        return self.send(QKeyEvent(QEvent.Type.KeyPress, key, Qt.KeyboardModifier.NoModifier, text), self.view)


def open_window(workflow: Workflow, folder: Path) -> object:
    """The main window on `workflow`, shown at 1600×1000 with its docks, fitted and idle."""
    from app.document import Document
    from app.main_window import MainWindow

    window = MainWindow(Document(workflow), db=str(folder / "trace.db"))
    window.resize(1600, 1000)
    window.show()
    for name in ("palette", "inspector", "problems", "minimap"):
        window.docks[name].show()
    window.view.fit_to_view()
    return window
