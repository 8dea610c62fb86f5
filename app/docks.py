"""The window's docks: palette (left), inspector (right), problems (bottom), minimap (right, below).

Each dock's toggle action is configured from `app.actions.ACTION_SPECS` (text, shortcut, tooltip),
so View ▸ Palette etc. stay in sync with the docks' visibility by construction.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from app.actions import configure

Area = Qt.DockWidgetArea


def add_dock(window: QMainWindow, name: str, title: str, widget: QWidget, area: Area) -> QDockWidget:
    dock = QDockWidget(title, window)
    dock.setObjectName(f"dock_{name}")
    dock.setWidget(widget)
    dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                     | QDockWidget.DockWidgetFeature.DockWidgetClosable
                     | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
    window.addDockWidget(area, dock)
    configure(dock.toggleViewAction(), f"toggle_{name}")
    return dock


BOTTOM_HEIGHT = 260  # the bottom dock area's first height: about ten rows of the Trace or Events dock


def build_docks(window: QMainWindow, panels: dict[str, QWidget | None]) -> dict[str, QDockWidget]:
    """Docks for the given panels (None = not available, no dock); returns them by name."""
    places = {"palette": ("Palette", Area.LeftDockWidgetArea),
              "inspector": ("Inspector", Area.RightDockWidgetArea),
              "problems": ("Problems", Area.BottomDockWidgetArea),
              "minimap": ("Minimap", Area.RightDockWidgetArea)}
    docks: dict[str, QDockWidget] = {}
    for name, (title, area) in places.items():
        widget = panels.get(name)
        if widget is not None:
            docks[name] = add_dock(window, name, title, widget, area)
    if "inspector" in docks and "minimap" in docks:
        window.splitDockWidget(docks["inspector"], docks["minimap"], Qt.Orientation.Vertical)
        window.resizeDocks([docks["inspector"], docks["minimap"]], [620, 170], Qt.Orientation.Vertical)
    widths = {"palette": 180, "inspector": 360}
    sides = [n for n in widths if n in docks]
    window.resizeDocks([docks[n] for n in sides], [widths[n] for n in sides], Qt.Orientation.Horizontal)
    # The right column (inspector, minimap and the run docks tabbed under them) runs the window's full
    # height, so the bottom area (problems, trace, timeline, events) is only as short as the left column
    # allows and gets room for a run's rows.
    window.setCorner(Qt.Corner.BottomRightCorner, Area.RightDockWidgetArea)
    if "problems" in docks:
        window.resizeDocks([docks["problems"]], [BOTTOM_HEIGHT], Qt.Orientation.Vertical)
    return docks


def toggle_actions(docks: dict[str, QDockWidget]) -> dict[str, QAction]:
    return {f"toggle_{name}": dock.toggleViewAction() for name, dock in docks.items()}
