"""The live trace writer: a background thread that drains a queue of events into the store in batches.

Invariants:
- `append` / `append_many` never block on the database and never raise into the run (after `close`,
  or on any failure, the problem is recorded in `errors` instead);
- a batch is written when `batch_size` events are waiting or `flush_interval_s` (≤ 0.1 s) after its
  first event arrived, whichever comes first — so a stored event is at most ~0.1 s + one write behind;
  `append_many` hands a whole list over in one queue operation (one thread wake-up, not one per event),
  and such a list (the run hub's batch, already up to 50 ms old, even of one event) is already a batch:
  it is written as soon as the queue holds nothing more, so a run's event is stored ~50 ms + one write
  after it happened;
- `flush()` returns once every event appended before the call is committed (or the writer died);
- `close()` flushes and stops the thread; it is idempotent and also runs at interpreter exit; with a
  timeout it gives up waiting (a database locked by another process) and reports what was not stored;
  a run that lost events is marked incomplete in the store where the store still takes a write;
- write errors never lose what is already stored (see `engine.store.batch`);
- `call_in_order(job)` runs a job (e.g. saving the run's workflow version) on this thread in queue
  order: after the events appended before it, before those appended after it.
"""

from __future__ import annotations

import atexit
import queue
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from types import TracebackType

from sqlalchemy import Engine

from engine.events import Event
from engine.store.batch import BatchWriter, Chunk
from engine.store.incomplete import mark_incomplete

MAX_FLUSH_INTERVAL_S = 0.1
_STOP = object()
_OPEN_WRITERS: weakref.WeakSet[TraceWriter] = weakref.WeakSet()


def writers_open_in_process() -> bool:
    """Whether this process has a trace writer that is not closed (its runs are live, not orphaned)."""
    return any(not w.closed for w in list(_OPEN_WRITERS))


