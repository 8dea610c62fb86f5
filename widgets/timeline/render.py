"""Drawing a window of the timeline into a `QImage`: exact rectangles when few spans are visible, a
coverage picture (one bucket per pixel, built with `numpy.bincount`, as Perfetto does) when many are.

Both are pure functions of a `Frame` (what to draw) and copies of the span columns, so the timeline
item may run them in a worker thread (QPainter on a QImage is thread-safe). A span narrower than a
pixel still covers one: at any zoom every lane shows where it was busy.

Coordinates: image x = sx·t + ox, image y = sy·lane + oy (sy > 0: lane 0 at the top).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen, QPolygonF

from widgets.timeline.colors import (
    BAR_BOTTOM,
    BAR_TOP,
    CALL_BOTTOM,
    CALL_ERROR,
    CALL_LLM,
    CALL_RUNNING,
    CALL_TOOL,
    CALL_TOP,
    TimelineColors,
)
from widgets.timeline.coverage import coverage_strips, pixel_ranges

COVERAGE_ABOVE = 20_000  # visible spans above which the coverage picture is drawn
MIN_BAND_PX = 5.0  # lanes thinner than this draw their bars over the whole lane


@dataclass(frozen=True, slots=True)
class Frame:
    t_lo: float
    t_hi: float
    sx: float
    ox: float
    sy: float
    oy: float
    width: int
    height: int
    lanes: int


@dataclass(slots=True)
class Columns:
    """The visible spans' columns (copies: the live arrays may grow while a worker draws)."""

    start: np.ndarray
    end: np.ndarray
    lane: np.ndarray
    kind: np.ndarray
    group: np.ndarray
    slot: np.ndarray  # a call's sub-row in its lane
    slots: np.ndarray  # sub-rows of the call's lane
    names: list[str] | None = None  # the arrays' span names (None: too many visible to label), read by `rows`
    rows: np.ndarray | None = None  # each visible span's row in the arrays (its name is `names[row]`)


