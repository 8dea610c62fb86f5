"""Fixtures of the application tests: QSettings in a per-test temp dir, a small triad workflow."""

from __future__ import annotations

from pathlib import Path

import pytest
from doc_fixtures import make_triad
from PySide6.QtCore import QSettings
from run_fixtures import gui_loop  # noqa: F401  (the run tests' qasync loop fixture)

from engine.graph.model import Workflow


@pytest.fixture(autouse=True)
def temp_settings(tmp_path: Path) -> Path:
    folder = tmp_path / "settings"
    folder.mkdir()
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    return folder


@pytest.fixture
def triad() -> Workflow:
    return make_triad()


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, object]]:
    """Modal dialogs would block an offscreen test: answer "discard" and record everything shown."""
    from app import dialogs

    shown: list[tuple[str, object]] = []
    monkeypatch.setattr(dialogs, "ask_save_changes", lambda _parent, _name: "discard")
    monkeypatch.setattr(dialogs, "show_file_problems", lambda _parent, error: shown.append(("problems", error)))
    monkeypatch.setattr(dialogs, "show_error", lambda _parent, title, message: shown.append((title, message)))
    monkeypatch.setattr(dialogs, "ask_open_path", lambda _parent, _folder: None)
    monkeypatch.setattr(dialogs, "ask_save_path", lambda _parent, _suggested: None)
    return shown
