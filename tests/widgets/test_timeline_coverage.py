"""The coverage grid equals a span-by-span painting of the same spans, lane by lane and pixel by pixel."""

from __future__ import annotations

import numpy as np

from widgets.timeline.coverage import coverage_strips, pixel_ranges
from widgets.timeline.render import colour_index


def _painted(px0: np.ndarray, px1: np.ndarray, lane: np.ndarray, index: np.ndarray, calls: np.ndarray,
             lanes: int, width: int) -> np.ndarray:
    grid = np.zeros((lanes, 2, width), dtype=np.uint8)
    for i in range(len(px0)):
        row = grid[lane[i], int(calls[i]), px0[i]:px1[i]]
        np.maximum(row, index[i], out=row)
    grid[:, 1, :] = np.where(grid[:, 1, :] == 0, grid[:, 0, :], grid[:, 1, :])
    return grid.reshape(2 * lanes, width)


def test_coverage_grid_equals_span_by_span_painting_at_every_zoom() -> None:
    rng = np.random.default_rng(7)
    lanes, n = 13, 3_000
    start = rng.uniform(0, 100, n)
    end = start + rng.exponential(0.5, n) + rng.exponential(20, n) * (rng.random(n) < 0.05)
    lane = rng.integers(0, lanes, n).astype(np.int32)
    kind = rng.integers(0, 4, n).astype(np.int8)
    group = rng.integers(0, 5, n).astype(np.int8)
    index, calls = colour_index(kind, group), kind >= 2
    for width, sx, ox in ((300, 3.0, 0.0), (1200, 12.0, 0.0), (900, 400.0, -20_000.0), (50, 0.1, 25.0)):
        px0, px1 = pixel_ranges(start, end, sx, ox, width)
        grid = coverage_strips(px0, px1, lane, index, calls, lanes, width)
        np.testing.assert_array_equal(grid, _painted(px0, px1, lane, index, calls, lanes, width))
        shown = (grid.reshape(lanes, 2, width) > 0).any(axis=(1, 2))
        np.testing.assert_array_equal(shown, np.bincount(lane, minlength=lanes) > 0)  # every busy lane shows
