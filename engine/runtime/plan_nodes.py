"""`plan_nodes(plan)`: every node a run of `plan` may run, as (node id, title, role), in plan order.

A sub-graph's nodes follow their sub-graph node, keyed "subgraph/inner" (as their events name them)
and titled "Sub-graph › Node". What `RunPlanned` announces at a run's start and what a view lists
before the first event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.runtime.plan import RunPlan


def plan_nodes(plan: RunPlan, prefix: str = "", title_prefix: str = "") -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    for nid in plan.order:
        node = plan.nodes[nid]
        key = prefix + nid
        title = f"{title_prefix}{node.title or nid}"
        out.append((key, title, node.role))
        if nid in plan.subplans:
            out.extend(plan_nodes(plan.subplans[nid], f"{key}/", f"{title} › "))
    return out
