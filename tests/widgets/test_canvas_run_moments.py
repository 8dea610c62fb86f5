"""The canvas shown the same run at another moment (a playback move): only the nodes whose decor differs are
repainted, and what the window then holds — its backing store, not a fresh render — equals a canvas given
that moment from scratch, close up and zoomed out to the overview (no stale box or chip left behind)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from engine.projection import RunProjection
from tests.widgets.test_canvas_run_overlay import _chain, _events, _scene, _state
from widgets.canvas import CanvasScene, CanvasView
from widgets.canvas.run_layer import decor_rect

NODES = 120


def _moment(states: int) -> RunProjection:
    """The run after its first `states` state changes: nodes done one after another, the next one running."""
    events = _events(NODES)
    seq = 100
    for i in range(states):
        events.append(_state(f"n{i // 2}", "running" if i % 2 == 0 else "done", seq))
        seq += 1
    p = RunProjection()
    p.apply_many(events)
    p.take_changes()
    return p


def _shown(qtbot: QtBot, zoom: float | None) -> tuple[CanvasScene, CanvasView]:
    scene, view = _scene(qtbot, _chain(NODES, per_row=12))
    scene.run.animated = False  # playback: a moment stands still
    view.show()
    qtbot.waitExposed(view)
    if zoom is None:
        view.fit_to_view()
    else:
        view.resetTransform()
        view.scale(zoom, zoom)
        view.centerOn(0, 0)
    return scene, view


def _window(view: CanvasView) -> QImage:
    """What the window holds on screen now: its backing store after the pending paints."""
    for _ in range(3):
        QApplication.processEvents()
    return view.screen().grabWindow(view.winId()).toImage()


def test_a_move_repaints_only_the_nodes_whose_decor_differs(qtbot: QtBot) -> None:
    scene, _view = _shown(qtbot, 1.0)
    scene.run.show(_moment(40))
    marked: list[QRectF] = []
    update = scene.run.layer.update
    scene.run.layer.update = lambda *rect: (marked.append(QRectF(*rect)), update(*rect))  # type: ignore[method-assign]
    scene.run.show(_moment(37))  # back three state changes: n18 running again, n19 not started
    assert sorted(map(QRectF.getRect, marked)) == sorted(decor_rect(scene.node_items[n]).getRect() for n in ("n18", "n19"))
    assert scene.run.state_of("n18") == "running" and scene.run.state_of("n19") == "queued"


@pytest.mark.parametrize("zoom", [1.0, None], ids=["close", "overview"])
def test_after_moves_back_and_forth_the_window_shows_exactly_the_moment(qtbot: QtBot, zoom: float | None) -> None:
    scene, view = _shown(qtbot, zoom)
    assert scene.overview.active is (zoom is None)
    for states in (200, 120, 121, 60, 30, 31, 90):  # a drag back, a step on, back again, then forward
        scene.run.show(_moment(states))
        _window(view)
    moved = _window(view)
    fresh_scene, fresh_view = _shown(qtbot, zoom)
    fresh_scene.run.show(_moment(90))
    fresh_view.setTransform(view.transform())
    fresh_view.horizontalScrollBar().setValue(view.horizontalScrollBar().value())
    fresh_view.verticalScrollBar().setValue(view.verticalScrollBar().value())
    fresh = _window(fresh_view)
    assert moved.size() == fresh.size()
    assert moved == fresh
