"""Freed memory goes back to the system where the C library allows it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine.memory_trim import release_free_memory


def resident_mb() -> float:
    import os

    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_freed_small_objects_are_given_back():
    release_free_memory()  # what earlier tests freed is not resident: the blocks below take fresh pages
    before = resident_mb()
    held = [bytes(2000) + bytes([i % 256]) for i in range(40_000)]  # ~80 MB in heap blocks (past pymalloc's 512 bytes)
    grown = resident_mb()
    keep = held[::400]  # a few survivors scattered through the heap
    del held
    assert release_free_memory()
    after = resident_mb()
    assert grown - before > 40
    assert after < grown - 30  # most of it is back with the system, though survivors sit among it
    assert len(keep) == 100


def test_source_lines_kept_for_tracebacks_are_dropped_on_the_main_thread_only():
    import linecache
    import threading

    linecache.getlines(__file__)
    assert __file__ in linecache.cache
    worker = threading.Thread(target=release_free_memory)
    worker.start()
    worker.join()
    assert __file__ in linecache.cache  # a worker may be formatting a traceback: left alone
    release_free_memory()
    assert __file__ not in linecache.cache
    assert "release_free_memory" in "".join(linecache.getlines(__file__))  # read again when asked
