"""Moving nodes: drags, keyboard nudges, align/distribute and auto-layout are all one move command.

`MoveNodesCommand` merges with the next move of the same nodes when both are mergeable (a drag in
several steps or repeated nudges become one undo step); align and auto-layout are not mergeable.
`align_positions` computes the new positions of an align/distribute as a pure function.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from engine.graph.layout import node_box
from engine.graph.model import Workflow

Positions = dict[str, tuple[float, float]]
ALIGN_HOWS = ("left", "right", "top", "bottom", "hcenter", "vcenter", "hdistribute", "vdistribute")
_MOVE_ID = 0x7A1D


class MoveNodesCommand(QUndoCommand):
    def __init__(self, workflow: Workflow, old: Positions, new: Positions, text: str = "Move",
                 *, mergeable: bool = True) -> None:
        ids = [n for n in new if n in workflow.nodes]
        super().__init__(f"{text} {len(ids)} node(s)")
        self._workflow = workflow
        self._old = {n: old.get(n, (workflow.nodes[n].ui.x, workflow.nodes[n].ui.y)) for n in ids}
        self._new = {n: new[n] for n in ids}
        self._mergeable = mergeable

    def id(self) -> int:
        return _MOVE_ID if self._mergeable else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, MoveNodesCommand) or not other._mergeable:
            return False
        if set(other._new) != set(self._new):
            return False
        self._new = dict(other._new)
        return True

    def redo(self) -> None:
        for node_id, (x, y) in self._new.items():
            self._workflow.move_node(node_id, x, y)

    def undo(self) -> None:
        for node_id, (x, y) in self._old.items():
            self._workflow.move_node(node_id, x, y)


def align_positions(workflow: Workflow, node_ids: list[str], how: str) -> Positions:
    """New top-left positions for aligning or distributing the given nodes (using their box sizes)."""
    if how not in ALIGN_HOWS:
        raise ValueError(f"unknown alignment {how!r}; expected one of {', '.join(ALIGN_HOWS)}")
    boxes = {n: (workflow.nodes[n].ui.x, workflow.nodes[n].ui.y, *node_box(workflow.nodes[n]))
             for n in dict.fromkeys(node_ids) if n in workflow.nodes}
    if len(boxes) < 2:
        return {n: (b[0], b[1]) for n, b in boxes.items()}
    result: Positions = {}
    if how in ("left", "right", "hcenter"):
        lefts = [b[0] for b in boxes.values()]
        rights = [b[0] + b[2] for b in boxes.values()]
        centre = sum(b[0] + b[2] / 2 for b in boxes.values()) / len(boxes)
        for n, (_x, y, w, _h) in boxes.items():
            new_x = {"left": min(lefts), "right": max(rights) - w, "hcenter": centre - w / 2}[how]
            result[n] = (new_x, y)
        return result
    if how in ("top", "bottom", "vcenter"):
        tops = [b[1] for b in boxes.values()]
        bottoms = [b[1] + b[3] for b in boxes.values()]
        middle = sum(b[1] + b[3] / 2 for b in boxes.values()) / len(boxes)
        for n, (x, _y, _w, h) in boxes.items():
            new_y = {"top": min(tops), "bottom": max(bottoms) - h, "vcenter": middle - h / 2}[how]
            result[n] = (x, new_y)
        return result
    axis = 0 if how == "hdistribute" else 1
    centres = {n: b[axis] + b[axis + 2] / 2 for n, b in boxes.items()}
    ordered = sorted(boxes, key=lambda n: (centres[n], n))
    low, high = centres[ordered[0]], centres[ordered[-1]]
    step = (high - low) / (len(ordered) - 1)
    for i, n in enumerate(ordered):
        x, y, w, h = boxes[n]
        centre = low + i * step
        result[n] = (centre - w / 2, y) if axis == 0 else (x, centre - h / 2)
    return result
