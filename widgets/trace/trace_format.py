"""How trace cells read: status colours and icons (light and dark), times, durations, tokens and cost.

Pure formatting shared by the Trace tree, the Call inspector and the Events table; nothing here
reads a projection. Invariants: a cost whose price is unknown reads "price unknown", never "$0";
status colours are chosen per theme (`is_dark(palette)`) so they stay readable on both bases.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPalette, QPixmap

# status → (light-theme colour, dark-theme colour)
_STATUS_COLOURS: dict[str, tuple[str, str]] = {
    "running": ("#1f6fd1", "#5ea8ff"),
    "queued": ("#6b7280", "#9ca3af"),
    "waiting": ("#b7791f", "#f6c04f"),
    "ok": ("#1e8e3e", "#5fd17a"),
    "done": ("#1e8e3e", "#5fd17a"),
    "succeeded": ("#1e8e3e", "#5fd17a"),
    "error": ("#c5221f", "#ff7b72"),
    "failed": ("#c5221f", "#ff7b72"),
    "budget_exceeded": ("#c5221f", "#ff7b72"),
    "cancelled": ("#8a6d3b", "#d4b483"),
    "interrupted": ("#a0522d", "#f0a070"),
    "skipped": ("#6b7280", "#9ca3af"),
}
_OTHER = ("#6b7280", "#9ca3af")
TERMINAL_SPAN_STATES = frozenset({"ok", "error", "done", "failed", "skipped", "cancelled", "interrupted",
                                  "succeeded", "budget_exceeded"})


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def status_colour(status: str, dark: bool) -> QColor:
    light_hex, dark_hex = _STATUS_COLOURS.get(status, _OTHER)
    return _colour(dark_hex if dark else light_hex)


@lru_cache(maxsize=64)
def _colour(hex_code: str) -> QColor:
    return QColor(hex_code)


@lru_cache(maxsize=64)
def status_icon(status: str, dark: bool) -> QIcon:
    """A small filled dot (a ring while running or queued) in the status colour; cached per status/theme."""
    size = 12
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    colour = status_colour(status, dark)
    if status in ("running", "queued", "waiting"):
        pen = painter.pen()
        pen.setColor(colour)
        pen.setWidthF(2.0)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(2, 2, size - 4, size - 4)
    else:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QIcon(pixmap)


def fmt_offset(ts: float | None) -> str:
    """A time since the run started: "+1.234 s", "+2:05.1" past a minute."""
    if ts is None:
        return ""
    if ts < 60:
        return f"+{ts:.3f} s"
    minutes, seconds = divmod(ts, 60)
    return f"+{int(minutes)}:{seconds:04.1f}"


def fmt_duration(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 0.01:
        return f"{seconds * 1000:.1f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.2f} s"
    minutes, secs = divmod(seconds, 60)
    return f"{int(minutes)}m {secs:02.0f}s"


def fmt_tokens(count: int) -> str:
    return f"{count:,}" if count else ""


def fmt_cost(cost: float, *, priced: bool = True) -> str:
    """"$0.0012"; "price unknown" when a call's price is unknown (and "$x + unknown" when partly)."""
    if not priced:
        return f"{fmt_cost(cost)} + price unknown" if cost > 0 else "price unknown"
    if cost <= 0:
        return ""
    if cost < 0.0001:
        return f"${cost:.6f}"
    return f"${cost:.4f}" if cost < 10 else f"${cost:,.2f}"
