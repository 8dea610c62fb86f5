"""The menu bar: File, Edit, View (Panels lists the run docks too), Run, Settings (models and keys); the Recent and New-from-example submenus are rebuilt on demand.

Invariant: menus only arrange actions made in `app.actions`/`app.docks` (and the undo stack's undo /
redo actions); they hold no behaviour of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu


def _add(menu: QMenu, actions: dict[str, QAction], *names: str) -> None:
    for name in names:
        if name == "-":
            menu.addSeparator()
        elif name in actions:
            menu.addAction(actions[name])


def build_menus(window: QMainWindow, actions: dict[str, QAction]) -> dict[str, QMenu]:
    bar = window.menuBar()
    file_menu = bar.addMenu("&File")
    _add(file_menu, actions, "new")
    examples = file_menu.addMenu("New from &Example")
    _add(file_menu, actions, "open")
    recent = file_menu.addMenu("Open &Recent")
    _add(file_menu, actions, "-", "save", "save_as", "-", "import_run", "export_script", "-", "quit")
    edit_menu = bar.addMenu("&Edit")
    _add(edit_menu, actions, "undo", "redo", "-", "cut", "copy", "paste", "duplicate", "delete", "-",
         "select_all", "-")
    align = edit_menu.addMenu("&Align")
    _add(align, actions, "align_left", "align_right", "align_top", "align_bottom", "-",
         "align_hcenter", "align_vcenter", "-", "align_hdistribute", "align_vdistribute")
    _add(edit_menu, actions, "auto_layout", "-", "group", "ungroup", "-", "add_comment")
    view_menu = bar.addMenu("&View")
    _add(view_menu, actions, "zoom_in", "zoom_out", "zoom_reset", "fit", "-", "search", "-")
    panels = view_menu.addMenu("&Panels")
    own = ("toggle_palette", "toggle_inspector", "toggle_problems", "toggle_minimap")
    _add(panels, actions, *own)
    run_panels = [name for name in actions if name.startswith("toggle_") and name not in own]
    if run_panels:
        _add(panels, actions, "-", *run_panels)
    _add(view_menu, actions, "-", "dark_theme")
    run_menu = bar.addMenu("&Run")
    _add(run_menu, actions, "run", "stop", "pause", "step", "-", "breakpoint", "-", "open_run", "rerun", "back_to_editing",
         "close_run")
    settings_menu = bar.addMenu("&Settings")
    _add(settings_menu, actions, "keys", "export_settings")
    return {"file": file_menu, "examples": examples, "recent": recent, "edit": edit_menu,
            "align": align, "view": view_menu, "panels": panels, "run": run_menu, "settings": settings_menu}


def fill_path_menu(menu: QMenu, paths: Sequence[str | Path], on_pick: Callable[[str], object],
                   empty_text: str) -> None:
    """Rebuild a submenu with one entry per path (Alt+1…9 style numbering for keyboard use)."""
    menu.clear()
    for i, path in enumerate(paths, start=1):
        label = Path(path).name
        prefix = f"&{i} " if i < 10 else ""
        action = menu.addAction(f"{prefix}{label}")
        action.setToolTip(str(path))
        action.setStatusTip(str(path))
        action.triggered.connect(lambda _checked=False, p=str(path): on_pick(p))
    if not paths:
        placeholder = menu.addAction(empty_text)
        placeholder.setEnabled(False)
