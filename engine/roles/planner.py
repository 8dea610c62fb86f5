"""The planner: turns a goal into a task DAG (`{"goal", "tasks": [{"id", "task", "depends_on"}]}`).

A planner re-run with feedback (a critic's reject, or a revise routed to its feedback input) is a
replan: the reasons go into the prompt and `PlanEmitted.replan` counts it. The prompt ends with the
plan's JSON shape (`reply_schemas.FORMAT_PLAN`); a plan longer than `max_tasks` is cut to it, with a
warning saying how many tasks were left out.
"""

from __future__ import annotations

from typing import Any

from engine.events import LogMessage, PlanEmitted
from engine.roles.parsing import parse_with_repair, read_plan
from engine.roles.reply_schemas import FORMAT_PLAN
from engine.roles.text import as_text, feedback_text, render
from engine.runtime.context import NodeContext


async def run_planner(ctx: NodeContext) -> dict[str, Any]:
    goal = as_text(ctx.inputs.get("goal"))
    replan = ctx.services.replans.get(ctx.key, 0)
    max_tasks = int(ctx.param("max_tasks") or 8)
    prompt = (render(str(ctx.param("prompt")), goal=goal) + feedback_text(ctx.feedback) + "\n\n"
              + FORMAT_PLAN.replace("{max_tasks}", str(max_tasks)))
    reply = await ctx.llm(prompt, task=goal, replan=replan)
    tasks, left_out = await parse_with_repair(ctx, reply, lambda text: read_plan(text, max_tasks), "plan",
                                              task=goal, replan=replan)
    if left_out:
        ctx.emit(LogMessage, node_id=ctx.key, level="warning",
                 message=f"{ctx.node.label}: the plan had {len(tasks) + left_out} tasks; only the first {max_tasks} "
                         f"(its max_tasks) are carried out, {left_out} left out")
    ctx.emit(PlanEmitted, node_id=ctx.key, tasks=tasks, replan=replan)
    return {"plan": {"goal": goal, "tasks": tasks}}


def is_plan(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("tasks"), list)
