"""Playback re-shows the Timeline and Cost & tokens docks at an earlier moment by swapping data into what
they show (the Timeline's coverage cut from the whole run's, the Cost dock's prepared `CostView`): what
they show there equals what a fresh dock shows of `project(events, until_seq=seq)`, and the run's
frame (the person's zoom, the axes) stays put."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from engine import events as ev
from engine.projection import RunProjection, project
from tests.perf.synthetic_run import synthetic_run
from tests.widgets.stored_example_runs import stored_run
from widgets.cost import CostPanel
from widgets.run_panel import RunPanel
from widgets.timeline import TimelinePanel, gantt_item
from widgets.timeline.coverage import coverage_strips, pixel_ranges
from widgets.timeline.moment_cut import MomentCut, WholeRun
from widgets.timeline.render import Frame, colour_index
from widgets.timeline.span_arrays import SpanArrays


def _events(name: str = "synthetic") -> list[ev.Event]:
    """A synthetic run (interleaved lanes, retries, failures) or an example run (sub-graphs, critics, plans)."""
    return synthetic_run("reshow", executions=240, lanes=12) if name == "synthetic" else stored_run(name).events


def _seqs(events: list[ev.Event]) -> list[int]:
    last = events[-1].seq
    return [last - 1, last * 3 // 4, last // 2 + 7, last // 3, min(40, last // 5), 3]


def _strips_drawn(arrays: SpanArrays, now: float, frame: Frame) -> np.ndarray:
    """The strips `GanttItem` draws from the columns (its `_columns` selection, then `coverage_strips`)."""
    n = arrays.count
    end, start = arrays.ends(now), arrays.start[:n]
    sel = np.flatnonzero((end >= frame.t_lo) & (start <= frame.t_hi))
    px0, px1 = pixel_ranges(start[sel], end[sel], frame.sx, frame.ox, frame.width)
    kind = arrays.kind[:n][sel]
    return coverage_strips(px0, px1, arrays.lane[:n][sel], colour_index(kind, arrays.group[:n][sel]), kind >= 2,
                           len(arrays.lane_ids), frame.width)


def _frames(t_end: float, lanes: int) -> list[Frame]:
    out = []
    for lo, hi, width in ((0.0, t_end * 1.02, 900), (t_end * 0.3, t_end * 0.55, 640), (-1.0, t_end / 3, 333)):
        sx = width / (hi - lo)
        out.append(Frame(lo, hi, sx, -sx * lo, 10.0, 0.0, width, 10 * lanes, lanes))
    return out


@pytest.mark.parametrize(("run", "whole_at"), [("synthetic", None), ("synthetic", 0.8), ("research", None),
                                              ("code_fix", None), ("hanoi", 0.6)])
def test_cut_strips_equal_the_moments_own(run: str, whole_at: float | None) -> None:
    """The whole run finished, or live and left at `whole_at` of it (spans still open, lanes still to come)."""
    events = _events(run)
    upto = None if whole_at is None else int(events[-1].seq * whole_at)
    whole_p = project(events, until_seq=upto)
    whole = WholeRun(SpanArrays.of(whole_p), whole_p.elapsed_s)
    for seq in _seqs(events):
        if upto is not None and seq > upto:
            continue
        at = project(events, until_seq=seq)
        moment = SpanArrays.of(at)
        cut = MomentCut.of(whole, moment, at.elapsed_s)
        assert cut is not None
        for frame in _frames(whole_p.elapsed_s, len(moment.lane_ids)):
            assert np.array_equal(cut.strips(frame, moment, at.elapsed_s),
                                  _strips_drawn(moment, at.elapsed_s, frame)), (seq, frame)


def test_a_cut_refuses_arrays_of_another_run_or_changed_since() -> None:
    events = _events()
    whole_p = project(events)
    whole = WholeRun(SpanArrays.of(whole_p), whole_p.elapsed_s)
    other = project(synthetic_run("other", executions=30, lanes=12))
    assert MomentCut.of(whole, SpanArrays.of(other), other.elapsed_s) is None
    at = project(events, until_seq=500)
    moment = SpanArrays.of(at)
    cut = MomentCut.of(whole, moment, at.elapsed_s)
    assert cut is not None
    frame = _frames(whole_p.elapsed_s, len(moment.lane_ids))[0]
    moment.scan_events(project(events, until_seq=600))  # the arrays changed: the cut no longer answers
    assert cut.strips(frame, moment, at.elapsed_s) is None


def _shown(qtbot: QtBot, panel: RunPanel, projection: RunProjection, *, moment: bool, prepared: bool = True) -> None:
    """As `RunViews.show_projection` gives a panel a projection (playback: prepared in the worker first;
    `prepared` False: built by the panel itself, as for a live run)."""
    if not panel.isVisible():
        qtbot.addWidget(panel)
        panel.resize(1000, 520)
        panel.show()
        qtbot.waitExposed(panel)
    if prepared:
        panel.use_prepared(type(panel).prepare(projection))
    panel.clock_running = not moment
    panel.set_projection(projection)


def _picture(panel: TimelinePanel) -> QImage:
    panel.item.wait_idle()
    return panel.plot.grab().toImage()


@pytest.mark.parametrize("coverage", [True, False])  # coverage pictures (cut) and exact rectangles
def test_timeline_at_a_moment_draws_what_a_fresh_timeline_of_that_moment_draws(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, coverage: bool) -> None:
    if coverage:
        monkeypatch.setattr(gantt_item, "SYNC_RECTS", 0)
        monkeypatch.setattr(gantt_item, "COVERAGE_ABOVE", 0)
    events = _events()
    scrubbed = TimelinePanel()
    _shown(qtbot, scrubbed, project(events), moment=False)
    _picture(scrubbed)
    frame = scrubbed.view_box.viewRange()
    for seq in _seqs(events):
        at = project(events, until_seq=seq)
        _shown(qtbot, scrubbed, at, moment=True)
        assert isinstance(scrubbed.item.strip_source, MomentCut)
        fresh = TimelinePanel()
        _shown(qtbot, fresh, project(events, until_seq=seq), moment=True, prepared=False)
        assert np.array_equal(scrubbed.arrays.start[:scrubbed.arrays.count], fresh.arrays.start[:fresh.arrays.count])
        fresh.view_box.setRange(xRange=frame[0], yRange=frame[1], padding=0)
        assert scrubbed.view_box.viewRange() == frame  # the run's frame stays while scrubbing
        assert _picture(scrubbed) == _picture(fresh), seq
        fresh.close()


def test_timeline_stepped_forward_from_a_moment_draws_that_moment(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gantt_item, "SYNC_RECTS", 0)
    monkeypatch.setattr(gantt_item, "COVERAGE_ABOVE", 0)
    events = _events()
    scrubbed = TimelinePanel()
    _shown(qtbot, scrubbed, project(events), moment=False)
    cursor = project(events, until_seq=900)
    _shown(qtbot, scrubbed, cursor, moment=True)
    cursor.apply_many([e for e in events if 900 < e.seq <= 1150])  # as playback folds a step forward
    scrubbed.apply_changes(cursor.take_changes())
    assert isinstance(scrubbed.item.strip_source, MomentCut)
    fresh = TimelinePanel()
    _shown(qtbot, fresh, project(events, until_seq=1150), moment=True, prepared=False)
    fresh.view_box.setRange(xRange=scrubbed.view_box.viewRange()[0], yRange=scrubbed.view_box.viewRange()[1],
                            padding=0)
    assert _picture(scrubbed) == _picture(fresh)


def test_timeline_keeps_the_persons_zoom_while_scrubbing(qtbot: QtBot) -> None:
    events = _events()
    panel = TimelinePanel()
    _shown(qtbot, panel, project(events), moment=False)
    panel.view_box.setXRange(2.0, 5.0, padding=0)
    panel._on_view_range_changed_manually(None)
    zoomed = panel.view_box.viewRange()[0]
    _shown(qtbot, panel, project(events, until_seq=events[-1].seq // 2), moment=True)
    assert panel.view_box.viewRange()[0] == zoomed and not panel.follow
    other = synthetic_run("another", executions=20, lanes=3)
    _shown(qtbot, panel, project(other), moment=False)  # another run: fitted whole again
    assert panel.follow and panel.view_box.viewRange()[0][1] >= other[-1].ts


def _cells(model: object) -> list[list[object]]:
    rows, cols = model.rowCount(), model.columnCount()  # type: ignore[attr-defined]
    return [[model.index(r, c).data() for c in range(cols)] for r in range(rows)]  # type: ignore[attr-defined]


def _cost_state(panel: CostPanel) -> dict[str, object]:
    return {
        "curves": [[[] if a is None else a.tolist() for a in curve.getData()] for plot in (panel.cost_plot, panel.tokens_plot)
                   for curve in (plot.curve, plot.node_curve)],
        "titles": [panel.cost_plot.title_shown, panel.tokens_plot.title_shown],
        "gauges": {name: (g.used, g.limit, g.text) for name, g in panel.gauges.items()},
        "nodes": _cells(panel.node_model), "models": _cells(panel.model_model), "total": panel.total.text(),
    }


@pytest.mark.parametrize("node_filter", [None, "n3"])
def test_cost_at_a_moment_shows_what_a_fresh_cost_dock_of_that_moment_shows(qtbot: QtBot, node_filter: str | None) -> None:
    events = _events()
    scrubbed = CostPanel()
    scrubbed.set_node_filter(node_filter)
    _shown(qtbot, scrubbed, project(events), moment=False)
    whole_x = scrubbed.cost_plot.view_box.viewRange()[0]
    for seq in _seqs(events):
        _shown(qtbot, scrubbed, project(events, until_seq=seq), moment=True)
        fresh = CostPanel()
        fresh.set_node_filter(node_filter)
        _shown(qtbot, fresh, project(events, until_seq=seq), moment=True, prepared=False)
        assert _cost_state(scrubbed) == _cost_state(fresh), seq
        assert scrubbed.cost_plot.view_box.viewRange()[0] == whole_x  # the run's time axis stays while scrubbing
        fresh.close()


def test_cost_rows_of_another_moment_are_swapped_in_keeping_the_selection(qtbot: QtBot) -> None:
    events = stored_run("research").events
    panel = CostPanel()
    _shown(qtbot, panel, project(events), moment=False)
    panel.node_table.selectRow(1)
    resets: list[bool] = []
    panel.node_model.modelReset.connect(lambda: resets.append(True))
    _shown(qtbot, panel, project(events, until_seq=events[-1].seq - 1), moment=True)
    assert not resets and panel.node_table.selectionModel().selectedRows()[0].row() == 1


def test_cost_without_a_run_shows_no_rows(qtbot: QtBot) -> None:
    panel = CostPanel()
    _shown(qtbot, panel, project(_events()), moment=False)
    assert panel.node_model.rowCount() and panel.model_model.rowCount()
    panel.set_projection(None)
    assert panel.node_model.rowCount() == panel.model_model.rowCount() == 0 and panel.total.text() == "No run"


def test_lanes_added_to_a_live_run_are_labelled(qtbot: QtBot) -> None:
    events = _events()
    live = project(events, until_seq=1)
    panel = TimelinePanel()
    _shown(qtbot, panel, live, moment=False, prepared=False)
    live.apply_many(events[1:200])
    panel.apply_changes(live.take_changes())
    axis = panel.axis
    assert axis.labels is panel.arrays.lane_labels and len(axis.labels) > 1
    assert axis.tickStrings([len(axis.labels) - 0.5], 1.0, 1.0) == [panel.arrays.lane_labels[-1]]
    qtbot.waitUntil(lambda: axis._drawn == axis.labels)  # the live tick drops the picture for the new lanes


def test_timeline_back_at_the_end_shows_the_whole_run_from_what_it_kept(qtbot: QtBot) -> None:
    events = _events()
    panel = TimelinePanel()
    _shown(qtbot, panel, project(events), moment=False)
    whole, kept = panel.arrays, panel.item.strip_source
    picture = _picture(panel)
    _shown(qtbot, panel, project(events, until_seq=events[-1].seq // 2), moment=True)
    _shown(qtbot, panel, project(events), moment=False)  # playback back at the end: prepared again in a worker
    assert panel.arrays is whole and panel.item.strip_source is kept
    assert _picture(panel) == picture
