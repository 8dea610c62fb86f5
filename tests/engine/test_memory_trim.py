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


_HEAPS_AFTER_THREADS = """
import ctypes, sys, threading
from engine.memory_trim import share_heaps
if sys.argv[1] == "shared":
    assert share_heaps(2)
go = threading.Barrier(6)
def work():
    go.wait()
    held = [bytes(3000) for _ in range(2000)]  # heap blocks, from six threads at once
    go.wait()
threads = [threading.Thread(target=work) for _ in range(6)]
for t in threads: t.start()
for t in threads: t.join()
libc = ctypes.CDLL(None)
libc.tmpfile.restype = ctypes.c_void_p
out = libc.tmpfile()
libc.malloc_info(0, ctypes.c_void_p(out))
libc.fflush(ctypes.c_void_p(out))
size = libc.ftell(ctypes.c_void_p(out))
libc.rewind(ctypes.c_void_p(out))
text = ctypes.create_string_buffer(size)
libc.fread(text, 1, size, ctypes.c_void_p(out))
print(text.raw.decode().count("<heap nr="))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's heaps")
def test_threads_started_after_share_heaps_allocate_from_at_most_that_many_heaps():
    import subprocess

    def heaps(mode: str) -> int:
        done = subprocess.run([sys.executable, "-c", _HEAPS_AFTER_THREADS, mode], capture_output=True, text=True,
                              check=True, cwd=Path(__file__).resolve().parents[2])
        return int(done.stdout.strip())

    assert heaps("own") > 2  # each thread its own heap: the C library's default
    assert heaps("shared") <= 2