def colour_index(kind: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Per span: 1..5 for run / node bars (status group + 1), 6..9 for calls."""
    bars = group.astype(np.uint8) + 1
    calls = np.where(group == 2, CALL_ERROR, np.where(group == 0, CALL_RUNNING,
                     np.where(kind == 3, CALL_TOOL, CALL_LLM))).astype(np.uint8)
    return np.where(kind >= 2, calls, bars)


def coverage_image(frame: Frame, cols: Columns, colors: TimelineColors, strips: np.ndarray | None = None) -> QImage:
    """The coverage picture of `frame`: of `strips` when given (`coverage_strips`' grid, e.g. cut from the
    whole run's by `moment_cut`), else of the columns."""
    w, h, lanes = frame.width, frame.height, max(frame.lanes, 1)
    if strips is None:  # per lane: its bars' row, then its calls-over-bars row
        px0, px1 = pixel_ranges(cols.start, cols.end, frame.sx, frame.ox, w)
        strips = coverage_strips(px0, px1, cols.lane, colour_index(cols.kind, cols.group), cols.kind >= 2, lanes, w)
    indexed = QImage(strips.data, w, 2 * lanes, w, QImage.Format.Format_Indexed8)
    indexed.setColorTable([int(word) for word in colors.palette()] + [0] * (256 - 10))
    source = indexed.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    image = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    painter = QPainter(image)
    thin = frame.sy < MIN_BAND_PX
    bands = ((0, 0.0, 1.0),) if thin else ((0, BAR_TOP, CALL_TOP), (1, CALL_TOP, CALL_BOTTOM),
                                           (0, CALL_BOTTOM, BAR_BOTTOM))
    first = max(0, int(np.floor(-frame.oy / frame.sy)))
    last = min(lanes - 1, int(np.ceil((h - frame.oy) / frame.sy)))
    for lane in range(first, last + 1):  # one stretched strip per band: the picture is built row by row in C++
        y = lane * frame.sy + frame.oy
        for row, top, bottom in bands:
            target = QRectF(0, round(y + top * frame.sy), w, max(round(y + bottom * frame.sy) - round(y + top * frame.sy), 1))
            painter.drawImage(target, source, QRectF(0, 2 * lane + row, w, 1))
    painter.end()
    return image


def exact_image(frame: Frame, cols: Columns, colors: TimelineColors) -> QImage:
    image = QImage(frame.width, frame.height, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    painter = QPainter(image)
    x0 = cols.start * frame.sx + frame.ox
    x1 = np.maximum(cols.end * frame.sx + frame.ox, x0 + 1.0)
    index = colour_index(cols.kind, cols.group)
    calls = cols.kind >= 2
    thin = frame.sy < MIN_BAND_PX
    palette = colors.palette()
    for layer, top, bottom in ((~calls, BAR_TOP, BAR_BOTTOM), (calls, CALL_TOP, CALL_BOTTOM)):
        if thin and layer is calls:
            continue
        top, bottom = (0.0, 1.0) if thin else (top, bottom)
        for c in np.unique(index[layer]):
            sel = np.flatnonzero(layer & (index == c))
            ys = cols.lane[sel] * frame.sy + frame.oy
            colour = palette[int(c)]
            painter.setBrush(QBrush(QColor.fromRgba(int(colour))))
            wide = (x1[sel] - x0[sel]) >= 4
            painter.setPen(QPen(colors.border, 1) if bool(wide.any()) and frame.sy >= 8 else Qt.PenStyle.NoPen)
            heights: np.ndarray = np.full(len(sel), (bottom - top) * frame.sy)
            if layer is calls and not thin:  # calls at once in one lane share its call band, a sub-row each
                heights = heights / cols.slots[sel]
                ys = ys + cols.slot[sel] * heights
            rects = [QRectF(a, y + top * frame.sy, b - a, hh) for a, b, y, hh
                     in zip(x0[sel].tolist(), x1[sel].tolist(), ys.tolist(), heights.tolist(), strict=True)]
            painter.drawRects(rects)
    if cols.names is not None and frame.sy >= 14:
        _labels(painter, frame, cols, x0, x1, colors)
    painter.end()
    return image


def _labels(painter: QPainter, frame: Frame, cols: Columns, x0: np.ndarray, x1: np.ndarray,
            colors: TimelineColors) -> None:
    """The span's name inside bars wide enough to hold it (at most 600 of them)."""
    names, rows = cols.names, cols.rows
    assert names is not None and rows is not None
    y = cols.lane * frame.sy + frame.oy
    shown = (x1 - x0 >= 48) & (x1 > 0) & (x0 < frame.width) & (y + frame.sy > 0) & (y < frame.height)
    wide = np.flatnonzero(shown)[:600]  # only bars in the picture, and not too many to stay quick
    font = painter.font()
    font.setPointSizeF(max(6.5, min(8.5, frame.sy * 0.3)))
    painter.setFont(font)
    for i in wide.tolist():
        call = cols.kind[i] >= 2
        painter.setPen(colors.label_text if call else colors.text)
        top, bottom = (CALL_TOP, CALL_BOTTOM) if call else (BAR_TOP, CALL_TOP)
        y = cols.lane[i] * frame.sy + frame.oy
        if call:
            sub = (bottom - top) / int(cols.slots[i])
            top = top + int(cols.slot[i]) * sub
            bottom = top + sub
            if sub * frame.sy < 11:
                continue
        a, b = max(x0[i], 0.0), min(x1[i], frame.width)
        if b - a < 40:
            continue
        rect = QRectF(a + 3, y + top * frame.sy, b - a - 6, (bottom - top) * frame.sy)
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), names[int(rows[i])])


def overlay(image: QImage, frame: Frame, waits: list[list[float]], holds: list[list[float]],
            marks: tuple[np.ndarray, np.ndarray], now: float, colors: TimelineColors) -> None:
    """Time waiting for a person (hatched), the run's holds (hatched across the run lane) and retry marks."""
    painter = QPainter(image)
    hatch = QBrush(colors.waiting, Qt.BrushStyle.BDiagPattern)
    painter.setPen(QPen(colors.waiting, 1))
    painter.setBrush(hatch)
    band = (0.0, 1.0) if frame.sy < MIN_BAND_PX else (BAR_TOP, BAR_BOTTOM)
    for lane, start, end in [(int(w[0]), w[1], w[2]) for w in waits] + [(0, h[0], h[1]) for h in holds]:
        end = now if math.isnan(end) else end
        if end < frame.t_lo or start > frame.t_hi:
            continue
        a = start * frame.sx + frame.ox
        b = max(end * frame.sx + frame.ox, a + 2)
        y = lane * frame.sy + frame.oy
        painter.drawRect(QRectF(a, y + band[0] * frame.sy, b - a, (band[1] - band[0]) * frame.sy))
    painter.setPen(QPen(colors.mark, 1.5))
    painter.setBrush(colors.mark)
    lanes, ts = marks  # retry marks' lanes and times (`mark_arrays`)
    if len(ts):
        keep = (ts >= frame.t_lo) & (ts <= frame.t_hi)
        px = np.round(ts[keep] * frame.sx + frame.ox).astype(np.int64)
        cells = np.unique(lanes[keep] * (frame.width + 1) + px)  # one mark per lane and pixel
        xs = (cells % (frame.width + 1)).astype(np.float64)
        ys = (cells // (frame.width + 1)) * frame.sy + frame.oy
        top, bottom = band[0] * frame.sy, band[1] * frame.sy
        painter.drawLines([QLineF(x, y + top, x, y + bottom) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)])
        if frame.sy >= 8 and len(cells) <= 2_000:
            size = max(3.0, min(6.0, frame.sy * 0.3))
            for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
                painter.drawPolygon(QPolygonF([QPointF(x - size, y), QPointF(x + size, y), QPointF(x, y + size)]))
    painter.end()


def mark_arrays(marks: list[tuple[int, float, str]]) -> tuple[np.ndarray, np.ndarray]:
    """The retry marks' lanes (int64) and times (float64), as `overlay` takes them."""
    lanes = np.fromiter((m[0] for m in marks), dtype=np.int64, count=len(marks))
    return lanes, np.fromiter((m[1] for m in marks), dtype=np.float64, count=len(marks))
