"""Timeline panel: one bar per stored span on a lane per node, clicks select spans, live batches extend
the arrays without a reset, waiting and retries are drawn, every busy lane shows at any zoom."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPalette
from pytestqt.qtbot import QtBot

from engine import events as ev
from engine.projection import RunProjection, project
from tests.widgets.stored_example_runs import NAMES, stored_run
from widgets.timeline import TimelinePanel
from widgets.timeline.colors import DARK, LIGHT
from widgets.timeline.render import COVERAGE_ABOVE


def _panel(qtbot: QtBot, projection: RunProjection | None) -> TimelinePanel:
    panel = TimelinePanel()
    qtbot.addWidget(panel)
    panel.resize(1000, 500)
    panel.set_projection(projection)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def _frame(panel: TimelinePanel) -> QImage:
    panel.item.wait_idle()
    return panel.plot.grab().toImage()


@pytest.mark.parametrize("name", NAMES)
def test_one_bar_per_stored_span(qtbot: QtBot, name: str) -> None:
    stored = stored_run(name)
    panel = _panel(qtbot, project(stored.events))
    arrays = panel.arrays
    assert arrays.count == len(stored.spans) > 0
    assert set(arrays.span_ids) == {s.span_id for s in stored.spans}
    by_id = {s.span_id: s for s in stored.spans}
    for i, span_id in enumerate(arrays.span_ids):
        span = by_id[span_id]
        assert arrays.start[i] == pytest.approx(span.start_ts)
        assert arrays.end[i] == pytest.approx(span.end_ts)  # a finished run: every span ended
        lane_node = arrays.lane_ids[arrays.lane[i]]
        assert lane_node == ("" if span.kind == "run" else span.node_id)
    assert panel.item.rebuilds == 0 or panel.item._picture is not None
    _frame(panel)
    assert panel.item.rebuilds >= 1


def test_lanes_are_node_titles_in_plan_order(qtbot: QtBot) -> None:
    projection = project(stored_run("research").events)
    panel = _panel(qtbot, projection)
    assert panel.arrays.lane_labels == ["Run", *(row.title for row in projection.nodes.values())]
    assert panel.axis.tickStrings([i + 0.5 for i in range(3)], 1, 1)[1] == "Question"


def test_sub_graph_nodes_are_labelled_with_their_graph() -> None:
    projection = RunProjection.for_nodes([("sub", "Research", "subgraph"), ("sub/answer", "Answer", "executor")])
    from widgets.timeline.span_arrays import SpanArrays

    arrays = SpanArrays()
    arrays.sync_lanes(projection)
    assert arrays.lane_labels[arrays.lane_of["sub/answer"]] == "Research › Answer"


def test_click_on_a_bar_emits_its_span_and_node(qtbot: QtBot) -> None:
    projection = project(stored_run("triad").events)
    panel = _panel(qtbot, projection)
    _frame(panel)
    arrays = panel.arrays
    row = next(i for i in range(arrays.count) if arrays.kind[i] == 1)  # a node execution
    centre = QPointF((arrays.start[row] + arrays.end[row]) / 2, arrays.lane[row] + 0.25)
    scene = panel.view_box.mapViewToScene(centre)
    at = panel.plot.mapFromScene(scene)
    spans: list[str] = []
    nodes: list[str] = []
    panel.span_selected.connect(spans.append)
    panel.node_selected.connect(nodes.append)
    qtbot.mouseClick(panel.plot.viewport(), Qt.MouseButton.LeftButton, pos=at)
    qtbot.waitUntil(lambda: bool(spans))
    assert spans == [arrays.span_ids[row]]
    assert nodes == [arrays.lane_ids[arrays.lane[row]]]
    assert panel.span_row_at(scene) == row
    # a click on empty space selects nothing
    empty = panel.plot.mapFromScene(panel.view_box.mapViewToScene(QPointF(arrays.end[0] * 5, 0.5)))
    qtbot.mouseClick(panel.plot.viewport(), Qt.MouseButton.LeftButton, pos=empty)
    assert spans == [arrays.span_ids[row]]


def test_live_batches_extend_the_data_without_a_reset(qtbot: QtBot) -> None:
    events = stored_run("hanoi").events
    projection = RunProjection()
    panel = _panel(qtbot, projection)
    arrays = panel.arrays
    counts, open_seen = [], False
    for start in range(0, len(events), 40):
        projection.apply_many(events[start:start + 40])
        panel.apply_changes(projection.take_changes())
        assert panel.arrays is arrays  # never rebuilt from scratch
        counts.append(arrays.count)
        open_seen = open_seen or bool(np.isnan(arrays.end[: arrays.count]).any())
        if not projection.finished:
            assert panel.live_timer.isActive()
    assert counts == sorted(counts) and counts[0] < counts[-1]
    assert arrays.count == len(stored_run("hanoi").spans)
    assert open_seen  # running spans were drawn open (growing to now) before they ended
    assert not panel.live_timer.isActive()


def test_running_spans_grow_to_now(qtbot: QtBot) -> None:
    projection = RunProjection()
    projection.apply_many([
        ev.RunStarted(run_id="r", seq=1, ts=0.0, workflow_id="w", workflow_name="W", workflow_hash="h"),
        ev.NodeStateChanged(run_id="r", seq=2, ts=0.5, span_id="n1", parent_id="run:r", node_id="a", state="running"),
    ])
    panel = _panel(qtbot, projection)
    first = panel.item.now
    qtbot.wait(250)
    assert panel.item.now > first  # the live timer moved "now": the open bar grew
    ends = panel.arrays.ends(panel.item.now)
    assert ends[panel.arrays.row_of["n1"]] == pytest.approx(panel.item.now)


def test_a_run_shown_at_a_playback_moment_stands_still(qtbot: QtBot) -> None:
    projection = RunProjection()
    projection.apply_many([
        ev.RunStarted(run_id="r", seq=1, ts=0.0, workflow_id="w", workflow_name="W", workflow_hash="h"),
        ev.NodeStateChanged(run_id="r", seq=2, ts=0.5, span_id="n1", parent_id="run:r", node_id="a", state="running"),
    ])
    panel = TimelinePanel()
    qtbot.addWidget(panel)
    panel.clock_running = False  # playback (or a past run): the moment shown, not the wall clock
    panel.set_projection(projection)
    panel.show()
    qtbot.waitExposed(panel)
    first = panel.run_time()
    qtbot.wait(250)
    assert panel.run_time() == first == projection.elapsed_s
    assert not panel.live_timer.isActive()


def _waiting_run() -> RunProjection:
    r = "r"
    return project([
        ev.RunStarted(run_id=r, seq=1, ts=0.0, workflow_id="w", workflow_name="W", workflow_hash="h"),
        ev.RunPlanned(run_id=r, seq=2, ts=0.0, nodes=[["gate", "Gate", "human"], ["ex", "Exec", "executor"]]),
        ev.NodeStateChanged(run_id=r, seq=3, ts=0.1, span_id="g", parent_id="run:r", node_id="gate", state="running"),
        ev.NodeStateChanged(run_id=r, seq=4, ts=0.2, span_id="g", parent_id="run:r", node_id="gate", state="waiting"),
        ev.NodeStateChanged(run_id=r, seq=5, ts=2.2, span_id="g", parent_id="run:r", node_id="gate", state="running"),
        ev.NodeStateChanged(run_id=r, seq=6, ts=2.3, span_id="g", parent_id="run:r", node_id="gate", state="done"),
        ev.NodeStateChanged(run_id=r, seq=7, ts=2.4, span_id="e", parent_id="run:r", node_id="ex", state="running"),
        ev.LLMCallStarted(run_id=r, seq=8, ts=2.5, span_id="c", parent_id="e", node_id="ex", model="m", request={}),
        ev.LLMCallRetrying(run_id=r, seq=9, ts=2.6, span_id="c", parent_id="e", attempt=1, error_type="RateLimit",
                           error="slow down", delay_s=0.1),
        ev.LLMCallFinished(run_id=r, seq=10, ts=3.0, span_id="c", parent_id="e", node_id="ex", model="m",
                           tokens_in=10, tokens_out=5, cost_usd=0.001),
        ev.NodeStateChanged(run_id=r, seq=11, ts=3.1, span_id="e", parent_id="run:r", node_id="ex", state="done"),
        ev.RunFinished(run_id=r, seq=12, ts=3.2, status="succeeded"),
    ])


def test_waiting_for_a_person_and_retries_are_drawn(qtbot: QtBot) -> None:
    panel = _panel(qtbot, _waiting_run())
    arrays = panel.arrays
    assert arrays.waits == [[float(arrays.lane_of["gate"]), 0.2, 2.2]]
    assert [(lane, ts) for lane, ts, _ in arrays.marks] == [(arrays.lane_of["ex"], 2.6)]
    image = _frame(panel)
    waiting = QColor(LIGHT.waiting)
    mid = panel.plot.mapFromScene(panel.view_box.mapViewToScene(QPointF(1.2, arrays.lane_of["gate"] + 0.5)))
    row = [QColor(image.pixel(x, mid.y())) for x in range(mid.x() - 12, mid.x() + 12)]
    assert any(c == waiting for c in row)  # the hatch's stripes
    from widgets.timeline.hover import describe

    text = describe(panel.projection, arrays, arrays.row_of["g"], panel.item.now)  # type: ignore[arg-type]
    assert "waited for a person: 2.00 s" in text
    call = describe(panel.projection, arrays, arrays.row_of["c"], panel.item.now)  # type: ignore[arg-type]
    assert "retries: 1" in call and "tokens: 10 in · 5 out" in call and "$0.001000" in call


def test_node_filter_highlights_its_lane(qtbot: QtBot) -> None:
    panel = _panel(qtbot, _waiting_run())
    before = panel.item.rebuilds
    panel.set_node_filter("ex")
    assert panel.item.highlight_lane == panel.arrays.lane_of["ex"]
    panel.set_node_filter(None)
    assert panel.item.highlight_lane is None
    assert panel.item.rebuilds == before  # highlighting draws over the cached picture


def _synthetic(spans: int, lanes: int) -> RunProjection:
    """`spans` short node executions spread over 1,000 s on `lanes` nodes, in seq order."""
    r = "r"
    rng = np.random.default_rng(7)
    starts = np.sort(rng.uniform(0, 1000, spans)).tolist()
    timed = sorted([(t, i, "running") for i, t in enumerate(starts)] + [(t + 0.01, i, "done") for i, t in enumerate(starts)])
    events: list[ev.Event] = [ev.RunStarted(run_id=r, seq=1, ts=0.0, workflow_id="w", workflow_name="W",
                                            workflow_hash="h")]
    for seq, (t, i, state) in enumerate(timed, start=2):
        events.append(ev.NodeStateChanged(run_id=r, seq=seq, ts=t, span_id=f"s{i}", parent_id="run:r",
                                          node_id=f"n{i % lanes}", state=state))
    events.append(ev.RunFinished(run_id=r, seq=len(events) + 1, ts=1001.0, status="succeeded"))
    return project(events)


def test_many_visible_spans_draw_coverage_and_every_busy_lane_shows(qtbot: QtBot) -> None:
    projection = _synthetic(COVERAGE_ABOVE + 5_000, 50)
    panel = _panel(qtbot, projection)
    image = _frame(panel)
    picture = panel.item._picture
    assert picture is not None and not picture.exact
    background = QColor(LIGHT.background)
    for lane in range(1, 51):
        y = panel.plot.mapFromScene(panel.view_box.mapViewToScene(QPointF(500, lane + 0.5))).y()
        busy = sum(QColor(image.pixel(x, y)) != background for x in range(200, 900, 7))
        assert busy > 0, f"lane {lane} shows nothing"
    # zoomed in on a few spans: exact rectangles
    panel.view_box.setXRange(10, 12, padding=0)
    _frame(panel)
    assert panel.item._picture is not None and panel.item._picture.exact


def test_dark_palette_switches_colours(qtbot: QtBot) -> None:
    panel = _panel(qtbot, _waiting_run())
    palette = panel.palette()
    palette.setColor(QPalette.ColorRole.Window, QColor("#1e2125"))
    panel.setPalette(palette)
    assert panel.item.colors is DARK
    assert not math.isnan(panel.item.now)


def test_a_zoom_step_shows_the_last_picture_stretched_until_the_worker_draws_the_new_one(qtbot: QtBot) -> None:
    panel = _panel(qtbot, _synthetic(COVERAGE_ABOVE + 5_000, 50))
    _frame(panel)
    old = panel.item._picture
    rebuilds, stretched = panel.item.rebuilds, panel.item.stretched
    panel.view_box.scaleBy(x=0.8)  # one wheel notch in
    panel.plot.grab()
    assert panel.item.stretched > stretched and panel.item.rebuilds == rebuilds
    assert panel.item._picture is old  # a stand-in for this frame
    assert old is not None
    zoomed = old.frame.sx / 0.8  # the old zoom's margins may arrive first (a wider stand-in)

    def zoomed_in() -> bool:
        picture = panel.item._picture
        return picture is not None and abs(picture.frame.sx / zoomed - 1) < 1e-6

    qtbot.waitUntil(zoomed_in, timeout=5_000)
    panel.view_box.scaleBy(x=0.2)  # far beyond a stand-in's reach: drawn at once
    panel.plot.grab()
    assert panel.item.rebuilds == rebuilds + 1


def test_another_run_gets_a_fresh_picture(qtbot: QtBot) -> None:
    panel = _panel(qtbot, project(stored_run("triad").events))
    _frame(panel)
    first = panel.item._picture
    panel.set_projection(project(stored_run("hanoi").events))
    _frame(panel)
    picture = panel.item._picture
    assert picture is not None and picture is not first
    assert picture.frame.lanes == len(panel.arrays.lane_ids) and panel.arrays.count == len(stored_run("hanoi").spans)
    panel.set_projection(None)
    assert panel.arrays.count == 0 and panel.summary.text() == "No run"


def test_a_rebuild_draws_the_visible_width_at_once_and_its_margins_in_the_worker(qtbot: QtBot) -> None:
    panel = _panel(qtbot, _synthetic(COVERAGE_ABOVE + 5_000, 50))
    _frame(panel)
    panel.item._picture = None  # as after a zoom far beyond a stand-in's reach
    panel.plot.grab()
    narrow = panel.item._picture
    assert narrow is not None and narrow.frame.width == narrow.image.width()
    lo, hi = panel.view_box.viewRange()[0]
    assert narrow.frame.t_lo == pytest.approx(lo) and narrow.frame.t_hi == pytest.approx(hi)
    latest = panel.item._latest
    assert panel.item._margins.isActive()  # asked of the worker only once no rebuild follows (a live run's ticks)
    panel.item._picture = None
    panel.plot.grab()
    assert panel.item._latest == latest and panel.item._margins.isActive()
    narrow = panel.item._picture
    assert narrow is not None
    qtbot.waitUntil(lambda: panel.item._picture is not narrow, timeout=5_000)  # the event loop runs the timer
    wide = panel.item._picture
    assert wide is not None and wide is not narrow and wide.frame.sx == narrow.frame.sx and wide.frame.width == 3 * narrow.frame.width
    assert wide.frame.t_lo < lo and wide.frame.t_hi > hi  # a pan now only blits


def test_the_item_draws_the_time_grid_at_the_axis_ticks(qtbot: QtBot) -> None:
    panel = _panel(qtbot, project(stored_run("triad").events))
    axis = panel.plot.getAxis("bottom")
    assert axis is not None and axis.grid is False and panel.item.grid_axis is axis  # pyqtgraph's grid cost ~20 ms a frame
    image = QImage(400, 100, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    painter = QPainter(image)
    panel.item._paint_grid(painter, 40.0, 0.0, 0.0, 10.0, QRectF(0, 0, 400, 100))
    painter.end()
    major = axis.tickValues(0.0, 10.0, 400)[0][1]
    assert major and all(image.pixelColor(round(40 * v), 50).alpha() > 0 for v in major if 0 < 40 * v < 399)
    assert image.pixelColor(round(40 * major[0]) + 3, 50).alpha() == 0 or len(major) > 50


def test_columns_prepared_off_the_gui_thread_are_shown_only_while_they_fit(qtbot: QtBot) -> None:
    stored = stored_run(NAMES[0])
    projection = project(stored.events)
    prepared = TimelinePanel.prepare(projection)  # what a worker builds for a stored run
    panel = TimelinePanel()
    qtbot.addWidget(panel)
    panel.use_prepared(prepared)
    panel.set_projection(projection)
    assert panel.arrays is prepared and panel.prepared is None  # taken once
    panel.set_projection(projection)
    assert panel.prepared is None and panel.arrays.span_ids == prepared.span_ids  # the same finished run: kept
    grown = project(stored.events[:-1])
    stale = TimelinePanel.prepare(grown)
    grown.apply_many(stored.events[-1:])  # folded on after it was prepared: it no longer fits
    panel.use_prepared(stale)
    panel.set_projection(grown)
    assert panel.arrays is not stale and panel.arrays.count == len(stored.spans)
