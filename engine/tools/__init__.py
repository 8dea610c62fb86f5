"""Tools for executor and tool nodes: a registry of Python functions and MCP server tools.

Public API: `ToolRegistry` (`@registry.tool(...)`, `call(name, arguments, *, allow, read_only,
timeout_s) -> ToolResult`, `openai_tools(allow)`), `ToolSpec`, `ToolResult`, the errors
`ToolError`, `ToolDenied`, `ToolTimeout`, `ToolSetupError`, the built-ins
(`builtin_registry`, `register_builtin_tools`), from `engine.tools.mcp`, `McpServer` and from
`engine.tools.runtools`, `RunTools` (the tools of one run: a registry plus the MCP servers the run
starts); both loaded on first access so importing this package stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.tools.builtin import builtin_registry, register_builtin_tools
from engine.tools.errors import ToolDenied, ToolError, ToolSetupError, ToolTimeout
from engine.tools.registry import ToolRegistry, ToolResult, ToolSpec, wire_name

if TYPE_CHECKING:
    from engine.tools.mcp import McpServer
    from engine.tools.runtools import RunTools


def __getattr__(name: str) -> Any:
    if name == "McpServer":
        from engine.tools.mcp import McpServer

        return McpServer
    if name == "RunTools":
        from engine.tools.runtools import RunTools

        return RunTools
    raise AttributeError(f"module 'engine.tools' has no attribute {name!r}")


__all__ = ["McpServer", "RunTools", "ToolDenied", "ToolError", "ToolRegistry", "ToolResult", "ToolSetupError", "ToolSpec",
           "ToolTimeout", "builtin_registry", "register_builtin_tools", "wire_name"]
