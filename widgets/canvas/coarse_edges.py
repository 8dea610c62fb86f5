"""The edges of a moving picture between the far zoom and `LOD_LABELS`: short edges as lines, long
edges as one density image.

Between zoom 0.2 and 0.45 a 5,000-node graph's overview picture strokes ~15,000 hairlines, most of
them thousands of pixels long: ~40–80 ms each time the picture of a pan or zoom is repainted,
bound by fill rate. `CoarseEdges` splits the edges once (until they change) by their length in the
scene: the short ones (at most `LONG_EDGE`: a node and its neighbours a column or two away) stay
crisp lines, which cost little because they are short; the long ones are drawn from one
`EdgeDensity` image of the whole graph at `SCALE` (capped at its pixel budget), a blit: where
many long edges run together they show as a bundle, a lone long edge as a faint line (`FAINTEST`
keeps the tone near the hairlines' grey at rest, so the end of a gesture does not flash).

Only pictures painted while the view moves use it: the overview's, and the edge layer's zoom
picture below `LOD_LABELS` (`draw_long`: the long edges only, from an image of the edges as they
are now); at rest every edge is stroked again.
The image is built on the worker when the view first moves in overview mode, first rests in the
band, or has rested far out for a moment (`prepare`: built during a gesture, the worker holds the
interpreter for tens of milliseconds at a time and the gesture's frames wait on it); until it is
there a picture strokes every edge, as before.

Invariants: `invalidate()` after any change of the edges; the split and the image always describe
the same lines (the list `OverviewPainter` rebuilt last); at most one image (of the current
generation, and of the one before until it is replaced).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QLineF
from PySide6.QtGui import QColor, QPainter, QPen

from widgets.canvas.edge_density import EdgeDensity
from widgets.canvas.edge_item import LONG_EDGE
from widgets.canvas.theme import LOD_SIMPLE

SCALE = LOD_SIMPLE  # the image's scale (rounded up to a power of two, capped by its pixel budget)
FAINTEST = 150  # a lone long edge's opacity: near the tone of the hairlines the view shows at rest


class CoarseEdges:
    def __init__(self, on_ready: Callable[[], None]) -> None:
        self.density = EdgeDensity(on_ready, faintest=FAINTEST)
        self._short: list[QLineF] | None = None
        self._long: list[QLineF] = []
        self.draws = 0  # pictures drawn coarsely (tests, benchmarks)

    def invalidate(self) -> None:
        self._short = None
        self.density.invalidate()

    def long_lines(self, lines: list[QLineF]) -> list[QLineF]:
        """The lines of `lines` drawn from the image."""
        self._split(lines)
        return self._long

    def _split(self, lines: list[QLineF]) -> list[QLineF]:
        if self._short is None:
            self._short, self._long = [], []
            for line in lines:
                (self._long if line.length() > LONG_EDGE else self._short).append(line)
        return self._short

    def prepare(self, lines: list[QLineF], color: QColor) -> None:
        """Have the long edges' image built on the worker (nothing when it is built or building)."""
        self._split(lines)
        self.density.prepare(self._long, SCALE, color)

    def draw_long(self, painter: QPainter, lines: list[QLineF], color: QColor) -> bool:
        """Only the long edges, and only from an image of these very lines (no stand-in from before
        an edit); else False, and the image is built for next time."""
        self._split(lines)
        if not self.density.has_current(SCALE, color):
            self.density.prepare(self._long, SCALE, color)
            return False
        drawn = self.density.draw(painter, self._long, color, scale=SCALE, build_now=False)
        self.draws += drawn
        return drawn

    def draw(self, painter: QPainter, lines: list[QLineF], color: QColor) -> bool:
        """Draw `lines` coarsely; False (nothing drawn) while the long edges' image is not built yet."""
        short = self._split(lines)
        if not self.density.draw(painter, self._long, color, scale=SCALE, build_now=False):
            return False
        painter.setPen(QPen(color, 0))
        painter.drawLines(short)
        self.draws += 1
        return True
