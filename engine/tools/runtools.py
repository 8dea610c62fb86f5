"""The tools of one run: the registry the run was given (default: the safe built-ins) plus the
tools of the MCP stdio servers the run starts.

Invariants:
- a server is started at most once per distinct command line per run, lazily, when a node first
  needs it; concurrent nodes wait for the same start, and a failed start gives every node the same
  clear error (it is not retried within the run);
- each server lives in its own owner task, because the MCP SDK's anyio scopes must be entered and
  left by one task; its tools go into this run's own registry, never into the one given to the run,
  so concurrent runs never see each other's servers; two servers announcing the same name get
  distinct prefixes ("demo", "demo_2", in the order the run asked for them);
- `close()` (awaited by `Run` before it emits `RunFinished`) stops every server and waits until each
  process is gone; if the event loop cancels the owners instead, no server process outlives the run
  either.
"""

from __future__ import annotations

import asyncio
import fnmatch
from collections.abc import Collection
from typing import Any

from engine.tools.builtin import builtin_registry
from engine.tools.errors import ToolDenied
from engine.tools.registry import ToolRegistry, ToolResult, ToolSpec, wire_name

MCP_CALL_TIMEOUT_S = 3600.0  # the node's own timeout (enforced by the registry) is what applies


class RunTools:
    def __init__(self, base: ToolRegistry | None = None, *, cwd: str | None = None) -> None:
        self.base = base if base is not None else builtin_registry()
        self.mcp = ToolRegistry()
        self.cwd = cwd
        self._starts: dict[str, asyncio.Future[str]] = {}
        self._owners: list[asyncio.Task[None]] = []
        self._stop = asyncio.Event()

    @property
    def commands(self) -> list[str]:
        return list(self._starts)

    async def server(self, command_line: str, *, start_timeout_s: float = 30.0) -> str:
        """Start the MCP server `command_line` unless this run already did; its name (tool prefix)."""
        from engine.tools.mcp import McpServer

        key = command_line.strip()
        future = self._starts.get(key)
        if future is None:
            if self._stop.is_set():
                raise ToolDenied(key, "the run has ended; no MCP server can start")
            server = McpServer.from_command_line(key, cwd=self.cwd, start_timeout_s=start_timeout_s)
            future = asyncio.get_running_loop().create_future()
            future.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved even if unawaited
            earlier = list(self._starts.values())
            self._starts[key] = future
            self._owners.append(asyncio.ensure_future(self._own(server, future, earlier)))
        return await asyncio.shield(future)

    async def _own(self, server: Any, ready: asyncio.Future[str], earlier: list[asyncio.Future[str]]) -> None:
        try:
            async with server:
                if earlier:  # servers register in the order they were asked for: stable name prefixes
                    await asyncio.wait(earlier)
                taken = {name.split(".", 1)[0] for name in self.mcp.names()}
                base, n = server.name, 1
                while server.name in taken:
                    n += 1
                    server.name = f"{base}_{n}"
                await server.register(self.mcp, timeout_s=MCP_CALL_TIMEOUT_S)
                ready.set_result(server.name)
                await self._stop.wait()
        except Exception as exc:
            if not ready.done():
                ready.set_exception(exc)
        finally:
            if not ready.done():
                ready.cancel()

    async def close(self) -> None:
        self._stop.set()
        owners, self._owners = self._owners, []
        await asyncio.gather(*owners, return_exceptions=True)

    # -- the registry interface the roles use ---------------------------------------------------
    def names(self) -> list[str]:
        return sorted({*self.base.names(), *self.mcp.names()})

    def get(self, name: str) -> ToolSpec | None:
        return self.mcp.get(name) or self.base.get(name)

    def matches(self, pattern: str) -> bool:
        """Whether some tool of the run is named by `pattern` (a name or fnmatch pattern)."""
        return any(fnmatch.fnmatchcase(n, pattern) or fnmatch.fnmatchcase(wire_name(n), pattern)
                   for n in self.names())

    def openai_tools(self, allow: Collection[str] | None = None, *, read_only: bool = False) -> list[dict[str, Any]]:
        return [*self.mcp.openai_tools(allow, read_only=read_only), *self.base.openai_tools(allow, read_only=read_only)]

    async def call(self, name: str, arguments: dict[str, Any] | str | None, *, allow: Collection[str] | None,
                   read_only: bool, timeout_s: float) -> ToolResult:
        registry = self.mcp if self.mcp.get(name) is not None else self.base
        if registry.get(name) is None:
            raise ToolDenied(name, f"unknown tool {name!r} (this run has: {', '.join(self.names()) or 'none'})")
        return await registry.call(name, arguments, allow=allow, read_only=read_only, timeout_s=timeout_s)


__all__ = ["RunTools"]
