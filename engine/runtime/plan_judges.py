"""Wiring a looping judge's author's other consumers to the judge's approved port (see `plan.py`), in
time linear in nodes + edges for the shapes workflows have.

Judges are taken in the workflow's node order and each sees the edges as the judges before it left
them (a judge of a judge's approved output re-sources what the first one re-sourced). For one judge:
its subject edge, then every other forward edge from the same source port is re-sourced to the
judge's approved port — unless its target feeds the judge (that would close a cycle).

Cost: edges are indexed by source port and by target, so a judge costs its own edges plus, only when
its author has other consumers, a forward search from those consumers that never enters a node
placed at or after the judge in a topological order of the current edges (nothing there can reach
the judge). A re-sourced edge to a consumer placed before the judge keeps the order topological by
moving just what that search reached to after the judge (`_place_after`), so the order is worked
out once. `work` counts the steps (edges looked at), so tests can check the scaling.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.runtime.plan import PlanEdge

_APPROVED_PORT = {"critic": "approved", "verifier": "passed"}


class JudgeWiring:
    def __init__(self, roles: Mapping[str, str], edges: list[PlanEdge]) -> None:
        self.roles = roles
        self.edges: dict[str, PlanEdge] = {e.id: e for e in edges}  # insertion order is the input's order
        self.by_port: dict[tuple[str, str], dict[str, None]] = defaultdict(dict)
        self.into: dict[str, list[str]] = defaultdict(list)
        self.out_of: dict[str, dict[str, None]] = defaultdict(dict)  # forward edges only
        for e in edges:
            self.by_port[(e.source, e.source_port)][e.id] = None
            self.into[e.target].append(e.id)
            if e.kind == "forward":
                self.out_of[e.source][e.id] = None
        self.position: dict[str, float] | None = None
        self.work = len(edges)

    def rewire(self) -> list[PlanEdge]:
        looping = {e.source for e in self.edges.values() if e.kind == "back" and e.target_port == "feedback"}
        for judge, role in self.roles.items():  # back edges are never re-sourced: `looping` stays true
            approved = _APPROVED_PORT.get(role)
            if approved is not None and judge in looping:
                self._rewire_judge(judge, approved)
        return list(self.edges.values())

    def _rewire_judge(self, judge: str, approved: str) -> None:
        subject = next((self.edges[i] for i in self.into[judge] if self.edges[i].target_port == "subject"), None)
        if subject is None:
            return
        others = [self.edges[i] for i in self.by_port[(subject.source, subject.source_port)]
                  if self.edges[i].kind == "forward" and self.edges[i].target != judge]
        self.work += len(others)
        if not others:
            return
        regions = self._regions(judge, {e.target for e in others})
        for e in others:
            region = regions[e.target]
            if region is not None:
                self._move(e, replace(e, source=judge, source_port=approved, kind="forward"))
                self._place_after(judge, region)

    def _move(self, old: PlanEdge, new: PlanEdge) -> None:
        del self.by_port[(old.source, old.source_port)][old.id]
        self.out_of[old.source].pop(old.id, None)
        self.edges[new.id] = new
        self.by_port[(new.source, new.source_port)][new.id] = None
        self.out_of[new.source][new.id] = None

    def _regions(self, judge: str, starts: set[str]) -> dict[str, list[str] | None]:
        """For each of `starts`: None if it has a forward path to `judge`, else the nodes it reaches that
        are placed before the judge (empty when it is placed after it: nothing to search)."""
        position = self._order()
        limit = position[judge]
        regions: dict[str, list[str] | None] = {}
        for start in starts:
            if position[start] >= limit:
                regions[start] = []
                continue
            seen, stack = {start}, [start]
            regions[start] = reached = [start]
            while stack:
                node = stack.pop()
                for i in self.out_of[node]:
                    self.work += 1
                    target = self.edges[i].target
                    if target == judge:
                        regions[start] = None
                        stack.clear()
                        break
                    if target not in seen and position[target] < limit:
                        seen.add(target)
                        stack.append(target)
                        reached.append(target)
        return regions

    def _place_after(self, judge: str, region: list[str]) -> None:
        """Keep the order topological once the judge feeds the region's first node: the region (all the
        nodes that node reaches before the judge) moves, in its own order, between the judge and the
        first node after the judge that the region feeds. Positions are floats; when the gap gets too
        fine the order is worked out again instead."""
        position = self.position
        if position is None:  # given up for this judge already: worked out again when next needed
            return
        low = position[judge]
        moving = sorted((n for n in region if position[n] < low), key=position.__getitem__)
        if not moving:
            return
        inside = set(moving)
        high = min((position[self.edges[i].target] for n in moving for i in self.out_of[n]
                    if self.edges[i].target not in inside), default=low + 1.0)
        self.work += len(moving)
        step = (high - low) / (len(moving) + 1)
        if step < 1e-9:
            self.position = None
            return
        for k, node in enumerate(moving, start=1):
            position[node] = low + k * step

    def _order(self) -> dict[str, float]:
        if self.position is None:
            self.position = _topological_positions(self.roles, self.edges, self.out_of)
            self.work += len(self.edges) + len(self.roles)
        return self.position


def _topological_positions(nodes: Mapping[str, Any], edges: Mapping[str, PlanEdge],
                           out_of: Mapping[str, dict[str, None]]) -> dict[str, float]:
    """Each node's place in a topological order of the forward edges (Kahn's algorithm)."""
    indegree = dict.fromkeys(nodes, 0)
    for ids in out_of.values():
        for i in ids:
            indegree[edges[i].target] += 1
    ready = [n for n, d in indegree.items() if d == 0]
    position: dict[str, float] = {}
    while ready:
        node = ready.pop()
        position[node] = len(position)
        for i in out_of.get(node, ()):
            target = edges[i].target
            indegree[target] -= 1
            if indegree[target] == 0:
                ready.append(target)
    return position
