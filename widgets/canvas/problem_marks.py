"""Validation marks on the canvas: which node or edge a `Problem` points at, and how the mark looks.

`ProblemMarks(scene)` is the scene's listener for validation results: `show(problems)` is connected
to the problems model's `problems_changed` (the same result the Problems dock lists: the canvas
never validates by itself). It groups the problems by node id and by edge id into `ItemMark`s and
hands each item whose mark changed its new mark (`NodeItem.set_mark` / `EdgeItem.set_mark`).

Invariants:
- the marks are exactly the last problems shown: a node with an error is marked "error", one with
  only warnings "warning", and so is an edge with a problem (`edge_id`); a problem naming both a
  node and an edge marks both; workflow-wide problems mark nothing;
- an item whose mark is unchanged is not touched, so a re-validation repaints only the items whose
  marks changed (no per-frame work: the mark is painted with the item, inside its cache);
- marks are compared with the items' own, not with a remembered list, so an item rebuilt by an edit
  (undo of a delete, another workflow) gets its mark on the next result.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen

from engine.graph.problems import Problem, Severity
from widgets.canvas.theme import CanvasTheme

if TYPE_CHECKING:
    from widgets.canvas.scene import CanvasScene

BADGE_RADIUS = 8.0
_BADGE_FONT = QFont("DejaVu Sans", 7, QFont.Weight.Bold)
_SYMBOL = {"error": "✖", "warning": "⚠"}
_FEW = 200  # more marked or unmarked nodes than this at once: redraw the far-zoom boxes and minimap whole


@dataclass(frozen=True, slots=True)
class ItemMark:
    """The problems of one node or edge: the worst severity and every message, errors first."""

    severity: Severity
    problems: tuple[tuple[Severity, str], ...]

    @property
    def count(self) -> int:
        return len(self.problems)

    def tooltip(self) -> str:
        return "\n".join(f"{_SYMBOL[severity]} {severity}: {message}" for severity, message in self.problems)


def marks_by_item(problems: Iterable[Problem]) -> tuple[dict[str, ItemMark], dict[str, ItemMark]]:
    """(node id → mark, edge id → mark) of these problems."""
    nodes: dict[str, list[Problem]] = {}
    edges: dict[str, list[Problem]] = {}
    for problem in problems:
        if problem.node_id:
            nodes.setdefault(problem.node_id, []).append(problem)
        if problem.edge_id:
            edges.setdefault(problem.edge_id, []).append(problem)
    return {i: _mark(found) for i, found in nodes.items()}, {i: _mark(found) for i, found in edges.items()}


def _mark(problems: list[Problem]) -> ItemMark:
    ordered = sorted(problems, key=lambda p: p.severity != "error")  # stable: errors first, else as found
    severity: Severity = "error" if ordered[0].severity == "error" else "warning"
    return ItemMark(severity, tuple((p.severity, p.message) for p in ordered))


def with_mark(tooltip: str, mark: ItemMark | None) -> str:
    """An item's own tooltip followed by its problems."""
    if mark is None:
        return tooltip
    return f"{tooltip}\n\n{mark.tooltip()}" if tooltip else mark.tooltip()


def mark_color(theme: CanvasTheme, severity: Severity) -> QColor:
    return theme.error if severity == "error" else theme.warning


def paint_badge(painter: QPainter, theme: CanvasTheme, mark: ItemMark, centre: QPointF) -> None:
    """A round badge in the mark's colour with the number of problems."""
    error = mark.severity == "error"
    painter.setPen(QPen(theme.node_body, 1.5))
    painter.setBrush(mark_color(theme, mark.severity))
    painter.drawEllipse(centre, BADGE_RADIUS, BADGE_RADIUS)
    painter.setPen(theme.error_text if error else theme.warning_text)
    painter.setFont(_BADGE_FONT)
    box = QRectF(centre.x() - BADGE_RADIUS, centre.y() - BADGE_RADIUS, 2 * BADGE_RADIUS, 2 * BADGE_RADIUS)
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, str(mark.count) if mark.count < 10 else "9+")


class ProblemMarks:
    def __init__(self, scene: CanvasScene) -> None:
        self.scene = scene
        self.nodes: dict[str, ItemMark] = {}
        self.edges: dict[str, ItemMark] = {}

    def show(self, problems: Sequence[Problem]) -> None:
        """Mark the items these problems point at and unmark the others (only changed items repaint)."""
        scene = self.scene
        nodes, edges = marks_by_item(problems)
        changed_nodes = _apply(self.nodes, nodes, scene.node_items)
        changed_edges = _apply(self.edges, edges, scene.edge_items)
        self.nodes, self.edges = nodes, edges
        if not changed_nodes and not changed_edges:
            return
        if len(changed_nodes) > _FEW:
            scene.overview.invalidate(edges=False)  # the far-zoom boxes (and the minimap) take the marks' colours
        else:  # an edit's new or mended problems: only those boxes are measured and redrawn again
            scene.overview.invalidate_boxes([scene.node_items[i] for i in changed_nodes])
            scene.nodes_changed.emit(changed_nodes)
        scene.edge_layer.cache.invalidate()  # the zoom picture holds node snapshots
        if scene.overview.active:
            scene.update()  # items paint nothing then: the overview is repainted instead


def _apply(old: Mapping[str, ItemMark], new: Mapping[str, ItemMark], items: Mapping[str, Any]) -> list[str]:
    """Give each item its new mark (None: unmarked) where it changed; the ids of those that changed."""
    changed = []
    for key in old.keys() | new.keys():
        item, mark = items.get(key), new.get(key)
        if item is not None and item.mark != mark:
            item.set_mark(mark)
            changed.append(key)
    return changed
