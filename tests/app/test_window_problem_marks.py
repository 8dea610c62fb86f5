"""The window feeds the canvas marks from the problems dock's validation: marked on open, unmarked by a
fixing edit, marked again by undo, and following a replaced workflow."""

from __future__ import annotations

from pathlib import Path

from doc_fixtures import open_in
from pytestqt.qtbot import QtBot

from app.document import Document
from app.main_window import MainWindow
from app.resource_paths import bundled_examples
from engine.graph.format import load_workflow, save_workflow
from engine.graph.model import Workflow
from widgets.problems.problems_panel import DEBOUNCE_MS

WAIT = DEBOUNCE_MS * 20
BROKEN = {"check": "regex", "expression": "fullmatch:(abc"}


def _code_fix(broken: bool) -> Workflow:
    example = next(p for p in bundled_examples() if p.name == "code_fix.triadic.json")
    wf = load_workflow(example)
    if broken:
        wf.set_param("tests", "check", BROKEN["check"])
        wf.set_param("tests", "expression", BROKEN["expression"])
    return wf


def _window(qtbot: QtBot, workflow: Workflow) -> MainWindow:
    window = MainWindow(Document(workflow))
    qtbot.addWidget(window)
    return window


def test_broken_verifier_is_marked_when_the_window_opens(qtbot: QtBot) -> None:
    window = _window(qtbot, _code_fix(broken=True))
    item = window.scene.node_items["tests"]
    assert item.mark is not None and item.mark.severity == "error"
    assert "does not compile" in item.toolTip()
    assert "1 errors" in window.counts_label.text()
    assert [i for i, it in window.scene.node_items.items() if it.mark] == ["tests"]


def test_marks_follow_edits_and_undo(qtbot: QtBot) -> None:
    window = _window(qtbot, _code_fix(broken=True))
    item = window.scene.node_items["tests"]
    window.editor.set_param("tests", "expression", "fullmatch:abc")
    qtbot.waitUntil(lambda: item.mark is None, timeout=WAIT)
    assert "does not compile" not in item.toolTip() and "0 errors" in window.counts_label.text()
    window.document.undo()
    qtbot.waitUntil(lambda: item.mark is not None, timeout=WAIT)
    assert item.mark is not None and item.mark.severity == "error"


def test_marks_follow_a_replaced_workflow(qtbot: QtBot, tmp_path: Path) -> None:
    window = _window(qtbot, _code_fix(broken=False))
    assert not any(it.mark for it in window.scene.node_items.values())
    path = tmp_path / "broken.triadic.json"
    save_workflow(_code_fix(broken=True), path)
    open_in(qtbot, window, path)
    assert window.scene.node_items["tests"].mark is not None  # at once: the dock re-validates on replace
    open_in(qtbot, window, bundled_examples()[0])
    assert not any(it.mark and it.mark.severity == "error" for it in window.scene.node_items.values())


def test_a_large_workflow_is_validated_off_the_gui_thread_and_marked(qtbot: QtBot, tmp_path: Path) -> None:
    window = _window(qtbot, Workflow())
    window.problems.background_above = 0  # treat every workflow as large
    path = tmp_path / "broken.triadic.json"
    save_workflow(_code_fix(broken=True), path)
    open_in(qtbot, window, path)
    assert not window.problems.current  # the result comes from the validation thread
    qtbot.waitUntil(lambda: window.problems.current, timeout=WAIT)
    item = window.scene.node_items["tests"]
    assert item.mark is not None and item.mark.severity == "error"
    assert "1 errors" in window.counts_label.text()
    window.editor.set_param("tests", "expression", "fullmatch:abc")
    qtbot.waitUntil(lambda: window.problems.current and item.mark is None, timeout=WAIT)
    assert "0 errors" in window.counts_label.text()
