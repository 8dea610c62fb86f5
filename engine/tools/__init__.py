"""Tools for executor and tool nodes: a registry of Python functions and MCP server tools.

Public API: `ToolRegistry` (`@registry.tool(...)`, `call(name, arguments, *, allow, read_only,
timeout_s) -> ToolResult`, `openai_tools(allow)`), `ToolSpec`, `ToolResult`, the errors
`ToolError`, `ToolDenied`, `ToolTimeout`, `ToolSetupError`, the built-ins
(`builtin_registry`, `register_builtin_tools`) and, from `engine.tools.mcp`, `McpServer`
(also reachable here; loaded on first access so importing this package stays cheap).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.tools.builtin import builtin_registry, register_builtin_tools
from engine.tools.errors import ToolDenied, ToolError, ToolSetupError, ToolTimeout
from engine.tools.registry import ToolRegistry, ToolResult, ToolSpec, wire_name

if TYPE_CHECKING:
    from engine.tools.mcp import McpServer


def __getattr__(name: str) -> Any:
    if name == "McpServer":
        from engine.tools.mcp import McpServer

        return McpServer
    raise AttributeError(f"module 'engine.tools' has no attribute {name!r}")


__all__ = ["McpServer", "ToolDenied", "ToolError", "ToolRegistry", "ToolResult", "ToolSetupError", "ToolSpec",
           "ToolTimeout", "builtin_registry", "register_builtin_tools", "wire_name"]
