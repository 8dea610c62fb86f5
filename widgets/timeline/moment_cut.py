"""The coverage strips of a run at an earlier moment, cut from the whole run's instead of recomputed.

Playback shows the run at an earlier event, and the Timeline keeps the run's frame meanwhile, so the
coverage picture of a moment differs from the whole run's (`WholeRun`, its strips kept per frame) only
- in the columns from the pixel of the first start not made yet (`t_cut`): every span the moment does
  not hold starts there or later;
- in the lanes of the spans the moment holds otherwise: a start, drawn end, colour or lane that differs
  (the spans still open then, drawn to the moment's "now" in the running colour, or retried later).
`MomentCut.strips` copies the whole run's strips and recomputes only those columns and lanes from the
moment's spans: a few hundred spans instead of all, the same strips as `coverage_strips` of the
moment's own columns (tests hold them equal).

Invariants: pure numpy, no Qt (a worker may call it); a strip source answers None when the arrays it
was made from changed since (the caller then draws from the columns); `MomentCut.of` is None unless
the moment's spans and lanes are a prefix of the whole run's (same ids, same order).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from widgets.timeline.coverage import coverage_strips, pixel_ranges
from widgets.timeline.render import Frame, colour_index
from widgets.timeline.span_arrays import SpanArrays

KEPT_FRAMES = 4  # whole-run strips kept (the view, its margins, a zoom back and forth)


@dataclass(frozen=True, slots=True)
class SpanColumns:
    """Every row of a `SpanArrays` as drawn at one "now" (open spans end there)."""

    start: np.ndarray
    end: np.ndarray
    lane: np.ndarray
    index: np.ndarray  # `colour_index`
    calls: np.ndarray

    @classmethod
    def of(cls, arrays: SpanArrays, now: float) -> SpanColumns:
        n = arrays.count
        kind = arrays.kind[:n]
        return cls(arrays.start[:n].copy(), arrays.ends(now), arrays.lane[:n].copy(),
                   colour_index(kind, arrays.group[:n]), kind >= 2)

    def pixels(self, frame: Frame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(rows in the frame, their first pixel, one past their last) — the rows `GanttItem` draws."""
        rows = np.flatnonzero((self.end >= frame.t_lo) & (self.start <= frame.t_hi))
        px0, px1 = pixel_ranges(self.start[rows], self.end[rows], frame.sx, frame.ox, frame.width)
        return rows, px0, px1

    def strips(self, frame: Frame, lanes: int) -> np.ndarray:
        rows, px0, px1 = self.pixels(frame)
        return coverage_strips(px0, px1, self.lane[rows], self.index[rows], self.calls[rows], lanes, frame.width)


def _frame_key(frame: Frame) -> tuple[float, float, float, float, int]:
    return frame.t_lo, frame.t_hi, frame.sx, frame.ox, frame.width


class WholeRun:
    """A run's arrays as shown whole (a stored run, or a live run's state when playback left it), with
    their coverage strips kept for the last few frames drawn."""

    def __init__(self, arrays: SpanArrays, now: float) -> None:
        self.arrays, self.now, self.generation = arrays, now, arrays.generation
        self.columns = SpanColumns.of(arrays, now)
        self.lanes = len(arrays.lane_ids)
        self._strips: dict[tuple[float, float, float, float, int], np.ndarray] = {}
        self._lock = threading.Lock()  # the GUI thread and the timeline's worker both draw

    def current(self, arrays: SpanArrays, now: float) -> bool:
        """Whether these are still `arrays` at `now`, unchanged since."""
        return arrays is self.arrays and now == self.now and arrays.generation == self.generation

    def whole_strips(self, frame: Frame) -> np.ndarray:
        """All lanes' strips of the whole run in `frame` (computed once per frame)."""
        key = _frame_key(frame)
        with self._lock:
            found = self._strips.get(key)
        if found is None:
            found = self.columns.strips(frame, self.lanes)
            with self._lock:
                if len(self._strips) >= KEPT_FRAMES:
                    self._strips.pop(next(iter(self._strips)))
                self._strips[key] = found
        return found

    def strips(self, frame: Frame, arrays: SpanArrays, now: float) -> np.ndarray | None:
        if not self.current(arrays, now) or frame.lanes != self.lanes:
            return None
        return self.whole_strips(frame)


class MomentCut:
    """The strips of `moment` (the run at an earlier event) in any frame, cut from `whole`'s."""

    def __init__(self, whole: WholeRun, moment: SpanArrays, now: float, dirty_lanes: np.ndarray, t_cut: float) -> None:
        self.whole, self.moment, self.now, self.generation = whole, moment, now, moment.generation
        self.columns = SpanColumns.of(moment, now)
        self.dirty_lanes = dirty_lanes  # sorted lane numbers recomputed in full
        self.t_cut = t_cut  # every span the moment does not hold starts at or after this (inf: none)

    @classmethod
    def of(cls, whole: WholeRun, moment: SpanArrays, now: float) -> MomentCut | None:
        w, k, lanes = whole.arrays, moment.count, len(moment.lane_ids)
        if k > w.count or lanes > whole.lanes or moment.lane_ids != w.lane_ids[:lanes] \
                or moment.span_ids != w.span_ids[:k]:
            return None
        cut = cls(whole, moment, now, np.empty(0, np.int64), np.inf)
        mine, theirs = cut.columns, whole.columns
        differs = ~(_same(mine.start, theirs.start[:k]) & _same(mine.end, theirs.end[:k])
                    & (mine.lane == theirs.lane[:k]) & (mine.index == theirs.index[:k]))
        dirty = np.union1d(mine.lane[differs], theirs.lane[:k][differs]).astype(np.int64)
        cut.dirty_lanes = dirty[dirty < lanes]
        later = theirs.start[k:]
        later = later[~np.isnan(later)]
        cut.t_cut = float(later.min()) if len(later) else np.inf
        return cut

    def strips(self, frame: Frame, arrays: SpanArrays, now: float) -> np.ndarray | None:
        """The moment's strips in `frame` (None: these are not the arrays shown at `now` any more)."""
        if arrays is not self.moment or now != self.now or arrays.generation != self.generation \
                or frame.lanes != len(arrays.lane_ids) or not self.whole.current(self.whole.arrays, self.whole.now):
            return None
        width, lanes = frame.width, frame.lanes
        out = self.whole.whole_strips(frame)[: 2 * lanes].copy()
        rows, px0, px1 = self.columns.pixels(frame)
        lane, index, calls = self.columns.lane[rows], self.columns.index[rows], self.columns.calls[rows]
        first = width if np.isinf(self.t_cut) else int(np.clip(np.floor(self.t_cut * frame.sx + frame.ox), 0, width - 1))
        if first < width:  # the columns where spans not made yet would be: the moment's spans alone reach them
            on = px1 > first
            out[:, first:] = 0
            last = int(px1[on].max()) if on.any() else first  # right of the moment's last pixel: nothing
            if last > first:
                out[:, first:last] = coverage_strips(np.maximum(px0[on] - first, 0), px1[on] - first, lane[on],
                                                     index[on], calls[on], lanes, last - first)
        dirty = self.dirty_lanes
        if len(dirty):
            on = np.isin(lane, dirty)
            sub = coverage_strips(px0[on], px1[on], np.searchsorted(dirty, lane[on]), index[on], calls[on],
                                  len(dirty), width)
            out[(2 * dirty[:, None] + np.arange(2)).ravel()] = sub
        return out


def _same(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a == b) | (np.isnan(a) & np.isnan(b))
