"""What the open-file benchmark watches: the event loop's longest stall (`Ticker`), the time spent in
named phases (`Phases`), when the Problems panel is current (`ProblemsWatch`), and `settle`."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication


class Ticker:
    """A 5 ms timer on the loop: the longest gap between its ticks is the longest stall a person felt."""

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.last = 0.0
        self.worst = 0.0

    def start(self) -> None:
        self.last, self.worst = time.perf_counter(), 0.0
        self.timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.worst = max(self.worst, now - self.last)
        self.last = now

    def stop(self) -> float:
        self.timer.stop()
        self._tick()
        return self.worst * 1000


class Phases:
    """Wall time spent inside named callables (wrapped on their instance or module until `restore`)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self._wrapped: list[tuple[Any, str, Any]] = []

    def restore(self) -> None:
        for owner, attribute, inner in reversed(self._wrapped):
            setattr(owner, attribute, inner)
        self._wrapped.clear()

    def wrap(self, owner: Any, attribute: str, name: str) -> None:
        inner: Callable[..., Any] = getattr(owner, attribute)
        self._wrapped.append((owner, attribute, inner))

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                self.spent[name] = self.spent.get(name, 0.0) + time.perf_counter() - start

        setattr(owner, attribute, timed)


class ProblemsWatch:
    """When the Problems panel last received a validation result."""

    def __init__(self, window: Any) -> None:
        self.at = 0.0
        self.panel = window.problems
        window.problems.model.problems_changed.connect(self._on_result)

    def _on_result(self, _problems: object) -> None:
        self.at = time.perf_counter()

    def wait_after(self, since: float, app: QApplication, limit_s: float = 20.0) -> float:
        """Seconds from `since` until the Problems panel is current (processing events meanwhile).

        The panel says when it is current; the panel before 2026-11-25 did not, and re-validated on
        every edit: then the first result after `since` counts."""
        deadline = time.perf_counter() + limit_s
        while time.perf_counter() < deadline:
            current = getattr(self.panel, "current", None)
            if current is True or (current is None and self.at > since):
                break
            app.processEvents()
            time.sleep(0.001)
        return max(self.at, since) - since


def settle(app: QApplication, seconds: float) -> None:
    """Run the event loop for `seconds`, as the window's own loop runs between a person's actions.

    A running loop, not `processEvents()` calls: Qt holds back what was `deleteLater`-ed outside any
    running loop (the bench's File ▸ New is called from here, not from a menu) until a loop runs, so a
    bench that only ever processed events kept every replaced document's retired inspector page and its
    workflow alive — ~143,000 Python blocks an open at 5,000 nodes that the app never keeps."""
    loop = QEventLoop()
    QTimer.singleShot(max(0, round(seconds * 1000)), loop.quit)
    loop.exec()
