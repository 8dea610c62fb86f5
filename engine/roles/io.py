"""Input and output nodes: the run's inputs by name (or the node's default), and its results."""

from __future__ import annotations

from typing import Any

from engine.runtime.context import NodeContext


async def run_input(ctx: NodeContext) -> dict[str, Any]:
    name = str(ctx.param("name") or ctx.node.id)
    given = ctx.graph.inputs
    return {"value": given[name] if name in given else ctx.param("default")}


async def run_output(ctx: NodeContext) -> dict[str, Any]:
    return {"value": ctx.inputs.get("value")}
