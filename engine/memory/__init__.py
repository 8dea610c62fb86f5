"""Memory scopes for Memory nodes: named memories scoped to a run, a workflow or global.

Public API: `MemoryBackend` (protocol), `MemoryEntry`, `InMemoryBackend`, `StoreMemoryBackend`,
`scope_id_for`, `append_value`, `admit` (gated writes), `SCOPES`.
"""

from __future__ import annotations

from engine.memory.backend import (
    SCOPES,
    InMemoryBackend,
    MemoryBackend,
    MemoryEntry,
    append_value,
    scope_id_for,
)
from engine.memory.gating import admit
from engine.memory.store_backend import MemoryStore, StoreMemoryBackend

__all__ = ["SCOPES", "InMemoryBackend", "MemoryBackend", "MemoryEntry", "MemoryStore", "StoreMemoryBackend",
           "admit", "append_value", "scope_id_for"]
