"""The edges of a far-zoomed canvas as one density image: connectivity at a glance, at blit cost.

Below `overview.FAR_ZOOM` a 5,000-node graph has ~15,000 edges in view; drawing them as hairlines
costs ~100–190 ms a frame and paints a uniform grey. `EdgeDensity` instead rasterises every edge
(a straight line between its ports, sampled once per image pixel) into a count per pixel with
`numpy.bincount` (~20–40 ms for the whole graph), and maps the counts to the edge colour's
opacity on a log scale: bundles of short edges between neighbouring columns stand out, long
edges stay visible as faint lines, empty space stays empty. The image covers the whole graph at
the current zoom (at most `MAX_PIXELS`), so panning and zooming reuse it: it is drawn scaled
while the zoom stays within `MIN_RATIO`..`MAX_RATIO` of the zoom it was built at.

Invariants: `invalidate()` after any change of the edges it shows (the owner leaves out edges it
draws live, e.g. those of dragged nodes); numpy is imported only when the first image is built
(not at start-up).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLineF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter

if TYPE_CHECKING:
    from numpy.typing import NDArray

MAX_PIXELS = 4_000_000
MIN_RATIO, MAX_RATIO = 0.7, 1.45  # current zoom / zoom of the image
FAINTEST = 70  # opacity (of 255) of a pixel crossed by one edge


class EdgeDensity:
    def __init__(self) -> None:
        self._ends: NDArray[Any] | None = None  # x1, y1, x2, y2 per edge (scene coordinates)
        self._image: QImage | None = None
        self._rect = QRectF()  # the scene area the image covers
        self._scale = 0.0
        self._key: tuple[object, ...] = ()
        self.builds = 0  # images built (tests, benchmarks)

    def invalidate(self) -> None:
        self._ends = None
        self._image = None

    def draw(self, painter: QPainter, lines: list[QLineF], color: QColor) -> None:
        """Draw `lines` (the same list until `invalidate`) as a density image in `color`."""
        scale = painter.worldTransform().m11()
        key = (color.rgba(),)
        image = self._image
        if image is None or key != self._key or not MIN_RATIO <= scale / self._scale <= MAX_RATIO:
            image = self._build(lines, scale, color)
            self._key = key
        if image is None:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, abs(scale / self._scale - 1) > 1e-6)
        painter.drawImage(self._rect, image)
        painter.restore()

    def _build(self, lines: list[QLineF], scale: float, color: QColor) -> QImage | None:
        import numpy as np

        if self._ends is None:
            self._ends = np.array([ln.toTuple() for ln in lines], dtype=np.float64).reshape(-1, 4)
        ends = self._ends
        self._image = None
        if len(ends) == 0:
            return None
        left, top = float(min(ends[:, 0].min(), ends[:, 2].min())), float(min(ends[:, 1].min(), ends[:, 3].min()))
        right, bottom = float(max(ends[:, 0].max(), ends[:, 2].max())), float(max(ends[:, 1].max(), ends[:, 3].max()))
        area = max(1.0, (right - left) * (bottom - top))
        scale = min(scale, math.sqrt(MAX_PIXELS / area))
        width, height = int((right - left) * scale) + 2, int((bottom - top) * scale) + 2
        x1, y1 = ((ends[:, 0] - left) * scale).astype(np.float32), ((ends[:, 1] - top) * scale).astype(np.float32)
        dx = ((ends[:, 2] - left) * scale).astype(np.float32) - x1
        dy = ((ends[:, 3] - top) * scale).astype(np.float32) - y1
        steps = (np.maximum(np.abs(dx), np.abs(dy)) + 1).astype(np.int64)  # one sample per pixel
        offsets = np.arange(int(steps.sum()), dtype=np.float32) - np.repeat((np.cumsum(steps) - steps), steps)
        div = np.maximum(steps - 1, 1).astype(np.float32)
        xs = (np.repeat(x1, steps) + np.repeat(dx / div, steps) * offsets).astype(np.int32)
        ys = (np.repeat(y1, steps) + np.repeat(dy / div, steps) * offsets).astype(np.int32)
        counts = np.bincount(ys * np.int32(width) + xs, minlength=width * height)[: width * height]
        level = np.log1p(counts) / math.log1p(max(1, int(counts.max())))
        alpha = np.where(counts > 0, FAINTEST + (255 - FAINTEST) * level, 0).astype(np.uint32)
        red, green, blue = color.red(), color.green(), color.blue()
        argb = (alpha << 24) | ((alpha * red // 255) << 16) | ((alpha * green // 255) << 8) | (alpha * blue // 255)
        pixels = np.ascontiguousarray(argb.reshape(height, width), dtype=np.uint32)
        image = QImage(pixels.data, width, height, width * 4, QImage.Format.Format_ARGB32_Premultiplied).copy()
        self._image, self._scale = image, scale
        self._rect = QRectF(left, top, width / scale, height / scale)
        self.builds += 1
        return image
