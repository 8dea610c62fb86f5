"""The executor: carries out one task with its own isolated context (task, context inputs, the
results of the tasks it depends on, reviewer feedback) — or, given a plan, one execution per task
run as a DAG, its `result` being the combined results. Independent tasks run at once, under the
node's `concurrency` cap and the run's, both held per model and tool call by the runtime
(`RunServices.call_slots`).

With tools on its allow-list (names, patterns, `mcp:<command>` servers) the executor runs a bounded
tool loop over the run's tools (`tooluse.py`): at most `max_tool_turns` model turns.
"""

from __future__ import annotations

from typing import Any

from engine.roles.planner import is_plan
from engine.roles.taskdag import combine, run_task_dag
from engine.roles.text import as_text, feedback_text, render
from engine.roles.tooluse import executor_allow_list, tool_loop
from engine.runtime.context import NodeContext


async def run_executor(ctx: NodeContext) -> dict[str, Any]:
    task: Any = ctx.inputs.get("task")
    if is_plan(task):
        tasks: list[dict[str, Any]] = task["tasks"]

        async def one(item: dict[str, Any], deps: dict[str, str]) -> str:
            return await execute_task(ctx, item["task"], deps, task_id=item["id"])

        return {"result": combine(tasks, await run_task_dag(tasks, one))}
    return {"result": await execute_task(ctx, as_text(task), {})}


async def execute_task(ctx: NodeContext, task: str, deps: dict[str, str], task_id: str = "") -> str:
    parts = [render(str(ctx.param("prompt") or "{task}"), task=task)]
    context = ctx.inputs.get("context") or []
    if context:
        parts.append("Context:\n" + "\n".join(as_text(c) for c in context))
    if deps:
        parts.append("Results of earlier tasks:\n" + "\n".join(f"[{d}] {r}" for d, r in deps.items()))
    prompt = "\n\n".join(parts) + feedback_text(ctx.feedback)
    tools = ctx.param("tools")
    if tools:
        entries = [str(t) for t in tools]
        return await tool_loop(ctx, prompt, await executor_allow_list(ctx, entries), task=task, task_id=task_id)
    reply = await ctx.llm(prompt, task=task, task_id=task_id)
    return reply.content
