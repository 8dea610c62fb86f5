"""A node box on the canvas: role shape and colour, glyph, title, model badge, typed ports.

Invariants:
- the item only displays its `Node`; it never changes the model and has no mouse handlers (the
  view's interaction objects do the gestures);
- `refresh()` re-reads the node (title, params, ports, ui colour) and is the only way the item
  learns of a model change; geometry follows `engine.graph.layout.node_box`;
- ports are painted by this item (no child items: 5,000 nodes would otherwise mean ~15,000
  more items); `port_at` and `port_pos` give their hit areas and positions;
- the item is a `QGraphicsRectItem` whose rect is the hit/bounds box: Qt computes bounding
  rects in C++ (a Python `boundingRect` override is called ~20 times per item per frame);
- painting depends on the level of detail: below `LOD_SIMPLE` a flat box, below `LOD_LABELS`
  no port labels or badge;
- while the view moves (`scene.moving`) at a zoom other than 1, the node is drawn as a scaled
  snapshot painted once (at zoom 1; below `LOD_LABELS` at that zoom, without labels, as at rest
  there), since a zoom gesture would otherwise repaint every visible node at
  every step: by the item itself when selected, else into the edge layer's zoom picture
  (`draw_snapshot`) while the item is paused; the scene keeps the snapshots between gestures within
  a byte budget (`SnapshotCache`), and every change to what the node shows clears its own;
- a validation mark (`set_mark`, given by the scene's `ProblemMarks`) is painted with the node: an
  outline and a badge with the count in the error or warning colour, a flat box in that colour
  at low detail; the tooltip lists the problems; the mark changes only through `set_mark`;
- a run's state is drawn over the item by the scene's `RunLayer`; the item only keeps the run
  overlay's tooltip line (`set_run_note`) and state colour for the flat box (`run_color`).
"""

from __future__ import annotations

import functools
import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QStyleOptionGraphicsItem, QWidget

from engine.graph.layout import FOOTER_HEIGHT, HEADER_HEIGHT, PORT_ROW, node_box
from engine.graph.model import Node
from engine.graph.roles import role_spec
from engine.graph.specs import PortSpec
from widgets.canvas.problem_marks import BADGE_RADIUS, ItemMark, mark_color, paint_badge, with_mark
from widgets.canvas.shapes import outline_path
from widgets.canvas.theme import LIGHT, LOD_LABELS, LOD_SIMPLE, CanvasTheme
from widgets.role_style import port_color, role_color, role_glyph, role_shape

PORT_RADIUS = 5.0
PORT_HIT = 11.0
_TITLE_FONT = QFont("DejaVu Sans", 9, QFont.Weight.Bold)
_LABEL_FONT = QFont("DejaVu Sans", 8)
_GLYPH_FONT = QFont("DejaVu Sans", 11)

PORT_REACH = PORT_RADIUS + 2  # how far the item's rect reaches past the box's sides (the port discs)
PortKey = tuple[str, bool]  # (port name, is_output)


def box_size(node: Node) -> tuple[float, float]:
    """Width and height of a node's box as drawn: `node_box`, the header only when collapsed."""
    width, height = node_box(node)
    return width, HEADER_HEIGHT if node.ui.collapsed else height


# A node item's flags: the only ones it ever has, so the overview switches them whole (`OverviewPainter.set_active`).
NODE_FLAGS = QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
FAR_NODE_FLAGS = NODE_FLAGS | QGraphicsItem.GraphicsItemFlag.ItemHasNoContents  # in overview mode: paints nothing


