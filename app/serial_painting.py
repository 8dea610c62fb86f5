"""`paint_on_the_gui_thread()`: Qt's raster painting kept on the GUI thread, set before the QApplication exists.

By default Qt 6 hands every fill, blend or image draw taller than ~96 lines to its GUI thread pool and
waits for the pool's threads (`QLatch::waitInternal`). For the sizes this window paints (a dock's plot,
the Timeline's picture, a table's viewport) the hand-off costs more than the fill, and on a busy
machine the wait for a pool thread to be scheduled is the largest part of a frame: with the Timeline
and Cost & tokens docks in front, a playback move's paint spent most of its time in those waits.
`QT_NO_GUI_THREADPOOL` is Qt's own switch for it (read once, when the pool is first asked for).
A value the person set in the environment is kept.
"""

from __future__ import annotations

import os

SWITCH = "QT_NO_GUI_THREADPOOL"


def paint_on_the_gui_thread() -> None:
    """Ask Qt not to split paints over its GUI thread pool (before the first paint; the person's value wins)."""
    os.environ.setdefault(SWITCH, "1")
