"""The canvas's run overlay: node states, chips and usage badges from a projection, only the nodes a flush
names re-read, edges flashed where data flowed and dimmed again, breakpoints, both themes, and cheap at
5,000 nodes."""

from __future__ import annotations

import time

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from engine import events as ev
from engine.graph.model import Edge, Node, NodeUi, Workflow
from engine.projection import RunProjection
from widgets.canvas import CanvasScene, CanvasView
from widgets.canvas.run_style import NodeDecor, state_color


def _chain(n: int, per_row: int = 50) -> Workflow:
    wf = Workflow("chain")
    for i in range(n):
        wf.add_node(Node(f"n{i}", "executor", f"Step {i}", {"model": "sim/default"},
                         NodeUi((i % per_row) * 260.0, (i // per_row) * 160.0)))
    for i in range(1, n):
        wf.add_edge(Edge(f"e{i}", f"n{i - 1}", "result", f"n{i}", "task"))
    return wf


def _events(n: int) -> list[ev.Event]:
    seq = iter(range(1, 10**7))
    out: list[ev.Event] = [ev.RunStarted(run_id="r", seq=next(seq), ts=0.0, workflow_id="w", workflow_name="chain",
                                         workflow_hash="h"),
                           ev.RunPlanned(run_id="r", seq=next(seq), ts=0.0,
                                         nodes=[[f"n{i}", f"Step {i}", "executor"] for i in range(n)])]
    return out


def _state(node: str, state: str, seq: int, **kw: object) -> ev.NodeStateChanged:
    return ev.NodeStateChanged(run_id="r", seq=seq, ts=float(seq), node_id=node, state=state, **kw)  # type: ignore[arg-type]


def _scene(qtbot: QtBot, wf: Workflow) -> tuple[CanvasScene, CanvasView]:
    scene = CanvasScene(wf)
    view = CanvasView(scene)
    scene.setParent(view)
    qtbot.addWidget(view)
    view.resize(900, 600)
    return scene, view


def _render(scene: CanvasScene, rect: QRectF) -> QImage:
    QApplication.processEvents()  # the scene's item index is brought up to date by a queued call
    image = QImage(int(rect.width()), int(rect.height()), QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    scene.render(painter, QRectF(image.rect()), rect)
    painter.end()
    return image


def test_states_chips_and_badges_follow_the_projection(qtbot: QtBot) -> None:
    scene, _view = _scene(qtbot, _chain(3))
    p = RunProjection()
    p.apply_many(_events(3))
    scene.run.show(p)
    p.take_changes()
    assert {scene.run.state_of(f"n{i}") for i in range(3)} == {"queued"}
    p.apply(_state("n0", "running", 10))
    p.apply(ev.LLMCallStarted(run_id="r", seq=11, ts=1.0, node_id="n0", span_id="c1", model="sim/default",
                              request={}))
    p.apply(ev.LLMCallFinished(run_id="r", seq=12, ts=2.0, node_id="n0", span_id="c1", model="sim/default",
                               content="hi", tokens_in=1200, tokens_out=34, cost_usd=0.0,
                               response={"priced": False}))
    changes = p.take_changes()
    scene.run.apply(changes)
    decor = scene.run.decor["n0"]
    assert decor.state == "running" and decor.chip.endswith("running")
    assert decor.badge == "1.2k tok · price unknown"  # never "$0" for an unknown price
    assert "price unknown" in scene.node_items["n0"].toolTip()
    assert scene.node_items["n0"].run_color == state_color("running", False)
    p.apply(_state("n0", "failed", 13, detail="boom: the tool broke"))
    p.apply(_state("n1", "skipped", 14))
    scene.run.apply(p.take_changes())
    assert scene.run.decor["n0"].error == "boom: the tool broke"
    assert "Error: boom: the tool broke" in scene.node_items["n0"].toolTip()
    assert scene.run.decor["n1"].dimmed
    scene.run.clear()
    assert scene.run.decor == {} and scene.node_items["n0"].run_color is None
    assert "Run:" not in scene.node_items["n0"].toolTip()


def test_only_the_nodes_a_flush_names_are_reread(qtbot: QtBot, monkeypatch: object) -> None:
    scene, _view = _scene(qtbot, _chain(20))
    p = RunProjection()
    p.apply_many(_events(20))
    scene.run.show(p)
    p.take_changes()
    reread: list[str] = []
    original = NodeDecor.of

    def counting(row: object, fault: str = "") -> NodeDecor:
        reread.append(row.node_id)  # type: ignore[attr-defined]
        return original(row, fault)  # type: ignore[arg-type]

    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    monkeypatch.setattr(NodeDecor, "of", staticmethod(counting))
    p.apply(_state("n7", "running", 50))
    scene.run.apply(p.take_changes())
    assert reread == ["n7"]


def test_running_nodes_animate_on_one_timer_and_flows_flash_then_fade(qtbot: QtBot) -> None:
    scene, view = _scene(qtbot, _chain(4))
    p = RunProjection()
    p.apply_many(_events(4))
    scene.run.show(p)
    p.take_changes()
    p.apply(_state("n1", "running", 20))
    p.apply(ev.NodeOutput(run_id="r", seq=21, ts=1.0, node_id="n0", port="result", value="x"))
    changes = p.take_changes()
    assert changes.flows == [("n0", "result")]
    scene.run.apply(changes)
    edges = [edge.edge_id for edge, _strength in scene.run.flashing_edges()]
    assert edges == ["e1"]
    timers = scene.run.findChildren(type(scene.run._timer))
    assert len(timers) == 1 and timers[0].isActive()
    phase = scene.run.phase
    qtbot.wait(250)
    assert scene.run.phase != phase
    scene.run._flashes["e1"] = time.monotonic() - 1  # its time is up
    qtbot.wait(120)
    assert list(scene.run.flashing_edges()) == []
    p.apply(_state("n1", "done", 22))
    scene.run.apply(p.take_changes())
    qtbot.wait(120)
    assert not scene.run._timer.isActive()  # nothing animates: the timer stops
    view.close()


def test_breakpoints_are_drawn_and_the_layer_never_takes_the_mouse(qtbot: QtBot) -> None:
    scene, view = _scene(qtbot, _chain(2))
    item = scene.node_items["n0"]
    body = item.body_rect().translated(item.pos())
    before = _render(scene, body.adjusted(-10, -10, 10, 10))
    assert before.pixelColor(12, 12).red() < 150  # the header's colour: no marker yet
    scene.run.set_breakpoints(["n0"])
    after = _render(scene, body.adjusted(-10, -10, 10, 10))
    corner = after.pixelColor(12, 12)  # the red breakpoint marker at the node's top-left corner
    assert corner.red() > 150 and corner.green() < 120
    centre = view.mapFromScene(body.center())
    assert view.item_at_view(centre.toPointF()) is item
    assert scene.run.layer not in scene.items(body.center())


def test_the_layer_paints_in_both_themes(qtbot: QtBot) -> None:
    scene, _view = _scene(qtbot, _chain(2))
    p = RunProjection()
    p.apply_many(_events(2))
    p.apply(_state("n0", "done", 5))
    scene.run.show(p)
    item = scene.node_items["n0"]
    area = item.body_rect().translated(item.pos()).adjusted(-12, -30, 12, 30)
    light = _render(scene, area)
    scene.set_dark(True)
    assert item.run_color == state_color("done", True)
    dark = _render(scene, area)
    ring = (8, 80)  # the state outline, left of the node box
    assert light.pixelColor(*ring) == state_color("done", False)
    assert dark.pixelColor(*ring) == state_color("done", True)


def test_a_flush_on_5000_nodes_costs_only_what_changed(qtbot: QtBot) -> None:
    scene, view = _scene(qtbot, _chain(5000, per_row=100))
    p = RunProjection()
    p.apply_many(_events(5000))
    start = time.perf_counter()
    scene.run.show(p)
    shown = time.perf_counter() - start
    p.take_changes()
    seq = 100
    for i in range(0, 200):
        seq += 1
        p.apply(_state(f"n{i}", "running", seq))
    start = time.perf_counter()
    scene.run.apply(p.take_changes())
    flush = time.perf_counter() - start
    assert shown < 1.5 and flush < 0.1, (shown, flush)
    view.fit_to_view()
    qtbot.wait(50)
