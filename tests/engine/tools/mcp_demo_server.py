"""A tiny real MCP server over stdio, used by test_tools_mcp.py (run: python mcp_demo_server.py)."""

from __future__ import annotations

import os

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

server = MCPServer("demo")


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def pid() -> int:
    """The server's process id."""
    return os.getpid()


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def env_value(name: str) -> str:
    """An environment variable of the server process ("" when unset)."""
    return os.environ.get(name, "")


@server.tool()
def append_line(text: str) -> str:
    """Pretends to write: not marked read-only."""
    return f"wrote {text}"


@server.tool()
async def slow(seconds: float) -> str:
    """Sleeps, then answers."""
    await anyio.sleep(seconds)
    return "late"


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def explode() -> str:
    """Always fails."""
    raise ToolError("kaboom")


if __name__ == "__main__":
    server.run()
