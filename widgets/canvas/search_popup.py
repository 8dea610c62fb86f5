"""Ctrl+K: find a node by title, id or role and jump to it (every typed word must match).

Invariant: reads the workflow only; the view selects and centres the chosen node.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from engine.graph.model import Workflow
from engine.graph.roles import role_spec
from widgets.canvas.filter_popup import FilterPopup, Row
from widgets.role_style import role_color


class SearchPopup(FilterPopup):
    node_chosen = Signal(str)

    def __init__(self, workflow: Workflow, parent: QWidget | None = None) -> None:
        super().__init__(parent, "Find node by title, id or role…")
        self.workflow = workflow
        self.picked.connect(lambda node_id: self.node_chosen.emit(str(node_id)))

    def rows(self, text: str) -> list[Row]:
        rows: list[Row] = []
        words = text.split()
        for node in self.workflow.nodes.values():
            spec = role_spec(node.role)
            label = spec.label if spec else node.role
            title = node.title or label
            haystack = f"{title}\n{node.id}\n{node.role}\n{label}".lower()
            if not all(word in haystack for word in words):
                continue
            rows.append((f"{title}  —  {label} · {node.id}", node.id, role_color(node.role, False)))
            if len(rows) >= 200:
                break
        return rows
