"""File ▸ Open reads, schema-checks and builds the workflow off the GUI thread: the window runs meanwhile,
a broken or half-written file says what is wrong and where and leaves the document as it was, and the
newest open (or a new document) wins over a file still being read."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from doc_fixtures import make_triad, open_in, snapshot
from PySide6.QtCore import QTimer
from pytestqt.qtbot import QtBot

import app.controllers.background_open as background_open
from app import dialogs
from app.document import Document
from app.gui import open_window
from app.main_window import MainWindow
from app.resource_paths import bundled_examples
from engine.graph.format import dumps_workflow, load_workflow
from engine.graph.model import Workflow
from engine.graph.problems import WorkflowFileError

TRIAD, OTHER = bundled_examples()[0], bundled_examples()[1]


def _window(qtbot: QtBot, workflow: Workflow | None = None) -> MainWindow:
    window = MainWindow(Document(workflow or make_triad()))
    qtbot.addWidget(window)
    return window


class HeldReader:
    """`load_workflow` that waits, for the files named in `held`, until the test lets them go."""

    def __init__(self, *held: Path) -> None:
        self.held = {str(p): threading.Event() for p in held}
        self.threads: list[str] = []
        self.started: list[str] = []

    def __call__(self, path: str) -> Workflow:
        self.threads.append(threading.current_thread().name)
        self.started.append(path)
        if path in self.held:
            self.held[path].wait(10)
        return load_workflow(path)

    def release(self, path: Path) -> None:
        self.held[str(path)].set()


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., HeldReader]]:
    readers: list[HeldReader] = []

    def make(*paths: Path) -> HeldReader:
        reader = HeldReader(*paths)
        readers.append(reader)
        monkeypatch.setattr(background_open, "load_workflow", reader)
        return reader

    yield make
    for reader in readers:  # never leave the reading thread waiting
        for event in reader.held.values():
            event.set()


def test_the_file_is_read_off_the_gui_thread_while_the_window_runs(qtbot: QtBot, held: Callable[..., HeldReader]) -> None:
    window = _window(qtbot)
    before = snapshot(window.document.workflow)
    reader = held(TRIAD)
    window.files.open_path(str(TRIAD))
    ticks: list[int] = []
    timer = QTimer(window)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(5)
    qtbot.waitUntil(lambda: len(ticks) >= 5, timeout=5000)  # the loop runs while the file is read
    assert window.files.opening and reader.threads == ["open-file"]
    assert snapshot(window.document.workflow) == before and window.document.path is None
    with qtbot.waitSignal(window.files.opened, timeout=10_000):
        reader.release(TRIAD)
    timer.stop()
    assert not window.files.opening
    assert window.document.path == str(TRIAD) and window.windowTitle().startswith(TRIAD.name)
    assert len(window.scene.node_items) == len(window.document.workflow.nodes) > 0
    assert not window.document.is_modified() and window.document.undo_stack.count() == 0


@pytest.mark.parametrize(("text", "where"), [
    ('{"format": "triadic.workflow",\n "version": 3,\n "nodes": [,]\n}', "line 3, column 12"),
    ('{"format": "triadic.workflow", "version": 3, "nodes": [{"id": "a", "role": "planner", "title"', "line 1"),
])
def test_a_malformed_or_half_written_file_says_what_and_where_and_changes_nothing(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, text: str, where: str) -> None:
    shown: list[WorkflowFileError] = []
    monkeypatch.setattr(dialogs, "show_file_problems", lambda _parent, error: shown.append(error))
    window = _window(qtbot)
    open_in(qtbot, window, TRIAD)
    window.editor.add_node("tool", window.view.mapToScene(0, 0))
    before = snapshot(window.document.workflow)
    broken = tmp_path / "broken.triadic.json"
    broken.write_text(text, encoding="utf-8")
    replaced: list[object] = []
    window.document.workflow_replaced.connect(replaced.append)
    open_in(qtbot, window, broken, fails=True)
    assert len(shown) == 1 and shown[0].source == str(broken)
    message = dialogs.problems_text(shown[0])
    assert "Not valid JSON" in message and where in message
    assert not replaced and snapshot(window.document.workflow) == before
    assert window.document.path == str(TRIAD) and window.isWindowModified()
    assert broken.read_text(encoding="utf-8") == text


def test_a_second_file_opened_while_the_first_is_read_wins(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: Path, held: Callable[..., HeldReader]) -> None:
    shown: list[WorkflowFileError] = []
    monkeypatch.setattr(dialogs, "show_file_problems", lambda _parent, error: shown.append(error))
    slow_broken = tmp_path / "slow.triadic.json"
    slow_broken.write_text("{", encoding="utf-8")
    reader = held(TRIAD, slow_broken)
    window = _window(qtbot)
    replaced: list[Workflow] = []
    window.document.workflow_replaced.connect(replaced.append)
    opened: list[str] = []
    window.files.opened.connect(opened.append)
    window.files.open_path(str(TRIAD))
    qtbot.waitUntil(lambda: reader.started == [str(TRIAD)], timeout=5000)  # being read
    window.files.open_path(str(slow_broken))  # waits for the reading thread
    window.files.open_path(str(OTHER))  # the newest: the two before it are never shown
    reader.release(TRIAD)
    qtbot.waitUntil(lambda: bool(opened), timeout=10_000)
    qtbot.wait(50)
    assert opened == [str(OTHER)] and window.document.path == str(OTHER)
    assert len(replaced) == 1 and replaced[0] is window.document.workflow
    assert reader.started == [str(TRIAD), str(OTHER)]  # the overtaken broken file was not even read
    assert not shown  # and says nothing


def test_a_new_document_made_while_a_file_is_read_wins(qtbot: QtBot, held: Callable[..., HeldReader]) -> None:
    reader = held(TRIAD)
    window = _window(qtbot)
    window.files.open_path(str(TRIAD))
    qtbot.waitUntil(lambda: bool(reader.started), timeout=5000)
    assert window.files.new()
    blank = window.document.workflow
    opened: list[str] = []
    window.files.opened.connect(opened.append)
    reader.release(TRIAD)
    qtbot.wait(200)
    assert not opened and window.document.workflow is blank and window.document.path is None
    assert not window.files.opening


@pytest.mark.parametrize(("answer", "opens"), [("cancel", False), ("discard", True)])
def test_an_edit_made_while_the_file_is_read_is_asked_about_again(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, held: Callable[..., HeldReader], answer: str,
        opens: bool) -> None:
    asked: list[str] = []

    def ask(_parent: object, name: str) -> str:
        asked.append(name)
        return answer

    monkeypatch.setattr(dialogs, "ask_save_changes", ask)
    reader = held(TRIAD)
    window = _window(qtbot)
    window.files.open_path(str(TRIAD))  # the document was unmodified: nobody was asked
    window.editor.add_node("tool", window.view.mapToScene(0, 0))
    edited = snapshot(window.document.workflow)
    reader.release(TRIAD)
    qtbot.waitUntil(lambda: not window.files.opening, timeout=10_000)
    assert len(asked) == 1
    assert (window.document.path == str(TRIAD)) is opens
    if not opens:
        assert snapshot(window.document.workflow) == edited and window.document.is_modified()


def test_the_window_shows_before_the_file_given_at_start_is_in(qtbot: QtBot, tmp_path: Path,
                                                               held: Callable[..., HeldReader]) -> None:
    path = tmp_path / "start.triadic.json"
    path.write_text(dumps_workflow(make_triad()), encoding="utf-8")
    reader = held(path)
    window = open_window(str(path))
    qtbot.addWidget(window)
    qtbot.waitExposed(window)
    assert window.isVisible() and window.files.opening and not window.document.workflow.nodes
    with qtbot.waitSignal(window.files.opened, timeout=10_000):
        reader.release(path)
    assert window.document.path == str(path) and len(window.scene.node_items) == 5
    window.document.undo_stack.setClean()
