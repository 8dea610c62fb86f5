"""The coverage picture's colour grid: per lane and pixel, the highest colour index of the spans over it.

`coverage_strips` returns a (2·lanes, width) uint8 grid: row 2i the bars of lane i, row 2i+1 its calls
drawn over its bars (a pixel no call covers shows the bar under it). A span narrower than a pixel
still covers one, so at every zoom every busy lane shows where it was busy; where spans of several
colours share a pixel the higher index wins (failed and error colours are the highest).

How: per colour, a span adds one at its first pixel and takes it away after its last
(`numpy.bincount`), and one running sum along each lane counts the spans over each pixel. The cost
is lanes × width per colour present, so the timeline asks for the visible width first.

Invariant: a pure function of its arrays (no Qt): the tests compare it with a span-by-span painting.
"""

from __future__ import annotations

import numpy as np


def pixel_ranges(start: np.ndarray, end: np.ndarray, sx: float, ox: float, width: int) -> tuple[np.ndarray, np.ndarray]:
    """First pixel and one past the last of each span, clipped to the picture, never less than one pixel."""
    px0 = np.clip(np.floor(start * sx + ox), 0, width - 1).astype(np.int64)
    px1 = np.clip(np.ceil(end * sx + ox), 0, width).astype(np.int64)
    return px0, np.maximum(px1, px0 + 1)


def coverage_strips(px0: np.ndarray, px1: np.ndarray, lane: np.ndarray, index: np.ndarray, calls: np.ndarray,
                    lanes: int, width: int) -> np.ndarray:
    """(2·lanes, width) colour indices (see the module's docstring); `index` from `colour_index`."""
    strips = np.zeros((lanes, 2, width), dtype=np.uint8)
    size = lanes * (width + 1)
    base = lane.astype(np.int64) * (width + 1)
    for row, layer in ((0, ~calls), (1, calls)):
        grid = strips[:, row, :]
        for c in np.unique(index[layer]):  # ascending: later colours (failed, errors) win a shared pixel
            sel = layer & (index == c)
            diff = np.bincount(base[sel] + px0[sel], minlength=size) - np.bincount(base[sel] + px1[sel], minlength=size)
            covered = np.cumsum(diff.reshape(lanes, width + 1)[:, :width], axis=1, dtype=np.int32) > 0
            np.copyto(grid, c, where=covered)
    calls_row = strips[:, 1, :]
    np.copyto(calls_row, strips[:, 0, :], where=calls_row == 0)
    return np.ascontiguousarray(strips.reshape(2 * lanes, width))
