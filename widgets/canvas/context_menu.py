"""The canvas's right-click menu: every entry emits one of the view's intent signals.

Invariant: the menu only offers what applies to the selection under it (align needs two nodes,
ungroup one sub-graph node, "Fork from here…" one node of a past run shown: the view's `fork_handler`,
a callable the window sets — the view's signals are blocked while a past run is shown) and never
touches the model.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QMenu

_ALIGN = (("Align left", "left"), ("Align right", "right"), ("Align top", "top"), ("Align bottom", "bottom"),
          ("Centre horizontally", "hcenter"), ("Centre vertically", "vcenter"),
          ("Distribute horizontally", "hdistribute"), ("Distribute vertically", "vdistribute"))


def build_context_menu(view: Any, scene_pos: QPointF) -> QMenu:
    menu = QMenu(view)
    nodes, edges, comments = view.selected_node_ids(), view.selected_edge_ids(), view.selected_comment_ids()
    fork = getattr(view, "fork_handler", None)  # set by the window while a past run is shown
    if fork is not None and len(nodes) == 1:
        menu.addAction("Fork from here…", lambda: fork(nodes[0]))
        menu.addSeparator()
    if nodes:
        menu.addAction("Cut\tCtrl+X", view.cut_requested.emit)
        menu.addAction("Copy\tCtrl+C", view.copy_requested.emit)
        menu.addAction("Duplicate\tCtrl+D", view.duplicate_requested.emit)
    menu.addAction("Paste\tCtrl+V", lambda: view.paste_requested.emit(scene_pos))
    if nodes or edges or comments:
        menu.addAction("Delete\tDel", view.request_delete)
    if nodes:
        menu.addAction("Toggle breakpoint\tF9", lambda: view.breakpoint_toggle_requested.emit(list(nodes)))
    menu.addSeparator()
    if len(nodes) >= 2:
        align = menu.addMenu("Align")
        for label, how in _ALIGN:
            if "distribute" in how and len(nodes) < 3:
                continue
            align.addAction(label, lambda how=how: view.align_requested.emit(how))
        menu.addAction("Group into sub-graph", lambda: view.group_requested.emit(list(nodes)))
    if len(nodes) == 1 and view.canvas_scene().workflow.nodes[nodes[0]].role == "subgraph":
        menu.addAction("Ungroup", lambda: view.ungroup_requested.emit(nodes[0]))
    if len(nodes) >= 2:
        menu.addAction("Auto-layout selection", lambda: view.auto_layout_requested.emit(list(nodes)))
    menu.addAction("Auto-layout all", lambda: view.auto_layout_requested.emit([]))
    menu.addSeparator()
    menu.addAction("Insert node…\tTab", lambda: view.open_quick_insert(scene_pos))
    menu.addAction("Add comment", lambda: view.comment_add_requested.emit(scene_pos))
    menu.addAction("Find node…\tCtrl+K", view.open_search)
    menu.addAction("Fit to view\tF", view.fit_to_view)
    return menu
