"""The Runs list's lineage tree: replays and forks under the run they came from.

`RunTree.build(listings, keep)` arranges sorted listings (their order is kept among siblings) into
roots and children: a run whose `replay_of` / `fork_of` names a run in the list sits under it; a run
whose source is not listed (deleted, pruned, beyond the limit) is a root. `keep` (the filter) decides
which runs match; the ancestors of a match are shown too, so a matching fork is never cut off from
its lineage. Pure Python over lists and dicts (no Qt): one pass to link, one to filter, whatever the
number of runs.

Invariant: every node is identified by its position in `listings` (stable for one build);
`parent_of` answers in O(1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from widgets.runs.run_rows import RunListing

ROOT = -1


@dataclass(slots=True)
class RunTree:
    listings: Sequence[RunListing] = ()
    children: dict[int, list[int]] = field(default_factory=dict)  # ROOT or a position -> shown children, in order
    parent_of: dict[int, int] = field(default_factory=dict)  # position -> its source's position (roots absent)
    matched: set[int] = field(default_factory=set)  # the positions the filter kept (others shown as ancestors)

    @classmethod
    def build(cls, listings: Sequence[RunListing], keep: Callable[[RunListing], bool] | None = None) -> RunTree:
        count = len(listings)
        sources = [(i, s.replay_of or s.fork_of) for i, s in enumerate(item.summary for item in listings)
                   if s.replay_of or s.fork_of]
        source = [ROOT] * count
        if sources:
            position = {item.summary.id: index for index, item in enumerate(listings)}
            for index, origin in sources:
                source[index] = position.get(origin, ROOT)
            _break_cycles(source, [index for index, _origin in sources])
        if keep is None:
            matched = set(range(count))
            shown: Iterable[int] = range(count)
        else:
            matched = {i for i, item in enumerate(listings) if keep(item)}
            found = set(matched)
            for index in matched:  # the ancestors of a match stay visible
                up = source[index]
                while up != ROOT and up not in found:
                    found.add(up)
                    up = source[up]
            shown = sorted(found)
        tree = cls(listings, {ROOT: []}, {}, matched)
        children, parent_of = tree.children, tree.parent_of
        roots = children[ROOT]
        for index in shown:  # in list order: siblings keep the sort
            parent = source[index]
            if parent == ROOT:
                roots.append(index)
            else:
                children.setdefault(parent, []).append(index)
                parent_of[index] = parent
        return tree

    def shown(self) -> list[int]:
        """Every shown position, depth first in display order (parents before their children)."""
        return [index for index, _depth in self.rows()]

    def rows(self) -> list[tuple[int, int]]:
        """(position, depth) of every shown run in display order: a root at depth 0, its replays and forks
        right under it at depth 1, and so on."""
        children = self.children
        roots = children.get(ROOT, [])
        if len(children) == 1:  # no lineage shown: the roots in order
            return [(index, 0) for index in roots]
        out: list[tuple[int, int]] = []
        append = out.append
        for root in roots:
            append((root, 0))
            if root in children:  # a lineage: depth first under it
                stack = [(child, 1) for child in reversed(children[root])]
                while stack:
                    index, depth = stack.pop()
                    append((index, depth))
                    below = children.get(index)
                    if below:
                        stack.extend((child, depth + 1) for child in reversed(below))
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


def _break_cycles(source: list[int], linked: list[int]) -> None:
    """A run whose chain of sources loops back (a damaged store) becomes a root, so every run is shown.
    `linked`: the positions that have a source (the only ones a loop can pass through)."""
    done: set[int] = set()
    for start in linked:
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
