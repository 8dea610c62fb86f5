"""`LaneAxis`: the timeline's left axis — one tick per lane, labelled with the node's title.

Invariant: labels come from `SpanArrays.lane_labels` (lane i is centred on y = i + 0.5); when the
lanes are too thin for every label, every k-th is shown so labels never overlap; long ones are elided.
"""

from __future__ import annotations

import math
from typing import Any

import pyqtgraph as pg

MAX_LABEL = 28


class LaneAxis(pg.AxisItem):
    def __init__(self, labels: list[str]) -> None:
        super().__init__("left")
        self.labels = labels
        self._drawn: list[str] | None = None  # the labels the axis was last told to draw
        self.setWidth(150)
        self.setStyle(hideOverlappingLabels=False)  # lane labels never overlap (`tickValues` thins them)

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, list[float]]]:
        lanes = len(self.labels)
        minVal, maxVal = min(minVal, maxVal), max(minVal, maxVal)  # the view is inverted: lane 0 on top
        if lanes == 0 or maxVal <= minVal:
            return []
        px_per_lane = size / (maxVal - minVal)
        step = max(1, math.ceil(14 / max(px_per_lane, 1e-6)))
        first = max(0, math.floor(minVal))
        last = min(lanes - 1, math.ceil(maxVal))
        first -= first % step
        return [(1.0, [i + 0.5 for i in range(first, last + 1, step)])]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        out = []
        for v in values:
            i = math.floor(v)
            label = self.labels[i] if 0 <= i < len(self.labels) else ""
            out.append(label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…")
        return out

    def set_labels(self, labels: list[str]) -> None:
        """Label the lanes `labels` (a list that may grow in place); the labels drawn already: nothing to redraw."""
        self.labels = labels
        if labels == self._drawn:
            return
        self._drawn = list(labels)
        self.picture: Any = None
        self.update()
