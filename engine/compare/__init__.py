"""Comparing two runs (Qt-free): `compare(a, b)` over two `RunProjection`s → `RunDiff` (per-node output
diffs, verdict changes, token / cost / duration deltas, nodes only one run ran, the first divergence),
and `lanes` (a run's events as comparable lanes)."""

from engine.compare.diff import Divergence, NodeDelta, RunDiff, VerdictChange, compare, first_divergence
from engine.compare.lanes import LaneEvent, lanes

__all__ = ["Divergence", "LaneEvent", "NodeDelta", "RunDiff", "VerdictChange", "compare", "first_divergence",
           "lanes"]
