"""The executor: carries out one task with its own isolated context (task, context inputs, the
results of the tasks it depends on, reviewer feedback) — or, given a plan, one execution per task
run as a DAG, its `result` being the combined results.

With tools on its allow-list and a tool registry on the run, the executor runs a bounded tool loop:
at most `max_turns` model turns, each tool call through the registry (allow-list, read-only, timeout).
"""

from __future__ import annotations

import json
from typing import Any

from engine.roles.planner import is_plan
from engine.roles.taskdag import combine, run_task_dag
from engine.roles.text import as_text, feedback_text, render
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
    allow = [str(t) for t in ctx.param("tools") or []]
    if allow and ctx.state.tools is not None:
        return await _tool_loop(ctx, prompt, task, task_id, allow)
    reply = await ctx.llm(prompt, task=task, task_id=task_id)
    return reply.content


async def _tool_loop(ctx: NodeContext, prompt: str, task: str, task_id: str, allow: list[str]) -> str:
    tools = ctx.state.tools.openai_tools(allow)
    messages: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
    content = ""
    for _turn in range(int(ctx.param("max_turns") or 4)):
        reply = await ctx.chat(messages, tools=tools, task=task, task_id=task_id)
        content = reply.content
        if not reply.tool_calls:
            return content
        messages.append({"role": "assistant", "content": content, "tool_calls": reply.tool_calls})
        for call in reply.tool_calls:
            function = call.get("function", call)
            raw = function.get("arguments") or {}
            arguments = json.loads(raw) if isinstance(raw, str) else dict(raw)
            result = await ctx.call_tool(str(function.get("name")), arguments, allow=allow, read_only=False,
                                         timeout_s=float(ctx.param("timeout_s") or 60.0))
            messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": as_text(result)})
    return content
