"""`BudgetGauge`: one budget of a run (tokens, cost, deadline, model calls) as a bar: used against its limit.

Levels: "ok" below 75 %, "amber" from 75 %, "red" from 90 % (and over); "none" when the run sets no
such limit (the bar then says "no limit" and shows only what was used). A note (the Deadline's
"+ 2.0 s held = 5.4 s") is drawn under the bar when the gauge is given the room (`NOTE_HEIGHT`), and is in
its tooltip. A gauge too narrow for its figures drops the limit first, then the used figure, keeping the
share (the whole text is in the tooltip). The colours follow the widget's palette (light or dark).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

AMBER_AT, RED_AT = 0.75, 0.90
NOTE_HEIGHT = 16  # the row under the bar for a note
_FILL = {"ok": ("#2da44e", "#3fb950"), "amber": ("#d4a017", "#e3b341"), "red": ("#cf222e", "#f85149"),
         "none": ("#8c959f", "#6e7681")}


def level_of(used: float, limit: float | None) -> str:
    if not limit:
        return "none"
    ratio = used / limit
    return "red" if ratio >= RED_AT else "amber" if ratio >= AMBER_AT else "ok"


class BudgetGauge(QWidget):
    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.used = 0.0
        self.limit: float | None = None
        self.level = "none"
        self.text = "no limit"
        self.shorter: tuple[str, ...] = ()  # the figures in fewer words, for a narrow gauge (the used figure kept)
        self.note = ""
        self.setMinimumHeight(54)  # name, figures (below the name when the gauge is narrow), bar
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAutoFillBackground(True)  # opaque: a new value repaints the gauge, not the dock and window under it

    def sizeHint(self) -> QSize:
        return QSize(160, 54)

    def set_value(self, used: float, limit: float | None, used_text: str, limit_text: str, note: str = "") -> None:
        level = level_of(used, limit)
        text = f"{used_text} / {limit_text} · {used / limit:.0%}" if limit else f"{used_text} · no limit"
        if (used, limit, level, text, note) == (self.used, self.limit, self.level, self.text, self.note):
            return
        self.used, self.limit, self.level, self.text, self.note = used, limit, level, text, note
        self.shorter = (f"{used_text} · {used / limit:.0%}", f"{used / limit:.0%}") if limit else (used_text,)
        self.setToolTip(f"{self.title}: {text}" + {"amber": " — nearing its limit", "red": " — at its limit"}
                        .get(level, "") + (f" ({note})" if note else ""))
        self.update()

    def figures_within(self, metrics: QFontMetrics, width: int) -> str:
        """The figures as they fit `width`: whole, else without the limit, else the share alone, else elided."""
        for text in (self.text, *self.shorter):
            if metrics.horizontalAdvance(text) <= width:
                return text
        return metrics.elidedText((self.text, *self.shorter)[-1], Qt.TextElideMode.ElideRight, width)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        dark = pal.window().color().lightness() < 128
        text_colour = pal.windowText().color()
        track = QColor(pal.mid().color())
        track.setAlpha(90)
        metrics = QFontMetrics(self.font())
        bold = QFont(self.font())
        bold.setBold(True)
        one_line = QFontMetrics(bold).horizontalAdvance(self.title) + metrics.horizontalAdvance(self.text) + 12 <= self.width()
        text_row = QRectF(2, 0 if one_line else 18, self.width() - 4, 18)  # the figures below the name when narrow
        bar = QRectF(1, 20 if one_line else 38, self.width() - 2, 14)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(track)
        painter.drawRoundedRect(bar, 3, 3)
        fill = QColor(_FILL[self.level][1 if dark else 0])
        ratio = min(self.used / self.limit, 1.0) if self.limit else 0.0
        if ratio > 0:
            painter.setBrush(fill)
            painter.drawRoundedRect(QRectF(bar.left(), bar.top(), max(bar.width() * ratio, 3), bar.height()), 3, 3)
        painter.setPen(QPen(text_colour))
        font = painter.font()
        font.setBold(True)
        painter.setFont(font)
        painter.drawText(QRectF(2, 0, self.width() - 4, 18), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         self.title)
        font.setBold(False)
        painter.setFont(font)
        colour = fill if self.level in ("amber", "red") else text_colour
        painter.setPen(QPen(colour))
        painter.drawText(text_row, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                         self.figures_within(metrics, int(text_row.width())))
        if self.note and self.height() >= bar.bottom() + NOTE_HEIGHT:
            painter.setPen(QPen(text_colour))
            painter.drawText(QRectF(2, bar.bottom() + 1, self.width() - 4, NOTE_HEIGHT - 1),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                             metrics.elidedText(self.note, Qt.TextElideMode.ElideRight, self.width() - 4))
        painter.end()
