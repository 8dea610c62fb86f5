"""MCP client: an MCP server started over stdio, its tools callable through the `ToolRegistry`.

    async with McpServer(["python", "server.py"]) as server:
        await server.register(registry)          # tools appear as "<server name>.<tool>"
        result = await registry.call("demo.add", {"a": 1, "b": 2}, allow=["demo.*"], ...)

Invariants:
- the server process lives exactly as long as the context: it is stopped (stdin closed, then the
  process group terminated, by the SDK's shielded shutdown) when the block exits, also on error or
  cancellation; tools registered by `register` are removed from the registry at that point;
- the server gets only the SDK's minimal environment (HOME, PATH, USER, ...) plus `env`: API keys
  of the engine process are not passed on;
- MCP tools count as writing unless the server marks them `readOnlyHint`;
- a call past its timeout raises `ToolTimeout`; a tool error result raises `McpToolError`, which the
  registry turns into `ToolResult.error`.
The `mcp` SDK is imported when a server starts, not when this module is imported.
"""

from __future__ import annotations

import contextlib
import json
import re
import tempfile
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from engine.tools.errors import ToolError, ToolTimeout
from engine.tools.registry import ToolRegistry, ToolSpec


class McpError(ToolError):
    """The MCP server could not be started or answered with a protocol error."""


class McpToolError(Exception):
    """The MCP tool ran and reported an error (`isError` result)."""


@dataclass(frozen=True, slots=True)
class McpTool:
    name: str
    description: str
    input_schema: dict[str, Any]
    read_only: bool


def _content_value(result: Any) -> Any:
    if result.structured_content is not None:
        return result.structured_content
    parts = []
    for block in result.content:
        text = getattr(block, "text", None)
        parts.append(text if text is not None else f"[{getattr(block, 'type', 'content')} content]")
    text = "\n".join(parts)
    with contextlib.suppress(ValueError):
        return json.loads(text)
    return text


class McpServer:
    def __init__(self, command: list[str], env: dict[str, str] | None = None, *, name: str | None = None,
                 cwd: str | None = None, start_timeout_s: float = 30.0) -> None:
        if not command:
            raise ValueError("McpServer needs a command, e.g. ['python', 'server.py']")
        self.command = list(command)
        self.env = dict(env or {})
        self.cwd = cwd
        self.start_timeout_s = start_timeout_s
        self.name = name or ""
        self._stack: contextlib.AsyncExitStack | None = None
        self._session: Any = None
        self._registered: list[tuple[ToolRegistry, str]] = []

    @classmethod
    def from_command_line(cls, command_line: str, env: dict[str, str] | None = None, **kw: Any) -> McpServer:
        """From a Tool node's `server` text, split like a shell would ("python -m my_server --ro")."""
        import shlex

        try:
            command = shlex.split(command_line)
        except ValueError as exc:
            raise ValueError(f"MCP server command {command_line!r} cannot be parsed: {exc}") from None
        return cls(command, env, **kw)

    async def __aenter__(self) -> McpServer:
        import anyio
        from mcp import ClientSession, StdioServerParameters, stdio_client

        stack = contextlib.AsyncExitStack()
        errlog = stack.enter_context(tempfile.TemporaryFile(mode="w+", encoding="utf-8"))  # noqa: SIM115
        params = StdioServerParameters(command=self.command[0], args=self.command[1:], env=self.env or None,
                                       cwd=self.cwd)
        try:
            read, write = await stack.enter_async_context(stdio_client(params, errlog=errlog))
            self._session = await stack.enter_async_context(ClientSession(read, write))
            with anyio.fail_after(self.start_timeout_s):
                init = await self._session.initialize()
        except BaseException as exc:
            await stack.aclose()
            if not isinstance(exc, Exception):
                raise
            raise McpError(self.name or self.command[0], self._start_failure(exc, errlog)) from exc
        self._stack = stack
        if not self.name:
            self.name = re.sub(r"[^A-Za-z0-9_-]", "_", init.server_info.name or "mcp")
        return self

    def _start_failure(self, exc: BaseException, errlog: Any) -> str:
        with contextlib.suppress(OSError, ValueError):
            errlog.seek(0)
            tail = errlog.read()[-500:].strip()
            if tail:
                return f"MCP server {self.command!r} failed to start: {exc!r}; its stderr ends with: {tail}"
        return f"MCP server {self.command!r} failed to start: {type(exc).__name__}: {exc}"

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        for registry, pattern in self._registered:
            registry.unregister(pattern)
        self._registered.clear()
        stack, self._stack, self._session = self._stack, None, None
        if stack is not None:
            await stack.aclose()

    def _require(self) -> Any:
        if self._session is None:
            raise McpError(self.name or self.command[0], "the MCP server is not running (use `async with`)")
        return self._session

    async def list_tools(self) -> list[McpTool]:
        session = self._require()
        tools = (await session.list_tools()).tools
        return [McpTool(t.name, t.description or "", dict(t.input_schema),
                        bool(t.annotations and t.annotations.read_only_hint)) for t in tools]

    async def call_tool(self, tool: str, arguments: dict[str, Any], *, timeout_s: float = 60.0) -> Any:
        import anyio
        from mcp import MCPError

        session = self._require()
        try:
            with anyio.fail_after(timeout_s):
                result = await session.call_tool(tool, arguments, read_timeout_seconds=timeout_s)
        except TimeoutError:
            raise ToolTimeout(f"{self.name}.{tool}", f"MCP tool {self.name}.{tool} did not answer "
                                                     f"within {timeout_s:g} s") from None
        except MCPError as exc:
            if "timed out" in str(exc):
                raise ToolTimeout(f"{self.name}.{tool}", f"MCP tool {self.name}.{tool}: {exc}") from None
            raise McpError(f"{self.name}.{tool}", f"MCP server {self.name!r}: {exc}") from exc
        if result.is_error:
            raise McpToolError(str(_content_value(result)))
        return _content_value(result)

    async def register(self, registry: ToolRegistry, *, timeout_s: float = 60.0) -> list[str]:
        """Register every tool of the server as "<name>.<tool>"; returns the registered names."""
        names = []
        for tool in await self.list_tools():
            async def handler(arguments: dict[str, Any], _tool: str = tool.name) -> Any:
                return await self.call_tool(_tool, arguments, timeout_s=timeout_s)
            full = f"{self.name}.{tool.name}"
            registry.register(ToolSpec(full, tool.description, tool.input_schema, tool.read_only, handler,
                                       source=f"mcp:{self.name}"), replace=True)
            names.append(full)
        self._registered.append((registry, f"{self.name}.*"))
        return names
