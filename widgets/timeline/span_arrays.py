"""`SpanArrays`: a run's spans as numpy columns, one row per span, fed from a `RunProjection`'s changes.

The timeline draws 100,000 spans per frame from these columns, never from the projection's rows.
Rows are appended in chunks (capacity grows by doubling) and only ever updated in place: a span's
row index never changes, so a drawn picture can be refreshed by index. Lanes: lane 0 is the run,
then one lane per node in the order the projection first names it (the plan's order); a sub-graph's
inner node ("sub/inner") is labelled "Sub › Inner" from the titles. `end` is NaN while a span is
open (drawn up to "now"). Beside the spans it keeps two small interval lists: time a node waited for
a person (from `waiting` states), and the run's holds (pause / breakpoint); and retry marks (one per
`LLMCallRetrying`, and one per node execution after its first attempt).

Each row keeps the seq of the last event that changed its span (`touched`), and the columns the positions
of the events that opened or closed a wait, held the run or marked a retry (`scanned`: a node state that
changed no wait is left out), so the run at an earlier moment can be
cut from them (`rewind_cut`).

Invariant: `count` rows are valid; `generation` grows with every change, so a cached picture knows
when it is stale. Qt-free.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from engine import events as ev
from engine.projection import RunProjection, SpanRow

KIND_CODES = {"run": 0, "node": 1, "llm": 2, "tool": 3}
# status → colour group: 0 running, 1 done/ok, 2 failed/error, 3 waiting, 4 cancelled/skipped/interrupted
STATUS_GROUPS = {"running": 0, "queued": 0, "done": 1, "ok": 1, "succeeded": 1, "failed": 2, "error": 2,
                 "budget_exceeded": 2, "waiting": 3, "cancelled": 4, "skipped": 4, "interrupted": 4}
GROUP_NAMES = ("running", "done", "failed", "waiting", "cancelled")
RUN_LANE = 0
COLUMNS = ("start", "end", "lane", "kind", "group", "slot", "touched")
MAX_SLOTS = 8  # sub-rows for calls running at once in one lane


def status_group(status: str) -> int:
    return STATUS_GROUPS.get(status, 1)


class SpanArrays:
    def __init__(self, capacity: int = 1024) -> None:
        self.count = 0
        self.generation = 0
        self.start = np.zeros(capacity, dtype=np.float64)
        self.end = np.full(capacity, np.nan, dtype=np.float64)
        self.lane = np.zeros(capacity, dtype=np.int32)
        self.kind = np.zeros(capacity, dtype=np.int8)
        self.group = np.zeros(capacity, dtype=np.int8)
        self.slot = np.zeros(capacity, dtype=np.int8)  # a call's sub-row among the calls of its lane at once
        self.touched = np.zeros(capacity, dtype=np.int64)  # seq of the last event that changed the span
        self.built_whole = False  # made by `of` and unchanged since: its sub-rows placed with every end known
        self.lane_slots: list[int] = [1]  # sub-rows each lane's calls need
        self._slot_rows: dict[int, list[int]] = {}  # lane → the last call row in each sub-row
        self.span_ids: list[str] = []
        self.names: list[str] = []  # what a bar says when it is wide enough
        self.row_of: dict[str, int] = {}
        self.lane_ids: list[str] = [""]  # lane → node id ("" for the run lane)
        self.lane_labels: list[str] = ["Run"]
        self.lane_of: dict[str, int] = {}
        self.waits: list[list[float]] = []  # [lane, start, end (nan while waiting)]
        self.holds: list[list[float]] = []  # [start, end (nan while held)] of the whole run
        self.marks: list[tuple[int, float, str]] = []  # (lane, ts, what): retries, re-attempts
        self._open_waits: dict[str, int] = {}  # node span id → index in waits
        self._events_seen = 0
        self.scanned: list[int] = []  # positions of the events read for waits, holds and retries
        self._attempts: dict[str, int] = {}

    # -- lanes ------------------------------------------------------------------------------------
    @classmethod
    def of(cls, projection: RunProjection) -> SpanArrays:
        """Every span and event of `projection` as it is now."""
        arrays = cls()
        arrays.sync_lanes(projection)
        arrays.add(projection, list(projection.span_table.spans))
        arrays.scan_events(projection)
        arrays.built_whole = True
        return arrays

    def fits(self, projection: RunProjection) -> bool:
        """Whether these columns still show all of `projection` (nothing was folded in since they were built)."""
        return self._events_seen == len(projection.events) and self.count == len(projection.span_table.spans)

    def sync_lanes(self, projection: RunProjection) -> bool:
        """Add a lane for each node the projection knows and the arrays do not; True when any was added."""
        if len(self.lane_of) >= len(projection.nodes) and all(n in self.lane_of for n in projection.nodes):
            return False
        added = False
        for node_id, row in projection.nodes.items():
            if node_id not in self.lane_of:
                self.lane_of[node_id] = len(self.lane_ids)
                self.lane_ids.append(node_id)
                self.lane_labels.append(self._label(projection, node_id, row.title))
                self.lane_slots.append(1)
                added = True
        if added:
            self.generation += 1
        return added

    @staticmethod
    def _label(projection: RunProjection, node_id: str, title: str) -> str:
        if "/" not in node_id:
            return title or node_id
        parts = node_id.split("/")
        names = []
        for i in range(1, len(parts)):
            outer = projection.nodes.get("/".join(parts[:i]))
            names.append(outer.title if outer is not None and outer.title else parts[i - 1])
        return " › ".join([*names, title or parts[-1]])

    def lane_for(self, projection: RunProjection, span: SpanRow) -> int:
        if span.kind == "run":
            return RUN_LANE
        node_id = span.node_id or ""
        lane = self.lane_of.get(node_id)
        if lane is None:
            self.sync_lanes(projection)
            lane = self.lane_of.get(node_id)
        if lane is None:  # a span of a node the projection has no row for: a lane of its own
            lane = self.lane_of[node_id] = len(self.lane_ids)
            self.lane_ids.append(node_id)
            self.lane_labels.append(node_id or "?")
            self.lane_slots.append(1)
        return lane

    # -- spans ------------------------------------------------------------------------------------
    def _grow(self, needed: int) -> None:
        capacity = len(self.start)
        if needed <= capacity:
            return
        while capacity < needed:
            capacity *= 2
        for name in COLUMNS:
            old = getattr(self, name)
            new = np.full(capacity, np.nan, dtype=old.dtype) if name == "end" else np.zeros(capacity, old.dtype)
            new[: self.count] = old[: self.count]
            setattr(self, name, new)

    def add(self, projection: RunProjection, span_ids: Iterable[str]) -> None:
        spans = projection.span_table.spans
        fresh = [spans[s] for s in span_ids if s in spans and s not in self.row_of]
        if not fresh:
            return
        self.built_whole = False
        self.sync_lanes(projection)
        self._grow(self.count + len(fresh))
        for span in fresh:
            i = self.count
            self.row_of[span.span_id] = i
            self.span_ids.append(span.span_id)
            self.names.append("")
            self.lane[i] = self.lane_for(projection, span)
            self.kind[i] = KIND_CODES.get(span.kind, 1)
            self._fill(i, span)
            if self.kind[i] >= 2:
                self._place(i)
            self.count += 1
        self.generation += 1

    def _place(self, i: int) -> None:
        """Give call `i` the first sub-row of its lane whose last call had ended when it started."""
        lane = int(self.lane[i])
        rows = self._slot_rows.setdefault(lane, [])
        start = self.start[i]
        for slot, last in enumerate(rows):
            end = self.end[last]
            if not np.isnan(end) and end <= start:
                rows[slot] = i
                self.slot[i] = slot
                return
        if len(rows) < MAX_SLOTS:
            rows.append(i)
            self.slot[i] = len(rows) - 1
            while len(self.lane_slots) <= lane:
                self.lane_slots.append(1)
            self.lane_slots[lane] = max(self.lane_slots[lane], len(rows))
        else:  # more calls at once than sub-rows: share the one that frees first
            self.slot[i] = int(np.argmin([self.end[r] if not np.isnan(self.end[r]) else np.inf for r in rows]))

    def refresh(self, projection: RunProjection, span_ids: Iterable[str]) -> None:
        spans = projection.span_table.spans
        self.built_whole = False
        for span_id in span_ids:
            i = self.row_of.get(span_id)
            span = spans.get(span_id)
            if i is not None and span is not None:
                self._fill(i, span)
        self.generation += 1

    def _fill(self, i: int, span: SpanRow) -> None:
        start = span.start_ts if span.start_ts is not None else span.end_ts
        self.start[i] = start if start is not None else np.nan
        self.end[i] = span.end_ts if span.end_ts is not None else np.nan
        self.group[i] = status_group(span.status)
        self.touched[i] = span.seq
        self.names[i] = self._name(span)
        self.note_attempt(i, span)

    def note_attempt(self, i: int, span: SpanRow) -> None:
        """Mark node execution `i` re-attempted (once per attempt number it is seen at)."""
        if span.kind == "node":
            attempt = int(span.attrs.get("attempt", 1) or 1)
            if attempt > self._attempts.get(span.span_id, 1) and span.start_ts is not None:
                self._attempts[span.span_id] = attempt
                self.marks.append((int(self.lane[i]), span.start_ts, f"attempt {attempt}"))

    def _name(self, span: SpanRow) -> str:
        if span.kind == "node":
            attempt, rnd = int(span.attrs.get("attempt", 1) or 1), int(span.attrs.get("round", 0) or 0)
            extra = "".join((f" · attempt {attempt}" if attempt > 1 else "", f" · round {rnd}" if rnd else ""))
            return f"{span.status}{extra}"
        return span.name

    # -- waits, holds and retries, read from the raw events ---------------------------------------
    def scan_events(self, projection: RunProjection) -> None:
        seen, events = self._events_seen, projection.events
        self.scan_listed(projection, enumerate(events[seen:], seen), len(events))

    def scan_listed(self, projection: RunProjection, numbered: Iterable[tuple[int, ev.Event]], seen: int) -> None:
        """Read `numbered` (position, event) of `projection.events`, every event that matters before `seen`."""
        for i, e in numbered:
            kind = type(e)
            if kind is ev.NodeStateChanged:
                if not self._node_state(e):  # type: ignore[arg-type]
                    continue  # opened or closed no wait: at any earlier moment it would not either
            elif kind is ev.RunPaused:
                if not self.holds or not math.isnan(self.holds[-1][1]):
                    self.holds.append([e.ts, math.nan])
            elif kind is ev.RunResumed or kind is ev.RunFinished:
                if self.holds and math.isnan(self.holds[-1][1]):
                    self.holds[-1][1] = e.ts
                if kind is ev.RunFinished:
                    for wait in self.waits:
                        if math.isnan(wait[2]):
                            wait[2] = e.ts
            elif kind is ev.LLMCallRetrying:
                node = projection.calls.get(e.span_id or "")
                lane = self.lane_of.get(node.node_id, RUN_LANE) if node is not None else RUN_LANE
                self.marks.append((lane, e.ts, f"retry {e.attempt}: {e.error_type}"))  # type: ignore[attr-defined]
            else:
                continue
            self.scanned.append(i)
        if seen > self._events_seen:
            self._events_seen = seen
            self.generation += 1

    def _node_state(self, e: ev.NodeStateChanged) -> bool:
        """Open or close the wait of `e`'s span; whether it did (the open waits before `e` decide, so an event
        that does nothing in the whole run does nothing at any earlier moment of it either)."""
        if e.span_id is None:
            return False
        index = self._open_waits.get(e.span_id)
        if e.state == "waiting" and index is None:
            self._open_waits[e.span_id] = len(self.waits)
            self.waits.append([float(self.lane_of.get(e.node_id, RUN_LANE)), e.ts, math.nan])
            return True
        if e.state != "waiting" and index is not None:
            self.waits[index][2] = e.ts
            del self._open_waits[e.span_id]
            return True
        return False

    # -- reading ----------------------------------------------------------------------------------
    def ends(self, now: float) -> np.ndarray:
        """The spans' ends, an open span's being `now` (never before its start)."""
        n = self.count
        end = self.end[:n]
        return np.where(np.isnan(end), np.maximum(now, self.start[:n]), end)

    def extent(self, now: float) -> tuple[float, float]:
        n = self.count
        if n == 0:
            return 0.0, max(now, 1.0)
        start = self.start[:n]
        lo = float(np.nanmin(start)) if not np.all(np.isnan(start)) else 0.0
        return min(lo, 0.0), max(float(np.nanmax(self.ends(now))), now, lo + 1e-3)
