"""WorkflowSignals re-emits every model change as one generic and one specific Qt signal."""

from __future__ import annotations

from engine.graph.model import Edge, Node, Workflow
from widgets.workflow_signals import WorkflowSignals


def test_every_change_kind_is_reemitted_in_order(qtbot):
    wf = Workflow("w")
    signals = WorkflowSignals(wf)
    seen: list[tuple] = []
    signals.changed.connect(lambda change: seen.append(("changed", change.kind)))
    signals.node_added.connect(lambda i: seen.append(("node_added", i)))
    signals.node_removed.connect(lambda i: seen.append(("node_removed", i)))
    signals.node_changed.connect(lambda i, f: seen.append(("node_changed", i, f)))
    signals.node_moved.connect(lambda i: seen.append(("node_moved", i)))
    signals.edge_added.connect(lambda i: seen.append(("edge_added", i)))
    signals.edge_removed.connect(lambda i: seen.append(("edge_removed", i)))
    signals.settings_changed.connect(lambda: seen.append(("settings_changed",)))
    signals.meta_changed.connect(lambda: seen.append(("meta_changed",)))
    signals.ui_changed.connect(lambda k: seen.append(("ui_changed", k)))

    wf.add_node(Node("a", "input"))
    wf.add_node(Node("b", "output"))
    wf.set_title("a", "Goal")
    wf.move_node("a", 10, 20)
    wf.add_edge(Edge("e1", "a", "value", "b", "value"))
    wf.remove_edge("e1")
    wf.remove_node("b")
    wf.set_settings(wf.settings)
    wf.set_meta(name="x")
    wf.set_ui("comments", [])

    specific = [s for s in seen if s[0] != "changed"]
    assert specific == [
        ("node_added", "a"), ("node_added", "b"), ("node_changed", "a", "title"), ("node_moved", "a"),
        ("edge_added", "e1"), ("edge_removed", "e1"), ("node_removed", "b"), ("settings_changed",),
        ("meta_changed",), ("ui_changed", "comments"),
    ]
    assert [s[1] for s in seen if s[0] == "changed"] == [
        "node_added", "node_added", "node_changed", "node_moved", "edge_added", "edge_removed",
        "node_removed", "settings_changed", "meta_changed", "ui_changed"]


def test_detach_stops_emitting(qtbot):
    wf = Workflow("w")
    signals = WorkflowSignals(wf)
    seen: list[str] = []
    signals.node_added.connect(seen.append)
    signals.detach()
    signals.detach()  # idempotent
    wf.add_node(Node("a", "input"))
    assert seen == []
