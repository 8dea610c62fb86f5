"""Undo commands that add or remove one edge."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from engine.graph.model import Edge, Workflow


class AddEdgeCommand(QUndoCommand):
    def __init__(self, workflow: Workflow, edge: Edge) -> None:
        super().__init__(f"Connect {edge.source}.{edge.source_port} → {edge.target}.{edge.target_port}")
        self._workflow = workflow
        self._edge = edge

    def redo(self) -> None:
        self._workflow.add_edge(self._edge)

    def undo(self) -> None:
        self._workflow.remove_edge(self._edge.id)


class RemoveEdgeCommand(QUndoCommand):
    def __init__(self, workflow: Workflow, edge_id: str) -> None:
        super().__init__(f"Disconnect {edge_id}")
        self._workflow = workflow
        self._edge = workflow.edges[edge_id]

    def redo(self) -> None:
        self._workflow.remove_edge(self._edge.id)

    def undo(self) -> None:
        self._workflow.add_edge(self._edge)
