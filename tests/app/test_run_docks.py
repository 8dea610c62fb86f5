"""The run docks registry: each entry becomes a movable, closable, tabbed dock listed under View ▸ Panels,
its panel fed the selected run; a factory that fails leaves its dock out and says so; the layout is saved
with the window's state. The canvas's context menu toggles breakpoints."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QDockWidget, QLabel
from pytestqt.qtbot import QtBot
from run_fixtures import RecordingPanel, run_window

from app import run_docks
from app.run_docks import RunDockSpec
from widgets.canvas.context_menu import build_context_menu

Area = Qt.DockWidgetArea


def _boom() -> QLabel:
    raise RuntimeError("no pyqtgraph here")


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> list[RunDockSpec]:
    specs = [RunDockSpec("trace", "Trace", Area.BottomDockWidgetArea, RecordingPanel),
             RunDockSpec("events", "Events", Area.BottomDockWidgetArea, RecordingPanel),
             RunDockSpec("runs", "Runs", Area.LeftDockWidgetArea, lambda: QLabel("runs")),
             RunDockSpec("timeline", "Timeline", Area.BottomDockWidgetArea, _boom)]
    monkeypatch.setattr(run_docks, "RUN_DOCKS", specs)
    return specs


def test_registered_docks_are_mounted_fed_and_listed(qtbot: QtBot, tmp_path: Path,
                                                     registry: list[RunDockSpec]) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    docks = {name: window.docks.get(name) for name in ("trace", "events", "runs", "timeline")}
    assert docks["timeline"] is None  # its factory failed: left out, the window still opens
    trace, events = docks["trace"], docks["events"]
    assert isinstance(trace, QDockWidget) and isinstance(events, QDockWidget)
    assert trace.objectName() == "dock_trace" and trace.windowTitle() == "Trace"
    assert trace.features() & QDockWidget.DockWidgetFeature.DockWidgetClosable
    assert events in window.tabifiedDockWidgets(trace)
    assert set(window.runs.views.panels) == {"trace", "events"}  # the QLabel is a dock, not a run panel
    panels = [a.text() for a in window.menus["panels"].actions()]
    assert "Trace" in panels and "Events" in panels and "Runs" in panels
    assert window.actions_by_name["toggle_trace"].shortcut().toString() == "Ctrl+Alt+1"
    trace.close()
    state = window.saveState()  # what the window saves on close (app.settings_store)
    assert "dock_trace".encode("utf-16-be") in bytes(state.data())
    trace.show()
    assert window.restoreState(state) and trace.isHidden()


def test_the_context_menu_toggles_a_breakpoint(qtbot: QtBot, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    window.view.select_nodes(["executor"])
    menu = build_context_menu(window.view, QPointF(0, 0))
    entry = next(a for a in menu.actions() if a.text().startswith("Toggle breakpoint"))
    entry.trigger()
    assert window.runs.breakpoints == {"executor"} and window.scene.run.breakpoints == {"executor"}
    window.actions_by_name["breakpoint"].trigger()  # F9 on the same selection clears it
    assert window.runs.breakpoints == set() and window.scene.run.breakpoints == set()
