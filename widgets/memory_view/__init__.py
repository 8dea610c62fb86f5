"""The Memory dock: each memory scope's contents, every write (admitted or refused, by which verdict) and read."""

from __future__ import annotations

from widgets.memory_view.memory_panel import MemoryPanel

__all__ = ["MemoryPanel"]
