"""Playback in the window: the docks and the canvas overlay at event N are the shared projection stopped
at N; steps land on what they name; play reaches the end; a live run keeps recording while the view is
scrubbed back; `RunController.show_at` opens a past run at an event and selects it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import qasync
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, until

from engine import events as ev
from engine.projection import project
from tests.engine.projection.projection_state import projection_state
from tests.perf.synthetic_run import synthetic_run


def _landed(window: Any, seq: int) -> bool:
    playback = window.runs.playback
    shown = playback.shown
    return (not playback.following and shown is not None and playback.cursor is shown
            and shown.last_seq == seq and playback._target is None and not playback._move.isActive())


def _every_dock_shows(window: Any, events: list[ev.Event], seq: int) -> None:
    """Raise each run dock in turn (a hidden dock catches up when shown): each holds the run at `seq`."""
    expected = projection_state(project(events, until_seq=seq))
    for name, panel in window.runs.views.panels.items():
        window.docks[name].raise_()
        window.docks[name].show()
        assert panel.projection is window.runs.playback.cursor, name
        assert projection_state(panel.projection) == expected, name
    trace = window.runs.views.panels["trace"]
    at_seq = window.runs.playback.cursor
    assert trace.model.now() in (None, at_seq.elapsed_s)  # an open span lasts until this event, not the wall clock
    overlay = window.scene.run
    assert overlay.projection is window.runs.playback.cursor
    at = project(events, until_seq=seq)
    for node_id, row in at.nodes.items():
        if node_id in overlay.decor:
            assert overlay.decor[node_id].state == (row.state if row.state != "-" else "queued"), node_id


async def _finished_run(window: Any) -> str:
    run_id = await window.runs.start_run({}, {})
    assert run_id is not None
    await window.runs.runs[run_id].task
    window.runs.close_run(run_id)
    assert await window.runs.open_stored_run(run_id) == run_id
    return run_id


def test_the_docks_and_the_overlay_at_event_n_are_the_projection_stopped_at_n(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "research")
    playback = window.runs.playback

    async def scenario() -> list[ev.Event]:
        run_id = await _finished_run(window)
        events = list(window.runs.runs[run_id].projection.events)
        assert window.playback_bar.isVisible() and playback.following and playback.seq == events[-1].seq
        for seq in (len(events) // 2, len(events) // 2 + 7, 3, len(events) - 2):  # back, forward, back, forward
            playback.seek(seq)
            await until(lambda s=seq: _landed(window, s))  # type: ignore[misc]
            _every_dock_shows(window, events, seq)
        playback.seek(events[-1].seq)  # the end: the whole run, as it is (the docks prepared in a worker first)
        assert playback.following and playback.cursor is None
        whole = window.runs.selected.projection
        await until(lambda: all(p.projection is whole for p in window.runs.views.panels.values()))
        assert window.scene.run.projection is whole
        return events

    events = drive(gui_loop, scenario())
    assert window.playback_bar.position.text().endswith(f"event {events[-1].seq:,} of {events[-1].seq:,}")


def test_step_to_the_next_verdict_lands_on_it_and_selects_it(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "research")
    playback = window.runs.playback

    async def scenario() -> tuple[int, int]:
        run_id = await _finished_run(window)
        events = window.runs.runs[run_id].projection.events
        verdict = next(e.seq for e in events if isinstance(e, ev.VerdictIssued))
        playback.seek(1)
        await until(lambda: _landed(window, 1))
        window.playback_bar.actions_by_name["next_verdict"].trigger()
        await until(lambda: _landed(window, verdict))
        window.docks["events"].raise_()
        await asyncio.sleep(0.05)
        panel = window.runs.views.panels["events"]
        current = panel.model.event_at(panel.view.currentIndex().row())
        return verdict, current.seq if current is not None else -1

    verdict, selected = drive(gui_loop, scenario())
    assert selected == verdict
    assert isinstance(window.runs.playback.shown.events[-1], ev.VerdictIssued)


def test_play_as_fast_as_possible_reaches_the_end_and_shows_the_whole_run(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "research")
    playback = window.runs.playback

    async def scenario() -> list[int]:
        await _finished_run(window)
        playback.set_speed(0.0)
        seen: list[int] = []
        playback.position_changed.connect(lambda: seen.append(playback.seq))
        playback.play()  # from the end of a finished run: starts over
        await until(lambda: not playback.playing, timeout=60)
        return seen

    seen = drive(gui_loop, scenario())
    assert playback.following and playback.seq == playback.end_seq
    assert seen == sorted(seen) and len(set(seen)) >= 3 and seen[-1] == playback.end_seq  # forward only, to the end


class DripSource:
    """A live run whose events arrive in small batches until it is told to finish."""

    def __init__(self, events: list[ev.Event]) -> None:
        self.run_id = events[0].run_id
        self.events = events

    async def event_batches(self) -> Any:
        for start in range(0, len(self.events), 40):
            await asyncio.sleep(0.004)
            yield self.events[start:start + 40]

    async def wait(self) -> None:
        return None

    def cancel(self) -> None: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def step(self) -> None: ...
    def set_breakpoint(self, node_id: str, on: bool = True) -> None: ...
    def submit_human_decision(self, node_id: str, decision: Any, edited: Any = None, reason: str = "") -> None: ...


def test_a_live_run_keeps_recording_while_the_view_is_scrubbed_back(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, None)
    playback = window.runs.playback
    events = synthetic_run("drip", executions=400, lanes=8)

    async def scenario() -> None:
        live = window.runs.attach(DripSource(events), name="Drip")
        await until(lambda: live.projection.last_seq > 1500)
        assert window.playback_bar.live_label.isVisible()
        playback.seek(700)
        await until(lambda: _landed(window, 700))
        assert window.playback_bar.live_button.isVisible() and not window.playback_bar.live_label.isVisible()
        grown = live.projection.last_seq
        await until(lambda: live.projection.last_seq > grown + 1500)
        assert live.live  # not paused by the scrubbing
        _every_dock_shows(window, events, 700)
        window.playback_bar.live_button.click()  # back to live: follows the run again
        assert playback.following
        assert all(p.projection is live.projection for p in window.runs.views.panels.values())
        await live.task
        await asyncio.sleep(0.1)
        assert playback.seq == events[-1].seq

    drive(gui_loop, scenario())
    assert projection_state(window.runs.selected.projection) == projection_state(project(events))


def test_show_at_opens_a_past_run_at_an_event_and_selects_it(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")

    async def scenario() -> tuple[int, str]:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        window.runs.close_run(run_id)
        events = await asyncio.get_running_loop().run_in_executor(None, lambda: list(
            window.runs._store.iter_events(run_id)))
        target = next(e for e in events if isinstance(e, ev.LLMCallStarted))
        assert await window.runs.show_at(run_id, target.seq) == run_id
        await until(lambda: _landed(window, target.seq))
        await asyncio.sleep(0.05)
        trace = window.runs.views.panels["trace"]
        return target.seq, trace.model.span_id(trace._to_source(trace.view.currentIndex()))

    seq, span = drive(gui_loop, scenario())
    target = window.runs.playback.shown.events[-1]
    assert target.seq == seq and span == target.span_id
