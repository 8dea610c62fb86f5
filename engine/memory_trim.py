"""Giving memory that was freed back to the operating system.

glibc's allocator keeps freed memory in its heaps for reuse: after a 5,000-node document is replaced,
or after an edge-density image is built (tens of megabytes of numpy temporaries, on a worker thread's
own heap), the process's resident size stays 40–80 MB above what it holds. `release_free_memory()`
asks the allocator to return whole free pages of every heap (`malloc_trim(0)`, ~1–2 ms at that size).
Elsewhere (macOS, Windows, musl) it does nothing: those allocators return memory on their own or have
no such call. Called on the main thread, it also empties `linecache`, the source lines kept for
tracebacks: PySide's import hook reads the whole source of every module imported (to see whether it
uses PySide) through it, ~13 MB of lines once the window and a large document are in; a traceback
reads again what it shows. `share_heaps()` caps how many heaps threads spread over, so that fewer
heaps hold free memory.
"""

from __future__ import annotations

import linecache
import sys
import threading
from typing import Any

_M_ARENA_MAX = -8  # glibc's mallopt parameter: how many heaps ("arenas") threads may spread over
HEAPS = 2
_libc: Any = None
_looked_up = False


def _glibc() -> Any:
    """The C library when it is glibc (has `malloc_trim`), else None; looked up once, when first asked."""
    global _libc, _looked_up
    if not _looked_up:
        _looked_up = True
        if sys.platform.startswith("linux"):
            import ctypes  # when first asked, not at import

            try:
                libc = ctypes.CDLL(None)
            except OSError:
                libc = None
            _libc = libc if libc is not None and hasattr(libc, "malloc_trim") else None  # glibc only
    return _libc


def share_heaps(count: int = HEAPS) -> bool:
    """Let every thread started from now on allocate from at most `count` heaps; False where the C library
    has no such setting. glibc gives a thread its own heap (up to 8 a core), and each keeps the free memory
    of the work done on it: the window's short-lived workers (the file reader, the validation, the edge
    images, the picture painted ahead, the loop's executor) left ~17 MB resident this way at a 5,000-node
    open. Call it at start-up, before those threads start."""
    libc = _glibc()
    return libc is not None and bool(libc.mallopt(_M_ARENA_MAX, count))


def release_free_memory() -> bool:
    """Return freed heap pages to the system; False where the C library has no way to."""
    if threading.current_thread() is threading.main_thread():
        linecache.clearcache()  # not from a worker: a traceback being formatted there may be reading it
    libc = _glibc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True
