"""Memory scopes: the `MemoryBackend` protocol, its entries (`MemoryEntry`), and the in-memory backend.

A memory value is addressed by (memory name, scope, scope id, key). Scope ids: scope "run" → the
run id, "workflow" → the workflow id, "global" → "" (see `scope_id_for`). History lists every write
in order, admitted or not; only admitted writes change what `read` returns.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass
from typing import Any, Literal, Protocol

Scope = Literal["run", "workflow", "global"]
SCOPES: tuple[Scope, ...] = ("run", "workflow", "global")


@dataclass(frozen=True, slots=True)
class MemoryEntry:
    """One write to a memory, admitted or not — the one type for a backend's history and the trace
    store's (`TraceStore.memory_history` / `memory_writes`). A run's own backend knows no more than the
    write; the store's history also says which run wrote it, at which event (`seq`) and when (`ts`)."""

    memory: str
    scope: str
    scope_id: str
    key: str
    value: Any
    admitted: bool = True
    reason: str = ""
    node_id: str = ""
    run_id: str = ""  # "" when the history is not the store's
    seq: int = 0
    ts: float = 0.0


def scope_id_for(scope: str, *, run_id: str, workflow_id: str) -> str:
    if scope == "run":
        return run_id
    if scope == "workflow":
        return workflow_id
    if scope == "global":
        return ""
    raise ValueError(f"unknown memory scope {scope!r}; expected one of {', '.join(SCOPES)}")


class MemoryBackend(Protocol):
    def read(self, memory: str, scope: str, scope_id: str, key: str) -> object | None: ...

    def write(self, memory: str, scope: str, scope_id: str, key: str, value: object, *,
              admitted: bool = True, reason: str = "", node_id: str = "") -> None: ...

    def history(self, memory: str, scope: str, scope_id: str) -> list[MemoryEntry]: ...


def append_value(backend: MemoryBackend, memory: str, scope: str, scope_id: str, key: str,
                 value: object, *, node_id: str = "") -> list[Any]:
    """The Memory role's "append" mode: the current value as a list, with `value` added; written back."""
    current = backend.read(memory, scope, scope_id, key)
    items = [] if current is None else list(current) if isinstance(current, list) else [current]
    items.append(value)
    backend.write(memory, scope, scope_id, key, items, node_id=node_id)
    return items


class InMemoryBackend:
    """For tests and headless runs without a store. Thread-safe; values are deep-copied in and out
    so a caller mutating a value cannot change what was stored."""

    def __init__(self) -> None:
        self._values: dict[tuple[str, str, str, str], Any] = {}
        self._history: list[MemoryEntry] = []
        self._lock = threading.Lock()

    def read(self, memory: str, scope: str, scope_id: str, key: str) -> object | None:
        with self._lock:
            return copy.deepcopy(self._values.get((memory, scope, scope_id, key)))

    def write(self, memory: str, scope: str, scope_id: str, key: str, value: object, *,
              admitted: bool = True, reason: str = "", node_id: str = "") -> None:
        if scope not in SCOPES:
            raise ValueError(f"unknown memory scope {scope!r}; expected one of {', '.join(SCOPES)}")
        stored = copy.deepcopy(value)
        with self._lock:
            self._history.append(MemoryEntry(memory, scope, scope_id, key, stored, admitted, reason, node_id))
            if admitted:
                self._values[(memory, scope, scope_id, key)] = stored

    def history(self, memory: str, scope: str, scope_id: str) -> list[MemoryEntry]:
        with self._lock:
            return [copy.deepcopy(e) for e in self._history
                    if (e.memory, e.scope, e.scope_id) == (memory, scope, scope_id)]
