"""`BuildCover`: what the canvas shows, and does with input, while its scene builds another workflow.

A large workflow's items are built in slices between turns of the event loop (`SceneBuild`), so the
window paints and answers meanwhile. The canvas itself is covered for that time (~0.5 s at 5,000
nodes) by this opaque widget over the view's viewport (a sibling above it: a child would be moved by
the viewport's scrolling, uncovering it): the background of the canvas with "Drawing the workflow…
N %" and a progress bar. A part-built picture is never painted (nor paid for), and
input that would act on a canvas nobody has seen yet does not:

- a click, drag, double-click, wheel turn or context-menu request on the canvas is dropped (it
  falls on the cover, which takes it and does nothing); a drop from the palette is refused;
- a key pressed for the canvas (F, Delete, Escape, Tab, arrows, …) waits: it is held and given to
  the view, in order, once the workflow is built whole (`CanvasScene.after_build`); when another
  workflow takes the scene first, what was held for the abandoned one is dropped with it.

Invariants: the cover shows from the start of a build done in slices (a small workflow, built
within `set_workflow`, never shows it) and hides when the scene says the workflow is built
(`workflow_replaced`); it never changes the scene, the view or the model.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QKeyEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QApplication, QWidget

from widgets.canvas.view import CanvasView

_KEYS = (QEvent.Type.KeyPress, QEvent.Type.KeyRelease)
_DROPPED = (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick,
            QEvent.Type.MouseMove, QEvent.Type.Wheel, QEvent.Type.ContextMenu)


class BuildCover(QWidget):
    def __init__(self, view: CanvasView) -> None:
        super().__init__(view)  # over the viewport, not in it: a scroll of the viewport would move it
        self.view = view
        self._viewport = view.viewport()
        self.built = 0
        self.total = 0
        self.held: list[QKeyEvent] = []  # keys for the canvas, given to the view once it is built
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)  # the viewport under it is not painted
        self.setCursor(Qt.CursorShape.BusyCursor)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.hide()
        scene = view.canvas_scene()
        scene.build_progressed.connect(self._on_progressed)
        scene.workflow_replaced.connect(self.hide)
        view.installEventFilter(self)
        self._viewport.installEventFilter(self)

    @property
    def covering(self) -> bool:
        return not self.isHidden()

    def _on_progressed(self, built: int, total: int) -> None:
        self.built, self.total = built, total
        if self.isHidden():
            self.setGeometry(self._viewport.geometry())
            self.show()
            self.raise_()
        else:  # only the words and the bar change (a whole repaint each slice cost ~1 ms)
            self.update(self._progress_area().toAlignedRect().adjusted(-2, -2, 2, 2))

    def _progress_area(self) -> QRectF:
        centre = QRectF(self.rect()).center()
        return QRectF(0, centre.y() - 34, self.width(), 46)

    # -- input --------------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Follow the viewport's place; hold the view's keys while covering. Called while the view is
        being deleted too: touches nothing but the event and itself."""
        kind = event.type()
        if watched is self._viewport:
            if kind in (QEvent.Type.Resize, QEvent.Type.Move):
                self.setGeometry(self._viewport.geometry())
            return False
        if kind in _KEYS and self.covering and isinstance(event, QKeyEvent):
            self._hold(event)
            return True
        return False

    def _hold(self, event: QKeyEvent) -> None:
        if not self.held:
            held = self.held
            self.view.canvas_scene().after_build(lambda: self._give_back(held))
        self.held.append(QKeyEvent(event.type(), event.key(), event.modifiers(), event.text(),
                                   event.isAutoRepeat(), event.count()))

    def _give_back(self, held: list[QKeyEvent]) -> None:
        if held is self.held:
            self.held = []
        for event in held:
            QApplication.sendEvent(self.view, event)

    def event(self, event: QEvent) -> bool:
        if event.type() in _DROPPED:  # on a canvas nobody has seen yet: taken, and nothing done
            event.accept()
            return True
        return super().event(event)

    # -- picture ------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        theme = self.view.canvas_scene().theme
        painter = QPainter(self)
        painter.fillRect(event.rect(), theme.background)
        share = self.built / self.total if self.total else 0.0
        text = f"Drawing the workflow… {round(share * 100)} %"
        area = self._progress_area()
        painter.setPen(theme.muted_text)
        painter.drawText(QRectF(area.left(), area.top(), area.width(), 24), Qt.AlignmentFlag.AlignCenter, text)
        bar = QRectF(area.center().x() - 120, area.top() + 34, 240, 6)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(theme.node_border)
        painter.drawRoundedRect(bar, 3, 3)
        painter.setBrush(theme.selection)
        painter.drawRoundedRect(QRectF(bar.left(), bar.top(), bar.width() * share, bar.height()), 3, 3)
