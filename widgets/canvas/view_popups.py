"""Popups, the context menu and port tooltips of the canvas view.

Mixed into `CanvasView` (through `ViewInputMixin`).

Invariants: at most one popup is open per view (`self.popup`); a popup's choice leaves only as
a view intent (`node_add_requested`) or a view change (select and centre a node).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QPoint, QPointF
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QToolTip

from widgets.canvas.context_menu import build_context_menu
from widgets.canvas.quick_insert import QuickInsertPopup
from widgets.canvas.search_popup import SearchPopup


class ViewPopupsMixin:
    """Popups and tooltips for CanvasView (`self` is the view)."""

    def open_search(self: Any) -> SearchPopup:
        """Ctrl+K: filter nodes by title, id or role; Enter selects and centres one."""
        popup = SearchPopup(self.canvas_scene().workflow, self)
        popup.node_chosen.connect(self._on_search_chosen)
        self._show_popup(popup)
        return popup

    def _on_search_chosen(self: Any, node_id: str) -> None:
        self.select_nodes([node_id])
        self.center_on_node(node_id)

    def open_quick_insert(self: Any, scene_pos: QPointF) -> QuickInsertPopup:
        """Tab or double-click on empty canvas: pick a role to insert at `scene_pos`."""
        popup = QuickInsertPopup(self)
        popup.role_chosen.connect(lambda role: self.node_add_requested.emit(role, scene_pos))
        self._show_popup(popup, self.mapFromScene(scene_pos))
        return popup

    def _show_popup(self: Any, popup: Any, at: QPoint | None = None) -> None:
        if self.popup is not None:
            self.popup.close()
        self.popup = popup
        where = at if at is not None else QPoint(self.viewport().width() // 2 - popup.width() // 2, 24)
        popup.move(self.viewport().mapToGlobal(where))
        popup.show()
        popup.focus_filter()

    def show_context_menu(self: Any, view_pos: QPointF, global_pos: QPoint) -> None:
        """The menu acts on what was right-clicked: an item outside the selection becomes the selection first
        (as in every editor), so "Fork from here…" or "Delete" never apply to something else, or to nothing."""
        hit = self.item_at_view(view_pos)
        if hit is not None and not hit.isSelected():
            self.settle_now()
            self.canvas_scene().clearSelection()
            hit.setSelected(True)
        menu = build_context_menu(self, self.mapToScene(view_pos.toPoint()))
        menu.exec(global_pos)

    def show_port_tooltip(self: Any, event: QEvent) -> bool:
        assert isinstance(event, QHelpEvent)
        hit = self.port_at(QPointF(event.pos()))
        if hit is None:
            return False
        item, name, output = hit
        port = item.node.port(name, output=output)
        if port is None:
            return False
        extra = ", required" if port.required else ""
        extra += ", takes several" if port.multiple else ""
        text = f"{'Output' if output else 'Input'} '{port.name}': {port.type}{extra}"
        QToolTip.showText(event.globalPos(), text + (f"\n{port.help}" if port.help else ""), self.viewport())
        return True
