"""Quick insert (Tab, or double-click on empty canvas): search the roles, insert one at the cursor.

Invariant: only emits `role_chosen(role)`; the view turns it into `node_add_requested`.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from engine.graph.roles import ROLES
from widgets.canvas.filter_popup import FilterPopup, Row
from widgets.role_style import role_color, role_glyph


class QuickInsertPopup(FilterPopup):
    role_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, "Insert a node: type a role…")
        self.resize(380, 360)
        self.picked.connect(lambda role: self.role_chosen.emit(str(role)))

    def rows(self, text: str) -> list[Row]:
        rows: list[Row] = []
        for role, spec in ROLES.items():
            if text and text not in f"{role.value}\n{spec.label}\n{spec.summary}".lower():
                continue
            rows.append((f"{role_glyph(role.value)}  {spec.label} — {spec.summary}", role.value,
                         role_color(role.value, False)))
        return rows
