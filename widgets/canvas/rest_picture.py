"""A layer of the view at rest, painted ahead on a worker thread while the view is about to settle.

When a pan or zoom ends, the first full-quality frame strokes every edge in view as an antialiased
curve: ~1,000 edges, most of them long, at 5,000 nodes (16–27 ms of a 20–35 ms settle frame; fill
rate, not Python); in overview mode between `FAR_ZOOM` and `LOD_SIMPLE` it strokes ~15,000 lines
and fills ~5,000 boxes (~25 ms). The view the gesture will rest at is known as soon as the input
goes quiet, so the owner (`EdgeLayer.prepare_rest`, `OverviewPainter.prepare_rest`) collects on the
GUI thread what it would draw there (pens, curves and arrows built as the direct paint builds
them; the overview's lines and boxes) and `RestPicture.prepare` has a worker paint it (`job`) into
an image of the viewport at the view's very transform (`QPainter.drawPath`/`drawLines` release
the GIL). The settle frame, and any repaint of the same view, then copies that image 1:1 (`draw`).

The copy gives the pixels the direct paint gives in a grab of the view (the tests compare them):
the same strokes in the same order (the edges the index finds for the viewport, in stacking
order), at the same device coordinates, clipped to the same viewport, over the same pixels — the
edge layer's picture holds the background under its antialiased strokes (they blend onto the very
pixels they blend onto in the direct paint), the overview's batch is opaque and aliased (copied
over anything, it replaces what the direct paint replaces). In a window's backing store, where
the viewport sits inside a larger image, Qt rasterises an antialiased stroke a little differently
than in an image of the viewport: there the copy's edge pixels differ from the direct paint's by
rounding (1–2 levels of 255 on ~1.3 % of a 5,000-node window's pixels, at most 19 on one pixel,
all on antialiased edges; measured under Xvfb), which no one can see, even magnified.

Invariants:
- a picture is drawn only when it is complete and matches the paint exactly (`PictureKey`): the
  same world transform, viewport size, render hints and device pixel ratio, the same `generation`
  of what the owner shows (it counts every change: an edit, a selection, a mark) and the same
  theme; else the owner paints directly, so a picture is never stale;
- input cancels the picture being painted (`cancel`: the worker stops at its next stroke) and a
  newer `prepare` supersedes an older one; the worker only reads what it was given (paths, pens,
  polygons, lines and rects collected on the GUI thread, held by the job until it ends; their
  owners replace them, never change them) and paints an image it owns (QPainter on a QImage is
  safe off the GUI thread);
- the edge layer's picture covers what lies under the edges, so it is not drawn where a comment
  lies under them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QImage, QPainter, QPainterPath, QPen, QPolygonF, QTransform

from widgets.worker_thread import WorkerThread

Strokes = list[tuple[QPen, QPainterPath]]
Arrows = list[tuple[QBrush, QPolygonF]]
# paints a picture for a scene area on the worker; asks the callable whether to stop; False: it stopped
Job = Callable[[QPainter, QRectF, Callable[[], bool]], bool]
_WORKER = WorkerThread("canvas-rest-picture")
_NO_PEN = QPen(Qt.PenStyle.NoPen)
_NO_BRUSH = QBrush(Qt.BrushStyle.NoBrush)


@dataclass(frozen=True)
class PictureKey:
    """What a painted picture must match to be drawn instead of the direct paint."""

    transform: tuple[float, ...]  # the world transform's six affine numbers, device pixels
    size: tuple[int, int]  # of the viewport, device-independent pixels
    hints: int  # the painter's render hints
    ratio: float  # device pixel ratio
    generation: int  # of what the owner shows (it counts every change)
    theme: object  # the scene's theme (identity)


def transform_numbers(transform: QTransform) -> tuple[float, ...]:
    return (transform.m11(), transform.m12(), transform.m21(), transform.m22(), transform.dx(), transform.dy())


class RestPicture:
    def __init__(self) -> None:
        self._ticket = itertools.count(1)
        self._current = 0  # the ticket of the newest prepare; a job of an older ticket stops
        self._done: tuple[int, PictureKey, QImage] | None = None  # (ticket, key, image) painted
        self._working = 0  # the ticket of the job on the worker (0: none)
        self.prepared = 0  # pictures asked for (tests, benchmarks)
        self.painted = 0  # pictures the worker finished (tests, benchmarks)
        self.drawn = 0  # settle and rest frames that copied a picture

    def cancel(self) -> None:
        """Input came: the picture being painted (if any) is no longer wanted; the painted one is dropped."""
        self._current = next(self._ticket)
        self._done = None

    def prepare(self, transform: QTransform, size: tuple[int, int], hints: QPainter.RenderHint, ratio: float,
                generation: int, theme: object, job: Job) -> None:
        """Have `job` paint, on the worker, an image of a viewport of `size` at `transform` and `hints`,
        for `generation` of what the owner shows in `theme`."""
        key = PictureKey(transform_numbers(transform), size, hints.value, ratio, generation, theme)
        ticket = self._current = next(self._ticket)
        self._done = None
        self.prepared += 1
        self._working = ticket
        _WORKER.post(lambda: self._paint(ticket, key, job))

    def pending(self) -> bool:
        """The newest picture asked for is still being painted."""
        return self._working == self._current != 0

    def _paint(self, ticket: int, key: PictureKey, job: Job) -> None:
        ratio, size = key.ratio, key.size
        image = QImage(round(size[0] * ratio), round(size[1] * ratio), QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(ratio)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHints(QPainter.RenderHint(key.hints))
        m11, m12, m21, m22, dx, dy = key.transform
        transform = QTransform(m11, m12, m21, m22, dx, dy)
        painter.setWorldTransform(transform)
        try:
            finished = job(painter, covered_area(transform, size), lambda: self._current != ticket)
            painter.end()
            if finished and self._current == ticket:
                self._done = (ticket, key, image)
                self.painted += 1
        finally:  # done, stopped or failed: nothing pending any more
            if painter.isActive():
                painter.end()
            if self._working == ticket:
                self._working = 0

    def draw(self, painter: QPainter, generation: int, theme: object) -> bool:
        """Copy the picture 1:1 when it was painted for exactly what `painter` paints now, `generation` and
        `theme` (False: the owner paints directly)."""
        device = painter.device()
        key = PictureKey(transform_numbers(painter.worldTransform()), (device.width(), device.height()),
                         painter.renderHints().value, device.devicePixelRatioF(), generation, theme)
        done = self._done
        if done is None or done[0] != self._current or done[1] != key:
            return False
        painter.save()
        painter.setWorldTransform(QTransform())
        painter.drawImage(0, 0, done[2])
        painter.restore()
        self.drawn += 1
        return True


def stroke(painter: QPainter, strokes: Strokes, arrows: Arrows, stop: Callable[[], bool] | None = None) -> bool:
    """Each curve with its pen (set only when it changes), then each arrow head filled; `stop` is asked
    before each curve and ends the painting early (False)."""
    painter.setBrush(_NO_BRUSH)
    last = None
    for pen, path in strokes:
        if stop is not None and stop():
            return False
        if pen is not last:
            painter.setPen(pen)
            last = pen
        painter.drawPath(path)
    if arrows:
        painter.setPen(_NO_PEN)
        for brush, polygon in arrows:
            painter.setBrush(brush)
            painter.drawConvexPolygon(polygon)
    return True


def covered_area(transform: QTransform, size: tuple[int, int]) -> QRectF:
    """The scene area a viewport of `size` shows under `transform` (the exposed area of a full repaint)."""
    inverse, _ = transform.inverted()
    return inverse.mapRect(QRectF(0, 0, size[0], size[1]))
