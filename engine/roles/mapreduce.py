"""Map (one model call per item of a list, results in item order) and Reduce (concatenate, or a model
combines the items).

Map starts every item at once; its `concurrency` param (like every role's per-node cap) is held by
the runtime on each call (`RunServices.call_slots`), together with the run's cap.
"""

from __future__ import annotations

import asyncio
from typing import Any

from engine.roles.planner import is_plan
from engine.roles.text import as_text, render
from engine.runtime.context import NodeContext


def as_items(value: Any) -> list[Any]:
    if is_plan(value):
        return [t["task"] for t in value["tasks"]]
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        return [line.strip("-*• ").strip() for line in value.splitlines() if line.strip()]
    return [value]


async def run_map(ctx: NodeContext) -> dict[str, Any]:
    items = as_items(ctx.inputs.get("items"))
    template = str(ctx.param("prompt") or "{item}")

    async def one(index: int, item: Any) -> str:
        reply = await ctx.llm(render(template, item=item), task=as_text(item), item_index=index)
        return reply.content

    return {"results": list(await asyncio.gather(*(one(i, item) for i, item in enumerate(items))))}


async def run_reduce(ctx: NodeContext) -> dict[str, Any]:
    items = [item for group in ctx.inputs.get("items") or [] for item in as_items(group)]
    joined = "\n".join(f"- {as_text(item)}" for item in items)
    if str(ctx.param("mode")) == "concat":
        return {"result": joined}
    reply = await ctx.llm(render(str(ctx.param("prompt")), items=joined), task=joined[:500])
    return {"result": reply.content}
