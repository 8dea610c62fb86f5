"""`gc_paused()`: no cyclic garbage collection while a large structure is built in one go.

Building thousands of objects (a 5,000-node workflow, its canvas items) triggers collections that
walk every live object again and again — the more the process already holds, the slower each
build gets. Reference counting still frees everything as usual; the cycle collector runs again
when the block ends. Nesting is safe: only the outermost block turns collection back on.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
