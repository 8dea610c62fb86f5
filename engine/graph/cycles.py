"""Finding unbounded loops: cycles in which no node limits how often the loop runs.

A node bounds loops through it when its role declares a `loop_bound` parameter (a critic's
``max_rounds``, a planner's ``max_replans``, a router's ``max_loops``...) and that value is > 0.
A cycle without such a node could run forever, so the workflow is refused.

Invariant: exact and linear. A cycle avoiding every bounded node exists iff the graph restricted to
unbounded nodes has a non-trivial strongly connected component (or a self-loop); each such component
is reported once, with one concrete cycle through it named in file order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.graph.model import Node, Workflow
from engine.graph.naming import spec_for


def bounds_loops(node: Node) -> bool:
    """Whether `node` has a role loop bound set above 0."""
    spec = spec_for(node.role)
    if spec is None or spec.loop_bound is None:
        return False
    param = spec.param(spec.loop_bound)
    value = node.params.get(spec.loop_bound, param.default if param else None)
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


def unbounded_adjacency(wf: Workflow) -> dict[str, list[str]]:
    """Successors of each unbounded node, through edges between existing unbounded nodes."""
    free = {nid for nid, node in wf.nodes.items() if not bounds_loops(node)}
    adjacency: dict[str, list[str]] = {nid: [] for nid in free}
    for edge in wf.edges.values():
        if edge.source in free and edge.target in free:
            adjacency[edge.source].append(edge.target)
    return adjacency


def reaches_through_unbounded(wf: Workflow, successors: Callable[[str], Iterable[str]], start: str,
                              goal: str) -> bool:
    """Whether a path of one or more edges leads from `start` to `goal` through unbounded nodes only
    (`start` and `goal` included); it visits only what `start` reaches that way."""
    seen: set[str] = set()
    stack = [start]
    while stack:
        for nxt in successors(stack.pop()):
            if nxt == goal:
                return True
            if nxt not in seen and (node := wf.nodes.get(nxt)) is not None and not bounds_loops(node):
                seen.add(nxt)
                stack.append(nxt)
    return False


def unbounded_cycles(wf: Workflow) -> list[list[str]]:
    """One cycle (node ids, first node not repeated) per unbounded strongly connected component."""
    adjacency = unbounded_adjacency(wf)
    order = {nid: i for i, nid in enumerate(wf.nodes)}
    cycles = []
    for component in _strongly_connected(adjacency):
        members = set(component)
        if len(component) == 1 and component[0] not in adjacency[component[0]]:
            continue
        start = min(component, key=order.__getitem__)
        cycles.append(_one_cycle(start, adjacency, members))
    cycles.sort(key=lambda c: order[c[0]])
    return cycles


def _one_cycle(start: str, adjacency: dict[str, list[str]], members: set[str]) -> list[str]:
    path: list[str] = []
    seen: dict[str, int] = {}
    current = start
    while current not in seen:
        seen[current] = len(path)
        path.append(current)
        current = next(n for n in adjacency[current] if n in members)
    return path[seen[current]:]


def _strongly_connected(adjacency: dict[str, list[str]]) -> Iterable[list[str]]:
    """Tarjan's algorithm, iterative (no recursion limit on long chains)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    counter = 0
    for root in adjacency:
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            successors = adjacency[node]
            if child < len(successors):
                work.append((node, child + 1))
                nxt = successors[child]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                yield component
