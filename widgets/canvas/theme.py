"""Canvas colours for the light and dark themes, and the level-of-detail thresholds.

Invariants: items never hard-code colours; they read the scene's current `CanvasTheme` at paint
time, so `CanvasScene.set_dark` only has to invalidate item caches.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor

# Zoom (level of detail) below which nodes are flat boxes, edges straight lines and nothing is
# antialiased; and below which port labels and model badges are left out.
LOD_SIMPLE = 0.45
LOD_LABELS = 0.6
# Zoom below which edges are straight lines while the view pans or zooms (curves again at rest).
LOD_MOVING_CURVES = 1.0


@dataclass(frozen=True)
class CanvasTheme:
    dark: bool
    background: QColor
    grid: QColor
    node_body: QColor
    node_border: QColor
    text: QColor
    header_text: QColor
    muted_text: QColor
    badge: QColor
    selection: QColor
    highlight: QColor
    edge: QColor
    rubber_band: QColor
    error: QColor  # validation marks: outline, badge and edge colour of an item with an error
    warning: QColor  # ... with warnings only
    error_text: QColor  # the count on an error badge
    warning_text: QColor  # the count on a warning badge


LIGHT = CanvasTheme(
    dark=False,
    background=QColor("#f4f5f7"),
    grid=QColor("#e1e4e8"),
    node_body=QColor("#ffffff"),
    node_border=QColor("#b0b6bf"),
    text=QColor("#1f2328"),
    header_text=QColor("#ffffff"),
    muted_text=QColor("#57606a"),
    badge=QColor("#eef1f4"),
    selection=QColor("#0969da"),
    highlight=QColor("#2da44e"),
    edge=QColor("#8c959f"),
    rubber_band=QColor(9, 105, 218, 40),
    error=QColor("#cf222e"),
    warning=QColor("#d4a017"),
    error_text=QColor("#ffffff"),
    warning_text=QColor("#1f2328"),
)

DARK = CanvasTheme(
    dark=True,
    background=QColor("#1e2125"),
    grid=QColor("#2a2e33"),
    node_body=QColor("#2d3137"),
    node_border=QColor("#4a5058"),
    text=QColor("#e6edf3"),
    header_text=QColor("#101214"),
    muted_text=QColor("#9aa4ae"),
    badge=QColor("#3a3f46"),
    selection=QColor("#58a6ff"),
    highlight=QColor("#3fb950"),
    edge=QColor("#6e7681"),
    rubber_band=QColor(88, 166, 255, 50),
    error=QColor("#f85149"),
    warning=QColor("#e3b341"),
    error_text=QColor("#101214"),
    warning_text=QColor("#101214"),
)


def theme_for(dark: bool) -> CanvasTheme:
    return DARK if dark else LIGHT
