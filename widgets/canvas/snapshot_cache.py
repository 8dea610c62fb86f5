"""The node snapshots kept between gestures, least recently drawn dropped first past a byte budget.

A zoom gesture draws the nodes from their snapshots (`NodeItem.draw_snapshot`: at zoom 1, or at
`LOD_LABELS` without labels below it); building one costs ~0.2 ms (~0.07 ms below `LOD_LABELS`),
so a wheel notch that brings ~1,000 nodes into a zoom picture for the first time stalls 170–350 ms. Keeping the snapshots after the view comes to rest makes the next
gesture over the same nodes cheap; the budget bounds the memory (a 5,000-node graph's every
snapshot would be ~300 MB).

Invariants:
- an entry is a node drawn from its snapshot at least once since it was last dropped; drawing
  again moves it to the newest end (`touch`);
- a node's own changes (content, geometry, marks, highlight) clear its snapshots, which are
  rebuilt on the next draw; an entry whose snapshots were cleared weighs nothing;
- at rest (`settle`) every node drawn from its snapshot during the gesture is repainted (its
  device cache may hold the scaled snapshot), then `trim` drops the oldest snapshots until the
  kept ones weigh at most `budget` bytes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from widgets.canvas.node_item import NodeItem

BUDGET_BYTES = 48 * 1024 * 1024  # ~800 snapshots of a typical node: one full screen of nodes at zoom 0.45


class SnapshotCache:
    def __init__(self, budget: int = BUDGET_BYTES) -> None:
        self.budget = budget
        self._order: OrderedDict[NodeItem, None] = OrderedDict()
        self._drawn: set[NodeItem] = set()  # drawn from their snapshots during this gesture

    def __contains__(self, item: object) -> bool:
        return item in self._order

    def __iter__(self) -> Iterator[NodeItem]:
        return iter(list(self._order))

    def __len__(self) -> int:
        return len(self._order)

    def touch(self, item: NodeItem) -> None:
        """`item` was drawn from its snapshot: newest."""
        self._drawn.add(item)
        self.keep(item)

    def keep(self, item: NodeItem) -> None:
        """`item`'s snapshot was painted ahead of its first draw: newest, counted against the budget."""
        order = self._order
        if item in order:
            order.move_to_end(item)
        else:
            order[item] = None

    def discard(self, item: NodeItem) -> None:
        self._order.pop(item, None)
        self._drawn.discard(item)

    def clear(self) -> None:
        self._order.clear()
        self._drawn.clear()

    def settle(self) -> None:
        """The view is at rest: the nodes drawn from snapshots repaint at the real zoom (their
        device cache may hold the scaled snapshot), then the oldest go past the budget."""
        for item in self._drawn:
            item.update()
        self._drawn.clear()
        self.trim()

    def weight(self) -> int:
        """Bytes held by the kept snapshots."""
        return sum(item.snapshot_bytes() for item in self._order)

    def trim(self) -> None:
        """Drop the oldest snapshots until the rest fit the budget."""
        order = self._order
        total = self.weight()
        while order and total > self.budget:
            item, _ = order.popitem(last=False)
            total -= item.snapshot_bytes()
            item.drop_snapshot()
