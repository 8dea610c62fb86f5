"""`UsagePlot`: one live plot of a run's cumulative usage (cost or tokens) over time, with its budget line.

The curve is the run's cumulative series as a step line carried flat to "now" (`usage_series.steps`);
a second curve, shown under the node filter, is that node's own cumulative usage. The budget is a
dashed horizontal line; the title names it (and says how much of it is used) even when the line is
above what the plot shows.

The axes span everything shown of the run so far (`fit`), not the curve of the moment: a live run's
axes grow with it, and a playback moment keeps the run's frame, so scrubbing back only swaps the
curve (no rescale: the axes are not redrawn; pyqtgraph's auto-range would repaint them twice a move).
A time range the person dragged or zoomed is kept until another run is shown.

Invariant: one `setData` per curve per `show` call (the panel calls it at most once per flush), on
numpy arrays.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem


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
        for name in ("left", "bottom"):  # a new curve repaints the view and the grid the left axis draws
            self.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # over it: blit
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
        self.view_box: pg.ViewBox = self.getViewBox()
        self.view_box.disableAutoRange()
        self.view_box.sigRangeChangedManually.connect(self._on_range_changed_manually)
        self.run_id: str | None = None  # the run whose frame the axes keep
        self.extent = (0.0, 0.0)  # the furthest time and value shown of that run
        self.follow_time = True  # False once the person moved the time axis
        self._asked: tuple[object, ...] | None = None  # the range last set (setting it again would repaint)
        self._set_title(title)

    def show_series(self, steps: tuple[np.ndarray, np.ndarray], limit: float | None, fmt: str) -> None:
        """Show the run's step line (`usage_series.steps`: its last point is the total, at "now")."""
        x, y = steps
        self.points = max(len(x) // 2 - 1, 0)
        self.curve.setData(x, y)
        total = float(y[-1]) if len(y) else 0.0
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

    def show_node(self, steps: tuple[np.ndarray, np.ndarray]) -> None:
        self.node_curve.setData(*steps)

    def fit(self, run_id: str | None, steps: tuple[np.ndarray, np.ndarray]) -> None:
        """Keep the axes over everything shown of `run_id` so far, `steps` included (another run: start over)."""
        x, y = steps
        if run_id != self.run_id:
            self.run_id, self.extent, self.follow_time = run_id, (0.0, 0.0), True
        t_max, v_max = self.extent
        self.extent = (max(t_max, float(x[-1]) if len(x) else 0.0), max(v_max, float(y.max()) if len(y) else 0.0))
        asked = (self.extent[0] or 1.0 if self.follow_time else None, self.extent[1] or 1.0)
        if asked != self._asked:
            self._asked = asked
            self.view_box.setRange(xRange=None if asked[0] is None else (0.0, asked[0]), yRange=(0.0, asked[1]),
                                   padding=0.02, disableAutoRange=False)

    def _on_range_changed_manually(self, _mask: object) -> None:
        self.follow_time = False
        self._asked = None

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
