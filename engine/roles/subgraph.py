"""The Sub-graph role: a workflow used as a node.

The embedded plan runs inside this node's span, its node ids prefixed `<node>/`; the budget of its
own run settings holds over its nodes for each execution (`runtime.budget_scope`), its deadline as a
timer around the execution.
"""

from __future__ import annotations

from typing import Any

from engine.runtime.context import NodeContext
from engine.runtime.run_services import NodeFailed


async def run_subgraph(ctx: NodeContext) -> dict[str, Any]:
    from engine.runtime.scheduler import GraphExecutor

    plan = ctx.graph.plan.subplans[ctx.node.id]
    given = ctx.inputs.get("input")
    names = [str(n.param("name") or n.id) for n in plan.nodes.values() if n.role == "input"]
    if isinstance(given, dict) and set(names) <= set(given):
        inputs = dict(given)
    else:
        inputs = {name: given for name in names} if "input" in ctx.inputs else {}
    inner = GraphExecutor(ctx.services, plan, parent_span=ctx.span_id, inputs=inputs, prefix=f"{ctx.key}/")
    budget = ctx.services.budget  # the sub-graph's own run limits hold over its nodes (`runtime.budget_scope`)
    scope = budget.open_scope(ctx.key, plan.budget)
    try:
        results = await budget.within_deadline(inner.execute(), plan.budget.deadline_s, ctx.key, f"sub-graph {ctx.key}")
    finally:
        budget.close_scope(scope)
    if inner.failures:
        raise NodeFailed("sub-graph failed: " + "; ".join(inner.failures))
    return {"output": next(iter(results.values())) if len(results) == 1 else results}
