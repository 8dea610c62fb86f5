"""The loop body a judge re-runs: the nodes on forward paths from the loop's start to the judged author.

Invariant: `loop_body(plan, start, end)` lists those nodes (both ends included) in the plan's order.
A node on such a path is placed between `start` and `end` in that topological order, so both
searches stay inside that span: the cost is the span's size, not the graph's (a run with hundreds of
revise loops in a row would otherwise search the whole graph per revision).
"""

from __future__ import annotations

from engine.runtime.plan import RunPlan


def loop_body(plan: RunPlan, start: str, end: str) -> tuple[str, ...]:
    position = plan.positions
    low, high = position[start], position[end]
    if low > high:
        return ()
    after_start = _within(plan, start, low, high, forward=True)
    before_end = _within(plan, end, low, high, forward=False)
    return tuple(sorted(after_start & before_end, key=position.__getitem__))


def _within(plan: RunPlan, origin: str, low: int, high: int, *, forward: bool) -> set[str]:
    """The nodes reached from `origin` along forward edges (downstream or upstream), placed in [low, high]."""
    position = plan.positions
    seen, stack = {origin}, [origin]
    while stack:
        node = plan.nodes[stack.pop()]
        for edge in node.outputs if forward else node.inputs:
            nxt = edge.target if forward else edge.source
            if edge.kind == "forward" and nxt not in seen and low <= position[nxt] <= high:
                seen.add(nxt)
                stack.append(nxt)
    return seen
