"""Connects a MainWindow's actions and panels to its controllers (one function, no state).

Invariant: every action's `triggered` goes to exactly one controller method or view slot (an action on
the canvas waits while the canvas is being built: `_on_canvas`); panels'
intents go to the EditorController; selection in the canvas drives the inspector; the problems
model's validation results drive the canvas marks (one validation feeds the dock, the status bar
and the canvas).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF
from PySide6.QtGui import QAction, QCursor
from PySide6.QtWidgets import QApplication

from app import settings_store
from app.actions import set_tip
from app.export_script_action import export_script
from app.menus import fill_path_menu
from app.resource_paths import bundled_examples
from app.themes import apply_theme

if TYPE_CHECKING:
    from app.main_window import MainWindow


def _on(action: QAction, slot: object) -> None:
    action.triggered.connect(lambda _checked=False: slot())  # type: ignore[operator]


def _on_canvas(window: MainWindow, action: QAction, slot: object) -> None:
    """An action on the canvas: while a large workflow's items are still being built it waits, and runs
    once they are all there (dropped if another workflow comes first)."""
    action.triggered.connect(lambda _checked=False: window.scene.after_build(slot))  # type: ignore[arg-type]


def wire_window(window: MainWindow) -> None:
    a, view, editor, files = window.actions_by_name, window.view, window.editor, window.files
    _on(a["new"], files.new)
    _on(a["open"], files.open)
    _on(a["save"], files.save)
    _on(a["save_as"], files.save_as)
    _on(a["export_script"], lambda: export_script(window))
    _on(a["quit"], window.close)
    _on_canvas(window, a["cut"], editor.clipboard.cut)
    _on_canvas(window, a["copy"], editor.clipboard.copy)
    _on_canvas(window, a["paste"], lambda: editor.clipboard.paste(_paste_position(window)))
    _on_canvas(window, a["duplicate"], editor.clipboard.duplicate)
    _on_canvas(window, a["delete"], editor.delete_selection)
    _on_canvas(window, a["select_all"], lambda: view.select_nodes(list(window.document.workflow.nodes)))
    for how in ("left", "right", "top", "bottom", "hcenter", "vcenter", "hdistribute", "vdistribute"):
        _on_canvas(window, a[f"align_{how}"], lambda how=how: editor.align(how))
    _on_canvas(window, a["auto_layout"], lambda: editor.auto_layout(view.selected_node_ids()))
    _on_canvas(window, a["group"], lambda: editor.group(view.selected_node_ids()))
    _on_canvas(window, a["ungroup"], lambda: _ungroup_selection(window))
    _on_canvas(window, a["add_comment"], lambda: editor.add_comment(view.mapToScene(view.viewport().rect().center())))
    _on_canvas(window, a["zoom_in"], view.zoom_in)
    _on_canvas(window, a["zoom_out"], view.zoom_out)
    _on_canvas(window, a["zoom_reset"], view.zoom_reset)
    _on_canvas(window, a["fit"], view.fit_to_view)
    _on_canvas(window, a["search"], lambda: _open_search(window))
    a["dark_theme"].setChecked(settings_store.theme() == "dark")
    a["dark_theme"].toggled.connect(lambda dark: set_window_theme(window, "dark" if dark else "light"))
    for name, keys, tip in (("undo", "Ctrl+Z", "Undo the last edit (the menu names it)"),
                            ("redo", "Ctrl+Shift+Z", "Redo the last undone edit (the menu names it)")):
        a[name].setShortcut(keys)
        a[name].setObjectName(f"action_{name}")
        set_tip(a[name], tip)
    window.menus["recent"].aboutToShow.connect(lambda: _fill_recent(window))
    window.menus["examples"].aboutToShow.connect(lambda: _fill_examples(window))
    window.palette_panel.role_activated.connect(editor.add_node_at_centre)
    window.problems.problem_activated.connect(editor.reveal)
    window.problems.problems_counted.connect(window.update_counts)
    window.problems.model.problems_changed.connect(window.scene.marks.show)
    window.scene.marks.show(window.problems.model.problems)  # the result found before this connection
    window.document_shown.connect(files.on_document_shown)
    window.inspector.param_change_requested.connect(editor.set_param)
    window.inspector.title_change_requested.connect(editor.set_title)
    window.inspector.settings_change_requested.connect(editor.set_settings)
    window.inspector.contracts_change_requested.connect(editor.set_contracts)
    view.selection_changed.connect(lambda: _follow_selection(window))
    view.node_activated.connect(lambda node_id: _inspect(window, node_id))
    editor.status_message.connect(window.show_status)
    files.status_message.connect(window.show_status)
    window._signals.changed.connect(window.update_counts)


def set_window_theme(window: MainWindow, name: str) -> None:
    """Switch the whole application to theme `name` and remember it."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        apply_theme(app, name)
    settings_store.set_theme(name)
    show_theme(window, name)


def show_theme(window: MainWindow, name: str) -> None:
    """The parts of `window` that draw their own colours (palette, canvas) in theme `name`, which the
    application already has: a second `apply_theme` would re-polish every widget (~0.15 s at start-up)."""
    dark = name == "dark"
    window.palette_panel.set_dark(dark)
    set_dark = getattr(window.scene, "set_dark", None)
    if callable(set_dark):
        set_dark(dark)


def _paste_position(window: MainWindow) -> QPointF | None:
    view = window.view
    local = view.viewport().mapFromGlobal(QCursor.pos())
    if view.viewport().rect().contains(local):
        return view.mapToScene(local)
    return None


def _ungroup_selection(window: MainWindow) -> None:
    ids = window.view.selected_node_ids()
    if len(ids) != 1:
        window.show_status("Select one sub-graph node to ungroup")
        return
    window.editor.ungroup(ids[0])


def _open_search(window: MainWindow) -> None:
    opener = getattr(window.view, "open_search", None)
    if callable(opener):
        opener()
    else:
        window.show_status("Node search is not available in this canvas")


def _follow_selection(window: MainWindow) -> None:
    ids = window.view.selected_node_ids()
    window.inspector.show_node(ids[0] if len(ids) == 1 else None)


def _inspect(window: MainWindow, node_id: str) -> None:
    window.inspector.show_node(node_id)
    dock = window.docks.get("inspector")
    if dock is not None:
        dock.show()
        dock.raise_()


def _fill_recent(window: MainWindow) -> None:
    fill_path_menu(window.menus["recent"], window.files.recent(), window.files.open, "No recent files")


def _fill_examples(window: MainWindow) -> None:
    fill_path_menu(window.menus["examples"], bundled_examples(), window.files.new_from_example,
                   "No bundled examples")