class TraceWriter:
    def __init__(self, engine: Engine, *, flush_interval_s: float = 0.05, batch_size: int = 1000) -> None:
        if not 0 < flush_interval_s <= MAX_FLUSH_INTERVAL_S:
            raise ValueError(f"flush_interval_s must be in (0, {MAX_FLUSH_INTERVAL_S}], got {flush_interval_s}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self._flush_interval = flush_interval_s
        self._batch_size = batch_size
        self._engine = engine
        self._batch = BatchWriter(engine)
        self._queue: queue.SimpleQueue[Chunk | threading.Event | _Call | object] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._errors: list[str] = []
        self._stored = 0
        self._failed = 0  # events reported not stored
        self._appended = 0
        self._run_ids: set[str] = set()
        self._closed = False
        self._thread = threading.Thread(target=self._drain, name="triadic-trace-writer", daemon=True)
        self._thread.start()
        _OPEN_WRITERS.add(self)
        atexit.register(self.close)

    @property
    def errors(self) -> list[str]:
        """Every problem met so far (events not stored, appends after close), oldest first."""
        with self._lock:
            return list(self._errors)

    @property
    def events_stored(self) -> int:
        with self._lock:
            return self._stored

    @property
    def closed(self) -> bool:
        return self._closed

    def append(self, event: Event) -> None:
        self.append_many((event,))

    def append_many(self, events: Sequence[Event]) -> None:
        """Queue `events` (in order) for storage; the sequence must not change afterwards."""
        try:
            if self._closed or not self._thread.is_alive():
                self._report([f"run {event.run_id} event seq {event.seq} ({event.kind}): not stored: "
                              "the trace writer is closed" for event in events])
                return
            if events:
                self._appended += len(events)
                self._run_ids.add(events[0].run_id)
                self._queue.put((events, time.time()))
        except Exception as exc:  # never raise into the run
            self._report([f"append failed: {type(exc).__name__}: {exc}"])

    def call_in_order(self, job: Callable[[], object], what: str) -> None:
        """Run `job` on the writer thread after every event appended before it (and before any
        appended after it). Its failure is recorded in `errors` as "`what`: <the error>"."""
        if self._closed or not self._thread.is_alive():
            self._report([f"{what}: the trace writer is closed"])
            return
        self._queue.put(_Call(job, what))

    def flush(self, timeout: float | None = 30.0) -> bool:
        """Wait until everything appended so far is committed; False on timeout or dead writer."""
        if not self._thread.is_alive():
            return False
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def close(self, timeout: float | None = None, *, waited_s: float = 0.0) -> None:
        """Flush and stop; with `timeout`, give up waiting after that many seconds (the database locked
        by another process, a stuck disk): what is still unwritten is then reported in `errors`
        (`waited_s`: how long the caller already waited for the writer, counted in that report)."""
        if self._closed:
            return
        self._closed = True
        atexit.unregister(self.close)
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join(timeout)
            if self._thread.is_alive():
                with self._lock:
                    accounted = self._stored + self._failed
                self._report([f"{self._appended - accounted} events not stored: the trace database did not "
                              f"take them within {waited_s + (timeout or 0.0):.1f} s (locked by another process, or a stuck disk); "
                              "gave up"])
                return
        if self._errors:
            mark_incomplete(self._engine, self._run_ids, self._errors)

    def __enter__(self) -> TraceWriter:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _report(self, errors: list[str], stored: int = 0, failed: int = 0) -> None:
        with self._lock:
            self._errors.extend(errors)
            self._stored += stored
            self._failed += failed

    def _drain(self) -> None:
        stopping = False
        while not stopping:
            chunks: list[Chunk] = []
            count = 0
            waiters: list[threading.Event] = []
            first = self._queue.get()
            deadline = time.monotonic() + self._flush_interval
            entry: Chunk | threading.Event | _Call | object = first
            call: _Call | None = None
            while True:
                if entry is _STOP:
                    stopping = True
                elif isinstance(entry, _Call):
                    call = entry  # the events before it are written first, then it runs
                    break
                elif isinstance(entry, threading.Event):
                    waiters.append(entry)
                elif isinstance(entry, tuple):
                    chunks.append(entry)
                    count += len(entry[0])
                    if len(entry[0]) > 1 or isinstance(entry[0], list):  # already a batch (the hub's): write now
                        deadline = 0.0
                if stopping or waiters or count >= self._batch_size:
                    break
                remaining = deadline - time.monotonic()
                try:
                    entry = self._queue.get(timeout=remaining) if remaining > 0 else self._queue.get_nowait()
                except queue.Empty:
                    break
            if stopping:  # appends that raced with close() still land
                chunks.extend(self._leftovers(waiters))
            self._write(chunks)
            if call is not None:
                call.run(self._report)
            for waiter in waiters:
                waiter.set()

    def _leftovers(self, waiters: list[threading.Event]) -> list[Chunk]:
        chunks: list[Chunk] = []
        while True:
            try:
                entry = self._queue.get_nowait()
            except queue.Empty:
                return chunks
            if isinstance(entry, tuple):
                chunks.append(entry)
            elif isinstance(entry, threading.Event):
                waiters.append(entry)
            elif isinstance(entry, _Call):  # in order: the events before it are written first
                self._write(chunks)
                chunks = []
                entry.run(self._report)

    def _write(self, chunks: list[Chunk]) -> None:
        if not chunks:
            return
        count = sum(len(events) for events, _ in chunks)
        try:
            stored, errors = self._batch.write(chunks)
        except Exception as exc:  # defensive: BatchWriter.write does not raise
            stored, errors = 0, [f"batch of {count} events not stored: {type(exc).__name__}: {exc}"]
        self._report(errors, stored, count - stored)


class _Call:
    def __init__(self, job: Callable[[], object], what: str) -> None:
        self.job, self.what = job, what

    def run(self, report: Callable[[list[str]], None]) -> None:
        try:
            self.job()
        except Exception as exc:  # recorded like a write error, never raised into the thread
            cause = getattr(exc, "orig", None) or exc  # the driver's message, not SQLAlchemy's SQL and link
            report([f"{self.what}: {type(exc).__name__}: {cause}"])

