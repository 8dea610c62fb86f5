"""What the verdicts and memory docks share: colours and fonts for the light and the dark theme, how
a time or a value is put in a cell, and whether two projections show the same run.

Invariant: a view never hard-codes a colour: it asks `look_for(widget)` at paint / data time, which
reads the widget's current palette (so a theme switch needs only a repaint), and every foreground it
gets is readable on that theme's base colour.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from PySide6.QtGui import QColor, QFont, QFontDatabase, QPalette
from PySide6.QtWidgets import QWidget


@dataclass(frozen=True, slots=True)
class Look:
    dark: bool
    approve: QColor  # decision text colours
    revise: QColor
    reject: QColor
    approve_bg: QColor  # decision cell backgrounds
    revise_bg: QColor
    reject_bg: QColor
    added_bg: QColor  # diff lines
    removed_bg: QColor
    hunk: QColor
    muted: QColor

    def decision(self, decision: str) -> QColor:
        return {"approve": self.approve, "revise": self.revise, "reject": self.reject}.get(decision, self.muted)

    def decision_bg(self, decision: str) -> QColor | None:
        return {"approve": self.approve_bg, "revise": self.revise_bg, "reject": self.reject_bg}.get(decision)


LIGHT = Look(False, QColor("#1a7f37"), QColor("#9a6700"), QColor("#cf222e"), QColor("#dafbe1"),
             QColor("#fff8c5"), QColor("#ffebe9"), QColor("#dafbe1"), QColor("#ffebe9"), QColor("#0969da"),
             QColor("#57606a"))
DARK = Look(True, QColor("#3fb950"), QColor("#d29922"), QColor("#f85149"), QColor("#12361f"),
            QColor("#3b2e0a"), QColor("#4a1c1f"), QColor("#12361f"), QColor("#4a1c1f"), QColor("#58a6ff"),
            QColor("#8b949e"))


def is_dark(widget: QWidget | None = None) -> bool:
    palette = widget.palette() if widget is not None else QPalette()
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def look_for(widget: QWidget | None = None) -> Look:
    return DARK if is_dark(widget) else LIGHT


def mono_font() -> QFont:
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


def seconds(ts: float) -> str:
    """A run-relative time as a view shows it: 0.42 s, 12.3 s, 2:05.1."""
    if ts < 10:
        return f"{ts:.2f} s"
    if ts < 60:
        return f"{ts:.1f} s"
    minutes, rest = divmod(ts, 60)
    return f"{int(minutes)}:{rest:04.1f}"


def preview(text: str, limit: int = 160) -> str:
    """One line of `text` for a table cell: newlines as ⏎, cut at `limit` characters."""
    short = text[: limit + 1].replace("\r", "").replace("\n", " ⏎ ")
    return short if len(short) <= limit else short[: limit - 1] + "…"


def value_preview(value: Any, limit: int = 120) -> str:
    """A value for a table cell: strings as they are, anything else as compact one-line JSON."""
    if isinstance(value, str):
        return preview(value, limit)
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return preview(text, limit)
