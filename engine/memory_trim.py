"""Giving memory that was freed back to the operating system.

glibc's allocator keeps freed memory in its heaps for reuse: after a 5,000-node document is replaced,
or after an edge-density image is built (tens of megabytes of numpy temporaries, on a worker thread's
own heap), the process's resident size stays 40–80 MB above what it holds. `release_free_memory()`
asks the allocator to return whole free pages of every heap (`malloc_trim(0)`, ~1–2 ms at that size).
Elsewhere (macOS, Windows, musl) it does nothing: those allocators return memory on their own or have
no such call. Called on the main thread, it also empties `linecache`, the source lines kept for
tracebacks: PySide's import hook reads the whole source of every module imported (to see whether it
uses PySide) through it, ~13 MB of lines once the window and a large document are in; a traceback
reads again what it shows.
"""

from __future__ import annotations

import linecache
import sys
import threading
from collections.abc import Callable

_trim: Callable[[int], int] | None = None
_looked_up = False


def release_free_memory() -> bool:
    """Return freed heap pages to the system; False where the C library has no way to."""
    global _trim, _looked_up
    if threading.current_thread() is threading.main_thread():
        linecache.clearcache()  # not from a worker: a traceback being formatted there may be reading it
    if not _looked_up:
        _looked_up = True
        if sys.platform.startswith("linux"):
            import ctypes  # when first asked, not at start-up

            try:
                _trim = ctypes.CDLL(None).malloc_trim
            except (OSError, AttributeError):  # not glibc
                _trim = None
    if _trim is None:
        return False
    _trim(0)
    return True
