"""Playback of a past run, as a person feels it: the ~100,000-event synthetic run (`tests.perf.synthetic_run`)
stored and opened in the REAL window (`MainWindow`, every run dock shown, offscreen 1600×900, the qasync
loop running), then moved through with the playback bar under the canvas.

Figures (JSON lines, `/proc/loadavg` beside each):
- `playback_checkpoint_build_ms`: the checkpoints built in the worker on the first move back (whole run),
  with their count and `playback_checkpoints_rss_mb` (the process's RSS after them minus before);
- `playback_drag_{forward,backward}_frame_ms`: the scrubber's track dragged with real mouse events (QTest,
  8 px a move, a move every 16 ms as under a hand, the loop running between moves) from 15 % to 85 % of
  the run and back, three times; a frame is from a mouse move to the window having painted that moment
  or a later one the hand asked for (a move the next one overtook lands with it); median / p95 / max
  (target ≤ 50 ms), with `until_idle_ms` beside it: the rule used before 2026-11-26, where every move
  waiting landed only when nothing at all was pending (under a hand faster than a frame: the drag's end);
  `…_timeline_frame_ms`: the same with the Timeline and Cost & tokens docks in front of their tabs (docks
  with a `prepare`: each makes a moment's part on the GUI thread, `RunPanel.prepare_here`); `playback_drag_loop_stall_max_ms`: the longest
  the GUI loop was blocked during the drags (a 5 ms ticker's lateness);
- `playback_drag_{direction}_costs`: each shown dock's GUI-thread time a call (`set_projection` /
  `apply_changes`; `canvas`: the run overlay) and a move's queue: `total` (mouse move → docks
  given the moment, before paint), and for a move made in a worker `wait` (behind the job in flight),
  `worker`, `show` (`tests/perf/playback_costs.py`);
- `playback_step_frame_ms`: next event / next span / next verdict (the bar's actions), 40 of each;
- `playback_play_100x_frame_ms` / `playback_play_max_speed_frame_ms`: playing from 10 % of the run at 100×
  for 0.5 s and as fast as possible for 1 s: the GUI-thread time of each move shown (fold + docks), and
  the loop's longest stall meanwhile (paint included);
- `playback_peak_rss_mb`.

Run: `.venv/bin/python -m tests.perf.bench_playback` (prints JSON lines).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections import defaultdict
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from tests.perf.bench_open_run import RUN_ID, SIZE, rss_mb, window_with_stored_run
from tests.perf.open_run_frames import emit
from tests.perf.playback_costs import MoveCosts, spread

HAND_S = 0.016
DRAG_PX = 8


def stats(name: str, frames: list[float], **extra: object) -> None:
    ordered = sorted(frames)
    emit(name, statistics.median(ordered), "ms", p95_ms=round(ordered[int(len(ordered) * 0.95)], 2),
         max_ms=round(ordered[-1], 2), frames=len(ordered), target_ms=50, **extra)


async def until_idle(playback: Any) -> None:
    """Until the position asked for is shown (no move pending, no worker job), then one loop pass (paint)."""
    while playback._target is not None or playback._move.isActive() or (
            playback._job is not None and not playback._job.done()):
        await asyncio.sleep(0.001)
    await asyncio.sleep(0)


def _idle(playback: Any) -> bool:
    return playback._target is None and (playback._job is None or playback._job.done()) \
        and not playback._move.isActive()


async def drag(window: Any, playback: Any, costs: MoveCosts, label: str = "") -> dict[str, list[float]]:
    """Frames by direction under two rules: "forward" / "backward", a move is shown once the window has
    painted its moment or a later one the hand asked for (what a person sees); "…_idle", the rule this
    benchmark used before — every move waiting lands only when nothing at all is pending, which under a
    hand faster than a frame is the end of the drag."""
    track = window.playback_bar.track
    y = track.height() // 2
    left, right = int(track.width() * 0.15), int(track.width() * 0.85)
    frames: dict[str, list[float]] = defaultdict(list)
    for _ in range(3):
        QTest.mousePress(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(left, y))
        await until_idle(playback)
        for xs, phase in ((range(left, right, DRAG_PX), f"forward{label}"), (range(right, left, -DRAG_PX), f"backward{label}")):
            costs.phase = phase
            asked: list[tuple[float, int]] = []  # moves not shown yet: (when, the seq asked)
            waiting: list[float] = []  # the rule before: moves waiting for an idle moment
            for x in xs:
                start = time.perf_counter()
                QTest.mouseMove(track, QPoint(x, y))
                asked.append((start, playback.seq))
                waiting.append(start)
                while time.perf_counter() < start + HAND_S:  # the hand's cadence: the loop runs meanwhile
                    await asyncio.sleep(0.001)
                    shown = playback.cursor.last_seq if playback.cursor is not None else None
                    served = max((i + 1 for i, (_, seq) in enumerate(asked) if seq == shown), default=0)
                    idle = waiting and _idle(playback)
                    if served or idle:
                        await asyncio.sleep(0)  # the paint pass
                        now = time.perf_counter()
                        frames[phase].extend((now - t) * 1000 for t, _ in asked[:served])
                        asked = asked[served:]
                        if idle:
                            frames[phase + "_idle"].extend((now - t) * 1000 for t in waiting)
                            waiting = []
            await until_idle(playback)
            now = time.perf_counter()
            frames[phase].extend((now - t) * 1000 for t, _ in asked)
            frames[phase + "_idle"].extend((now - t) * 1000 for t in waiting)
            costs.phase = None
        QTest.mouseRelease(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(left, y))
    return frames


async def steps(window: Any, playback: Any) -> list[float]:
    frames = []
    playback.seek(playback.end_seq // 3)
    await until_idle(playback)
    for name in ("next_event", "next_span", "next_verdict", "previous_event", "previous_span", "previous_verdict"):
        action = window.playback_bar.actions_by_name[name]
        for _ in range(40):
            t0 = time.perf_counter()
            action.trigger()
            await until_idle(playback)
            frames.append((time.perf_counter() - t0) * 1000)
    return frames


async def play(playback: Any, speed: float, seconds: float) -> list[float]:
    """Play from 10 % of the run for `seconds` (short of its end); the GUI-thread time of each move shown."""
    playback.seek(playback.end_seq // 10)
    await until_idle(playback)
    playback.set_speed(speed)
    start = len(playback.frame_ms)
    playback.play()
    await asyncio.sleep(seconds)
    playback.pause()
    await until_idle(playback)
    return playback.frame_ms[start:]


def main() -> None:
    window, loop, count = window_with_stored_run("triadic-bench-playback-")
    playback = window.runs.playback
    stalls: list[float] = []
    peak = [rss_mb()]

    async def ticker(done: asyncio.Event) -> None:
        while not done.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.005)
            stalls.append((time.perf_counter() - start - 0.005) * 1000)
            peak[0] = max(peak[0], rss_mb())

    async def scenario() -> None:
        await window.runs.store()
        assert await window.runs.open_stored_run(RUN_ID) == RUN_ID
        await asyncio.sleep(0.3)
        before = rss_mb()
        t0 = time.perf_counter()
        playback.seek(playback.end_seq - 10)
        await until_idle(playback)
        first_back = (time.perf_counter() - t0) * 1000
        checkpoints = playback.checkpoints
        common = {"events": count, "window": f"{SIZE[0]}x{SIZE[1]}", "docks": len(window.docks)}
        emit("playback_checkpoint_build_ms", checkpoints.build_s * 1000, "ms", checkpoints=len(checkpoints),
             every_events=checkpoints.every, first_move_back_ms=round(first_back, 1), **common)
        emit("playback_checkpoints_rss_mb", rss_mb() - before, "MB", rss_before_mb=round(before, 1), **common)
        done = asyncio.Event()
        tick = asyncio.ensure_future(ticker(done))
        costs = MoveCosts(window)
        frames = await drag(window, playback, costs)
        drag_stall = max(stalls)
        stalls.clear()
        shown = sorted(n for n, p in window.runs.views.panels.items() if p.isVisible())
        for name in ("timeline", "cost"):  # the docks that build in a worker in front of their tabs: drag again
            window.docks[name].raise_()
        await asyncio.sleep(0.5)
        stalls.clear()  # building the two docks on first show is the open-run benchmark's figure
        costs.watch_panels()
        shown_heavy = sorted(n for n, p in window.runs.views.panels.items() if p.isVisible())
        frames.update(await drag(window, playback, costs, "_timeline"))
        heavy_stall = max(stalls)
        stalls.clear()
        step_frames = await steps(window, playback)
        step_stall = max(stalls)
        stalls.clear()
        play_frames = await play(playback, 100.0, 0.5)  # 50 s of the run's 71 s
        play_stall = max(stalls)
        stalls.clear()
        max_frames = await play(playback, 0.0, 1.0)
        max_stall = max(stalls)
        done.set()
        await tick
        for phase in ("forward", "backward", "forward_timeline", "backward_timeline"):
            stats(f"playback_drag_{phase}_frame_ms", frames[phase], until_idle_ms=spread(frames[phase + "_idle"]),
                  shown=shown_heavy if phase.endswith("timeline") else shown, **common)
        emit("playback_drag_loop_stall_max_ms", drag_stall, "ms", target=50, with_timeline_ms=round(heavy_stall, 1),
             **common)
        costs.report(**common)
        stats("playback_step_frame_ms", step_frames, loop_stall_max_ms=round(step_stall, 1), **common)
        stats("playback_play_100x_frame_ms", play_frames, loop_stall_max_ms=round(play_stall, 1), **common)
        stats("playback_play_max_speed_frame_ms", max_frames, loop_stall_max_ms=round(max_stall, 1),
              seq_reached=playback.seq, **common)
        emit("playback_peak_rss_mb", peak[0], "MB", **common)

    loop.run_until_complete(scenario())
    window.document.undo_stack.setClean()
    window.close()
    loop.close()


if __name__ == "__main__":
    main()
