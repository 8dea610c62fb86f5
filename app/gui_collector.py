"""`GuiThreadCollector`: Python's cycle collector runs on the GUI thread only, on a timer, and it owns
what the window sets aside from the collector (`gc.freeze`).

The automatic collector runs in whichever thread happens to allocate past its threshold — a worker of the
loop's executor reading the store, say. If a cycle it frees holds a Qt object (a panel's model, a widget
closure), the object is destroyed from that worker and Qt can crash. So the automatic collector is
turned off while the window lives, and this object checks the collector's own counters every
`interval_ms` on the GUI thread and collects the generations that are due, exactly as the thresholds
would have (the idea of pyqtgraph's `GarbageCollector`, which lives in a package the window must not
import at start-up). Reference counting still frees everything that is not in a cycle at once.

Set-aside policy: the window freezes what a large document or a loaded run built (`gc.freeze`, O(1)),
so no collection walks it again and again. Frozen objects are never collected, so when some of them may
have become garbage — a document was replaced (`request_sweep`), the last engine run ended (the
engine's set-aside is given back through `request_sweep` too, never by unfreezing everything) — a
*sweep* is due: once the window has been left alone for `SWEEP_AFTER_S` with no mouse button held,
everything frozen is unfrozen, collected once and frozen again (~150–190 ms at 5,000 nodes, once).

Invariants: while installed, `gc.isenabled()` is False and the engine's set-aside ends in a sweep;
nothing is collected while a `gc_paused` block is under way (a canvas built in slices keeps one open);
`stop()` (also on the application's `aboutToQuit`) turns the automatic collector back on if it was on
before and gives the engine back its own way of ending a set-aside.
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QGuiApplication

from engine.gc_pause import collection_paused, on_set_aside_end

SWEEP_AFTER_S = 2.0
_sweep_at: float | None = None  # when a requested sweep is due (monotonic seconds)


def request_sweep() -> None:
    """Objects set aside may be garbage now: sweep them `SWEEP_AFTER_S` from now (any thread)."""
    global _sweep_at
    _sweep_at = time.monotonic() + SWEEP_AFTER_S


class GuiThreadCollector(QObject):
    def __init__(self, parent: QObject | None = None, interval_ms: int = 1000) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        self.collections = 0
        self.sweeps = 0
        self._was_enabled = gc.isenabled()
        self._engine_end = on_set_aside_end(request_sweep)
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)
        gc.disable()
        self._timer.start()

    def check(self) -> None:
        if collection_paused():  # a large structure is being built (a canvas in slices): not now
            return
        if _sweep_at is not None and time.monotonic() >= _sweep_at and not QGuiApplication.mouseButtons():
            self.sweep()
        elif collect_due(self.thresholds):
            self.collections += 1

    def sweep(self) -> None:
        """Collect everything, what was set aside too, then set aside again what is still alive."""
        global _sweep_at
        _sweep_at = None
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.sweeps += 1

    def stop(self) -> None:
        self._timer.stop()
        on_set_aside_end(self._engine_end)
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
