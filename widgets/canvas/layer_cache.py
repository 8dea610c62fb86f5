"""A picture of a batched layer (edges, overview) reused while the view pans or zooms.

During a gesture the view repaints the whole viewport every frame, and the batched layers are
bound by fill rate (a 1 px line costs ~60 ns a pixel on the raster engine: ~15 ms a frame for
the ~900 long edges of a 5,000-node graph). `LayerCache` paints the layer once into an image
covering the exposed area plus `MARGIN` on each side (`MARGIN_IN` while zooming in: the view
then only shrinks inside the picture; while zooming out, no more than the view can grow before
the picture's `key` changes at the owner's `floor` zoom and it is repainted anyway: stroking the
~2,500 edges of a 1.6× picture was the slowest notch out), in device pixels at the current zoom, and
then draws that image instead: 1:1 (a plain blit, pixel-identical) while panning, scaled while
zooming, until the view leaves the covered area or the zoom drifts by more than
`MIN_RATIO`..`MAX_RATIO` from the zoom it was painted at; then it paints a new image. A pan
never draws it scaled: a picture from another zoom is repainted first. With `shifts` (the edge
layer, whose painter draws only what meets the area it is given), a pan's new picture at the same
zoom and key copies the old picture's overlap (a whole-pixel offset) and paints only the strips
it does not cover, each clipped to its strip (an aliased line crossing a strip's border may step
one pixel there; the overview, which draws every line whatever the area, repaints whole).

Invariants: the picture is only used when the owner says so (the view is moving, nothing is
dragged); any change of what the layer shows calls `invalidate()`, and a changed `key` (theme,
mode) repaints; the image never covers more than `MAX_PIXELS` (then the layer is painted
directly) and is dropped when the view comes to rest — except a picture at rest (the overview's
far picture, `margin` 0, drawn only unscaled), which its owner keeps until what it shows changes,
and may then have painted again for the same view ahead of need (`repaint_kept`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter, QRegion, QTransform

MARGIN = 0.3  # of the exposed width / height, on each side
MARGIN_IN = 0.02  # the same while zooming in
MIN_RATIO, MAX_RATIO = 0.62, 1.75  # current zoom / zoom of the picture (3 wheel notches in)
MAX_PIXELS = 12_000_000

Painter = Callable[[QPainter, QRectF], None]  # paints the layer's content for a scene area


class LayerCache:
    def __init__(self, margin: float = MARGIN, shifts: bool = False) -> None:
        self.margin = margin  # of the exposed width / height added on each side of a new picture
        self.shifts = shifts  # a pan's new picture copies the old one's overlap and paints only the rest
        self._image: QImage | None = None
        self._scene_rect = QRectF()
        self._scale = 0.0
        self._last_scale = 0.0  # the zoom of the previous draw: tells zooming in from out
        self._key: Hashable = None
        self._made: tuple[QTransform, QSize, float, QPainter.RenderHint] | None = None  # how the last one was painted
        self.repaints = 0  # how many pictures were painted (tests, benchmarks)
        self.shifted = 0  # how many of them copied the old picture's overlap (tests, benchmarks)

    def invalidate(self) -> None:
        self._image = None

    def forget(self) -> None:
        """Drop the picture and what it was painted for (`repaint_kept` has nothing to paint again)."""
        self._image, self._made = None, None

    def kept_zoom(self) -> float | None:
        """The zoom of the last picture painted, when it was dropped since (`repaint_kept` can paint it
        again); None when there is a picture now, or never was one."""
        return self._scale if self._image is None and self._made is not None else None

    def repaint_kept(self, key: Hashable, paint: Painter) -> None:
        """Paint the last picture again, over the same area at the same zoom, as `draw` would paint it for
        that view and `key` (what the layer shows changed, the view did not): ready before the view next
        needs it (a picture of another key would be painted again anyway)."""
        if self._made is None or key != self._key:
            return
        image, inner = _blank_picture(*self._made)
        paint(inner, self._scene_rect)
        inner.end()
        self._image = image
        self.repaints += 1

    def draw(self, painter: QPainter, area: QRectF, key: Hashable, paint: Painter, scaled: bool,
             floor: float = 0.0) -> None:
        """Draw the layer for scene `area` from the picture, painting a new one when needed;
        `scaled`: a picture painted at another zoom may be drawn scaled (only while zooming);
        `floor`: the zoom below which `key` changes (a new picture is painted there anyway)."""
        transform = painter.worldTransform()
        scale = transform.m11()
        if not self._usable(area, key, scale, transform, scaled):
            self._repaint(painter, area, key, paint, self._margin(scale, scaled, floor))
        self._last_scale = scale
        image = self._image
        if image is None:  # the area is too large to be worth a picture
            paint(painter, area)
            return
        exact = abs(scale - self._scale) < 1e-9
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, not exact)  # scaled: no dashed lines
        if exact:  # a blit in device pixels: no resampling, the same pixels as painting directly
            top_left = transform.map(self._scene_rect.topLeft())
            painter.setWorldTransform(QTransform())
            painter.drawImage(round(top_left.x()), round(top_left.y()), image)
        else:
            painter.drawImage(self._scene_rect, image)
        painter.restore()

    def _margin(self, scale: float, scaled: bool, floor: float) -> float:
        """The margin of a new picture: none to speak of zooming in (the view only shrinks inside it),
        zooming out as much as the view may still grow (centred) before the picture would be replaced."""
        if not scaled or abs(scale - self._last_scale) <= scale * 1e-4:
            return self.margin
        if scale > self._last_scale:
            return MARGIN_IN
        growth = scale / max(floor, scale * MIN_RATIO)  # the view's width then, of its width now
        return min(self.margin, max(MARGIN_IN, (growth - 1) / 2))

    def _usable(self, area: QRectF, key: Hashable, scale: float, transform: QTransform, scaled: bool) -> bool:
        if self._image is None or key != self._key or transform.isRotating() or scale <= 0:
            return False
        ratio = scale / self._scale
        fits = MIN_RATIO <= ratio <= MAX_RATIO if scaled else abs(ratio - 1.0) < 1e-9
        return fits and self._scene_rect.contains(area)

    def _repaint(self, painter: QPainter, area: QRectF, key: Hashable, paint: Painter, margin: float) -> None:
        transform = painter.worldTransform()
        old = self._image if self.shifts and key == self._key and abs(transform.m11() - self._scale) < 1e-9 else None
        old_rect = self._scene_rect
        self._image, self._made = None, None
        device = transform.mapRect(area)
        dx, dy = device.width() * margin, device.height() * margin
        box: QRect = device.adjusted(-dx, -dy, dx, dy).toAlignedRect()
        ratio = painter.device().devicePixelRatioF()
        if box.isEmpty() or box.width() * box.height() * ratio**2 > MAX_PIXELS or transform.isRotating():
            return
        self._made = (transform * QTransform.fromTranslate(-box.left(), -box.top()), box.size() * ratio, ratio,
                      painter.renderHints())
        image, inner = _blank_picture(*self._made)
        scene_rect, _ = transform.inverted()
        covered = scene_rect.mapRect(QRectF(box))
        if old is None:
            paint(inner, covered)
        else:
            _paint_shifted(inner, transform, box, old, transform.map(old_rect.topLeft()), paint)
            self.shifted += 1
        inner.end()
        self._image, self._scene_rect, self._scale, self._key = image, covered, transform.m11(), key
        self.repaints += 1


def _blank_picture(transform: QTransform, size: QSize, ratio: float,
                   hints: QPainter.RenderHint) -> tuple[QImage, QPainter]:
    """A transparent picture of `size` device pixels at pixel `ratio` (a high-DPI screen: as sharp as
    painting directly) and a painter on it with `hints`, mapping the scene by `transform`."""
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(ratio)
    image.fill(Qt.GlobalColor.transparent)
    inner = QPainter(image)
    inner.setRenderHints(hints)
    inner.setWorldTransform(transform)
    return image, inner


def _paint_shifted(inner: QPainter, transform: QTransform, box: QRect, old: QImage, old_corner: QPointF,
                   paint: Painter) -> None:
    """A pan's new picture over device `box`: the old picture (same zoom and content, its top-left now at
    device `old_corner`, a whole pixel away) copied where it overlaps, the layer painted only in the
    strips it does not cover (each clipped to its strip)."""
    offset = QPoint(round(old_corner.x()) - box.left(), round(old_corner.y()) - box.top())
    local = inner.worldTransform()
    inner.resetTransform()
    inner.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
    inner.drawImage(offset, old)
    inner.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
    kept = QRect(offset, old.deviceIndependentSize().toSize())
    scene_rect, _ = transform.inverted()
    for strip in QRegion(QRect(QPoint(0, 0), box.size())).subtracted(QRegion(kept)):
        inner.save()
        inner.setClipRect(strip)
        inner.setWorldTransform(local)
        paint(inner, scene_rect.mapRect(QRectF(strip.translated(box.topLeft()))))
        inner.restore()
