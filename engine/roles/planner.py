"""The planner: turns a goal into a task DAG (`{"goal", "tasks": [{"id", "task", "depends_on"}]}`).

A planner re-run with feedback (a critic's reject, or a revise routed to its feedback input) is a
replan: the reasons go into the prompt and `PlanEmitted.replan` counts it.
"""

from __future__ import annotations

from typing import Any

from engine.events import PlanEmitted
from engine.roles.parsing import parse_plan, parse_with_repair
from engine.roles.text import as_text, feedback_text, render
from engine.runtime.context import NodeContext


async def run_planner(ctx: NodeContext) -> dict[str, Any]:
    goal = as_text(ctx.inputs.get("goal"))
    replan = ctx.state.replans.get(ctx.key, 0)
    prompt = render(str(ctx.param("prompt")), goal=goal) + feedback_text(ctx.feedback)
    max_tasks = int(ctx.param("max_tasks") or 8)
    reply = await ctx.llm(prompt, task=goal, replan=replan)
    tasks = await parse_with_repair(ctx, reply.content, lambda text: parse_plan(text, max_tasks), "plan",
                                    task=goal, replan=replan)
    ctx.emit(PlanEmitted, node_id=ctx.key, tasks=tasks, replan=replan)
    return {"plan": {"goal": goal, "tasks": tasks}}


def is_plan(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("tasks"), list)
