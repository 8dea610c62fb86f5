"""A large workflow's canvas is built in slices between turns of the event loop: the loop runs meanwhile,
edits made meanwhile are shown, the newest workflow wins, the canvas is covered (clicks and wheel turns
dropped, keys held until it is built), and a small workflow is still built at once."""

from __future__ import annotations

import gc

import pytest
import shiboken6
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

import widgets.canvas.scene_build as scene_build
from engine.gc_pause import collection_paused
from engine.graph.generate import generate_workflow
from engine.graph.model import Edge, Node, NodeUi, Workflow
from widgets.canvas import CanvasScene, CanvasView
from widgets.canvas.build_cover import BuildCover


@pytest.fixture(autouse=True)
def thin_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Slices of ~0.3 ms: a few hundred nodes take dozens of turns of the loop."""
    monkeypatch.setattr(scene_build, "SLICE_MS", 0.3)


def _canvas(qtbot: QtBot) -> tuple[CanvasScene, CanvasView, BuildCover]:
    scene = CanvasScene(Workflow())
    view = CanvasView(scene)
    scene.setParent(view)
    cover = BuildCover(view)
    view.resize(800, 600)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    return scene, view, cover


def _built(qtbot: QtBot, scene: CanvasScene) -> None:
    qtbot.waitUntil(lambda: not scene.building, timeout=10_000)


def _partly_built(qtbot: QtBot, scene: CanvasScene, nodes: int) -> None:
    """Wait until more than `nodes` nodes are built, the build still under way: caught as a slice reports its
    progress (the next slice waits for the loop), where a poll could miss it on a busy machine."""
    with qtbot.waitSignal(scene.build_progressed, timeout=10_000,
                          check_params_cb=lambda _built, _total: len(scene.node_items) > nodes):
        pass


def _matches(scene: CanvasScene, wf: Workflow) -> bool:
    positions = {i: (item.x(), item.y()) for i, item in scene.node_items.items()}
    return (positions == {n.id: (n.ui.x, n.ui.y) for n in wf.nodes.values()}
            and set(scene.edge_items) == set(wf.edges))


def test_a_large_workflow_is_built_over_many_turns_of_the_loop(qtbot: QtBot) -> None:
    scene, view, cover = _canvas(qtbot)
    wf = generate_workflow(300, seed=3)
    progress: list[tuple[int, int]] = []
    scene.build_progressed.connect(lambda built, total: progress.append((built, total)))
    ticks: list[int] = []
    timer = QTimer(view)
    timer.timeout.connect(lambda: ticks.append(len(scene.node_items)))
    timer.start(0)
    scene.set_workflow(wf)
    assert scene.building and len(scene.node_items) < len(wf.nodes)  # returned before the items were built
    with qtbot.waitSignal(scene.workflow_replaced, timeout=10_000):
        pass
    timer.stop()
    assert _matches(scene, wf)
    assert len(set(ticks)) > 5  # the loop ran between slices, and saw the canvas grow
    assert len(progress) > 5 and progress[0][0] == 0 and progress[-1][0] == progress[-1][1]
    assert not collection_paused() and cover.isHidden()


def test_a_small_workflow_is_built_at_once(qtbot: QtBot) -> None:
    scene, _view, cover = _canvas(qtbot)
    wf = generate_workflow(20, seed=1)
    replaced: list[int] = []
    scene.workflow_replaced.connect(lambda: replaced.append(1))
    scene.set_workflow(wf)
    assert not scene.building and replaced == [1] and _matches(scene, wf)
    assert cover.isHidden()


def test_edits_made_during_the_build_are_shown(qtbot: QtBot) -> None:
    scene, _view, _cover = _canvas(qtbot)
    wf = generate_workflow(300, seed=4)
    ids = list(wf.nodes)
    scene.set_workflow(wf)
    _partly_built(qtbot, scene, 20)
    built = next(i for i in ids if i in scene.node_items)
    waiting = next(i for i in reversed(ids) if i not in scene.node_items and i != ids[0])
    wf.move_node(built, 4321.0, 1234.0)  # already built: moved now
    wf.move_node(waiting, -900.0, -700.0)  # not built yet: built where it is now
    for edge_id in [e.id for e in wf.edges.values() if ids[0] in (e.source, e.target)]:
        wf.remove_edge(edge_id)
    wf.remove_node(ids[0])  # built, then removed
    wf.add_node(Node("added", "executor", "Added", {}, NodeUi(50.0, 60.0)))
    wf.add_edge(Edge("added-edge", ids[1], "value", "added", "task")
                if wf.nodes[ids[1]].role == "input" else Edge("added-edge", "added", "result", waiting, "context"))
    assert scene.building
    _built(qtbot, scene)
    assert _matches(scene, wf) and "added-edge" in scene.edge_items and ids[0] not in scene.node_items
    assert scene.sceneRect().contains(scene.node_items[waiting].sceneBoundingRect())
    wf.move_node("added", 90.0, 90.0)  # and the scene still follows the model afterwards
    assert scene.node_items["added"].pos() == QPointF(90.0, 90.0)


def test_the_newest_workflow_wins_and_the_old_items_go(qtbot: QtBot) -> None:
    scene, _view, _cover = _canvas(qtbot)
    first, second, third = (generate_workflow(300, seed=s) for s in (5, 6, 7))
    scene.set_workflow(first)
    _built(qtbot, scene)
    old = next(iter(scene.node_items.values()))
    scene.set_workflow(second)
    _partly_built(qtbot, scene, 10)
    waited: list[str] = []
    scene.after_build(lambda: waited.append("second"))
    scene.set_workflow(third)  # the second's build is abandoned, and what waited for it
    scene.after_build(lambda: waited.append("third"))
    _built(qtbot, scene)
    QApplication.processEvents()
    assert scene.workflow is third and _matches(scene, third) and waited == ["third"]
    assert not shiboken6.isValid(old)  # the first workflow's items were deleted
    layers = 2  # the edge layer and the run layer
    assert len(scene.items()) == len(third.nodes) + len(third.edges) + len(scene.comment_items) + layers
    assert not collection_paused()


def test_a_scene_deleted_during_its_build_lets_the_collector_go(qtbot: QtBot) -> None:
    scene, view, _cover = _canvas(qtbot)
    scene.set_workflow(generate_workflow(300, seed=8))
    _partly_built(qtbot, scene, 10)
    assert collection_paused()
    shiboken6.delete(view)  # the window closed: the scene goes with its view
    qtbot.waitUntil(lambda: not collection_paused(), timeout=5000)
    gc.collect()


def test_the_canvas_is_covered_clicks_and_wheel_are_dropped_keys_wait(qtbot: QtBot) -> None:
    scene, view, cover = _canvas(qtbot)
    wf = generate_workflow(300, seed=9)
    scene.set_workflow(wf)
    _partly_built(qtbot, scene, 10)
    assert cover.covering and cover.geometry() == view.viewport().geometry()
    zoom = view.zoom()
    centre = view.viewport().rect().center()
    qtbot.mouseClick(cover, Qt.MouseButton.LeftButton, pos=centre)
    wheel = QWheelEvent(QPointF(centre), QPointF(cover.mapToGlobal(centre)), QPoint(), QPoint(0, 480),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(cover, wheel)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_F)  # fit: held until the whole workflow is there
    assert view.zoom() == zoom and not scene.selectedItems() and len(cover.held) == 2
    _built(qtbot, scene)
    assert cover.isHidden() and not cover.held
    fitted = view.zoom()
    view.fit_to_view()
    assert fitted == pytest.approx(view.zoom()) and fitted != pytest.approx(zoom)  # the held F fitted the whole


def test_keys_held_for_an_abandoned_build_are_dropped(qtbot: QtBot) -> None:
    scene, view, cover = _canvas(qtbot)
    scene.set_workflow(generate_workflow(300, seed=10))
    qtbot.waitUntil(lambda: cover.covering, timeout=10_000)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_F)
    zoom = view.zoom()
    small = generate_workflow(10, seed=11)
    scene.set_workflow(small)  # built at once: what was held for the other one is not given
    QApplication.processEvents()
    assert not scene.building and cover.isHidden() and view.zoom() == zoom


def test_a_large_graph_shown_far_out_ends_its_build_with_the_edge_image_ready(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first fitted paint of a graph drawn far out with a density image blits an image built on the
    worker during the build, instead of building it on the GUI thread (~0.1–0.15 s at 5,000 nodes)."""
    import threading

    import widgets.canvas.edge_density as edge_density
    import widgets.canvas.overview as overview

    monkeypatch.setattr(overview, "MAX_FAR_EDGES", 50)
    monkeypatch.setattr(scene_build, "MAX_FAR_EDGES", 50)
    built_on: list[str] = []
    rasterise = edge_density._rasterise

    def recorded(*args: object, **kwargs: object) -> object:
        built_on.append(threading.current_thread().name)
        return rasterise(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(edge_density, "_rasterise", recorded)
    scene, view, _cover = _canvas(qtbot)
    wf = generate_workflow(400, seed=5)
    scene.set_workflow(wf)
    assert scene.building
    _built(qtbot, scene)
    assert len(scene.edge_items) > 50
    scale = view.fit_zoom()
    assert scale < overview.FAR_ZOOM
    assert scene.overview.density.has_current(scale, scene.theme.edge)  # ready before the canvas showed it
    assert built_on and threading.main_thread().name not in built_on
    batches = scene.overview.builds
    view.fit_to_view()
    assert abs(view.zoom() - scale) < 1e-9  # the zoom the image was made for
    view.viewport().grab()
    assert threading.main_thread().name not in built_on  # the first fitted paint built nothing:
    assert scene.overview.builds == batches  # neither the image nor the batch of boxes and lines
    node = next(iter(wf.nodes))
    scene.node_items[node].setSelected(True)  # a change after the build is drawn as always
    view.viewport().grab()
    assert scene.overview.builds == batches + 1


def test_a_large_graph_shown_far_out_measures_its_overview_boxes_in_the_builds_slices(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The far picture's boxes (20–45 ms for 5,000 nodes in one piece) are measured a chunk per turn of the
    build; a box changed while they are measured is measured again, and a batch built meanwhile is whole."""
    import widgets.canvas.overview as overview

    monkeypatch.setattr(overview, "MAX_FAR_EDGES", 50)
    monkeypatch.setattr(scene_build, "MAX_FAR_EDGES", 50)
    measured: list[int] = []
    measure = overview.OverviewPainter._measure

    def recorded(self: overview.OverviewPainter, items: list) -> None:
        measured.append(len(items))
        measure(self, items)

    monkeypatch.setattr(overview.OverviewPainter, "_measure", recorded)
    scene, _view, _cover = _canvas(qtbot)
    wf = generate_workflow(600, seed=5)
    scene.set_workflow(wf)
    _built(qtbot, scene)
    assert sum(measured) == 600 and max(measured) <= 250  # in pieces, each node once
    painter = scene.overview
    entries = dict(painter._entries)
    painter.invalidate_boxes()  # every box again, a chunk at a time; one selected after its chunk
    steps = painter.measure_boxes(chunk=100)
    next(steps)
    first = next(item for item in painter._entries if painter._entries[item] == entries[item])
    first.setSelected(True)  # the scene drops that box (`invalidate_boxes([first])`)
    boxes = painter._build()  # a paint meanwhile: every box, the ones not measured yet too
    assert sum(len(rects) for rects in boxes.values()) == 600
    for _ in steps:
        pass
    assert painter._entries[first][0] == scene.theme.selection.name()  # measured again before it ended
    assert {i: e for i, e in painter._entries.items() if i is not first} == {
        i: e for i, e in entries.items() if i is not first}
