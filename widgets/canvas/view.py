"""The canvas view: zoom, pan, selection, keyboard and the user's intents as Qt signals.

Invariants:
- the view never changes the model: every edit leaves as a `*_requested` signal and the
  application's command changes the model, which the scene then follows;
- mouse gestures are delegated to one interaction object at a time (widgets.canvas.interactions);
- rendering is deliberate: `BoundingRectViewportUpdate` (one repaint rectangle per change, cheap
  for drags), cached background, and antialiasing only at or above `LOD_SIMPLE` zoom and never
  while dragging; while the view scrolls or zooms the scene is `moving` (edges without
  antialiasing, drawn from cached pictures; `zooming` while the zoom changes) until the gesture
  is over — `SETTLE_MS` without input *and* without a frame (a slow frame never ends a gesture
  whose next input is still queued behind it) — then it is redrawn smooth; a click or a selection first brings the view to
  rest (`settle_now`), so hit tests always see every item;
- once input has been quiet `PREPARE_MS`, the edges of the view at rest are painted ahead on a worker
  (`CanvasScene.prepare_rest`), so the settle frame copies them (while that picture is still being
  painted, the gesture ends up to `WAIT_MS` later); any input cancels that picture;
- fit (F) is a jump, not a gesture: the view comes to rest and is painted at full quality at once
  (pausing 20,000 items for a single frame and showing them again cost more than it saved);
- in overview mode a paint hands Qt only the area where an item that draws there lies, and the
  overview (the foreground) is painted for the whole exposed area (`far_frame`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView, QToolTip, QWidget

from widgets.canvas.comment_item import CommentItem
from widgets.canvas.edge_item import EdgeItem
from widgets.canvas.far_frame import drawn_region
from widgets.canvas.node_item import NodeItem
from widgets.canvas.scene import CanvasScene
from widgets.canvas.theme import LOD_SIMPLE
from widgets.canvas.view_input import ViewInputMixin

ROLE_MIME = "application/x-triadic-role"
MIN_ZOOM, MAX_ZOOM = 0.01, 4.0  # F fits a 5,000-node graph (~20,000 px wide) into a 400 px canvas
SETTLE_MS = 150  # idle time after the last scroll or zoom before edges are drawn smooth again
PREPARE_MS = 90  # idle time after which the edges of the view at rest are painted ahead on a worker
FIT_MARGIN = 40.0  # scene units around the content when F fits it
WAIT_MS = 60  # how much longer the view stays in its gesture while that picture is still being painted
_CACHED_BACKGROUND = QGraphicsView.CacheModeFlag.CacheBackground


class CanvasView(ViewInputMixin, QGraphicsView):
    node_add_requested = Signal(str, QPointF)
    edge_connect_requested = Signal(str, str, str, str)
    nodes_move_requested = Signal(dict, dict)
    delete_requested = Signal(list, list)
    copy_requested = Signal()
    cut_requested = Signal()
    paste_requested = Signal(QPointF)
    duplicate_requested = Signal()
    align_requested = Signal(str)
    auto_layout_requested = Signal(list)
    group_requested = Signal(list)
    ungroup_requested = Signal(str)
    comment_add_requested = Signal(QPointF)
    comment_edit_requested = Signal(str, dict)
    comment_delete_requested = Signal(str)
    node_activated = Signal(str)
    breakpoint_toggle_requested = Signal(list)  # node ids (context menu; F9 is a window action)
    selection_changed = Signal()
    status_message = Signal(str)
    viewport_changed = Signal()  # zoom, scroll or resize: the minimap follows it

    def __init__(self, scene: CanvasScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.fork_handler: Callable[[str], object] | None = None  # a past run shown: "Fork from here…"
        self._fast = False
        self._scaling = False
        self._jumping = False  # a jump (fit) moves the view without starting a gesture
        self._far_exposed: QRectF | None = None  # the scene area a paint in overview mode really exposes
        self._canvas_scene = scene  # keeps the scene alive as long as the view
        self._quiet_since = 0.0  # monotonic time of the last input or frame of a gesture
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._on_settled)
        self._prepare = QTimer(self)
        self._prepare.setSingleShot(True)
        self._prepare.timeout.connect(self._on_quiet)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate)
        self.setCacheMode(_CACHED_BACKGROUND)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setAcceptDrops(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        scene.selectionChanged.connect(self.selection_changed)
        scene.theme_changed.connect(self.resetCachedContent)
        scene.workflow_replaced.connect(self.resetCachedContent)
        self.horizontalScrollBar().valueChanged.connect(self.viewport_changed)
        self.verticalScrollBar().valueChanged.connect(self.viewport_changed)
        self.init_input()

    def canvas_scene(self) -> CanvasScene:
        return self._canvas_scene

    # -- selection ---------------------------------------------------------------------------
    def selected_node_ids(self) -> list[str]:
        return [i.node_id for i in self.canvas_scene().selectedItems() if isinstance(i, NodeItem)]

    def selected_edge_ids(self) -> list[str]:
        return [i.edge_id for i in self.canvas_scene().selectedItems() if isinstance(i, EdgeItem)]

    def selected_comment_ids(self) -> list[str]:
        return [i.comment_id for i in self.canvas_scene().selectedItems() if isinstance(i, CommentItem)]

    def select_nodes(self, ids: list[str]) -> None:
        self.settle_now()
        scene = self.canvas_scene()
        scene.clearSelection()
        for node_id in ids:
            item = scene.node_items.get(node_id)
            if item is not None:
                item.setSelected(True)

    def select_edge(self, edge_id: str) -> None:
        self.settle_now()
        scene = self.canvas_scene()
        scene.clearSelection()
        item = scene.edge_items.get(edge_id)
        if item is not None:
            item.setSelected(True)

    # -- zoom and navigation -----------------------------------------------------------------
    def zoom(self) -> float:
        return self.transform().m11()

    def set_zoom(self, level: float, anchor_under_mouse: bool = False) -> None:
        level = min(MAX_ZOOM, max(MIN_ZOOM, level))
        if not anchor_under_mouse:
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        factor = level / self.zoom()
        self._scaling = True  # the scroll that keeps the anchor in place is part of the zoom
        self.scale(factor, factor)
        self._scaling = False
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self._update_hints()
        if not self._jumping:
            self.canvas_scene().set_zooming()
            self._note_motion()
            self._cover_view()
            self.canvas_scene().prefetch.plan(self.visible_scene_rect(), self.zoom())
        self.viewport_changed.emit()

    def zoom_in(self) -> None:
        self.set_zoom(self.zoom() * 1.25)

    def zoom_out(self) -> None:
        self.set_zoom(self.zoom() / 1.25)

    def zoom_reset(self) -> None:
        self.set_zoom(1.0)

    def fit_zoom(self) -> float:
        """The zoom `fit_to_view` would set for the content as it is now (`fitInView`'s arithmetic)."""
        rect = self._fit_rect()
        area = QRectF(self.viewport().rect()).adjusted(2, 2, -2, -2)  # fitInView's margin
        if rect.isEmpty() or area.isEmpty():
            return self.zoom()
        return min(MAX_ZOOM, max(MIN_ZOOM, min(area.width() / rect.width(), area.height() / rect.height(), 1.5)))

    def _fit_rect(self) -> QRectF:
        """What F fits: the content with a margin."""
        return self.canvas_scene().content_rect().adjusted(-FIT_MARGIN, -FIT_MARGIN, FIT_MARGIN, FIT_MARGIN)

    def fit_to_view(self) -> None:
        self.settle_now()
        rect = self._fit_rect()
        self._jumping = True
        try:
            self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
            self.set_zoom(min(self.zoom(), 1.5))
        finally:
            self._jumping = False

    def center_on_node(self, node_id: str) -> None:
        item = self.canvas_scene().node_items.get(node_id)
        if item is None:
            return
        if self.zoom() < 0.8:
            self.set_zoom(1.0)
        self.centerOn(item.sceneBoundingRect().center())
        self.viewport_changed.emit()

    def visible_scene_rect(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            super().wheelEvent(event)  # Shift+wheel scrolls
            return
        self.set_zoom(self.zoom() * 1.0015 ** event.angleDelta().y(), anchor_under_mouse=True)

    def set_fast(self, fast: bool) -> None:
        """Drop antialiasing and curves while something is dragged."""
        self._fast = fast
        self.canvas_scene().set_fast_mode(fast)
        self._update_hints()

    def _update_hints(self) -> None:
        self.canvas_scene().overview.set_active(self.zoom() < LOD_SIMPLE)
        smooth = self.zoom() >= LOD_SIMPLE and not self._fast
        self.setRenderHint(QPainter.RenderHint.Antialiasing, smooth)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing, smooth)

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        if not self._scaling:
            self.canvas_scene().set_panning()
        self._note_motion()
        super().scrollContentsBy(dx, dy)
        if not self._scaling:
            self._cover_view()

    def _cover_view(self) -> None:
        """While the items are paused, hide the ones now in view (a batched picture draws them)."""
        paused = self.canvas_scene().paused
        if paused.active:
            paused.cover(self.visible_scene_rect())

    def _note_motion(self) -> None:
        """The view moved: paint cheaply until it has been still for `SETTLE_MS`."""
        if self._jumping:
            return
        scene = self.canvas_scene()
        scene.set_moving(True)
        scene.cancel_rest()
        self._quiet_since = time.monotonic()
        self._settle.start(SETTLE_MS)
        self._prepare.start(PREPARE_MS)

    def _on_quiet(self) -> None:
        """Input has been quiet a while: have the edges of the view at rest painted ahead (`RestPicture`),
        so the settle frame copies them instead of stroking every curve."""
        quiet_ms = (time.monotonic() - self._quiet_since) * 1000
        if not self.canvas_scene().moving:
            return
        if quiet_ms < PREPARE_MS:
            self._prepare.start(max(1, round(PREPARE_MS - quiet_ms)))
            return
        viewport = self.viewport()
        self.canvas_scene().prepare_rest(self.viewportTransform(), (viewport.width(), viewport.height()),
                                         self.renderHints(), viewport.devicePixelRatioF())

    def _on_settled(self) -> None:
        """The settle timer ran out: end the gesture if input and frames have been quiet long enough."""
        quiet_ms = (time.monotonic() - self._quiet_since) * 1000
        if quiet_ms < SETTLE_MS:
            self._settle.start(max(1, round(SETTLE_MS - quiet_ms)))
            return
        if quiet_ms < SETTLE_MS + WAIT_MS and self.canvas_scene().rest_pending():
            self._settle.start(5)  # its picture is nearly painted (a busy machine): copy it rather than stroke
            return
        self.canvas_scene().set_moving(False)

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.canvas_scene().overview.active and self.cacheMode() & _CACHED_BACKGROUND:
            # Qt gathers items only where one draws (`far_frame`); its cached background covers the viewport
            self._far_exposed = self.mapToScene(event.region().boundingRect()).boundingRect()
            event = QPaintEvent(drawn_region(self, event.region()))
        try:
            super().paintEvent(event)
        finally:
            self._far_exposed = None
        if self.canvas_scene().moving:
            self._quiet_since = time.monotonic()
            self.canvas_scene().prefetch.after_frame()

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        """The foreground (the overview) for the area the paint really exposes."""
        super().drawForeground(painter, rect if self._far_exposed is None else self._far_exposed)

    def settle_now(self) -> None:
        """Come to rest at once (before a click or a selection: every item back in hit tests)."""
        if self.canvas_scene().moving:
            self._settle.stop()
            self._prepare.stop()
            self.canvas_scene().set_moving(False)

    def resizeEvent(self, event: object) -> None:
        self._jumping = True  # the scroll that keeps the view in place (scroll bars came or went) is no gesture
        try:
            super().resizeEvent(event)  # type: ignore[arg-type]
        finally:
            self._jumping = False
        self.viewport_changed.emit()

    # -- hit tests ---------------------------------------------------------------------------
    def item_at_view(self, pos: QPointF) -> QGraphicsItem | None:
        """The topmost node, edge or comment under a viewport position."""
        for item in self.items(pos.toPoint()):
            if isinstance(item, NodeItem | EdgeItem | CommentItem):
                return item
        return None

    def port_at(self, pos: QPointF) -> tuple[NodeItem, str, bool] | None:
        """(node item, port name, is_output) of the port under a viewport position."""
        scene_pos = self.mapToScene(pos.toPoint())
        for item in self.items(pos.toPoint()):
            if isinstance(item, NodeItem):
                hit = item.port_at(item.mapFromScene(scene_pos))
                if hit is not None:
                    return item, hit[0], hit[1]
        return None

    def refuse(self, reason: str, view_pos: QPointF) -> None:
        """Show why a gesture was refused: a tooltip at the cursor and a status message."""
        QToolTip.showText(self.viewport().mapToGlobal(view_pos.toPoint()), reason, self.viewport())
        self.status_message.emit(reason)

    # -- drag and drop from the palette ------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasFormat(ROLE_MIME):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if event.mimeData().hasFormat(ROLE_MIME):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        if not event.mimeData().hasFormat(ROLE_MIME):
            super().dropEvent(event)
            return
        role = bytes(event.mimeData().data(ROLE_MIME).data()).decode("utf-8", "replace").strip()
        if role:
            self.node_add_requested.emit(role, self.mapToScene(event.position().toPoint()))
        event.acceptProposedAction()

    # -- events routed to the input mixin ----------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.settle_now()
        if not self.on_mouse_press(event):
            super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if not self.on_mouse_move(event):
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if not self.on_mouse_release(event):
            super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        self.settle_now()
        if not self.on_double_click(event):
            super().mouseDoubleClickEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.on_key_press(event):
            super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if not self.on_key_release(event):
            super().keyReleaseEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        self.show_context_menu(QPointF(event.pos()), event.globalPos())

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and self.on_tab(event):  # type: ignore[arg-type]
            return True
        return super().event(event)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and self.show_port_tooltip(event):
            return True
        return super().viewportEvent(event)
