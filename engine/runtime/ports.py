"""What a `Run` is given to record to and to call: typed Protocols, so a run never probes with `getattr`.

- `RunStore`: where a run is recorded (the trace store): its workflow version, a writer for its
  events, and the memory reads of `StoreMemoryBackend` (the `MemoryStore` protocol).
- `EventRecorder`: the writer a `RunStore` hands out (`TraceWriter`): takes the run's events in
  batches, in order, runs a job (saving the workflow version) ahead of them on its thread, commits
  on demand (`flush`, blocking, bounded), and lists what it could not store in `errors` once closed
  (`close`, bounded: a store locked by another process does not hold the run's end).
Tools are an `engine.tools.ToolRegistry` (the run adds its MCP servers in a `RunTools` around it) and
memory an `engine.memory.MemoryBackend`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.events import Event
from engine.memory.store_backend import MemoryStore


class EventRecorder(Protocol):
    @property
    def errors(self) -> list[str]: ...

    def append_many(self, events: Sequence[Event]) -> None: ...

    def call_in_order(self, job: Callable[[], object], what: str) -> None: ...

    def flush(self, timeout: float | None = ...) -> bool: ...  # everything so far committed (blocking)

    def close(self, timeout: float | None = ..., *, waited_s: float = ...) -> None: ...  # unstored: in `errors`


class RunStore(MemoryStore, Protocol):
    def writer(self) -> EventRecorder: ...

    def save_workflow(self, doc: dict[str, Any], *, workflow_hash: str | None = None) -> str: ...
