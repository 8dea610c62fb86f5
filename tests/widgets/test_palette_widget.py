"""Palette: every catalog role, filtering, activation by Enter/double-click, drag mime data."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from engine.graph.roles import ROLES
from widgets.palette import ROLE_MIME, PaletteWidget


def test_lists_every_role_and_filters(qtbot: QtBot) -> None:
    palette = PaletteWidget()
    qtbot.addWidget(palette)
    assert palette.visible_roles() == [r.value for r in ROLES]
    palette.filter_edit.setText("crit")
    assert palette.visible_roles()[0] == "critic" and "planner" not in palette.visible_roles()
    palette.filter_edit.setText("parallel")  # matches summaries too
    assert set(palette.visible_roles()) >= {"map"}
    palette.filter_edit.clear()
    assert len(palette.visible_roles()) == len(ROLES)


def test_enter_in_filter_and_activation_emit_role(qtbot: QtBot) -> None:
    palette = PaletteWidget()
    qtbot.addWidget(palette)
    palette.show()
    seen: list[str] = []
    palette.role_activated.connect(seen.append)
    palette.filter_edit.setFocus()
    qtbot.keyClicks(palette.filter_edit, "verif")
    qtbot.keyClick(palette.filter_edit, Qt.Key.Key_Return)
    assert seen == ["verifier"]
    palette.filter_edit.clear()
    index = palette.proxy.index(2, 0)
    palette.list_view.activated.emit(index)
    assert seen == ["verifier", "planner"]


def test_drag_mime_carries_the_role_name(qtbot: QtBot) -> None:
    palette = PaletteWidget()
    qtbot.addWidget(palette)
    row = [r.value for r in ROLES].index("executor")
    mime = palette.model.mimeData([palette.model.index(row, 0)])
    assert bytes(mime.data(ROLE_MIME).data()) == b"executor"
    assert palette.model.mimeTypes() == [ROLE_MIME]
    assert palette.model.flags(palette.model.index(row, 0)) & Qt.ItemFlag.ItemIsDragEnabled
    tip = palette.model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "isolated context" in tip


def test_dark_colours(qtbot: QtBot) -> None:
    palette = PaletteWidget()
    qtbot.addWidget(palette)
    light = palette.model.index(0, 0).data(Qt.ItemDataRole.DecorationRole).pixmap(14, 14).toImage().pixel(5, 5)
    palette.set_dark(True)
    dark = palette.model.index(0, 0).data(Qt.ItemDataRole.DecorationRole).pixmap(14, 14).toImage().pixel(5, 5)
    assert light != dark
