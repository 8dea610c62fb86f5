"""The edges of a far-zoomed canvas as one density image: connectivity at a glance, at blit cost.

Below `overview.FAR_ZOOM` a 5,000-node graph has ~15,000 edges in view; drawing them as hairlines
costs ~100–190 ms a frame and paints a uniform grey. `EdgeDensity` instead rasterises every edge
(a straight line between its ports, sampled once per image pixel) into a count per pixel with
`numpy.bincount`, and maps the counts to the edge colour's opacity on a log scale: bundles of
short edges between neighbouring columns stand out, long edges stay visible as faint lines,
empty space stays empty. One image covers the whole graph at a power-of-two scale (`level`: the
zoom rounded up to a power of two, at most `MAX_PIXELS`) and is drawn scaled at every zoom that
rounds to it, so a pan is a blit and a zoom gesture builds at most one image per halving.

Building an image (~40–220 ms at 5,000 nodes) runs on a worker thread (numpy releases the GIL);
meanwhile the closest image already built (perhaps from before the last edit) is drawn, and
`on_ready` is called (on the GUI thread, through one long-lived `_Bridge`: the owner may be gone
by the time the worker finishes) when the new one can be drawn. Only the very first image is built at once (a
graph is never shown without its edges).

Invariants: `invalidate()` after any change of the edges it shows; images of an older generation
are only drawn until the current one is built; numpy is imported only when an image is first built.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from typing import Any

from PySide6.QtCore import QLineF, QObject, QRectF, Signal
from PySide6.QtGui import QColor, QImage, QPainter

from engine.memory_trim import release_free_memory

MAX_PIXELS = 4_000_000
FAINTEST = 70  # opacity (of 255) of a pixel crossed by one edge
_SAMPLES = 1_000_000  # line samples (pixels) taken at once: 1,500 long lines at once held ~100 MB
_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="edge-density")

Built = tuple[QImage, QRectF]  # the image and the scene area it covers


class _Bridge(QObject):
    """Carries a finished build from the worker to the GUI thread; lives as long as the process."""

    done = Signal(object)  # a callable to run on the GUI thread


_BRIDGE: list[_Bridge] = []


def _bridge() -> _Bridge:
    if not _BRIDGE:
        bridge = _Bridge()
        bridge.done.connect(lambda call: call())
        _BRIDGE.append(bridge)
    return _BRIDGE[0]


class EdgeDensity:
    def __init__(self, on_ready: Callable[[], None] | None = None, faintest: int = FAINTEST) -> None:
        self._images: dict[tuple[int, int, int], Built] = {}  # (generation, level, rgba) → image
        self._pending: set[tuple[int, int, int]] = set()
        self._generation = 0
        self.on_ready = on_ready  # called when an image built on the worker can be drawn
        self.faintest = faintest  # opacity of a pixel crossed by one edge
        self.builds = 0  # images built (tests, benchmarks)
        self._bridge = _bridge()

    def invalidate(self) -> None:
        self._generation += 1

    def building(self) -> bool:
        """An image is being built on the worker."""
        return bool(self._pending)

    def draw(self, painter: QPainter, lines: list[QLineF], color: QColor, scale: float | None = None,
             build_now: bool = True) -> bool:
        """Draw `lines` (the same list until `invalidate`) as a density image in `color`, at the
        painter's zoom (or `scale`) rounded up to a power of two; `build_now` False: when no image at
        all is built yet, start one on the worker and draw nothing (False)."""
        key = self._key(scale or painter.worldTransform().m11(), color)
        built = self._images.get(key)
        if built is None:
            built = self._closest(key)
            if built is None and build_now:  # nothing to show yet: build this one now
                built = _rasterise(lines, 2.0 ** key[1], color, self.faintest)
                self._keep(key, built)
            else:
                self._submit(key, lines, color)
        if built is None:
            return False
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawImage(built[1], built[0])
        painter.restore()
        return True

    def prepare(self, lines: list[QLineF], scale: float, color: QColor) -> None:
        """Start building the image `draw` will want at `scale` on the worker, unless it is built."""
        key = self._key(scale, color)
        if key not in self._images:
            self._submit(key, lines, color)

    def has_current(self, scale: float, color: QColor) -> bool:
        """The image `draw` wants at `scale` is built for the lines as they are now (no stand-in)."""
        return self._key(scale, color) in self._images

    def _key(self, scale: float, color: QColor) -> tuple[int, int, int]:
        return (self._generation, math.ceil(math.log2(max(scale, 1e-6))), color.rgba())

    def _submit(self, key: tuple[int, int, int], lines: list[QLineF], color: QColor) -> None:
        if key not in self._pending:
            self._pending.add(key)
            _POOL.submit(_build_async, weakref.ref(self), self._bridge, key, list(lines), color, self.faintest)

    def _closest(self, key: tuple[int, int, int]) -> Built | None:
        """The best stand-in: this generation before older ones, then the nearest level."""
        candidates = [k for k in self._images if k[2] == key[2]]
        if not candidates:
            return None
        best = min(candidates, key=lambda k: (key[0] - k[0], abs(k[1] - key[1])))
        return self._images[best]

    def _on_built(self, key: tuple[int, int, int], built: Built | None) -> None:
        self._pending.discard(key)
        if built is not None:
            self._keep(key, built)
            if self.on_ready is not None:
                self.on_ready()

    def _keep(self, key: tuple[int, int, int], built: Built | None) -> None:
        self.builds += 1
        if built is None:
            return
        stale = [k for k in self._images if k[0] < key[0]] if key[0] == self._generation else []
        for old in stale:  # the current generation has an image: older ones are no longer needed
            del self._images[old]
        self._images[key] = built
        # the build's temporaries (tens of MB, in whichever thread's heap built it) and the images just
        # dropped (a replaced graph's, MBs each) go back to the system instead of staying resident
        release_free_memory()


def _build_async(owner: weakref.ref[EdgeDensity], bridge: _Bridge, key: tuple[int, int, int],
                 lines: list[QLineF], color: QColor, faintest: int) -> None:
    """On the worker: build the image, then hand it to its owner on the GUI thread (if still alive)."""
    built = _rasterise(lines, 2.0 ** key[1], color, faintest)

    def deliver() -> None:
        density = owner()
        if density is not None:
            density._on_built(key, built)

    bridge.done.emit(deliver)


def _rasterise(lines: list[QLineF], scale: float, color: QColor, faintest: int = FAINTEST) -> Built | None:
    """Count the edges crossing each pixel at `scale` (capped at `MAX_PIXELS`) → (image, scene area)."""
    import numpy as np

    ends: Any = np.array([line.toTuple() for line in lines], dtype=np.float64).reshape(-1, 4)
    if len(ends) == 0:
        return None
    left, top = float(min(ends[:, 0].min(), ends[:, 2].min())), float(min(ends[:, 1].min(), ends[:, 3].min()))
    right, bottom = float(max(ends[:, 0].max(), ends[:, 2].max())), float(max(ends[:, 1].max(), ends[:, 3].max()))
    scale = min(scale, math.sqrt(MAX_PIXELS / max(1.0, (right - left) * (bottom - top))))
    width, height = int((right - left) * scale) + 2, int((bottom - top) * scale) + 2
    counts = np.zeros(width * height, dtype=np.int32)
    x1_all, y1_all = ((ends[:, 0] - left) * scale).astype(np.float32), ((ends[:, 1] - top) * scale).astype(np.float32)
    dx_all = ((ends[:, 2] - left) * scale).astype(np.float32) - x1_all
    dy_all = ((ends[:, 3] - top) * scale).astype(np.float32) - y1_all
    steps_all = (np.maximum(np.abs(dx_all), np.abs(dy_all)) + 1).astype(np.int64)  # one sample per pixel
    reach = np.cumsum(steps_all)
    cuts = [0, *np.searchsorted(reach, np.arange(_SAMPLES, int(reach[-1]), _SAMPLES)).tolist(), len(ends)]
    for start, stop in pairwise(cuts):  # ~_SAMPLES samples at a time: bounded memory
        if stop <= start:
            continue
        x1, y1, dx, dy = x1_all[start:stop], y1_all[start:stop], dx_all[start:stop], dy_all[start:stop]
        steps = steps_all[start:stop]
        offsets = np.arange(int(steps.sum()), dtype=np.float32) - np.repeat(np.cumsum(steps) - steps, steps)
        div = np.maximum(steps - 1, 1).astype(np.float32)
        xs = (np.repeat(x1, steps) + np.repeat(dx / div, steps) * offsets).astype(np.int32)
        ys = (np.repeat(y1, steps) + np.repeat(dy / div, steps) * offsets).astype(np.int32)
        np.add(counts, np.bincount(ys * np.int32(width) + xs, minlength=width * height)[: width * height],
               out=counts, casting="unsafe")
    level = np.log1p(counts, dtype=np.float32)  # the opacity of each pixel, in place: one image-sized float array
    level *= np.float32((255 - faintest) / math.log1p(max(1, int(counts.max()))))
    level += np.float32(faintest)
    alpha = level.astype(np.uint8)
    del level
    alpha[counts == 0] = 0
    opacity = np.arange(256, dtype=np.uint32)  # each opacity's premultiplied pixel in `color`
    red, green, blue = color.red(), color.green(), color.blue()
    argb = ((opacity << 24) | ((opacity * red // 255) << 16) | ((opacity * green // 255) << 8)
            | (opacity * blue // 255))[alpha]
    pixels = np.ascontiguousarray(argb.reshape(height, width), dtype=np.uint32)
    image = QImage(pixels.data, width, height, width * 4, QImage.Format.Format_ARGB32_Premultiplied).copy()
    return image, QRectF(left, top, width / scale, height / scale)
