"""Every window action with its text, shortcut and tooltip (which always shows the shortcut).

Invariant: every action that can be triggered from the menus has a keyboard shortcut, shown in
the menu and in its tooltip; the window wires `triggered` to the controllers.
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

StdKey = QKeySequence.StandardKey

# name: (text, shortcut, tip)
ACTION_SPECS: dict[str, tuple[str, QKeySequence | StdKey | str, str]] = {
    "new": ("&New", StdKey.New, "Start a blank workflow"),
    "open": ("&Open…", StdKey.Open, "Open a workflow file"),
    "save": ("&Save", StdKey.Save, "Save the workflow"),
    "save_as": ("Save &As…", "Ctrl+Shift+S", "Save the workflow under a new name"),
    "export_script": ("Export as &Python Script…", "Ctrl+Shift+P", "Write the workflow as a standalone Python script that runs it headless"),
    "quit": ("&Quit", "Ctrl+Q", "Close the window"),
    "cut": ("Cu&t", StdKey.Cut, "Cut the selected nodes"),
    "copy": ("&Copy", StdKey.Copy, "Copy the selected nodes as workflow JSON"),
    "paste": ("&Paste", StdKey.Paste, "Paste nodes from the clipboard"),
    "duplicate": ("D&uplicate", "Ctrl+D", "Duplicate the selected nodes"),
    "delete": ("&Delete", StdKey.Delete, "Delete the selected nodes and edges"),
    "select_all": ("Select &All", StdKey.SelectAll, "Select every node"),
    "align_left": ("Align &Left", "Ctrl+Alt+Left", "Align the selected nodes' left edges"),
    "align_right": ("Align &Right", "Ctrl+Alt+Right", "Align the selected nodes' right edges"),
    "align_top": ("Align &Top", "Ctrl+Alt+Up", "Align the selected nodes' top edges"),
    "align_bottom": ("Align &Bottom", "Ctrl+Alt+Down", "Align the selected nodes' bottom edges"),
    "align_hcenter": ("Align Horizontal &Centres", "Ctrl+Alt+H", "Centre the selected nodes on one vertical line"),
    "align_vcenter": ("Align &Vertical Centres", "Ctrl+Alt+V", "Centre the selected nodes on one horizontal line"),
    "align_hdistribute": ("Distribute &Horizontally", "Ctrl+Alt+Shift+H", "Space the selected nodes evenly left to right"),
    "align_vdistribute": ("Distribute V&ertically", "Ctrl+Alt+Shift+V", "Space the selected nodes evenly top to bottom"),
    "group": ("&Group into Sub-graph", "Ctrl+G", "Replace the selected nodes by one sub-graph node"),
    "ungroup": ("U&ngroup", "Ctrl+Shift+G", "Put the selected sub-graph's nodes back on the canvas"),
    "auto_layout": ("Auto-&Layout", "Ctrl+L", "Lay out the selection (or everything) left to right"),
    "add_comment": ("Add Co&mment", "Ctrl+Shift+M", "Add a sticky note at the view centre"),
    "zoom_in": ("Zoom &In", StdKey.ZoomIn, "Zoom in"),
    "zoom_out": ("Zoom &Out", StdKey.ZoomOut, "Zoom out"),
    "zoom_reset": ("&Actual Size", "Ctrl+0", "Reset the zoom to 100 %"),
    "fit": ("&Fit to Window", "Ctrl+Shift+F", "Show the whole workflow"),
    "search": ("&Jump to Node…", "Ctrl+K", "Search nodes by title, id or role and centre on one"),
    "run": ("&Run…", "F5", "Run the workflow: asks for its inputs and models, then starts it"),
    "stop": ("S&top Run", "Shift+F5", "Stop the selected run (it is recorded as cancelled)"),
    "pause": ("&Pause", "F6", "Pause or resume the selected run (running nodes finish their step)"),
    "step": ("S&tep", "F10", "Let one more node of the selected run start, then hold"),
    "breakpoint": ("Toggle &Breakpoint", "F9", "Hold runs before the selected nodes start"),
    "import_run": ("&Import Run…", "Ctrl+Shift+I", "Add a run from a bundle file (another Triadic's export) to the store"),
    "rerun": ("Re-run from &Recording", "Ctrl+Shift+R",
              "Run the selected finished run again from its recording: no provider is called"),
    "open_run": ("Open Past R&un…", "Ctrl+Shift+O", "Show a stored run (by id) read-only"),
    "back_to_editing": ("Back to &Editing", "Ctrl+Shift+E", "Leave the past run's read-only canvas"),
    "close_run": ("&Close Run View", "Ctrl+Shift+W", "Take the selected finished run off the run picker"),
    "toggle_palette": ("&Palette", "Ctrl+Shift+1", "Show or hide the palette"),
    "toggle_inspector": ("&Inspector", "Ctrl+Shift+2", "Show or hide the inspector"),
    "toggle_problems": ("Pro&blems", "Ctrl+Shift+3", "Show or hide the problems list"),
    "toggle_minimap": ("&Minimap", "Ctrl+Shift+4", "Show or hide the minimap"),
    "dark_theme": ("&Dark Theme", "Ctrl+Shift+T", "Switch between the light and dark theme"),
    "keys": ("Models && &Keys…", "Ctrl+Alt+K", "Store API keys in the OS keyring, see where each comes from, test one"),
    "export_settings": ("&Export…", "Ctrl+Alt+E", "Send each finished run to an OpenTelemetry receiver (address, content)"),
}


def shortcut_text(action: QAction) -> str:
    return action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)


def set_tip(action: QAction, tip: str) -> None:
    """Tooltip and status tip with the shortcut appended, e.g. "Save the workflow (Ctrl+S)"."""
    keys = shortcut_text(action)
    action.setToolTip(f"{tip} ({keys})" if keys else tip)
    action.setStatusTip(action.toolTip())


def configure(action: QAction, name: str) -> QAction:
    """Give an action (own or Qt-made, e.g. a dock's toggle action) its spec'd text, keys and tip."""
    text, keys, tip = ACTION_SPECS[name]
    action.setText(text)
    action.setObjectName(f"action_{name}")
    action.setShortcut(QKeySequence(keys))
    set_tip(action, tip)
    return action


def build_actions(parent: QWidget) -> dict[str, QAction]:
    """The window's own actions (dock toggles come from the docks, see `app.docks`)."""
    actions = {name: configure(QAction(parent), name) for name in ACTION_SPECS if not name.startswith("toggle_")}
    actions["dark_theme"].setCheckable(True)
    return actions
