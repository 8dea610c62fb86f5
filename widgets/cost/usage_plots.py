"""`UsagePlot`: one live plot of a run's cumulative usage (cost or tokens) over time, with its budget line.

The curve is the run's cumulative series (`UsageSeries`), drawn as steps and carried flat to "now";
a second curve, shown under the node filter, is that node's own cumulative usage. The budget is a
dashed horizontal line; the title names it (and says how much of it is used) even when the line is
above what the plot shows. Invariant: one `setData` per curve per `show` call (the panel calls it at
most once per flush), on numpy arrays.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor


class UsagePlot(pg.PlotWidget):
    def __init__(self, title: str, unit: str) -> None:
        super().__init__()
        self.title_text, self.unit = title, unit
        self.setMenuEnabled(False)
        self.hideButtons()
        self.setMouseEnabled(x=True, y=False)
        self.showGrid(x=False, y=True, alpha=0.2)
        self.setLabel("bottom", "time", units="s")
        self.getAxis("left").setWidth(58)
        self.curve = self.plot([], [], stepMode=None, pen=pg.mkPen("#0969da", width=2))
        self.node_curve = self.plot([], [], pen=pg.mkPen("#bf8700", width=2, style=Qt.PenStyle.DashLine))
        for curve in (self.curve, self.node_curve):  # at most ~2 points a pixel however long the run
            curve.setDownsampling(auto=True, method="peak")
            curve.setClipToView(True)
        self.limit_line = pg.InfiniteLine(angle=0, movable=False,
                                          pen=pg.mkPen("#cf222e", width=1.5, style=Qt.PenStyle.DashLine))
        self.limit_line.setVisible(False)
        self.addItem(self.limit_line, ignoreBounds=True)
        self.points = 0
        self.title_color: str | None = None
        self._set_title(title)

    def show_series(self, ts: list[float], values: list[float], now: float, limit: float | None,
                    fmt: str) -> None:
        x, y = _steps(ts, values, now)
        self.points = len(ts)
        self.curve.setData(x, y)
        total = values[-1] if values else 0.0
        if limit:
            self.limit_line.setPos(limit)
            self.limit_line.setVisible(True)
            self._set_title(f"{self.title_text}: {fmt.format(total)} of {fmt.format(limit)} ({total / limit:.0%})")
        else:
            self.limit_line.setVisible(False)
            self._set_title(f"{self.title_text}: {fmt.format(total)} · no limit")

    def _set_title(self, text: str) -> None:
        self.title_shown = text
        if self.title_color:
            self.setTitle(text, color=self.title_color, size="9pt")
        else:
            self.setTitle(text, size="9pt")

    def show_node(self, ts: list[float], values: list[float], now: float) -> None:
        if not ts:
            self.node_curve.setData([], [])
            return
        self.node_curve.setData(*_steps(ts, values, now))

    def set_colors(self, background: QColor, text: QColor, dark: bool) -> None:
        self.setBackground(background)
        for name in ("left", "bottom"):
            axis = self.getAxis(name)
            axis.setPen(pg.mkPen(text))
            axis.setTextPen(pg.mkPen(text))
        self.title_color = text.name()
        self._set_title(self.getPlotItem().titleLabel.text)
        self.curve.setPen(pg.mkPen("#58a6ff" if dark else "#0969da", width=2))
        self.node_curve.setPen(pg.mkPen("#e3b341" if dark else "#9a6700", width=2, style=Qt.PenStyle.DashLine))
        self.limit_line.setPen(pg.mkPen("#f85149" if dark else "#cf222e", width=1.5, style=Qt.PenStyle.DashLine))


def _steps(ts: list[float], values: list[float], now: float) -> tuple[np.ndarray, np.ndarray]:
    """Cumulative samples as a step line from (0, 0), flat until `now`."""
    t = np.asarray(ts, dtype=np.float64)
    v = np.asarray(values, dtype=np.float64)
    n = len(t)
    x = np.empty(2 * n + 2)
    y = np.empty(2 * n + 2)
    x[0], y[0] = 0.0, 0.0
    if n:
        x[1:-1:2], x[2:-1:2] = t, t
        y[1:-1:2] = np.concatenate(([0.0], v[:-1]))
        y[2:-1:2] = v
    x[-1] = max(now, t[-1] if n else 0.0)
    y[-1] = v[-1] if n else 0.0
    return x, y
