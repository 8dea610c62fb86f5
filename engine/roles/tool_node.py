"""The Tool role: one call through the run's tools (allow-list, read-only flag, timeout).

Its `server` is "python" or an MCP stdio command the run starts once and stops at its end
(`tooluse.py`).
"""

from __future__ import annotations

from typing import Any

from engine.roles.tooluse import tool_node_arguments, tool_node_policy
from engine.runtime.context import NodeContext
from engine.runtime.run_services import NodeFailed


async def run_tool(ctx: NodeContext) -> dict[str, Any]:
    tool = str(ctx.param("tool") or "")
    if not tool:
        raise NodeFailed("no tool name set")
    tool, allow = await tool_node_policy(ctx, tool)
    arguments = tool_node_arguments(ctx, tool, ctx.inputs.get("args"))
    result = await ctx.call_tool(tool, arguments, allow=allow, read_only=bool(ctx.param("read_only")),
                                 timeout_s=float(ctx.param("timeout_s") or 60.0))
    return {"result": result}
