"""`ProjectionCheckpoints`: copies of a run's projection every few thousand events, so playback can show
the run at any earlier event without folding it from the start.

`extend(events)` (run it off the GUI thread: it folds) folds the events not seen yet into its own
projection and keeps a copy (`clone_projection`) each `every` events (without their list of events: the run's own list has them); `at(events, seq)` is a fresh
projection of the run as it was after event `seq`: the copy of the nearest checkpoint at or before
it, folded on to `seq` — equal to `project(events, until_seq=seq)`, at the cost of at most `every`
events folded and one copy. A live run is extended as it grows.

Memory stays bounded: at most `max_checkpoints` are kept; past that every other one is dropped and
`every` doubles (the work to reach any seq grows, the memory does not).

Invariants: `events` are in seq order and only ever grow (a live run appends); the kept copies are
never folded (`at` folds a copy of a copy); `extend` and `at` may run in different threads only when
`extend` is not running (the caller serialises them). Qt-free.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Sequence

from engine import events as ev
from engine.gc_pause import gc_paused
from engine.projection.clone import OpenRows, clone_projection, open_rows
from engine.projection.run_projection import RunProjection

EVERY = 2_500  # events between checkpoints (a 100,000-event run: 40 kept, ≤ 2,500 events folded to reach a seq)
MAX_CHECKPOINTS = 48  # they share finished rows and not the event list: ~0.5 MB each (tests/perf/bench_playback)


class ProjectionCheckpoints:
    def __init__(self, *, every: int = EVERY, max_checkpoints: int = MAX_CHECKPOINTS) -> None:
        self.every = max(1, every)
        self.max_checkpoints = max(2, max_checkpoints)
        self.seqs: list[int] = [0]  # the seq each checkpoint stands at (0: before any event)
        self.copies: list[RunProjection] = [RunProjection()]
        self.open: list[OpenRows] = [OpenRows((), ())]  # each copy's rows a copy of it must copy (`open_rows`)
        self.folded = 0  # how many events the builder has folded
        self.build_s = 0.0  # time spent in `extend`, in total
        self._builder = RunProjection()

    def extend(self, events: Sequence[ev.Event]) -> int:
        """Fold `events[self.folded:]`, keeping a checkpoint each `every` events; returns how many are kept."""
        t0 = time.perf_counter()
        with gc_paused():
            self._fold(events)
        self.build_s += time.perf_counter() - t0
        return len(self.copies)

    def _fold(self, events: Sequence[ev.Event]) -> None:
        builder = self._builder
        while self.folded < len(events):
            since = self.folded - (self.folded // self.every) * self.every
            stop = min(len(events), self.folded + self.every - since)
            builder.apply_many(events[self.folded:stop])
            builder.take_changes()
            self.folded = stop
            if stop % self.every == 0:
                kept = clone_projection(builder)
                kept.events = []  # a prefix of the run's own list: given back by `at`
                self._keep(kept)

    def _keep(self, copy: RunProjection) -> None:
        self.seqs.append(copy.last_seq)
        self.copies.append(copy)
        self.open.append(open_rows(copy))
        if len(self.copies) > self.max_checkpoints:
            self.every *= 2
            keep = [i for i, seq in enumerate(self.seqs) if seq == 0 or i % 2 == 0]
            self.seqs = [self.seqs[i] for i in keep]
            self.copies = [self.copies[i] for i in keep]
            self.open = [self.open[i] for i in keep]

    def at(self, events: Sequence[ev.Event], seq: int) -> RunProjection:
        """The run as it was after event `seq` (a new projection the caller may fold on)."""
        i = bisect_right(self.seqs, seq) - 1
        base = self.copies[i]
        with gc_paused():  # thousands of rows copied: no collector pass over what the process holds meanwhile
            p = clone_projection(base, self.open[i])
            start = position_after(events, base.last_seq)
            if p._keep_events:
                p.events = events[:start] if isinstance(events, list) else list(events[:start])
            p.apply_many(events[start:position_after(events, seq)])
        p.take_changes()
        return p

    def fold_count(self, events: Sequence[ev.Event], seq: int) -> int:
        """How many events `at(events, seq)` folds after copying its checkpoint (its cost, with the copy)."""
        base = self.seqs[bisect_right(self.seqs, seq) - 1]
        return position_after(events, seq) - position_after(events, base)

    def covers(self, events: Sequence[ev.Event]) -> bool:
        """Whether every one of `events` is folded in (`at` needs no `extend` first)."""
        return self.folded >= len(events)

    def __len__(self) -> int:
        return len(self.copies)


def position_after(events: Sequence[ev.Event], seq: int) -> int:
    """How many of `events` (in seq order) have a seq ≤ `seq`."""
    return bisect_right(events, seq, key=_seq_of)


def _seq_of(event: ev.Event) -> int:
    return event.seq
