"""Help → About Triadic (F1) and the application icon, added to a window by one call.

`install_help_menu(window)` appends a Help menu (last on the menu bar) holding the About action and
registers the action in `window.actions_by_name["about"]`; the box shows the version, the git commit
and the versions of the main parts (`app.version`), and opens without a nested event loop (`open()`,
never `exec()`: the GUI runs on the qasync loop). `app_icon()` is the SVG icon with its PNG sizes.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QMainWindow, QMessageBox

from app.actions import set_tip
from app.resource_paths import resource_dir
from app.version import build_info

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def app_icon() -> QIcon:
    """The Triadic icon (the PNG sizes plus the SVG for any other size); null when resources are missing."""
    icon = QIcon()
    folder = resource_dir("icons")
    if folder is None:
        return icon
    for size in SIZES:
        png = folder / f"triadic-{size}.png"
        if png.is_file():
            icon.addFile(str(png))
    if (folder / "triadic.svg").is_file():
        icon.addFile(str(folder / "triadic.svg"))
    return icon


def about_html() -> str:
    info = build_info()
    parts = "".join(f"<tr><td>{name}</td><td>{version}</td></tr>" for name, version in info.get("parts", {}).items())
    return (f"<h3>Triadic {info['version']}</h3>"
            "<p>Draw, run, watch, replay and audit planner / executor / critic agent workflows."
            " Local-first: runs and traces stay in a SQLite file on this computer.</p>"
            f"<table><tr><td>Commit&nbsp;</td><td>{info['commit']}</td></tr>"
            f"<tr><td>Python</td><td>{info['python']}</td></tr>{parts}</table>"
            "<p>Licensed under the Apache License 2.0.</p>")


def show_about(window: QMainWindow) -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.NoIcon, "About Triadic", about_html(), QMessageBox.StandardButton.Ok, window)
    box.setObjectName("about_box")
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setIconPixmap(app_icon().pixmap(96, 96))
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


def install_help_menu(window: QMainWindow) -> QAction:
    """Append Help → About Triadic (F1) to `window`'s menu bar; returns the action."""
    action = QAction("&About Triadic", window)
    action.setObjectName("action_about")
    action.setShortcut("F1")
    action.setMenuRole(QAction.MenuRole.AboutRole)
    set_tip(action, "Version, git commit and the parts this Triadic is built from")
    action.triggered.connect(lambda _checked=False: show_about(window))
    window.addAction(action)
    actions = getattr(window, "actions_by_name", None)
    if isinstance(actions, dict):
        actions["about"] = action
    window.menuBar().addMenu("&Help").addAction(action)
    return action


__all__ = ["app_icon", "install_help_menu", "show_about"]
