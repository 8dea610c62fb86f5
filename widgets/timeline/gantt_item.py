"""`GanttItem`: the timeline's one graphics item — a cached, level-of-detail picture of every span.

It keeps one `QImage` drawn at the current zoom for three times the visible width (what is left and
right of the view), so a pan only blits the image. When the data, "now" (open spans grow), the
lanes' height or the colours changed, or the view left the prepared range, the visible width is
drawn at once and the three-width picture is asked of the worker once no rebuild has followed for
`SETTLE_MS` (so none is drawn in vain while a live run redraws every tick; the data counts as changed when
`data_changed` / `show_arrays` say so, not at every append); a worker's picture replaces the shown
one only if it is the view last asked for, or the shown one at the same zoom with more around it.
A zoom within 2× of the picture's draws it stretched for that frame (smoothly when
shrinking, so a one-pixel bar never drops out) while the worker thread draws the new one. Few visible
spans (≤ `SYNC_RECTS`) are drawn as exact rectangles; more, up to `COVERAGE_ABOVE`, as the coverage
picture first, then — once the view has stayed put for `SETTLE_MS` — as exact rectangles in the
worker; above that the coverage picture only. The time axis's grid lines are drawn here, over the
picture, at the bottom axis's ticks (`grid_axis`; pyqtgraph's own grid cost ~20 ms a frame).

A coverage picture takes its strips from `strip_source` when the panel gave one (`moment_cut`: a run
that no longer changes keeps them per frame; a playback moment cuts them from the whole run's), else
computes them from the visible columns.

Invariants: it draws in device pixels (the painter's transform is data → device, x and y scaled,
not rotated); it only reads `SpanArrays`; the worker gets copies of the columns and overlays (a strip
source holds its own, and answers only for the arrays and "now" it was made for), and its picture is
shown only if the data it was drawn from is still the data shown.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QLineF, QPointF, QRectF, QTimer, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from widgets.timeline.colors import LIGHT, TimelineColors
from widgets.timeline.moment_cut import MomentCut, WholeRun
from widgets.timeline.render import (
    COVERAGE_ABOVE,
    Columns,
    Frame,
    coverage_image,
    exact_image,
    mark_arrays,
    overlay,
)
from widgets.timeline.span_arrays import SpanArrays

SETTLE_MS = 120  # the view stays put this long before the exact picture is drawn in the worker
SYNC_RECTS = 3_000  # visible spans drawn exactly at once; above, the coverage picture first
STRETCH = 2.0  # a picture drawn at up to this zoom ratio stands in while the new one is drawn
_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="timeline")
Overlays = tuple[list[list[float]], list[list[float]], tuple[np.ndarray, np.ndarray], float]
StripsOf = Callable[[Frame], "np.ndarray | None"]  # a frame's coverage strips, None: compute them from the columns


@dataclass(slots=True)
class _Picture:
    key: tuple[object, ...]
    frame: Frame
    image: QImage
    exact: bool
    cols: Columns | None = None  # kept while an exact picture may follow

    def fits(self, key: tuple[object, ...], sx: float, sy: float, oy: float, v_lo: float, v_hi: float) -> bool:
        """Whether this picture shows the view: same data and size, same zoom (to float noise), in range."""
        f = self.frame
        return (self.key == key and abs(sx / f.sx - 1.0) < 1e-7 and abs(sy / f.sy - 1.0) < 1e-7
                and abs(oy - f.oy) < 0.5 and v_lo >= f.t_lo and v_hi <= f.t_hi)

    def stands_in(self, key: tuple[object, ...], sx: float, sy: float, oy: float, v_lo: float, v_hi: float) -> bool:
        """Whether this picture, stretched, may show the view for a frame while the right one is drawn."""
        f = self.frame
        return (self.key == key and 1 / STRETCH <= sx / f.sx <= STRETCH and abs(sy / f.sy - 1.0) < 1e-7
                and abs(oy - f.oy) < 0.5 and v_lo >= f.t_lo and v_hi <= f.t_hi)


def _draw(key: tuple[object, ...], frame: Frame, cols: Columns, visible: int, colors: TimelineColors,
          overlays: Overlays, exact: bool, strips: StripsOf | None) -> _Picture:
    """A picture of `frame`: exact rectangles when few spans are visible or when asked and not too many are
    (the margins of an exact view may hold far more spans than the view), else coverage (its strips from
    `strips` when that has them: kept or cut from the whole run's, `moment_cut`)."""
    exact = (exact and visible <= COVERAGE_ABOVE) or visible <= SYNC_RECTS  # visible -1: columns already chosen
    image = exact_image(frame, cols, colors) if exact else coverage_image(
        frame, cols, colors, strips(frame) if strips is not None else None)
    overlay(image, frame, *overlays, colors)
    return _Picture(key, frame, image, exact, None if exact or visible > COVERAGE_ABOVE else cols)


def _widens(old: Frame, new: Frame) -> bool:
    """Whether `new` is `old` at the same zoom with more around it (the margins drawn after the view)."""
    return (new.sx == old.sx and new.sy == old.sy and new.oy == old.oy and new.height == old.height
            and new.t_lo <= old.t_lo and new.t_hi >= old.t_hi)


class GanttItem(pg.GraphicsObject):
    picture_built = Signal(object)  # a worker's picture (delivered on the GUI thread)

    def __init__(self, arrays: SpanArrays) -> None:
        super().__init__()
        self.arrays = arrays
        self.colors: TimelineColors = LIGHT
        self.now = 0.0
        self.generation = -1  # the arrays' generation last shown (`data_changed`)
        self.highlight_lane: int | None = None
        self.strip_source: WholeRun | MomentCut | None = None  # where coverage strips may come from ready-made
        self.grid_axis: pg.AxisItem | None = None  # whose ticks are drawn as lines across the lanes
        self.rebuilds = 0  # pictures built on the GUI thread (tests and the benchmark read it)
        self.stretched = 0  # frames drawn from a stand-in picture
        self._picture: _Picture | None = None
        self._marks: tuple[list[tuple[int, float, str]], tuple[np.ndarray, np.ndarray]] = ([], mark_arrays([]))
        self._pending: Future[None] | None = None
        self._latest: tuple[tuple[object, ...], Frame, bool] | None = None  # the last picture asked of the worker
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._on_settle_timeout)
        self._margins_due: tuple[_Picture, Frame] | None = None  # the view's picture, the frame with margins
        self._margins = QTimer(self)  # restarted by every rebuild: none while a live run redraws every tick
        self._margins.setSingleShot(True)
        self._margins.setInterval(SETTLE_MS)
        self._margins.timeout.connect(self._on_margins_timeout)
        self._bounds = QRectF(0, 0, 1, 1)
        self._grid: tuple[tuple[float, ...], list[tuple[QColor, list[QLineF]]]] | None = None  # view → tick lines
        self.picture_built.connect(self._on_picture_built)

    # -- data -------------------------------------------------------------------------------------
    def data_changed(self, now: float) -> None:
        """Show the arrays as they are now (until this is called again, paints reuse the picture)."""
        self.now = now
        self.generation = self.arrays.generation
        lo, hi = self.arrays.extent(now)
        bounds = QRectF(lo, 0, max(hi - lo, 1e-3), max(len(self.arrays.lane_ids), 1))
        if bounds != self._bounds:
            self.prepareGeometryChange()
            self._bounds = bounds
        self.update()

    def show_arrays(self, arrays: SpanArrays, strip_source: WholeRun | MomentCut | None = None) -> None:
        """Show other arrays (another run, or the run at another moment): every picture drawn so far is
        dropped; `strip_source` keeps (or cuts) their coverage strips while they stay unchanged."""
        self.arrays = arrays
        self.strip_source = strip_source
        self._picture = None
        self._latest = None

    def _strips_of(self) -> StripsOf | None:
        """The strip source bound to the arrays and "now" shown (it answers None once they change)."""
        source, arrays, now = self.strip_source, self.arrays, self.now
        if source is None:
            return None
        return lambda frame: source.strips(frame, arrays, now)

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
        dev_top, v_lo, v_hi = device.top(), view.left(), view.right()
        key = (height, self.generation, self.now, id(self.colors))
        frame = self._frame(v_lo, v_hi, sx, sy, ty - dev_top, width, height)
        picture = self._picture
        if picture is None or not picture.fits(key, sx, sy, ty - dev_top, v_lo, v_hi):
            if picture is not None and picture.stands_in(key, sx, sy, ty - dev_top, v_lo, v_hi):
                self.stretched += 1
                self._margins.stop()  # the worker draws this view with its margins instead
                self._margins_due = None
                self._draw_later(key, frame, exact=False)
            else:  # the visible width at once, the margins left and right in the worker
                narrow = self._frame(v_lo, v_hi, sx, sy, ty - dev_top, width, height, margin=False)
                cols, visible = self._columns(v_lo, v_hi)
                picture = self._picture = _draw(key, narrow, cols, visible, self.colors, self._overlays(), False,
                                                self._strips_of())
                self.rebuilds += 1
                self._margins_due = (picture, frame)
                self._margins.start()
        p.save()
        p.resetTransform()
        f = picture.frame
        left = sx * f.t_lo + tx  # device x of the picture's first column
        if abs(sx / f.sx - 1.0) < 1e-7:
            p.drawImage(QPointF(left, dev_top), picture.image)
        else:  # a stand-in drawn at a nearby zoom: only its part under the view is scaled
            ratio = sx / f.sx
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, ratio < 1)
            source = QRectF((device.left() - left) / ratio, 0, device.width() / ratio, f.height)
            p.drawImage(QRectF(device.left(), dev_top, device.width(), f.height), picture.image, source)
        self._paint_grid(p, sx, tx, v_lo, v_hi, device)
        self._paint_filter(p, sy, ty, device)
        p.restore()

    def _frame(self, v_lo: float, v_hi: float, sx: float, sy: float, oy: float, width: int, height: int, *,
               margin: bool = True) -> Frame:
        """The view's frame, with a view's width left and right of it when `margin` (what a pan needs)."""
        span = (v_hi - v_lo) if margin else 0.0
        t_lo = v_lo - span
        scale = 3 if margin else 1
        return Frame(t_lo, v_hi + span, sx, -sx * t_lo, sy, oy, width * scale, height, len(self.arrays.lane_ids))

    def _paint_grid(self, p: QPainter, sx: float, tx: float, v_lo: float, v_hi: float, device: QRectF) -> None:
        """The time axis's tick lines across the lanes (pyqtgraph's own grid cost ~20 ms a frame on a window)."""
        axis = self.grid_axis
        if axis is None:
            return
        key = (sx, tx, v_lo, v_hi, device.top(), device.bottom(), device.width(), id(self.colors))
        if self._grid is None or self._grid[0] != key:  # the same view: the lines worked out last paint
            lines = []
            for level, (_spacing, values) in enumerate(axis.tickValues(v_lo, v_hi, device.width())[:2]):
                colour = QColor(self.colors.text)
                colour.setAlpha(int(64 / (level + 1) * min(1.0, 0.05 * device.width() / (len(values) + 1))))
                xs = [sx * v + tx for v in values]
                lines.append((colour, [QLineF(x, device.top(), x, device.bottom()) for x in xs]))
            self._grid = (key, lines)
        for colour, batch in self._grid[1]:
            p.setPen(QPen(colour, 0))
            p.drawLines(batch)

    def _paint_filter(self, p: QPainter, sy: float, ty: float, device: QRectF) -> None:
        lane = self.highlight_lane
        if lane is None:
            return
        top, bottom = sy * lane + ty, sy * (lane + 1) + ty
        p.fillRect(QRectF(device.left(), device.top(), device.width(), top - device.top()), self.colors.dim)
        p.fillRect(QRectF(device.left(), bottom, device.width(), device.bottom() - bottom), self.colors.dim)
        p.fillRect(QRectF(device.left(), top, device.width(), bottom - top), self.colors.highlight)

    def _overlays(self) -> Overlays:
        a = self.arrays
        if self._marks[0] is not a.marks or len(self._marks[1][0]) != len(a.marks):  # marks are only appended
            self._marks = (a.marks, mark_arrays(a.marks))
        return [list(w) for w in a.waits], [list(h) for h in a.holds], self._marks[1], self.now

    # -- the worker -------------------------------------------------------------------------------
    def _draw_later(self, key: tuple[object, ...], frame: Frame, *, exact: bool, cols: Columns | None = None) -> None:
        if self._latest == (key, frame, exact):
            return
        self._latest = (key, frame, exact)
        visible = -1
        if cols is None:
            cols, visible = self._columns(frame.t_lo, frame.t_hi)
        self._pending = _WORKER.submit(self._work, key, frame, cols, visible, self.colors, self._overlays(), exact,
                                       self._strips_of())

    def _work(self, key: tuple[object, ...], frame: Frame, cols: Columns, visible: int, colors: TimelineColors,
              overlays: Overlays, exact: bool, strips: StripsOf | None) -> None:
        if self._latest != (key, frame, exact):  # the view moved on before this was started
            return
        self.picture_built.emit(_draw(key, frame, cols, visible, colors, overlays, exact, strips))

    def _on_picture_built(self, picture: _Picture) -> None:
        current = self._picture
        if current is None or current.key != picture.key or (current.exact and not picture.exact
                                                              and current.frame == picture.frame):
            return
        latest = self._latest
        if (latest is None or latest[:2] != (picture.key, picture.frame)) and not _widens(current.frame, picture.frame):
            return  # asked for a view since left, and not the current picture with its margins
        self._picture = picture
        if picture.cols is not None:
            self._settle.start()
        self.update()

    def _on_margins_timeout(self) -> None:
        due, self._margins_due = self._margins_due, None
        if due is not None and self._picture is due[0]:  # still showing the view drawn alone
            self._draw_later(due[0].key, due[1], exact=due[0].exact)

    def _on_settle_timeout(self) -> None:
        current = self._picture
        if current is not None and not current.exact and current.cols is not None:
            self._latest = None
            self._draw_later(current.key, current.frame, exact=True, cols=current.cols)

    def _columns(self, t_lo: float, t_hi: float) -> tuple[Columns, int]:
        a = self.arrays
        n = a.count
        end = a.ends(self.now)
        start = a.start[:n]
        sel = np.flatnonzero((end >= t_lo) & (start <= t_hi))
        names = a.names if len(sel) <= COVERAGE_ABOVE else None  # only read for the few bars wide enough to label
        lanes = a.lane[:n][sel]
        slots = np.asarray(a.lane_slots, dtype=np.int64)[lanes]
        cols = Columns(start[sel], end[sel], lanes, a.kind[:n][sel], a.group[:n][sel], a.slot[:n][sel], slots, names,
                       sel)
        return cols, len(sel)

    def wait_idle(self) -> None:
        """Start the exact picture now if one is due, and block until the worker is done (tests, benchmark)."""
        if self._margins.isActive():
            self._margins.stop()
            self._on_margins_timeout()
            if self._pending is not None:
                self._pending.result()
                QCoreApplication.processEvents()  # deliver the margins (which start the settle timer)
        if self._settle.isActive():
            self._settle.stop()
            self._on_settle_timeout()
        if self._pending is not None:
            self._pending.result()
            QCoreApplication.processEvents()  # deliver its picture
