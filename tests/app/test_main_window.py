"""Main window: opens every bundled example, guards unsaved changes, shows broken files' problems."""

from __future__ import annotations

from pathlib import Path

import pytest
from doc_fixtures import open_in, snapshot
from PySide6.QtGui import QKeySequence
from pytestqt.qtbot import QtBot

from app import dialogs, settings_store
from app.document import Document
from app.main_window import MainWindow
from app.resource_paths import bundled_examples
from engine.graph.format import load_workflow
from engine.graph.model import Workflow
from engine.graph.problems import WorkflowFileError


def _window(qtbot: QtBot, workflow: Workflow | None = None) -> MainWindow:
    window = MainWindow(Document(workflow or Workflow()))
    qtbot.addWidget(window)
    return window


def _no_dialogs(monkeypatch: pytest.MonkeyPatch, answer: str = "cancel") -> list[str]:
    asked: list[str] = []

    def ask(_parent: object, name: str) -> str:
        asked.append(name)
        return answer

    monkeypatch.setattr(dialogs, "ask_save_changes", ask)
    return asked


def test_opens_every_bundled_example(qtbot: QtBot) -> None:
    examples = bundled_examples()
    assert examples, "resources/examples/*.triadic.json"
    window = _window(qtbot)
    for example in examples:
        open_in(qtbot, window, example)
        assert window.document.path == str(example)
        assert len(window.scene.node_items) == len(window.document.workflow.nodes) > 0
        assert window.windowTitle().startswith(example.name)
        assert f"{len(window.document.workflow.nodes)} nodes" in window.counts_label.text()


