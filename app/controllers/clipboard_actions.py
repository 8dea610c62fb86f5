"""Copy, cut, paste and duplicate of canvas selections through the system clipboard.

The clipboard holds `engine.graph.fragment.copy_fragment` JSON (see `app.controllers.clipboard`),
so fragments travel between windows and text editors. Pasting inserts the nodes and edges made by
`paste_fragment` as one undo step, selects them and, given a scene position, puts the fragment's
top-left corner there. A clipboard that holds no valid fragment pastes nothing and says why.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPointF

from app.commands import paste_command, remove_command
from app.controllers.clipboard import fragment_text, put_fragment_text
from app.document import Document
from engine.graph.fragment import copy_fragment, paste_fragment
from engine.graph.problems import WorkflowFileError

DUPLICATE_OFFSET = (40.0, 40.0)


class ClipboardActions:
    def __init__(self, document: Document, view: Any, report: Callable[[str], None]) -> None:
        self.document = document
        self.view = view
        self.report = report

    def copy(self) -> bool:
        ids = self.view.selected_node_ids()
        if not ids:
            self.report("Nothing selected to copy")
            return False
        try:
            fragment = copy_fragment(self.document.workflow, ids)
        except WorkflowFileError as exc:
            self.report(str(exc).replace("\n", " "))
            return False
        put_fragment_text(json.dumps(fragment, indent=2, ensure_ascii=False))
        self.report(f"Copied {len(fragment['nodes'])} node(s)")
        return True

    def cut(self) -> None:
        if self.copy():
            self.document.push(remove_command(self.document.workflow, self.view.selected_node_ids(), []))

    def paste(self, scene_pos: QPointF | None = None) -> list[str]:
        text = fragment_text()
        if text is None:
            self.report("The clipboard holds no workflow nodes")
            return []
        try:
            fragment = json.loads(text)
        except ValueError as exc:
            self.report(f"Cannot paste: the clipboard text is not JSON ({exc})")
            return []
        return self.insert(fragment, scene_pos, "Paste")

    def duplicate(self) -> list[str]:
        ids = self.view.selected_node_ids()
        if not ids:
            self.report("Nothing selected to duplicate")
            return []
        return self.insert(copy_fragment(self.document.workflow, ids), None, "Duplicate")

    def insert(self, fragment: Any, scene_pos: QPointF | None, text: str) -> list[str]:
        workflow = self.document.workflow
        try:
            nodes, edges = paste_fragment(workflow, fragment, offset=DUPLICATE_OFFSET)
        except WorkflowFileError as exc:
            self.report(str(exc).replace("\n", " "))
            return []
        if not nodes:
            self.report("The clipboard fragment has no nodes")
            return []
        if scene_pos is not None:
            dx = scene_pos.x() - min(n.ui.x for n in nodes)
            dy = scene_pos.y() - min(n.ui.y for n in nodes)
            for node in nodes:
                node.ui.x, node.ui.y = node.ui.x + dx, node.ui.y + dy
        self.document.push(paste_command(workflow, nodes, edges, text))
        ids = [n.id for n in nodes]
        self.view.select_nodes(ids)
        return ids
