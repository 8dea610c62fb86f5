"""`GuiThreadCollector`: Python's cycle collector runs on the GUI thread only, on a timer.

The automatic collector runs in whichever thread happens to allocate past its threshold — a worker of the
loop's executor reading the store, say. If a cycle it frees holds a Qt object (a panel's model, a widget
closure), the object is destroyed from that worker and Qt can crash. So the automatic collector is
turned off while the window lives, and this object checks the collector's own counters every
`interval_ms` on the GUI thread and collects the generations that are due, exactly as the thresholds
would have (the idea of pyqtgraph's `GarbageCollector`, which lives in a package the window must not
import at start-up). Reference counting still frees everything that is not in a cycle at once.

Invariants: while installed, `gc.isenabled()` is False; `stop()` (also on the application's
`aboutToQuit`) turns the automatic collector back on if it was on before.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer


class GuiThreadCollector(QObject):
    def __init__(self, parent: QObject | None = None, interval_ms: int = 1000) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        self.collections = 0
        self._was_enabled = gc.isenabled()
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)
        gc.disable()
        self._timer.start()

    def check(self) -> None:
        if collect_due(self.thresholds):
            self.collections += 1

    def stop(self) -> None:
        self._timer.stop()
        if self._was_enabled:
            gc.enable()


def collect_due(thresholds: tuple[int, ...] | None = None) -> bool:
    """What the automatic collector would have collected by now, on this thread: the oldest generation
    whose counter passed its threshold, and the younger ones. True when it collected."""
    due = -1
    for generation, (count, threshold) in enumerate(zip(gc.get_count(), thresholds or gc.get_threshold(),
                                                        strict=True)):
        if threshold <= 0 or count <= threshold:
            break
        due = generation
    if due >= 0:
        gc.collect(due)
    return due >= 0
