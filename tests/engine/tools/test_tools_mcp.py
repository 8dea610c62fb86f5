"""MCP end to end: a real stdio server, listed, registered and called; timeouts; no orphan process.

Each server start costs ~1.5 s (the SDK import), so one test covers the whole happy path and timeouts."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

from engine.tools import ToolDenied, ToolRegistry, ToolTimeout
from engine.tools.mcp import McpError, McpServer

SERVER = [sys.executable, str(Path(__file__).with_name("mcp_demo_server.py"))]


def assert_gone(pid: int) -> None:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError(f"MCP server process {pid} is still alive")


@pytest.mark.asyncio
async def test_list_register_call_and_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-parent-secret")
    registry = ToolRegistry()
    async with McpServer(SERVER, env={"DEMO_SETTING": "on"}) as server:
        assert server.name == "demo"
        tools = {t.name: t for t in await server.list_tools()}
        assert tools["add"].read_only and not tools["append_line"].read_only
        assert tools["add"].input_schema["required"] == ["a", "b"]
        names = await server.register(registry)
        assert "demo.add" in names and "demo.slow" in names

        async def call(tool: str, args: dict[str, object], read_only: bool = True) -> object:
            result = await registry.call(tool, args, allow=["demo.*"], read_only=read_only, timeout_s=10)
            return result.value if result.ok else result.error

        assert await call("demo.add", {"a": 2, "b": 40}) == {"result": 42}
        assert await call("demo__add", {"a": 1, "b": 1}) == {"result": 2}  # the OpenAI wire name
        assert await call("demo.env_value", {"name": "OPENAI_API_KEY"}) == {"result": ""}
        assert await call("demo.env_value", {"name": "DEMO_SETTING"}) == {"result": "on"}
        assert "kaboom" in str(await call("demo.explode", {}))
        assert "validation error" in str(await call("demo.add", {"a": "x", "b": 1}))
        with pytest.raises(ToolDenied, match="read-only"):
            await call("demo.append_line", {"text": "x"})
        assert await call("demo.append_line", {"text": "x"}, read_only=False) == {"result": "wrote x"}
        openai = {t["function"]["name"] for t in registry.openai_tools(["demo.*"], read_only=True)}
        assert "demo__add" in openai and "demo__append_line" not in openai
        pid = (await server.call_tool("pid", {}))["result"]
        started = time.monotonic()
        with pytest.raises(ToolTimeout, match=r"demo\.slow"):
            await registry.call("demo.slow", {"seconds": 30}, allow=None, read_only=False, timeout_s=0.5)
        with pytest.raises(ToolTimeout):
            await server.call_tool("slow", {"seconds": 30}, timeout_s=0.3)
        assert time.monotonic() - started < 5
        assert await call("demo.add", {"a": 1, "b": 2}) == {"result": 3}  # still usable after timeouts
    assert_gone(pid)
    assert registry.names() == []


@pytest.mark.asyncio
async def test_cancelling_the_owner_stops_the_server() -> None:
    pids: list[int] = []

    async def owner() -> None:
        async with McpServer(SERVER) as server:
            pids.append((await server.call_tool("pid", {}))["result"])
            await asyncio.sleep(60)

    task = asyncio.create_task(owner())
    while not pids:
        await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert_gone(pids[0])


@pytest.mark.asyncio
async def test_start_failures_are_clear() -> None:
    with pytest.raises(McpError, match="failed to start"):
        async with McpServer(["/no/such/mcp-server"]):
            pass
    with pytest.raises(McpError, match="dying on purpose"):
        async with McpServer([sys.executable, "-c", "import sys; sys.stderr.write('dying on purpose'); sys.exit(3)"],
                             start_timeout_s=10):
            pass
    with pytest.raises(McpError, match="not running"):
        await McpServer(SERVER).list_tools()
    with pytest.raises(ValueError):
        McpServer([])


def test_from_command_line_splits_like_a_shell() -> None:
    server = McpServer.from_command_line("python -m my_server --root '/tmp/a b'", {"X": "1"})
    assert server.command == ["python", "-m", "my_server", "--root", "/tmp/a b"] and server.env == {"X": "1"}
    with pytest.raises(ValueError, match="cannot be parsed"):
        McpServer.from_command_line("python 'unclosed")
