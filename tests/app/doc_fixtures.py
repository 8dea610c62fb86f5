"""Helpers of the application tests: a small triad workflow, snapshots, a fake canvas view, opening a
file in a window and waiting until it is in (it is read off the GUI thread)."""

from __future__ import annotations

from os import PathLike
from typing import Any

from PySide6.QtCore import QObject, QPointF, Signal
from pytestqt.qtbot import QtBot

from engine.graph.convert import workflow_to_dict
from engine.graph.model import Edge, Node, NodeUi, Workflow


def make_triad() -> Workflow:
    wf = Workflow("Triad")
    for i, (node_id, role) in enumerate([("goal", "input"), ("plan", "planner"), ("exec", "executor"),
                                         ("review", "critic"), ("result", "output")]):
        wf.add_node(Node(node_id, role, node_id.title(), {}, NodeUi(i * 240.0, 0.0)))
    for i, (s, sp, t, tp) in enumerate([("goal", "value", "plan", "goal"), ("plan", "plan", "exec", "task"),
                                        ("exec", "result", "review", "subject"),
                                        ("review", "approved", "result", "value")], start=1):
        wf.add_edge(Edge(f"e{i}", s, sp, t, tp))
    return wf


def open_in(qtbot: QtBot, window: Any, path: str | PathLike[str], *, fails: bool = False) -> None:
    """File ▸ Open of `path` (the caller asked about unsaved changes), until the document shows it, or,
    with `fails`, until its problems were shown."""
    signal = window.files.open_failed if fails else window.files.opened
    with qtbot.waitSignal(signal, timeout=10_000):
        window.files.open_path(str(path))


def snapshot(wf: Workflow) -> dict[str, Any]:
    """The file-format dict with nodes and edges sorted by id (insertion order is not state)."""
    data = workflow_to_dict(wf)
    data["nodes"] = sorted(data["nodes"], key=lambda n: n["id"])
    data["edges"] = sorted(data["edges"], key=lambda e: e["id"])
    return data


class FakeView(QObject):
    """The canvas view's contract (signals and selection slots) without a scene."""

    node_add_requested = Signal(str, QPointF)
    edge_connect_requested = Signal(str, str, str, str)
    nodes_move_requested = Signal(dict, dict)
    delete_requested = Signal(list, list)
    copy_requested = Signal()
    cut_requested = Signal()
    paste_requested = Signal(QPointF)
    duplicate_requested = Signal()
    align_requested = Signal(str)
    auto_layout_requested = Signal(list)
    group_requested = Signal(list)
    ungroup_requested = Signal(str)
    comment_add_requested = Signal(QPointF)
    comment_edit_requested = Signal(str, dict)
    comment_delete_requested = Signal(str)
    node_activated = Signal(str)
    selection_changed = Signal()
    status_message = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.selected: list[str] = []
        self.selected_edges: list[str] = []
        self.centred: list[str] = []

    def selected_node_ids(self) -> list[str]:
        return list(self.selected)

    def selected_edge_ids(self) -> list[str]:
        return list(self.selected_edges)

    def select_nodes(self, ids: list[str]) -> None:
        self.selected = list(ids)
        self.selected_edges = []

    def select_edge(self, edge_id: str) -> None:
        self.selected, self.selected_edges = [], [edge_id]

    def center_on_node(self, node_id: str) -> None:
        self.centred.append(node_id)
