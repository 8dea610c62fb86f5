"""`StoreMemoryBackend`: memory reads over the trace store, for runs that record to a store.

Memory writes reach the store only through `MemoryWritten` events (the store consumes the run's
event stream). So `write` here does NOT write to the store: it caches the value so reads in this
run see it at once, until the event lands and the store returns the same value. Use one adapter per
run. `history` is the store's history plus the cached writes the store does not show yet.

The store needs two methods (engine.store's `TraceStore` provides them):
`memory_value(memory, scope, scope_id, key) -> object | None` and
`memory_history(memory, scope, scope_id) -> list[MemoryEntry]`.
"""

from __future__ import annotations

import copy
import threading
from typing import Any, Protocol

from engine.memory.backend import MemoryEntry


class MemoryStore(Protocol):
    def memory_value(self, memory: str, scope: str, scope_id: str, key: str) -> object | None: ...

    def memory_history(self, memory: str, scope: str, scope_id: str) -> list[MemoryEntry]: ...


class StoreMemoryBackend:
    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self._cache: dict[tuple[str, str, str, str], Any] = {}
        self._pending: list[MemoryEntry] = []
        self._lock = threading.Lock()

    def read(self, memory: str, scope: str, scope_id: str, key: str) -> object | None:
        with self._lock:
            address = (memory, scope, scope_id, key)
            if address in self._cache:
                cached: object | None = copy.deepcopy(self._cache[address])
                return cached
        value: object | None = self.store.memory_value(memory, scope, scope_id, key)
        return value

    def write(self, memory: str, scope: str, scope_id: str, key: str, value: object, *,
              admitted: bool = True, reason: str = "", node_id: str = "") -> None:
        stored = copy.deepcopy(value)
        with self._lock:
            self._pending.append(MemoryEntry(memory, scope, scope_id, key, stored, admitted, reason, node_id))
            if admitted:
                self._cache[(memory, scope, scope_id, key)] = stored

    def history(self, memory: str, scope: str, scope_id: str) -> list[MemoryEntry]:
        stored = list(self.store.memory_history(memory, scope, scope_id))
        unmatched = list(stored)
        with self._lock:
            pending = [e for e in self._pending if (e.memory, e.scope, e.scope_id) == (memory, scope, scope_id)]
        extra = []
        for entry in pending:  # a cached write counts as landed once the store shows an equal entry
            match = next((s for s in unmatched if (s.key, s.value, s.admitted) ==
                          (entry.key, entry.value, entry.admitted)), None)
            if match is None:
                extra.append(entry)
            else:
                unmatched.remove(match)
        return stored + extra
