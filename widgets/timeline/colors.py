"""Timeline colours for the light and dark themes, and where in a lane each kind of bar sits.

Invariant: every colour the timeline draws comes from one `TimelineColors`; `palette()` orders them
as the renderer's colour indices (0 is "nothing here": transparent).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtGui import QColor

# Vertical extent of the bars inside a lane (lane units, 0 at the lane's top).
BAR_TOP, BAR_BOTTOM = 0.12, 0.88
CALL_TOP, CALL_BOTTOM = 0.42, 0.82
# Colour indices of the coverage picture: bars 1..5 (status groups), calls 6..9.
CALL_LLM, CALL_TOOL, CALL_ERROR, CALL_RUNNING = 6, 7, 8, 9


@dataclass(frozen=True)
class TimelineColors:
    dark: bool
    running: QColor
    done: QColor
    failed: QColor
    waiting: QColor
    cancelled: QColor
    llm: QColor
    tool: QColor
    call_error: QColor
    call_running: QColor
    border: QColor
    mark: QColor
    text: QColor
    label_text: QColor  # text drawn inside a bar
    background: QColor
    highlight: QColor
    dim: QColor  # laid over lanes the node filter leaves out

    def palette(self) -> np.ndarray:
        """ARGB32 premultiplied words by colour index (0 transparent)."""
        colours = [self.running, self.done, self.failed, self.waiting, self.cancelled,
                   self.llm, self.tool, self.call_error, self.call_running]
        words = [0] + [c.rgba() | 0xFF000000 for c in colours]
        return np.array(words, dtype=np.uint32)

    def bar(self, group: int) -> QColor:
        return (self.running, self.done, self.failed, self.waiting, self.cancelled)[group]


LIGHT = TimelineColors(
    dark=False, running=QColor("#54aeff"), done=QColor("#8cc7a0"), failed=QColor("#e5534b"),
    waiting=QColor("#e3b341"), cancelled=QColor("#b0b6bf"), llm=QColor("#8250df"), tool=QColor("#1b7c83"),
    call_error=QColor("#a40e26"), call_running=QColor("#0969da"), border=QColor(31, 35, 40, 110),
    mark=QColor("#bc4c00"), text=QColor("#1f2328"), label_text=QColor("#ffffff"),
    background=QColor("#ffffff"), highlight=QColor(9, 105, 218, 38), dim=QColor(255, 255, 255, 150),
)

DARK = TimelineColors(
    dark=True, running=QColor("#388bfd"), done=QColor("#3f7d54"), failed=QColor("#da3633"),
    waiting=QColor("#d29922"), cancelled=QColor("#545d68"), llm=QColor("#a371f7"), tool=QColor("#39c5cf"),
    call_error=QColor("#ff7b72"), call_running=QColor("#79c0ff"), border=QColor(0, 0, 0, 140),
    mark=QColor("#ffa657"), text=QColor("#e6edf3"), label_text=QColor("#0d1117"),
    background=QColor("#1e2125"), highlight=QColor(88, 166, 255, 45), dim=QColor(30, 33, 37, 160),
)
