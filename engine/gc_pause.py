"""Keeping the cycle collector from re-walking what a process already holds.

- `gc_paused()`: no cyclic garbage collection while a large structure is built in one go. Building
  thousands of objects (a 5,000-node workflow, its canvas items) triggers collections that walk every
  live object again and again — the more the process already holds, the slower each build gets.
  Reference counting still frees everything as usual; the cycle collector runs again when the block
  ends. Nesting is safe, across threads too (a file read on a worker while the GUI thread builds a
  scene): a count, not a stack — collection comes back on when the last block ends, if it was on
  when the first began. `collection_paused()` says whether such a block is under way (a collector
  of the process's own waits for its end too).
- `older_objects_set_aside()`: while runs go on, the objects that existed before the first of them
  started (a GUI's widgets and documents, imported libraries, open stores) are left out of the
  collector's passes (`gc.freeze`); a full pass over them costs tens of milliseconds a time, which a
  run would otherwise pay again and again. Collection itself stays on, for everything the runs create.
  When the last run ends the objects go back under collection (`gc.unfreeze`), so a cycle among them
  is collected then. Overlapping runs share one set-aside (a count, not a stack). Note: by default it
  ends any `gc.freeze()` the process made itself before; a process that keeps objects set aside of
  its own (the GUI) gives its own way to end the set-aside with `on_set_aside_end`.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_set_aside = 0
_set_aside_lock = threading.Lock()
_end_set_aside: Callable[[], None] = gc.unfreeze


def on_set_aside_end(end: Callable[[], None]) -> Callable[[], None]:
    """Call `end` (instead of `gc.unfreeze`) when the last run's set-aside ends; returns the one before."""
    global _end_set_aside
    before, _end_set_aside = _end_set_aside, end
    return before


_paused = 0
_paused_lock = threading.Lock()
_resume_collection = False


@contextmanager
def gc_paused() -> Iterator[None]:
    global _paused, _resume_collection
    with _paused_lock:
        if _paused == 0:
            _resume_collection = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _paused_lock:
            _paused -= 1
            if _paused == 0 and _resume_collection:
                gc.enable()


def collection_paused() -> bool:
    """True while a `gc_paused` block is under way (in any thread)."""
    return _paused > 0


@contextmanager
def older_objects_set_aside() -> Iterator[None]:
    global _set_aside
    with _set_aside_lock:
        if _set_aside == 0:
            gc.freeze()
        _set_aside += 1
    try:
        yield
    finally:
        with _set_aside_lock:
            _set_aside -= 1
            if _set_aside == 0:
                _end_set_aside()
