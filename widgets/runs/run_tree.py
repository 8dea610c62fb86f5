"""The Runs list's lineage tree: replays and forks under the run they came from.

`RunTree.build(listings, keep)` arranges sorted listings (their order is kept among siblings) into
roots and children: a run whose `replay_of` / `fork_of` names a run in the list sits under it; a run
whose source is not listed (deleted, pruned, beyond the limit) is a root. `keep` (the filter) decides
which runs match; the ancestors of a match are shown too, so a matching fork is never cut off from
its lineage. Pure Python over lists and dicts (no Qt): one pass to link, one to filter, whatever the
number of runs.

Invariant: every node is identified by its position in `listings` (stable for one build); `row_of`
and `parent_of` answer in O(1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from widgets.runs.run_rows import RunListing

ROOT = -1


@dataclass(slots=True)
class RunTree:
    listings: Sequence[RunListing] = ()
    children: dict[int, list[int]] = field(default_factory=dict)  # ROOT or a position -> shown children, in order
    parent_of: dict[int, int] = field(default_factory=dict)  # position -> parent position (ROOT for a root)
    row_of: dict[int, int] = field(default_factory=dict)  # position -> its row under its parent
    matched: set[int] = field(default_factory=set)  # the positions the filter kept (others shown as ancestors)

    @classmethod
    def build(cls, listings: Sequence[RunListing], keep: Callable[[RunListing], bool] | None = None) -> RunTree:
        position = {item.run_id: index for index, item in enumerate(listings)}
        source: list[int] = []
        for item in listings:
            s = item.summary
            origin = s.replay_of or s.fork_of
            source.append(position.get(origin, ROOT) if origin else ROOT)
        _break_cycles(source)
        matched = {i for i, item in enumerate(listings) if keep is None or keep(item)}
        shown = set(matched)
        for index in matched:  # the ancestors of a match stay visible
            up = source[index]
            while up != ROOT and up not in shown:
                shown.add(up)
                up = source[up]
        tree = cls(listings, {ROOT: []}, {}, {}, matched)
        for index in range(len(listings)):  # in list order: siblings keep the sort
            if index in shown:
                parent = source[index]
                siblings = tree.children.setdefault(parent, [])
                tree.row_of[index] = len(siblings)
                siblings.append(index)
                tree.parent_of[index] = parent
        return tree

    def shown(self) -> list[int]:
        """Every shown position, depth first in display order (parents before their children)."""
        out: list[int] = []
        stack = list(reversed(self.children.get(ROOT, [])))
        while stack:
            index = stack.pop()
            out.append(index)
            stack.extend(reversed(self.children.get(index, [])))
        return out

    def descendants(self, run_id: str) -> list[str]:
        """The ids of the runs shown under `run_id` (any depth)."""
        start = next((i for i, item in enumerate(self.listings) if item.run_id == run_id), None)
        if start is None:
            return []
        out: list[str] = []
        stack = list(self.children.get(start, []))
        while stack:
            index = stack.pop()
            out.append(self.listings[index].run_id)
            stack.extend(self.children.get(index, []))
        return out


def _break_cycles(source: list[int]) -> None:
    """A run whose chain of sources loops back (a damaged store) becomes a root, so every run is shown."""
    done: set[int] = set()
    for start in range(len(source)):
        path: list[int] = []
        on_path: set[int] = set()
        index = start
        while index != ROOT and index not in done:
            if index in on_path:
                source[index] = ROOT
                break
            path.append(index)
            on_path.add(index)
            index = source[index]
        done.update(path)
