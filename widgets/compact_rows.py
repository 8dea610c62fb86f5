"""Helpers that let a dock's row of controls be narrower, so the window fits a small screen.

`compact_buttons(*buttons)`: a push button is as narrow as its text and icon (the style's own minimum
is about 80 px whatever the text, which made rows of three or four buttons set a dock's width).
`short_views(*views)`: a list, table or text view may be as short as a few rows (Qt's own minimum for a
scrolling view is 70 px, which stacked up in a dock of several views set the window's height); it scrolls.
"""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractButton, QAbstractScrollArea

BUTTON_PADDING = 16  # px beside the text: the frame and a little air
SHORT_VIEW_ROWS = 2  # the fewest rows of text a shortened view shows


def compact_buttons(*buttons: QAbstractButton) -> None:
    for button in buttons:
        width = button.fontMetrics().horizontalAdvance(button.text()) + BUTTON_PADDING
        if not button.icon().isNull():
            width += button.iconSize().width() + 4
        button.setMinimumWidth(width)


def short_views(*views: QAbstractScrollArea) -> None:
    for view in views:
        frame = 2 * view.frameWidth()
        view.setMinimumHeight(SHORT_VIEW_ROWS * view.fontMetrics().lineSpacing() + frame + 6)


__all__ = ["compact_buttons", "short_views"]