class NodeItem(QGraphicsRectItem):
    # attributes in slots, not a per-item dict (less memory a node; see EdgeItem)
    __slots__ = (
        "_header",
        "_outline",
        "_ports",
        "_rect",
        "_snap_key",
        "_snaps",
        "badge",
        "collapsed",
        "custom_color",
        "highlighted",
        "inputs",
        "mark",
        "node",
        "node_id",
        "outputs",
        "run_color",
        "run_note",
        "title",
    )

    def __init__(self, node: Node) -> None:
        super().__init__()
        self.node = node
        self.node_id = node.id
        self.setPen(Qt.PenStyle.NoPen)
        self.setFlags(NODE_FLAGS)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.highlighted: set[PortKey] | None = None  # compatible ports while connecting
        self._snaps: dict[bool, QPixmap] = {}  # a zoom picture's snapshots, by detail (see `snapshot`)
        self._snap_key: tuple[bool, bool] = (False, False)  # (dark, selected) they were painted for
        self.mark: ItemMark | None = None  # the node's validation problems, if any
        self.run_color: QColor | None = None  # the run overlay's state colour (far-zoom flat box)
        self.run_note = ""  # the run overlay's tooltip line (state, usage, error)
        self.refresh()

    # -- model -------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Re-read the node from the model (title, ports, params, ui) and redraw."""
        node = self.node
        width, height = box_size(node)
        self.collapsed = bool(node.ui.collapsed)
        self._rect = QRectF(0, 0, width, height)
        self.setRect(self._rect.adjusted(-PORT_REACH, -2, PORT_REACH, 2))
        self.inputs = node.input_ports()
        self.outputs = node.output_ports()
        self._ports = self._index_ports()
        self._outline, self._header = _paths(role_shape(node.role), width, height, self.collapsed)
        spec = role_spec(node.role)
        self.title = node.title or (spec.label if spec else node.role)
        model = node.param("model") if spec and spec.param("model") else None
        self.badge = str(model) if model else ""
        self.custom_color = QColor(node.ui.color) if node.ui.color else None
        self.setPos(node.ui.x, node.ui.y)
        self.setToolTip(with_mark(self._own_tooltip(), self.mark))
        self._snaps.clear()
        self.update()

    def set_run_note(self, note: str) -> None:
        """The run overlay's words on this node (state, usage, a failure's error) for its tooltip."""
        if note != self.run_note:
            self.run_note = note
            self.setToolTip(with_mark(self._own_tooltip(), self.mark))

    def set_mark(self, mark: ItemMark | None) -> None:
        """Show these validation problems on the node (None: no problems) and redraw it."""
        self.mark = mark
        self.setToolTip(with_mark(self._own_tooltip(), mark))
        self._snaps.clear()
        self.update()

    def _own_tooltip(self) -> str:
        spec = role_spec(self.node.role)
        own = f"{self.title} ({self.node_id})\n{spec.summary if spec else 'Unknown role ' + repr(self.node.role)}"
        return f"{own}\n\n{self.run_note}" if self.run_note else own

    # -- geometry ----------------------------------------------------------------------------
    def geometry(self) -> tuple[QRectF, QPointF, tuple[tuple[PortKey, tuple[float, float, str]], ...]]:
        """What the node's edges depend on: its box, its place and its ports (positions and types)."""
        return self.rect(), self.pos(), tuple(self._ports.items())

    def body_rect(self) -> QRectF:
        """The node box without the port discs sticking out (item coordinates)."""
        return self._rect

    def port_pos(self, name: str, output: bool) -> QPointF:
        """Local position of a port's centre (the middle of the side when the port is unknown)."""
        x, y, _ = self.port_place(name, output)
        return QPointF(x, y)

    def port_place(self, name: str, output: bool) -> tuple[float, float, str]:
        """Local x, y of a port's centre and its type, as plain numbers (edges ask for 30,000 at an open)."""
        known = self._ports.get((name, output))
        if known is not None:
            return known
        x = self._rect.width() if output else 0.0
        return x, HEADER_HEIGHT / 2 if self.collapsed else self._rect.height() / 2, "any"

    def _index_ports(self) -> dict[PortKey, tuple[float, float, str]]:
        return _port_index(self.inputs, self.outputs, self._rect.width(), self.collapsed)

    def port_scene_pos(self, name: str, output: bool) -> QPointF:
        return self.pos() + self.port_pos(name, output)

    def port_at(self, local: QPointF) -> PortKey | None:
        """The port whose hit area contains `local` (item coordinates), if any."""
        for output, ports in ((False, self.inputs), (True, self.outputs)):
            for port in ports:
                centre = self.port_pos(port.name, output)
                if abs(centre.x() - local.x()) <= PORT_HIT and abs(centre.y() - local.y()) <= PORT_ROW / 2:
                    return port.name, output
        return None

    def port_type(self, name: str, output: bool) -> str:
        return self.port_place(name, output)[2]

    def set_highlight(self, ports: set[PortKey] | None) -> None:
        self.highlighted = ports
        self._snaps.clear()
        self.update()

    # -- painting ----------------------------------------------------------------------------
    def _theme(self) -> CanvasTheme:
        scene = self.scene()
        return scene.theme if scene is not None else LIGHT  # type: ignore[attr-defined]

    def accent(self, dark: bool) -> QColor:
        return self.custom_color if self.custom_color and self.custom_color.isValid() else role_color(self.node.role, dark)

    def flat_color(self, theme: CanvasTheme) -> QColor:
        """The node's colour as a flat box (far zoom, minimap): its mark's colour, else its run state's,
        else its accent."""
        if self.mark:
            return mark_color(theme, self.mark.severity)
        return self.run_color if self.run_color is not None else self.accent(theme.dark)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        theme = self._theme()
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        accent = self.accent(theme.dark)
        selected = self.isSelected()
        if lod < LOD_SIMPLE:
            painter.fillRect(self._rect, theme.selection if selected else self.flat_color(theme))
            return
        scene = self.scene()
        if getattr(scene, "moving", False) and abs(lod - 1.0) > 0.01:
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            snap = self.snapshot(theme, lod)
            painter.drawPixmap(self.rect(), snap, QRectF(snap.rect()))
            scene.snapshots.touch(self)  # type: ignore[union-attr]
            return
        self._paint_full(painter, theme, lod, accent, selected)

    def has_snapshot(self, theme: CanvasTheme, lod: float) -> bool:
        """The snapshot `snapshot` gives for this zoom is painted already."""
        return self._snap_key == (theme.dark, self.isSelected()) and (lod >= LOD_LABELS) in self._snaps

    def snapshot(self, theme: CanvasTheme, lod: float) -> QPixmap:
        """The node painted once for a zoom picture (kept while the view moves, scaled instead of repainted):
        at or above `LOD_LABELS` at zoom 1 with every detail; below it as the view paints it there (no port
        labels, no badge) at `LOD_LABELS`' scale, half the cost to paint and a third of the pixels."""
        key = (theme.dark, self.isSelected())
        if self._snap_key != key:
            self._snaps.clear()
            self._snap_key = key
        detail = lod >= LOD_LABELS
        snap = self._snaps.get(detail)
        if snap is None:
            scale = 1.0 if detail else LOD_LABELS
            bounds = self.rect()
            snap = self._snaps[detail] = QPixmap(math.ceil(bounds.width() * scale), math.ceil(bounds.height() * scale))
            snap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(snap)
            painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
            painter.scale(scale, scale)
            painter.translate(-bounds.topLeft())
            self._paint_full(painter, theme, 1.0 if detail else LOD_SIMPLE, self.accent(theme.dark), key[1])
            painter.end()
        return snap

    def draw_snapshot(self, painter: QPainter, theme: CanvasTheme) -> None:
        """Draw the snapshot for the painter's zoom at the node's place, in scene coordinates (zoom pictures)."""
        snap = self.snapshot(theme, painter.worldTransform().m11())
        painter.drawPixmap(self.rect().translated(self.pos()), snap, QRectF(snap.rect()))
        self.scene().snapshots.touch(self)  # type: ignore[union-attr]

    def snapshot_bytes(self) -> int:
        """Memory held by the snapshots (0 when there are none)."""
        return sum(snap.width() * snap.height() * snap.depth() // 8 for snap in self._snaps.values())

    def drop_snapshot(self) -> None:
        """Forget the snapshots (the scene's `SnapshotCache` is over its budget)."""
        self._snaps.clear()

    def _paint_full(self, painter: QPainter, theme: CanvasTheme, lod: float, accent: QColor, selected: bool) -> None:
        mark = self.mark
        if selected:
            border = QPen(theme.selection, 2.5)
        elif mark:
            border = QPen(mark_color(theme, mark.severity), 2.5)
        else:
            border = QPen(theme.node_border, 1.0)
        painter.setPen(border)
        painter.setBrush(theme.node_body)
        painter.drawPath(self._outline)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(accent)
        painter.drawPath(self._header)
        if role_shape(self.node.role) == "double":
            painter.setPen(QPen(accent, 1.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(self._rect.adjusted(3, 3, -3, -3))
        self._paint_header(painter, theme)
        self._paint_ports(painter, theme, lod >= LOD_LABELS)
        if lod >= LOD_LABELS and self.badge and not self.collapsed:
            self._paint_badge(painter, theme)
        if mark:
            paint_badge(painter, theme, mark, QPointF(self._rect.width() - BADGE_RADIUS - 5, HEADER_HEIGHT / 2))

    def _paint_header(self, painter: QPainter, theme: CanvasTheme) -> None:
        painter.setPen(theme.header_text)
        painter.setFont(_GLYPH_FONT)
        painter.drawText(QRectF(6, 0, 22, HEADER_HEIGHT), Qt.AlignmentFlag.AlignCenter, role_glyph(self.node.role))
        painter.setFont(_TITLE_FONT)
        room = self._rect.width() - (40 + 2 * BADGE_RADIUS if self.mark else 40)
        title = QFontMetricsF(_TITLE_FONT).elidedText(self.title, Qt.TextElideMode.ElideRight, room)
        painter.drawText(QRectF(30, 0, room, HEADER_HEIGHT), Qt.AlignmentFlag.AlignVCenter, title)

    def _paint_ports(self, painter: QPainter, theme: CanvasTheme, labels: bool) -> None:
        painter.setFont(_LABEL_FONT)
        width = self._rect.width()
        for output, ports in ((False, self.inputs), (True, self.outputs)):
            for port in ports:
                centre = self.port_pos(port.name, output)
                live = self.highlighted is None or (port.name, output) in self.highlighted
                color = port_color(port.type, theme.dark)
                if not live:
                    color.setAlpha(60)
                painter.setPen(QPen(theme.highlight, 2.5) if self.highlighted and live else QPen(theme.node_body, 1.5))
                painter.setBrush(QBrush(color))
                painter.drawEllipse(centre, PORT_RADIUS, PORT_RADIUS)
                if labels and not self.collapsed:
                    painter.setPen(theme.text if live else theme.muted_text)
                    box = QRectF(10, centre.y() - PORT_ROW / 2, width / 2 - 12, PORT_ROW)
                    align = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
                    if output:
                        box.moveLeft(width / 2 + 2)
                        align = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight
                    painter.drawText(box, int(align), port.name)

    def _paint_badge(self, painter: QPainter, theme: CanvasTheme) -> None:
        metrics = QFontMetricsF(_LABEL_FONT)
        text = metrics.elidedText(self.badge, Qt.TextElideMode.ElideMiddle, self._rect.width() - 28)
        width = metrics.horizontalAdvance(text) + 12
        box = QRectF(self._rect.width() - width - 8, self._rect.height() - FOOTER_HEIGHT + 3, width, FOOTER_HEIGHT - 8)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(theme.badge)
        painter.drawRoundedRect(box, 6, 6)
        painter.setPen(theme.muted_text)
        painter.setFont(_LABEL_FONT)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


_PATHS: dict[tuple[str, float, float, bool], tuple[QPainterPath, QPainterPath]] = {}


@functools.lru_cache(maxsize=4096)
def _port_index(inputs: tuple[PortSpec, ...], outputs: tuple[PortSpec, ...], width: float,
                collapsed: bool) -> dict[PortKey, tuple[float, float, str]]:
    """Where each port of a node of this shape sits: one dict shared by every node of that shape (read
    only; ~0.5 KB a node at 5,000 nodes otherwise)."""
    index: dict[PortKey, tuple[float, float, str]] = {}
    for output, ports in ((False, inputs), (True, outputs)):
        x = width if output else 0.0
        for row, port in enumerate(ports):
            y = HEADER_HEIGHT / 2 if collapsed else HEADER_HEIGHT + (row + 0.5) * PORT_ROW
            index.setdefault((port.name, output), (x, y, port.type))
    return index


def _paths(shape: str, width: float, height: float, collapsed: bool) -> tuple[QPainterPath, QPainterPath]:
    """Outline and header paths of a node box, shared between nodes of the same shape and size."""
    key = (shape, width, height, collapsed)
    if key not in _PATHS:
        outline = outline_path(shape, QRectF(0, 0, width, height))
        band = QPainterPath()
        band.addRect(QRectF(0, 0, width, HEADER_HEIGHT))
        _PATHS[key] = (outline, outline if collapsed else outline.intersected(band))
    return _PATHS[key]
