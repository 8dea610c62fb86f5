"""The Timeline's span columns of a run at an earlier moment, cut from the whole run's instead of built again.

Playback shows the run at an earlier event (`project(events, seq)`, made from a checkpoint). Its
`SpanArrays` differ from the whole run's (made by `SpanArrays.of`) only
- in the spans begun by then: a prefix of the whole run's rows (spans are kept in the order first seen);
- in the rows of spans an event after seq changed (their `touched` seq is later): still open then, with
  the status, attempt, name (and lane) they had at seq — these few are filled from the moment's rows;
- in the call sub-rows (`slot`) of the lanes holding such a call: placed again, in row order;
- in the lanes known by seq, the re-attempt marks, the waits, holds and retry marks (read again from
  the moment's events the whole run's build found mattering: a wait opened or closed, a hold, a retry).
`arrays_at` copies the rest, so a move back needs no worker for the Timeline. Columns fed a live run's
changes (not made by `of`) placed each call while it was open: there every lane's calls are placed again
(a loop over the moment's calls, a few ms more), as are a lane's whose calls shared sub-rows. It answers
None where a cut could differ from a fresh build (not a prefix of the whole run's spans or lanes, a span of
a node not named yet): the caller then builds as before.

Invariant: `arrays_at(whole, p)` equals `SpanArrays.of(p)` in every column, list and mark (tests hold them
equal on the examples and a synthetic run with parallel calls and retries). Qt-free.
"""

from __future__ import annotations

from bisect import bisect_left

import numpy as np

from engine.projection import RunProjection
from widgets.timeline.span_arrays import COLUMNS, KIND_CODES, MAX_SLOTS, SpanArrays


def arrays_at(whole: SpanArrays, projection: RunProjection) -> SpanArrays | None:
    """`projection`'s columns (the run of `whole` at an earlier moment) cut from `whole`; None: cannot be cut."""
    spans = projection.span_table.spans
    k = len(spans)
    if k > whole.count or (k and whole.span_ids[k - 1] != next(reversed(spans))):
        return None
    moment = SpanArrays(capacity=max(k, 1))
    moment.sync_lanes(projection)
    known = len(moment.lane_ids)
    if moment.lane_ids != whole.lane_ids[:known]:
        return None
    for name in COLUMNS:
        getattr(moment, name)[:k] = getattr(whole, name)[:k]
    moment.count = k
    moment.span_ids, moment.names = whole.span_ids[:k], whole.names[:k]
    moment.row_of = dict(zip(moment.span_ids, range(k), strict=True))
    changed = np.flatnonzero(moment.touched[:k] > projection.last_seq)
    kept = np.ones(k, dtype=bool)
    kept[changed] = False
    if k and int(moment.lane[:k][kept].max(initial=0)) >= known:
        return None  # a span of a node the projection did not name yet: a fresh build gives it a lane of its own
    moved = set(moment.lane[changed].tolist())
    moved |= {lane for lane, slots in enumerate(whole.lane_slots) if slots >= MAX_SLOTS}  # calls shared sub-rows
    _refill(moment, whole, projection, changed)
    calls = np.flatnonzero(moment.kind[:k] >= 2)
    moved |= set(moment.lane[np.intersect1d(changed, calls)].tolist())
    if not whole.built_whole:  # fed as the run went: its calls were placed before their ends were known
        moved = set(range(len(moment.lane_ids)))
    _place_again(moment, calls, np.array(sorted(moved), dtype=np.int32))
    seen = len(projection.events)
    listed = whole.scanned[:bisect_left(whole.scanned, seen)]
    moment.scan_listed(projection, zip(listed, map(projection.events.__getitem__, listed), strict=True), seen)
    moment.built_whole = True
    return moment


def _refill(moment: SpanArrays, whole: SpanArrays, projection: RunProjection, changed: np.ndarray) -> None:
    """The rows an event after the moment changed, from the moment's spans; the re-attempt marks in row order."""
    spans = projection.span_table.spans
    changed_rows = set(changed.tolist())
    retried = {moment.row_of[s] for s in whole._attempts if s in moment.row_of}
    for i in sorted(changed_rows | retried):
        span = spans[moment.span_ids[i]]
        if i in changed_rows:
            moment.lane[i] = moment.lane_for(projection, span)
            moment.kind[i] = KIND_CODES.get(span.kind, 1)
            moment._fill(i, span)
        else:
            moment.note_attempt(i, span)


def _place_again(moment: SpanArrays, calls: np.ndarray, lanes: np.ndarray) -> None:
    """Calls of `lanes` given their sub-rows again in row order; the other lanes' kept, their last call per
    sub-row noted (the next call added is placed after them)."""
    again = np.isin(moment.lane[calls], lanes)
    kept = calls[~again]
    keys = moment.lane[kept].astype(np.int64) * MAX_SLOTS + moment.slot[kept]
    found, last = np.unique(keys[::-1], return_index=True)  # sorted by lane, then sub-row: each one's last call
    for key, row in zip(found.tolist(), kept[::-1][last].tolist(), strict=True):
        lane = key // MAX_SLOTS
        rows = moment._slot_rows.setdefault(lane, [])
        rows.append(row)
        moment.lane_slots[lane] = max(moment.lane_slots[lane], len(rows))
    for i in calls[again].tolist():
        moment._place(i)
