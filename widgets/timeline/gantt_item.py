"""`GanttItem`: the timeline's one graphics item — a cached, level-of-detail picture of every span.

It keeps one `QImage` drawn at the current zoom for three times the visible width (what is left and
right of the view), so a pan only blits the image; a zoom stretches the last image for the frame it
takes to redraw. The picture is rebuilt when the zoom, the lanes' height, the data (`generation`) or
"now" (open spans grow) changed, or the view left the prepared range. Few visible spans (≤
`SYNC_RECTS`) are drawn as exact rectangles at once; more, up to `COVERAGE_ABOVE`, as the coverage
picture at once and the exact rectangles in a worker thread; above that the coverage picture only.

Invariants: it draws in device pixels (the painter's transform is data → device, x and y scaled,
not rotated); it only reads `SpanArrays`; the worker gets copies of the columns.
"""

from __future__ import annotations

import math
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Signal
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from widgets.timeline.colors import LIGHT, TimelineColors
from widgets.timeline.render import COVERAGE_ABOVE, Columns, Frame, coverage_image, exact_image, overlay
from widgets.timeline.span_arrays import SpanArrays

SYNC_RECTS = 3_000  # visible spans drawn exactly on the GUI thread; above, the exact picture is drawn in a worker
_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="timeline")


@dataclass(slots=True)
class _Picture:
    key: tuple[object, ...]
    frame: Frame
    image: QImage
    exact: bool


class GanttItem(pg.GraphicsObject):
    picture_built = Signal(object)  # a worker's picture (delivered on the GUI thread)

    def __init__(self, arrays: SpanArrays) -> None:
        super().__init__()
        self.arrays = arrays
        self.colors: TimelineColors = LIGHT
        self.now = 0.0
        self.highlight_lane: int | None = None
        self.rebuilds = 0  # pictures built (tests and the benchmark read it)
        self._picture: _Picture | None = None
        self._pending: Future[_Picture] | None = None
        self._pending_key: tuple[object, ...] | None = None
        self._bounds = QRectF(0, 0, 1, 1)
        self.picture_built.connect(self._on_picture_built)

    # -- data -------------------------------------------------------------------------------------
    def data_changed(self, now: float) -> None:
        self.now = now
        lo, hi = self.arrays.extent(now)
        bounds = QRectF(lo, 0, max(hi - lo, 1e-3), max(len(self.arrays.lane_ids), 1))
        if bounds != self._bounds:
            self.prepareGeometryChange()
            self._bounds = bounds
        self.update()

    def set_colors(self, colors: TimelineColors) -> None:
        self.colors = colors
        self._picture = None
        self.update()

    def set_highlight(self, lane: int | None) -> None:
        self.highlight_lane = lane
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(self._bounds)

    # -- painting ---------------------------------------------------------------------------------
    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        vb = self.getViewBox()
        if vb is None:
            return
        t = p.transform()
        sx, tx, sy, ty = t.m11(), t.m31(), t.m22(), t.m32()
        if sx <= 0 or sy == 0:
            return
        view = vb.viewRect()
        device = t.mapRect(view)
        width, height = max(math.ceil(device.width()), 1), max(math.ceil(device.height()), 1)
        dev_top = device.top()
        key = (sx, sy, ty - dev_top, height, self.arrays.generation, self.now, id(self.colors))
        picture = self._picture
        if picture is None or picture.key != key or view.left() < picture.frame.t_lo or view.right() > picture.frame.t_hi:
            picture = self._ensure(key, view.left(), view.right(), sx, tx, sy, ty, dev_top, width, height)
        p.save()
        p.resetTransform()
        frame = picture.frame
        left = sx * frame.t_lo + tx  # device x of the picture's first column
        top = sy * (-frame.oy / frame.sy) + ty  # device y of its first row
        if abs(sx / frame.sx - 1.0) < 1e-9 and abs(sy / frame.sy - 1.0) < 1e-9:
            p.drawImage(QPointF(left, top), picture.image)
        else:  # a picture drawn at another zoom, stretched for this frame
            p.drawImage(QRectF(left, top, frame.width * sx / frame.sx, frame.height * sy / frame.sy), picture.image)
        self._paint_filter(p, sy, ty, device)
        p.restore()

    def _paint_filter(self, p: QPainter, sy: float, ty: float, device: QRectF) -> None:
        lane = self.highlight_lane
        if lane is None:
            return
        top, bottom = sy * lane + ty, sy * (lane + 1) + ty
        p.fillRect(QRectF(device.left(), device.top(), device.width(), top - device.top()), self.colors.dim)
        p.fillRect(QRectF(device.left(), bottom, device.width(), device.bottom() - bottom), self.colors.dim)
        p.fillRect(QRectF(device.left(), top, device.width(), bottom - top), self.colors.highlight)

    def _ensure(self, key: tuple[object, ...], v_lo: float, v_hi: float, sx: float, tx: float, sy: float,
                ty: float, dev_top: float, width: int, height: int) -> _Picture:
        span = v_hi - v_lo
        t_lo, t_hi = v_lo - span, v_hi + span
        frame = Frame(t_lo, t_hi, sx, -sx * t_lo, sy, ty - dev_top, width * 3, height, len(self.arrays.lane_ids))
        cols, visible = self._columns(t_lo, t_hi)
        if visible <= SYNC_RECTS:
            image, exact = exact_image(frame, cols, self.colors), True
        else:
            image, exact = coverage_image(frame, cols, self.colors), False
            if visible <= COVERAGE_ABOVE and self._pending_key != key:
                self._pending_key = key
                colors, arrays = self.colors, self.arrays
                waits, holds, marks = [list(w) for w in arrays.waits], [list(h) for h in arrays.holds], list(arrays.marks)
                now = self.now
                self._pending = _WORKER.submit(self._build_exact, key, frame, cols, colors, waits, holds, marks, now)
        a = self.arrays
        overlay(image, frame, a.waits, a.holds, a.marks, self.now, self.colors)
        self.rebuilds += 1
        self._picture = _Picture(key, frame, image, exact)
        return self._picture

    def _build_exact(self, key: tuple[object, ...], frame: Frame, cols: Columns, colors: TimelineColors,
                     waits: list[list[float]], holds: list[list[float]], marks: list[tuple[int, float, str]],
                     now: float) -> _Picture:
        image = exact_image(frame, cols, colors)
        overlay(image, frame, waits, holds, marks, now, colors)
        picture = _Picture(key, frame, image, True)
        self.picture_built.emit(picture)
        return picture

    def _on_picture_built(self, picture: _Picture) -> None:
        current = self._picture
        if current is not None and current.key == picture.key and current.frame == picture.frame:
            self._picture = picture
            self.update()

    def _columns(self, t_lo: float, t_hi: float) -> tuple[Columns, int]:
        a = self.arrays
        n = a.count
        end = a.ends(self.now)
        start = a.start[:n]
        sel = np.flatnonzero((end >= t_lo) & (start <= t_hi))
        names = [a.names[i] for i in sel.tolist()] if len(sel) <= SYNC_RECTS * 4 else None
        lanes = a.lane[:n][sel]
        slots = np.asarray(a.lane_slots, dtype=np.int64)[lanes]
        cols = Columns(start[sel], end[sel], lanes, a.kind[:n][sel], a.group[:n][sel], a.slot[:n][sel], slots, names)
        return cols, len(sel)

    def wait_idle(self) -> None:
        """Block until the worker's picture (if one is being drawn) is done (tests, the benchmark)."""
        if self._pending is not None:
            self._pending.result()
