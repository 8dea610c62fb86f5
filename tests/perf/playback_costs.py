"""Where a playback move's time goes, for `bench_playback`: each shown dock's GUI-thread time to show a
moment (`set_projection` / `apply_changes`, per call), and for a move made in the worker the queue it went
through: from the first mouse move it serves to its job starting (`wait`: behind the job in flight), the
job itself (`worker`: the run at the target and each dock's `prepare`), and from the job's end to the docks
shown (`show`: the loop getting to it, then the docks on the GUI thread).

`MoveCosts(window)` wraps the panels mounted and the controller's hooks in place (a benchmark's window
only); `phase` names the drag direction the figures are filed under (None: not recorded).
"""

from __future__ import annotations

import statistics
import threading
import time
from collections import defaultdict
from typing import Any

import app.controllers.playback_moves as playback_module
from tests.perf.open_run_frames import emit


class MoveCosts:
    def __init__(self, window: Any) -> None:
        self.phase: str | None = None
        self.docks: dict[tuple[str, str], list[float]] = defaultdict(list)  # (phase, dock) → ms per call
        self.queue: dict[tuple[str, str], list[float]] = defaultdict(list)  # (phase, part) → ms per move
        self._asks: list[tuple[float, int]] = []  # mouse moves not served yet: (perf_counter, seq asked)
        self._job: tuple[float, float, int] | None = None  # the newest job's start / end (perf_counter), target
        self._lock = threading.Lock()
        playback = window.runs.playback
        self._views = window.runs.views
        self._watched: set[str] = set()
        self.watch_panels()
        overlay = window.runs.views.scene.run
        for method in ("show", "apply"):
            setattr(overlay, method, self._timed("canvas", getattr(overlay, method)))
        seek, landed, run_at = playback.seek, playback._landed, playback_module._run_at

        def timed_seek(seq: int, **kw: Any) -> None:
            self._asks.append((time.perf_counter(), seq))
            seek(seq, **kw)

        def timed_run_at(checkpoints: Any, events: Any, target: int, *rest: Any) -> Any:
            start = time.perf_counter()
            try:
                return run_at(checkpoints, events, target, *rest)
            finally:
                with self._lock:
                    self._job = (start, time.perf_counter(), target)

        def timed_landed(projection: Any, t0: float) -> None:
            landed(projection, t0)
            now, job = time.perf_counter(), self._job
            self._job = None
            served = len(self._asks)  # a fold on the GUI thread serves the newest move
            if job is not None:  # a job serves the moves up to the newest that asked for its target
                served = max((i + 1 for i, (_, seq) in enumerate(self._asks) if seq == job[2]), default=0)
            asks, self._asks = self._asks[:served], self._asks[served:]
            if self.phase is None or not asks:
                return
            if job is not None:
                self.queue[self.phase, "wait"].append(max(0.0, job[0] - asks[-1][0]) * 1000)
                self.queue[self.phase, "worker"].append((job[1] - job[0]) * 1000)
                self.queue[self.phase, "show"].append((now - job[1]) * 1000)
            self.queue[self.phase, "total"].extend((now - t) * 1000 for t, _ in asks)

        playback.seek = timed_seek
        playback._landed = timed_landed
        playback_module._run_at = timed_run_at

    def watch_panels(self) -> None:
        """Time the panels mounted since (a dock built when first shown)."""
        for name, panel in self._views.panels.items():
            if name not in self._watched:
                self._watched.add(name)
                for method in ("set_projection", "apply_changes"):
                    if hasattr(panel, method):
                        setattr(panel, method, self._timed(name, getattr(panel, method)))

    def _timed(self, name: str, method: Any) -> Any:
        def timed(*args: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return method(*args)
            finally:
                if self.phase is not None:
                    self.docks[self.phase, name].append((time.perf_counter() - t0) * 1000)
        return timed

    def report(self, **common: object) -> None:
        """One JSON line per direction: each dock's median / p95 ms a call, and the queue's parts."""
        for phase in sorted({p for p, _ in self.docks} | {p for p, _ in self.queue}):
            docks = {name: spread(ms) for (p, name), ms in sorted(self.docks.items()) if p == phase}
            queue = {part: spread(ms) for (p, part), ms in sorted(self.queue.items()) if p == phase}
            total = self.queue.get((phase, "total"), [0.0])
            emit(f"playback_drag_{phase}_costs", statistics.median(total), "ms", docks_ms=docks, queue_ms=queue,
                 **common)


def spread(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    return {"median": round(statistics.median(ordered), 1), "p95": round(ordered[int(len(ordered) * 0.95)], 1),
            "n": len(ordered)}
