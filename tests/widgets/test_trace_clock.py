"""The Trace reads the docks' one clock (`RunPanel.run_time`, the Timeline's and the Deadline gauge's): a
running span's duration in the Trace equals its bar's on the Timeline — at a playback moment (also after
the Trace rewinds in place to an earlier one) and live, between events; a finished run's never-ended
span has none. A dock given the live run again with nothing new (its tab raised) keeps the run's time."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from engine import events as ev
from engine.projection import RunProjection, project
from tests.widgets.run_clock_fixtures import shown
from widgets.cost import CostPanel
from widgets.run_panel import RunPanel
from widgets.timeline import TimelinePanel
from widgets.trace import TracePanel
from widgets.trace.trace_cells import DURATION, duration
from widgets.trace.trace_format import fmt_duration

RUNNING = "a#1"


def _run() -> list[ev.Event]:
    """Node `a` running from 0.5 s; a log at 28.6 s while it still works."""
    r = "r"
    return [
        ev.RunStarted(run_id=r, seq=1, ts=0.0, workflow_id="w", workflow_name="W", workflow_hash="h"),
        ev.RunPlanned(run_id=r, seq=2, ts=0.0, nodes=[["a", "Alpha", "executor"]]),
        ev.NodeStateChanged(run_id=r, seq=3, ts=0.5, span_id=RUNNING, parent_id="run", node_id="a", state="running"),
        ev.LogMessage(run_id=r, seq=4, ts=12.0, node_id="a", message="working"),
        ev.LogMessage(run_id=r, seq=5, ts=28.6, node_id="a", message="still working"),
    ]


def _docks(qtbot: QtBot, projection: RunProjection, *, live: bool) -> tuple[TracePanel, TimelinePanel]:
    return shown(qtbot, projection, TracePanel(), live=live), shown(qtbot, projection, TimelinePanel(), live=live)


def _later(first: RunPanel, second: RunPanel) -> float:
    """How much later `second` noted the live run than `first` (docks shown one after the other, a moment
    apart, longer on a busy machine): `first`'s clock reads that much ahead of `second`'s."""
    return second._received[1] - first._received[1]


def _durations(trace: TracePanel, timeline: TimelinePanel) -> tuple[float | None, float]:
    p = trace.projection
    assert p is not None
    on_trace = duration(p.span_table.spans[RUNNING], trace.model.now())
    arrays, row = timeline.arrays, timeline.arrays.row_of[RUNNING]
    return on_trace, float(arrays.ends(timeline.run_time())[row] - arrays.start[row])


def test_at_a_playback_moment_a_running_span_lasts_as_long_as_on_the_timeline(qtbot: QtBot) -> None:
    events = _run()
    trace, timeline = _docks(qtbot, project(events), live=False)
    assert trace.model.now() == trace.run_time() == timeline.run_time() == 28.6
    assert _durations(trace, timeline) == (pytest.approx(28.1), pytest.approx(28.1))
    earlier = project(events, until_seq=4)
    for panel in (trace, timeline):
        panel.set_projection(earlier)  # the same run, earlier: the Trace rewinds its rows in place
    assert trace.model.now() == timeline.run_time() == 12.0
    assert _durations(trace, timeline) == (pytest.approx(11.5), pytest.approx(11.5))
    cell = trace.model.index_of(RUNNING).siblingAtColumn(DURATION)
    assert trace.model.data(cell) == fmt_duration(11.5)  # what the Trace says


def test_live_the_trace_follows_the_clock_between_events_as_the_timeline(qtbot: QtBot) -> None:
    trace, timeline = _docks(qtbot, project(_run()), live=True)
    qtbot.wait(350)  # no event comes: the run's time still goes on
    on_trace, on_timeline = _durations(trace, timeline)
    assert on_trace is not None and on_trace > 28.3
    assert on_trace == pytest.approx(on_timeline + _later(trace, timeline), abs=0.02)
    finished = project([*_run(), ev.RunFinished(run_id="r", seq=6, ts=29.0, status="succeeded", duration_s=29.0)])
    for panel in (trace, timeline):
        panel.set_projection(finished)
    assert trace.model.now() is None and _durations(trace, timeline)[0] is None  # never ended: no duration


def test_a_dock_given_the_run_again_with_nothing_new_keeps_the_runs_time(qtbot: QtBot) -> None:
    projection = project(_run())
    trace, timeline = _docks(qtbot, projection, live=True)
    cost = shown(qtbot, projection, CostPanel(), live=True)
    qtbot.wait(400)
    for panel in (trace, cost):
        panel.set_projection(projection)  # e.g. its tab raised: the last event came 0.4 s ago, not now
    assert cost.run_time() > 28.9  # counted from when the docks were shown, not from now
    assert cost.run_time() == pytest.approx(timeline.run_time() - _later(timeline, cost), abs=0.02)
    on_trace, on_timeline = _durations(trace, timeline)
    assert on_trace == pytest.approx(on_timeline + _later(trace, timeline), abs=0.02)
