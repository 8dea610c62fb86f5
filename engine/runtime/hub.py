"""The one event emitter of a run and its subscriptions.

Invariants: `emit` is the only place events of a run are made, so `seq` increases by one per event
and `ts` is monotonic seconds since the run started. Every event is kept in `history`; each
`subscribe()` is an independent cursor over it, so a late subscriber sees the whole stream from the
first event and a slow one never blocks the run (its backlog is the shared history, nothing is
dropped). Sinks get every event in order, handed over in batches at most `SINK_INTERVAL_S` late:
waking a writer thread per event costs a GIL hand-off per event, which on a busy machine dominates
the run. A batch sink (the trace writer's `append_many`) takes each batch in one call; a plain sink
is called once per event. A sink may not raise into the run.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from engine.events import Event, NodeStateChanged

_monotonic = time.monotonic

E = TypeVar("E", bound=Event)
Sink = Callable[[Event], None]
BatchSink = Callable[[list[Event]], None]
SINK_INTERVAL_S = 0.05  # events reach sinks within this delay (or SINK_BATCH events)
SINK_BATCH = 2000


class EventHub:
    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self.history: list[Event] = []
        self.node_states: dict[str, str] = {}
        self._sink_buffer: list[Event] = []
        self._sink_timer: asyncio.TimerHandle | None = None
        self.sink_errors: list[str] = []
        self._sinks: list[Sink] = []
        self._batch_sinks: list[BatchSink] = []
        self._has_sinks = False
        self._seq = itertools.count(1)
        self._span = itertools.count(1)
        self._t0 = time.monotonic()
        self._wakeup: asyncio.Event | None = None
        self.closed = False

    def add_sink(self, sink: Sink) -> None:
        """`sink(event)` for every event, in order."""
        self._sinks.append(sink)
        self._has_sinks = True

    def add_batch_sink(self, sink: BatchSink) -> None:
        """`sink(events)` for every batch of events, in order (the list is the sink's to keep)."""
        self._batch_sinks.append(sink)
        self._has_sinks = True

    def elapsed(self) -> float:
        return time.monotonic() - self._t0

    def new_span(self, kind: str) -> str:
        return f"{self.run_id}:{kind}{next(self._span)}"

    def emit(self, cls: type[E], **fields: Any) -> E:
        fields["run_id"], fields["seq"], fields["ts"] = self.run_id, next(self._seq), _monotonic() - self._t0
        # the kwargs dict is this call's own: filled in place, not merged into a new one; the class's own
        # constructor is called directly (`cls(...)` would go through type.__call__ and object.__init__)
        event = cls.__new__(cls, **fields)
        self.history.append(event)
        if cls is NodeStateChanged:
            self.node_states[event.node_id] = event.state  # type: ignore[attr-defined]
        if self._has_sinks:
            buffer = self._sink_buffer
            buffer.append(event)
            if len(buffer) >= SINK_BATCH:
                self.flush_sinks()
            elif self._sink_timer is None:
                self._sink_timer = asyncio.get_running_loop().call_later(SINK_INTERVAL_S, self.flush_sinks)
        if self._wakeup is not None:
            self._wakeup.set()
            self._wakeup = None
        return event

    def flush_sinks(self) -> None:
        """Hand buffered events to the sinks (in emission order)."""
        if self._sink_timer is not None:
            self._sink_timer.cancel()
            self._sink_timer = None
        batch, self._sink_buffer = self._sink_buffer, []
        if not batch:
            return
        for batch_sink in self._batch_sinks:
            try:
                batch_sink(batch if len(self._batch_sinks) == 1 else list(batch))
            except Exception as exc:  # a broken sink must never stop the run
                self.sink_errors.append(f"{type(exc).__name__}: {exc}")
        for sink in self._sinks:
            for event in batch:
                try:
                    sink(event)
                except Exception as exc:  # a broken sink must never stop the run
                    self.sink_errors.append(f"{type(exc).__name__}: {exc}")

    def close(self) -> None:
        self.flush_sinks()
        self.closed = True
        if self._wakeup is not None:
            self._wakeup.set()
            self._wakeup = None

    async def subscribe(self) -> AsyncIterator[Event]:
        index = 0
        while True:
            while index < len(self.history):
                yield self.history[index]
                index += 1
            if self.closed:
                return
            if self._wakeup is None:
                self._wakeup = asyncio.Event()
            await self._wakeup.wait()
