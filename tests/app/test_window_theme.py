"""The window opens in the remembered theme, styled once: the application's theme is applied before any
widget is built (a second application would re-polish every widget, ~0.15 s of the cold start), yet
every part that draws its own colours follows it and the palette's rows take the sheet's padding.
(tests/conftest.py puts the default theme back after each test.)"""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

import app.gui
import app.window_wiring
from app import settings_store
from app.gui import application, open_window
from app.themes import apply_theme
from widgets.canvas.theme import theme_for


@pytest.mark.parametrize("name", ["dark", "light"])
def test_window_opens_in_the_remembered_theme_applied_once(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch,
                                                           name: str) -> None:
    settings_store.set_theme(name)
    applied: list[str] = []

    def counted(qt_app: object, theme: str) -> str:
        applied.append(theme)
        return apply_theme(qt_app, theme)  # type: ignore[arg-type]

    monkeypatch.setattr(app.gui, "apply_theme", counted)
    monkeypatch.setattr(app.window_wiring, "apply_theme", counted)
    window = open_window(None)
    qtbot.addWidget(window)
    qtbot.waitExposed(window)
    assert applied == [name]
    assert application().property("triadic_theme") == name
    assert window.scene.theme is theme_for(name == "dark")
    assert window.palette_panel.model._dark is (name == "dark")
    assert window.actions_by_name["dark_theme"].isChecked() is (name == "dark")
    rows = window.palette_panel.list_view
    first, second = (rows.visualRect(rows.model().index(row, 0)) for row in (0, 1))
    assert second.top() - first.top() == rows.sizeHintForRow(0)  # laid out with the sheet's item padding


def test_switching_theme_applies_it_and_remembers_it(qtbot: QtBot) -> None:
    window = open_window(None)
    qtbot.addWidget(window)
    window.actions_by_name["dark_theme"].setChecked(True)
    assert application().property("triadic_theme") == "dark"
    assert window.scene.theme is theme_for(True)
    assert settings_store.theme() == "dark"
