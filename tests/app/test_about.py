"""Help → About: the action (F1, last menu), the box's version and commit, the window icon."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from app import about, version
from app.document import Document
from app.gui import application
from app.main_window import MainWindow
from engine.graph.model import Workflow


def test_help_menu_is_last_and_about_opens_without_blocking(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(version, "build_info", lambda: {"version": "9.8.7", "commit": "abc123def456",
                                                       "python": "3.11.7", "parts": {"litellm": "1.106.2"}})
    monkeypatch.setattr(about, "build_info", version.build_info)
    window = MainWindow(Document(Workflow()))
    qtbot.addWidget(window)
    menus = [a.text() for a in window.menuBar().actions()]
    assert menus[-1] == "&Help"
    action = window.actions_by_name["about"]
    assert action.shortcut().toString() == "F1" and "F1" in action.toolTip()
    action.trigger()  # open(), not exec(): returns at once
    box = window.findChild(QMessageBox, "about_box")
    assert box is not None and box.isVisible()
    assert "9.8.7" in box.text() and "abc123def456" in box.text() and "litellm" in box.text()
    assert not box.iconPixmap().isNull()
    box.close()


def test_application_has_the_icon_and_desktop_name() -> None:
    app = application()
    assert isinstance(app, QApplication)
    assert not about.app_icon().isNull()
    assert {s.width() for s in about.app_icon().availableSizes()} >= {16, 32, 48, 256}