def test_new_from_example_is_an_unsaved_copy(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    _no_dialogs(monkeypatch)
    window = _window(qtbot)
    example = bundled_examples()[0]
    assert window.files.new_from_example(str(example))
    assert window.document.path is None
    assert snapshot(window.document.workflow) == snapshot(load_workflow(example))


def test_title_shows_modified_mark(qtbot: QtBot) -> None:
    window = _window(qtbot)
    assert not window.isWindowModified() and window.windowTitle() == "Untitled[*] — Triadic"
    window.editor.add_node("planner", window.view.mapToScene(0, 0))
    assert window.isWindowModified()
    undo = window.actions_by_name["undo"]
    assert "Add" in undo.text() and "Ctrl+Z" in undo.toolTip()
    undo.trigger()
    assert not window.isWindowModified() and not window.document.workflow.nodes


def test_every_menu_action_has_a_shortcut_in_its_tooltip(qtbot: QtBot) -> None:
    window = _window(qtbot)
    for name, action in window.actions_by_name.items():
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        assert keys, name
        assert keys in action.toolTip(), (name, action.toolTip())


def test_guard_cancel_keeps_everything(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    asked = _no_dialogs(monkeypatch, "cancel")
    window = _window(qtbot)
    window.editor.add_node("executor", window.view.mapToScene(0, 0))
    assert not window.files.new()
    assert not window.files.open(str(bundled_examples()[0]))
    assert not window.close()
    assert len(asked) == 3 and "executor_1" in window.document.workflow.nodes and window.isVisible() is False


def test_guard_discard_and_save(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _no_dialogs(monkeypatch, "discard")
    window = _window(qtbot)
    window.editor.add_node("executor", window.view.mapToScene(0, 0))
    assert window.files.new() and not window.document.workflow.nodes
    _no_dialogs(monkeypatch, "save")
    target = tmp_path / "saved.triadic.json"
    monkeypatch.setattr(dialogs, "ask_save_path", lambda _p, _s: str(target))
    window.editor.add_node("critic", window.view.mapToScene(0, 0))
    assert window.files.new()
    assert "critic_1" in load_workflow(target).nodes
    assert settings_store.recent_files()[0] == str(target.resolve())


def test_broken_file_shows_problems_and_keeps_document(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    _no_dialogs(monkeypatch, "discard")
    shown: list[WorkflowFileError] = []
    monkeypatch.setattr(dialogs, "show_file_problems", lambda _p, error: shown.append(error))
    window = _window(qtbot)
    open_in(qtbot, window, bundled_examples()[0])
    window.editor.add_node("tool", window.view.mapToScene(0, 0))
    before = snapshot(window.document.workflow)
    broken = tmp_path / "broken.triadic.json"
    raw = b'{"format": "triadic.workflow", "version": 1, "nodes": [{"id": "x", "role": 5}], "edges": []}'
    broken.write_bytes(raw)
    with qtbot.waitSignal(window.files.open_failed, timeout=10_000):
        assert window.files.open(str(broken))  # asked to discard the edit, then started reading
    assert broken.read_bytes() == raw
    assert len(shown) == 1 and shown[0].problems
    assert "role" in dialogs.problems_text(shown[0]).lower()
    assert snapshot(window.document.workflow) == before and window.isWindowModified()
    assert window.document.path == str(bundled_examples()[0])


def test_problem_activation_selects_node(qtbot: QtBot) -> None:
    window = _window(qtbot)
    node_id = window.editor.add_node("executor", window.view.mapToScene(0, 0))
    window.view.select_nodes([])
    window.problems.revalidate()
    row = next(r for r in range(window.problems.model.rowCount())
               if window.problems.model.problem_at(r).node_id == node_id)
    window.problems.table.activated.emit(window.problems.model.index(row, 0))
    assert window.view.selected_node_ids() == [node_id]
    assert window.inspector.node_id == node_id  # the inspector follows the selection


def test_inspector_edit_is_undoable_and_form_follows_undo(qtbot: QtBot) -> None:
    window = _window(qtbot)
    node_id = window.editor.add_node("planner", window.view.mapToScene(0, 0))
    assert node_id is not None
    window.view.select_nodes([node_id])
    window.inspector.show_node(node_id)
    form = window.inspector.form
    editor = form.editors["max_tasks"]  # type: ignore[union-attr]
    editor.spin.setValue(12)  # type: ignore[attr-defined]
    assert window.document.workflow.nodes[node_id].params["max_tasks"] == 12
    window.actions_by_name["undo"].trigger()
    assert "max_tasks" not in window.document.workflow.nodes[node_id].params
    assert editor.spin.value() == 8  # type: ignore[attr-defined]


def test_theme_and_geometry_are_remembered(qtbot: QtBot) -> None:
    window = _window(qtbot)
    window.actions_by_name["dark_theme"].setChecked(True)
    assert settings_store.theme() == "dark"
    window.resize(900, 700)
    window.close()
    geometry, state = settings_store.window_state()
    assert geometry is not None and state is not None
    window.actions_by_name["dark_theme"].setChecked(False)
    assert settings_store.theme() == "light"


def test_palette_activation_adds_at_view_centre(qtbot: QtBot) -> None:
    window = _window(qtbot)
    window.palette_panel.role_activated.emit("critic")
    assert list(window.document.workflow.nodes) == ["critic_1"]
    assert window.document.undo_stack.count() == 1


def test_recent_and_example_menus(qtbot: QtBot, tmp_path: Path) -> None:
    from app.window_wiring import _fill_examples, _fill_recent

    window = _window(qtbot)
    example = bundled_examples()[0]
    open_in(qtbot, window, example)
    _fill_recent(window)
    entries = [a for a in window.menus["recent"].actions() if a.isEnabled()]
    assert entries and entries[0].toolTip() == str(example.resolve())
    _fill_examples(window)
    names = [a.text() for a in window.menus["examples"].actions()]
    assert len(names) == len(bundled_examples()) and names[0].endswith(example.name)
    window.files.new()
    window.menus["examples"].actions()[0].trigger()
    assert window.document.path is None and window.document.workflow.nodes


def test_edit_actions_act_on_the_canvas_selection(qtbot: QtBot) -> None:
    window = _window(qtbot)
    open_in(qtbot, window, bundled_examples()[0])
    workflow = window.document.workflow
    count = len(workflow.nodes)
    a = window.actions_by_name
    a["select_all"].trigger()
    assert sorted(window.view.selected_node_ids()) == sorted(workflow.nodes)
    a["auto_layout"].trigger()
    a["group"].trigger()
    assert len(workflow.nodes) == 1
    a["ungroup"].trigger()
    assert len(workflow.nodes) == count
    first = next(iter(workflow.nodes))
    window.view.select_nodes([first])
    a["duplicate"].trigger()
    assert len(workflow.nodes) == count + 1
    a["delete"].trigger()
    assert len(workflow.nodes) == count
    for name in ("zoom_in", "zoom_out", "zoom_reset", "fit", "search"):
        a[name].trigger()
    while window.document.undo_stack.canUndo():
        a["undo"].trigger()
    assert not window.isWindowModified()
